/**
 * Wire decoders: the one place where untrusted JSON becomes typed, exact values.
 *
 * A decoder is a function `(value, path, where) => T` that throws {@link WireFormatError} naming the field path
 * and the endpoint or stream (`GET /v3/markets: [12].minTradeSize is not a decimal: "abc"`). Decoders are plain
 * functions, not a schema library, because order-book snapshots of 500 levels go through them on the hot path.
 */
import { type Decimal, parseDecimal } from '../core/decimal.js';
import { WireFormatError } from '../core/errors.js';
import { WireNumber } from '../core/wire-number.js';

/** Decodes one wire value. `path` is the field path so far, `where` names the endpoint or stream. */
export type Decoder<T> = (value: unknown, path: string, where: string) => T;

function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value instanceof WireNumber) return value.text.length > 60 ? `${value.text.slice(0, 57)}...` : value.text;
  let s: string | undefined;
  try {
    s = JSON.stringify(value);
  } catch {
    // A value too deep (or cyclic) to print must not turn a format error into a crash.
    return Array.isArray(value) ? '[an array]' : typeof value === 'object' ? '[an object]' : typeof value;
  }
  return s === undefined ? String(value) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/**
 * Throw the error of the field at `path`: `reason` (quoting nothing received), then, in the message only, the value
 * received as `: <value>` when one is given. The reason stays apart (WireFormatError.reason) for readers that tell
 * errors without the data's text.
 */
function fail(where: string, path: string, reason: string, ...value: [] | [unknown]): never {
  throw new WireFormatError(where, path, { reason, text: value.length === 0 ? reason : `${reason}: ${show(value[0])}` });
}

/** A JSON string. */
export const str: Decoder<string> = (v, path, where) =>
  typeof v === 'string' ? v : fail(where, path, 'is not a string', v);

/** A non-empty string used as an identifier (uuid on the real service). */
export const id: Decoder<string> = (v, path, where) =>
  typeof v === 'string' && v.length > 0 ? v : fail(where, path, 'is not an id', v);

/** A JSON boolean. */
export const bool: Decoder<boolean> = (v, path, where) =>
  typeof v === 'boolean' ? v : fail(where, path, 'is not a boolean', v);

/** A safe integer, as a JSON number or an integer string (int64 fields may arrive quoted). */
export const int: Decoder<number> = (v, path, where) => {
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : fail(where, path, 'is not an integer', v);
};

/** An exact decimal from a JSON string (`"0.00010000"`) or number. NaN, Infinity and garbage are rejected. */
export const dec: Decoder<Decimal> = (v, path, where) =>
  parseDecimal(v) ?? fail(where, path, 'is not a decimal', v);

/**
 * A decimal that is not negative (an amount a venue holds for us: a balance). A venue that sends a negative one,
 * or '1e400', is broken or hostile: the risk engine's balance check trusts these (found by an attack pass).
 */
export const amount: Decoder<Decimal> = (v, path, where) => {
  const d = dec(v, path, where);
  const problem = amountProblem(d, false);
  return problem === undefined ? d : fail(where, path, problem, v);
};

/**
 * A decimal above zero and within range, as {@link amount}: a trade's quantity and rate, a book level's. A trade
 * of nothing or at no price, or a level at a rate of 0, is nonsense a strategy and the risk engine would act on.
 */
export const positive: Decoder<Decimal> = (v, path, where) => {
  const d = dec(v, path, where);
  const problem = amountProblem(d, true);
  return problem === undefined ? d : fail(where, path, problem, v);
};

/**
 * The largest exponent of an amount's first significant digit the decoders take (`d.e`): at most 31 digits before
 * the point. Why 30: far past any real rate, quantity or balance, yet within the 40 significant digits the Decimal
 * type keeps (src/core/decimal.ts) with 9 left after the point, so even the largest value taken keeps the 8 decimals
 * the venue quotes exactly. A `1e400` or a 400-digit value is a broken or hostile source: taken, it
 * crossed every book or made the risk engine approve any order. Decoders and file readers that parse decimals
 * themselves compare a value's `e` with this: one integer comparison per value.
 */
export const MAX_AMOUNT_EXPONENT = 30;

