/**
 * The parser for JSON that arrives from untrusted peers: REST request bodies and hub frames of the simulator.
 *
 * `JSON.parse` alone is not enough there, for three reasons the hardening of issue 9 found:
 * - Nesting has no bound: 6,000 nested arrays parse fine, then the first recursive walk over them (`String(v)`,
 *   `JSON.stringify(v)` in an error message) throws RangeError, which escaped a WebSocket handler and killed the
 *   process. Here nesting deeper than `maxDepth` is a syntax error, so nothing downstream ever sees such a value.
 * - Numbers lose their text: `1.0000000000000001` became `1`, an order for a different quantity than the client
 *   wrote, while the same value as a string was refused. Here a number a double cannot hold exactly comes back as
 *   a {@link WireNumber} with its text, and the decoders judge it like the string.
 * - Duplicate keys silently keep the last: `{"direction":"BUY",…,"direction":"SELL"}`. Here they are an error.
 *
 * It is a small recursive-descent parser over the string (recursion is safe: it never goes deeper than
 * `maxDepth`). Objects get own properties only, `__proto__` included, so no key can reach a prototype.
 */
import './string-prototype-fast.js'; // the scans below use charCodeAt: that module keeps it inlined
import { WireNumber } from './wire-number.js';

export { WireNumber } from './wire-number.js';

/** Default nesting bound: the deepest legitimate message (a batch body, a Core invocation) nests 3 or 4 levels. */
export const WIRE_JSON_MAX_DEPTH = 32;

/** Options of {@link parseWireJson}. */
export interface WireJsonOptions {
  /** Deepest nesting of arrays and objects accepted; default {@link WIRE_JSON_MAX_DEPTH}. */
  maxDepth?: number;
}

/** Why a text is not acceptable JSON, with the 0-based character position. */
export class WireJsonError extends SyntaxError {
  readonly position: number;
  constructor(message: string, position: number) {
    super(`${message} at position ${position}`);
    this.name = 'WireJsonError';
    this.position = position;
  }
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * True when `Number(text)` holds exactly the value `text` writes. Up to 15 significant digits always do (a double
 * keeps 15 decimal digits, and these texts have no exponent); past that, compare the value's digits with those of
 * the double's shortest form.
 */
function doubleHolds(text: string, n: number): boolean {
  if (!Number.isFinite(n)) return false;
  if (text.length <= 16 && !/[eE]/.test(text)) {
    // sign + 15 digits + point at most
    let digits = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) digits++;
    }
    if (digits <= 15) return true;
  }
  return sameDigits(text, String(n));
}

/** Normalised (sign, significant digits, decimal exponent) of a JSON number text, e.g. `-0.0120e1` -> `-|12|-1`. */
function normalise(text: string): string {
  let i = 0;
  let sign = '';
  if (text[0] === '-') {
    sign = '-';
    i = 1;
  }
  let mantissa = '';
  let pointAt = -1;
  let exp = 0;
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '.') pointAt = mantissa.length;
    else if (ch === 'e' || ch === 'E') {
      exp = Number(text.slice(i + 1));
      break;
    } else mantissa += ch;
  }
  const intDigits = pointAt < 0 ? mantissa.length : pointAt;
  const lead = mantissa.search(/[1-9]/);
  if (lead < 0) return '0';
  const digits = mantissa.slice(lead).replace(/0+$/, '');
  // value = 0.digits × 10^(intDigits - lead + exp)
  return `${sign}|${digits}|${intDigits - lead + exp}`;
}

function sameDigits(a: string, b: string): boolean {
  return normalise(a) === normalise(b);
}

/**
 * Parse `text` as one JSON value, bounded and exact (see the file comment). Throws {@link WireJsonError} naming
 * the problem and its position: bad syntax, nesting deeper than `maxDepth`, a duplicate key.
 *
 * @example
 * parseWireJson('{"quantity":1.0000000000000001}')   // { quantity: WireNumber { text: '1.0000000000000001' } }
 * parseWireJson('{"a":1,"a":2}')                       // throws: duplicate key 'a' at position 7
 * parseWireJson('['.repeat(100) + ']'.repeat(100))      // throws: nesting deeper than 32 levels at position 32
 */
export function parseWireJson(text: string, opts: WireJsonOptions = {}): unknown {
  const p = new Parser(text, opts.maxDepth ?? WIRE_JSON_MAX_DEPTH);
  const result = p.value(0);
  p.ws();
  if (p.i < p.n) p.fail(`unexpected ${p.got()} after the value`);
  return result;
}

/**
 * One parse: the text, the position and the nesting bound. A class rather than closures inside parseWireJson, so a
 * parse (one per REST request and hub frame) creates no functions.
 */
class Parser {
  i = 0;
  readonly n: number;
  constructor(
    readonly text: string,
    readonly maxDepth: number,
  ) {
    this.n = text.length;
  }

  fail(message: string, at = this.i): never {
    throw new WireJsonError(message, at);
  }

  ws(): void {
    const text = this.text;
    let i = this.i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
    this.i = i;
  }

  got(): string {
    return this.i < this.n ? `'${this.text[this.i]}'` : 'the end of the text';
  }

