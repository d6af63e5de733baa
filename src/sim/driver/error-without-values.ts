/**
 * An error a reader met, told without the values it read: what a queued backtest job's author gets (see
 * ReplayFormatError.messageWithoutText). Whoever can write the queue may name any file in the worker's folders as
 * data, so nothing parsed from the file may reach the job's error — and a value quoted in a message can be as large
 * as the line it came from. Errors that give their problem apart from the value (a wire decoder's, a v1.1 mapping's)
 * are told by field and reason; any other error by its kind and its own message with the values taken out.
 */
import { WireFormatError } from '../../core/errors.js';
import { MappingError } from '../../wire/v1/mapping/mapping-error.js';

/** The longest message told of an error that gives no reason apart (a value it quotes could be any length). */
const MAX_TOLD = 160;

/**
 * `err` told without any value it carries: `<resource>: <field> <reason>` for an error that gives its reason apart
 * (a {@link WireFormatError}, a {@link MappingError}), `<resource>: <problem>` for a wire decoder's that does not
 * (its path, which may hold keys received, left out), else `<resource>: <Error name>: <message>`; quoted text,
 * printed objects and numbers left out of a message (see {@link withoutValues}). `resource` names what was decoded in the
 * caller's words (`orderBook snapshot`), never text of the line; left out when undefined.
 *
 * @example
 * errorWithoutValues(new TypeError('not a market symbol: "SECRET"'))
 * // TypeError: not a market symbol: "…"
 * errorWithoutValues(new MappingError('MarketName', { reason: 'is not a v1.1 market name', text: 'is not a v1.1 market name: "x"' }))
 * // MarketName is not a v1.1 market name
 */
export function errorWithoutValues(err: unknown, resource?: string): string {
  const told = tell(err);
  return resource === undefined ? told : `${resource}: ${told}`;
}

function tell(err: unknown): string {
  if (err instanceof WireFormatError) {
    if (err.reason !== undefined) return `${err.path || '<root>'} ${err.reason}`;
    // The message less its `where` (which may quote a recorded path or URL) and its path: only an error that gives
    // its reason apart promises a path of field names and indexes (WireProblem); this one's may be made of keys
    // received (`Limit.<key>.<key>` of a v1.1 payload nested too deep). The rest with its values out.
    return withoutValues(err.message.slice(err.where.length + 2 + (err.path || '<root>').length + 1));
  }
  if (err instanceof MappingError) return err.reason !== undefined ? `${err.field} ${err.reason}` : withoutValues(err.message);
  if (err instanceof Error) return `${err.name}: ${withoutValues(err.message)}`;
  // A thrown string or object is a value itself.
  return `a ${err === null ? 'null' : typeof err} was thrown`;
}

/**
 * `text` with every balanced `{…}` left out whole, nested ones with what is beside them (`{a: X, b: {c}}` →
 * `{…}`); a brace with no partner stays. One pass: a regex replaced until nothing changes would leave the outer
 * object (its `{…}` is what it replaced) and, made to go on, take a pass per level of a deeply nested message.
 */
function objectsOut(text: string): string {
  const out: string[] = [];
  /** Where in `out` each `{` not closed yet is. */
  const open: number[] = [];
  for (const ch of text) {
    if (ch === '{') open.push(out.length);
    if (ch === '}' && open.length > 0) {
      out.length = open.pop()!;
      out.push('{…}');
    } else out.push(ch);
  }
  return out.join('');
}

/** A token holding a digit (a number, a time, an id), dots only inside it so a sentence's full stop stays. */
const DIGIT_TOKEN_RE = /[\w+-]+(?:\.[\w+-]+)*/g;
/** Names that hold digits but are no value: `v1.1`, `C2`, `base64`, `MINUTE_1`. */
const NAME_WITH_DIGITS_RE = /^[A-Za-z][A-Za-z_]*\d+(?:\.\d+)?$/;

/**
 * `message` with the values a message may quote taken out, cut to {@link MAX_TOLD} characters: quoted text
 * (`"…"`, `'…'`, `` `…` ``), printed objects (`{…}`) and every word holding a digit (`…`), except an index in
 * brackets (`Deltas[0]`) and a name like `v1.1`. Unquoted words stay: a message that prints a value bare as a word
 * is told with it, so the errors rexbot throws on a value quote it (`JSON.stringify`).
 *
 * @example
 * withoutValues('not a finite decimal: 12345.6 at Buys[3] ({"Rate":1})') // not a finite decimal: … at Buys[3] ({…})
 */
export function withoutValues(message: string): string {
  const out = message
    .replace(/"(?:[^"\\]|\\.)*(?:"|$)/g, '"…"')
    .replace(/`[^`]*(?:`|$)/g, '`…`')
    // A quote opens after a non-word character (the apostrophe of "file's" does not) and closes before one.
    .replace(/(^|\W)'[^']*'(?!\w)/g, "$1'…'");
  const quotesOut = objectsOut(out);
  const told = quotesOut.replace(DIGIT_TOKEN_RE, (token: string, at: number) => {
    if (!/\d/.test(token) || NAME_WITH_DIGITS_RE.test(token)) return token;
    if (/^\d+$/.test(token) && quotesOut[at - 1] === '[' && quotesOut[at + token.length] === ']') return token;
    return '…';
  });
  // A time or a path of numbers (`…:…:…`) is one value left out.
  const merged = told.replace(/…(?:[:/.-]…)+/g, '…');
  return merged.length > MAX_TOLD ? `${merged.slice(0, MAX_TOLD - 1)}…` : merged;
}