/**
 * Why `d` is not what {@link amount} (or, when `mustBePositive`, {@link positive}) takes — `is negative`,
 * `is out of range`, `is not positive` — or undefined. For readers of files that parse decimals themselves (the
 * backtest's candle readers), so a file and the venue meet one rule.
 */
export function amountProblem(d: Decimal, mustBePositive: boolean): string | undefined {
  if (d.isNegative()) return 'is negative';
  if (d.isZero()) return mustBePositive ? 'is not positive' : undefined;
  return d.e > MAX_AMOUNT_EXPONENT ? 'is out of range' : undefined;
}

/**
 * `decoder`, then `rule` over the value it built: a problem the rule answers is refused naming its field under
 * `path` (a rule across fields, e.g. a candle's low not above its high). `problem` may quote values; `reason`, when
 * the rule gives it, says the same quoting none.
 */
export function refine<T>(decoder: Decoder<T>, rule: (value: T) => { field: string; problem: string; reason?: string } | undefined): Decoder<T> {
  return (v, path, where) => {
    const value = decoder(v, path, where);
    const bad = rule(value);
    if (bad === undefined) return value;
    const field = path ? `${path}.${bad.field}` : bad.field;
    throw new WireFormatError(where, field, bad.reason === undefined ? bad.problem : { reason: bad.reason, text: bad.problem });
  };
}

/** The last date-time text parsed and its time: an order's createdAt, updatedAt and closedAt are often one text. */
let lastDateText: string | undefined;
let lastDateMs = 0;

/** An ISO 8601 date-time, decoded to a `Date` (a new one each time: callers may change theirs). */
export const date: Decoder<Date> = (v, path, where) => {
  if (typeof v !== 'string') return fail(where, path, 'is not a date-time string', v);
  if (v === lastDateText) return new Date(lastDateMs);
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) return fail(where, path, 'is not an ISO 8601 date-time', v);
  // Only UTC texts are remembered: one without an offset is local time, and TZ may change while running.
  if (v.endsWith('Z')) {
    lastDateText = v;
    lastDateMs = ms;
  }
  return new Date(ms);
};

/**
 * One of a fixed set of string values; anything else (including a new value the model does not know) fails.
 *
 * Answers the set's own string (equal to the input, so no caller can tell), not the input: a string cut from a
 * request body by the wire parser can be a slice that keeps the whole body text alive, and a decoded order is
 * kept for as long as the simulator remembers it (~180 bytes per order placed over REST, issue 9 item 9).
 */
export function oneOf<const T extends readonly string[]>(values: T): Decoder<T[number]> {
  const own = new Map<string, T[number]>(values.map((v) => [v, v]));
  return (v, path, where) => {
    const known = typeof v === 'string' ? own.get(v) : undefined;
    return known !== undefined ? known : fail(where, path, `is not one of ${values.join('|')}`, v);
  };
}

/** A JSON array whose items all decode with `item`. */
export function arrayOf<T>(item: Decoder<T>): Decoder<T[]> {
  return (v, path, where) => {
    if (!Array.isArray(v)) return fail(where, path, 'is not an array', v);
    const out = new Array<T>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = item(v[i], `${path}[${i}]`, where);
    return out;
  };
}

type Fields<T> = { [K in keyof T]-?: Decoder<Exclude<T[K], undefined>> };
type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];
type OptionalKeys<T> = Exclude<keyof T, RequiredKeys<T>>;

/**
 * A JSON object with `required` fields (must be present and not null) and `optional` fields (absent or null
 * means undefined, and the key is left out of the result). Fields the model does not name are ignored, so a
 * client keeps working when the service adds fields.
 */
export function object<T extends object>(
  required: Fields<Pick<T, RequiredKeys<T>>>,
  optional: Fields<Pick<T, OptionalKeys<T>>>,
): Decoder<T> {
  // Keys and decoders in parallel arrays, walked by index: no entry tuple to unpack per field of every value decoded.
  const reqKeys = Object.keys(required);
  const reqDecoders = Object.values(required) as Decoder<unknown>[];
  const optKeys = Object.keys(optional);
  const optDecoders = Object.values(optional) as Decoder<unknown>[];
  const walked = walkedObject<T>(reqKeys, reqDecoders, optKeys, optDecoders);
  // Compiled only once it has been used a few times: some callers make a decoder for one value (a request body of
  // a rare endpoint), and compiling those would cost far more than walking them once.
  let calls = 0;
  let decode: Decoder<T> | undefined;
  return (v, path, where) => {
    if (decode !== undefined) return decode(v, path, where);
    if (++calls >= COMPILE_AFTER_CALLS) decode = compiledObject<T>(reqKeys, reqDecoders, optKeys, optDecoders) ?? walked;
    return walked(v, path, where);
  };
}