  str(): string {
    const text = this.text;
    const n = this.n;
    // text[i] is the opening quote
    const start = ++this.i;
    // Fast path (nearly every wire string): no escape and no control character before the closing quote, found in
    // one pass over the characters (a regex test per string, on top of indexOf, cost more than the loop on the
    // short keys and values of a request body).
    for (let j = start; j < n; j++) {
      const c = text.charCodeAt(j);
      if (c === 34) {
        this.i = j + 1;
        return text.slice(start, j);
      }
      if (c === 92 || c < 0x20) break;
    }
    let out = '';
    let from = start;
    let i = start;
    for (;;) {
      if (i >= n) this.fail('unterminated string', start - 1);
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(from, i);
        this.i = i + 1;
        return out;
      }
      if (c < 0x20) this.fail('control character in a string', i);
      if (c === 92) {
        out += text.slice(from, i);
        const e = text[i + 1];
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape', i);
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else {
          const r = e === undefined ? undefined : ESCAPES[e];
          if (r === undefined) this.fail('bad escape in a string', i);
          out += r;
          i += 2;
        }
        from = i;
        continue;
      }
      i++;
    }
  }

  num(): number | WireNumber {
    const text = this.text;
    let i = this.i;
    const start = i;
    if (text.charCodeAt(i) === 45) i++;
    const d0 = text.charCodeAt(i);
    if (d0 === 48) i++;
    else if (d0 >= 49 && d0 <= 57) while (isDigit(text.charCodeAt(i))) i++;
    else this.fail('bad number', i);
    if (text.charCodeAt(i) === 46) {
      i++;
      if (!isDigit(text.charCodeAt(i))) this.fail('bad number: a digit must follow the decimal point', i);
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const e = text.charCodeAt(i);
    if (e === 101 || e === 69) {
      i++;
      const s = text.charCodeAt(i);
      if (s === 43 || s === 45) i++;
      if (!isDigit(text.charCodeAt(i))) this.fail('bad number: a digit must follow the exponent', i);
      while (isDigit(text.charCodeAt(i))) i++;
    }
    this.i = i;
    const t = text.slice(start, i);
    const v = Number(t);
    return doubleHolds(t, v) ? v : new WireNumber(t);
  }

  value(depth: number): unknown {
    this.ws();
    const text = this.text;
    const i = this.i;
    const c = text.charCodeAt(i);
    if (c === 34) return this.str();
    if (c === 123 || c === 91) {
      if (depth >= this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`);
      return c === 123 ? this.obj(depth + 1) : this.arr(depth + 1);
    }
    if (c === 45 || isDigit(c)) return this.num();
    if (text.startsWith('true', i)) return (this.i += 4), true;
    if (text.startsWith('false', i)) return (this.i += 5), false;
    if (text.startsWith('null', i)) return (this.i += 4), null;
    return this.fail(`unexpected ${this.got()}`);
  }

  obj(depth: number): Record<string, unknown> {
    const text = this.text;
    this.i++;
    const out: Record<string, unknown> = {};
    this.ws();
    if (text.charCodeAt(this.i) === 125) {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      if (text.charCodeAt(this.i) !== 34) this.fail(`expected a quoted key, got ${this.got()}`);
      const at = this.i;
      const key = internKey(this.str());
      if (Object.hasOwn(out, key)) this.fail(`duplicate key '${key.length > 40 ? `${key.slice(0, 40)}...` : key}'`, at);
      this.ws();
      if (text.charCodeAt(this.i) !== 58) this.fail(`expected ':' after a key, got ${this.got()}`);
      this.i++;
      const v = this.value(depth);
      // Assigning "__proto__" would set the prototype: define it as a plain own property instead, as JSON.parse does.
      if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      else out[key] = v;
      this.ws();
      const c = text.charCodeAt(this.i);
      this.i++;
      if (c === 125) return out;
      if (c !== 44) this.fail(`expected ',' or '}' in an object, got ${text[this.i - 1] === undefined ? 'the end of the text' : `'${text[this.i - 1]}'`}`, this.i - 1);
    }
  }

  arr(depth: number): unknown[] {
    const text = this.text;
    this.i++;
    const out: unknown[] = [];
    this.ws();
    if (text.charCodeAt(this.i) === 93) {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.ws();
      const c = text.charCodeAt(this.i);
      this.i++;
      if (c === 93) return out;
      if (c !== 44) this.fail(`expected ',' or ']' in an array, got ${text[this.i - 1] === undefined ? 'the end of the text' : `'${text[this.i - 1]}'`}`, this.i - 1);
    }
  }
}

/**
 * Object keys as V8's own (internalized) property-name strings, remembered by their text: a key freshly cut from
 * the text is not one, so checking it (`Object.hasOwn`) and storing under it each had V8 look the text up in its
 * string table, and that made up half the parse of a request body. Bodies name the same few dozen fields again and
 * again; bounded, as keys are data (past the bound a key is used as it comes, which is only slower).
 */
const internedKeys = new Map<string, string>();
const MAX_INTERNED_KEYS = 2048;

function internKey(key: string): string {
  const known = internedKeys.get(key);
  if (known !== undefined) return known;
  if (internedKeys.size >= MAX_INTERNED_KEYS) return key;
  // A property name read back from an object is the internalized string of its text.
  const own = Object.keys({ [key]: 0 })[0]!;
  internedKeys.set(own, own);
  return own;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * A short, never-throwing rendering of a wire value for error messages: JSON text cut at `max` characters. Values
 * that JSON cannot render (too deep, cyclic, bigint) get a word instead of an exception.
 */
export function previewJson(value: unknown, max = 100): string {
  if (value === undefined) return 'undefined';
  if (value instanceof WireNumber) return value.text.length > max ? `${value.text.slice(0, max - 3)}...` : value.text;
  let s: string | undefined;
  try {
    s = JSON.stringify(value);
  } catch {
    return Array.isArray(value) ? '[an array]' : typeof value === 'object' ? '[an object]' : typeof value;
  }
  if (s === undefined) return typeof value;
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}