/** Uses of an {@link object} decoder before it is compiled (see `compiledObject`). */
const COMPILE_AFTER_CALLS = 16;

/** {@link object}'s decoder as a loop over its fields: the reference, and what runs where code cannot be generated. */
function walkedObject<T>(reqKeys: string[], reqDecoders: Decoder<unknown>[], optKeys: string[], optDecoders: Decoder<unknown>[]): Decoder<T> {
  return (v, path, where) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      return fail(where, path, 'is not an object', v);
    }
    const src = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < reqKeys.length; i++) {
      const key = reqKeys[i]!;
      const fv = src[key];
      const fp = path ? `${path}.${key}` : key;
      if (fv === undefined || fv === null) fail(where, fp, 'is missing');
      out[key] = reqDecoders[i]!(fv, fp, where);
    }
    for (let i = 0; i < optKeys.length; i++) {
      const key = optKeys[i]!;
      const fv = src[key];
      if (fv === undefined || fv === null) continue;
      out[key] = optDecoders[i]!(fv, path ? `${path}.${key}` : key, where);
    }
    return out as T;
  };
}

/**
 * {@link walkedObject}'s decoder written out field by field, as source text compiled once per `object()` call.
 *
 * Why: in the loop every field load, store and decoder call goes through one site shared by all the model's
 * objects, so V8 sees dozens of shapes and functions there and handles each field generically (a megamorphic load
 * and store, an indirect call): half of decoding an order answer (~0.6 us -> ~0.3 us measured). Written out, each
 * field of each decoder has its own site, with one shape and one decoder. The text holds only the field names, as
 * JSON string literals (so any name is quoted exactly), and reads the decoders from an array; it does the same
 * steps in the same order as the loop, so results and errors are the same (tests compare the two). Undefined where
 * code cannot be generated from strings (`--disallow-code-generation-from-strings`): the loop is used then.
 */
function compiledObject<T>(reqKeys: string[], reqDecoders: Decoder<unknown>[], optKeys: string[], optDecoders: Decoder<unknown>[]): Decoder<T> | undefined {
  const q = (s: string) => JSON.stringify(s);
  let code = 'return function decodeObject(v, path, where) {\n';
  code += "  if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(where, path, 'is not an object', v);\n";
  code += '  const out = {};\n  let fv;\n  let fp;\n';
  reqKeys.forEach((key, i) => {
    code += `  fv = v[${q(key)}];\n  fp = path ? path + ${q(`.${key}`)} : ${q(key)};\n`;
    code += "  if (fv === undefined || fv === null) fail(where, fp, 'is missing');\n";
    code += `  out[${q(key)}] = req[${i}](fv, fp, where);\n`;
  });
  optKeys.forEach((key, i) => {
    code += `  fv = v[${q(key)}];\n`;
    code += `  if (fv !== undefined && fv !== null) out[${q(key)}] = opt[${i}](fv, path ? path + ${q(`.${key}`)} : ${q(key)}, where);\n`;
  });
  code += '  return out;\n};';
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see above: field names only, quoted as JSON.
    return new Function('req', 'opt', 'fail', code)(reqDecoders.slice(), optDecoders.slice(), fail) as Decoder<T>;
  } catch {
    return undefined;
  }
}

/** Run `decoder` over a parsed JSON body, naming `where` (e.g. `GET /v3/markets`) in any error. */
export function decode<T>(decoder: Decoder<T>, value: unknown, where: string): T {
  return decoder(value, '', where);
}

/** A decoder that passes any JSON value through unchanged (for free-form fields like Error.data). */
export const json: Decoder<unknown> = (v) => v;

/** A JSON object of arbitrary values. */
export const record: Decoder<Record<string, unknown>> = (v, path, where) =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : fail(where, path, 'is not an object', v);
