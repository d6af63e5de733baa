/**
 * Fixed ASCII text (the keys and punctuation of a line whose form is known) compared with a line's bytes several
 * bytes at a time: {@link has}. On the 2-core machine, checking a 47-character literal this way took ~25 ns where
 * a loop over `charCodeAt` took ~400 ns, a byte loop ~75 ns and a sticky regular expression ~70 ns.
 */

/** A literal prepared for {@link has}: its bytes as 8-byte words (4-byte words when shorter than 8). */
export class Literal {
  readonly length: number;
  /** The 8-byte words at 0, 8, … and the last one at `length - 8` (overlapping the one before), for 8 bytes or more. */
  readonly words: Float64Array;
  /** The 4-byte words at 0 and at `length - 4`, for 4 to 7 bytes. */
  readonly head: number;
  readonly tail: number;

  /** `text` must be printable ASCII (0x20-0x7e), at least 4 characters. */
  constructor(readonly text: string) {
    const bytes = Buffer.from(text, 'latin1');
    if (!/^[\x20-\x7e]{4,}$/.test(text)) throw new Error(`not a literal of 4 or more printable ASCII characters: ${text}`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.length = bytes.length;
    const n = this.length >= 8 ? Math.ceil(this.length / 8) : 0;
    this.words = new Float64Array(n);
    for (let k = 0; k < n; k++) this.words[k] = view.getFloat64(k === n - 1 ? this.length - 8 : 8 * k, true);
    this.head = view.getUint32(0, true);
    this.tail = view.getUint32(this.length - 4, true);
  }
}

/**
 * `view` holds `lit` at `i`, within `[i, end)`. Eight bytes are compared as one double: a literal's words are
 * printable ASCII, so each is a normal finite double (neither NaN, zero nor subnormal), and a double equals such a
 * value only when its 8 bytes are the same.
 *
 * @example
 * has(view, 0, view.byteLength, new Literal('{"t":')) // the bytes start with {"t":
 */
export function has(view: DataView, i: number, end: number, lit: Literal): boolean {
  const n = lit.length;
  if (i + n > end) return false;
  if (n < 8) return view.getUint32(i, true) === lit.head && view.getUint32(i + n - 4, true) === lit.tail;
  const w = lit.words;
  const last = w.length - 1;
  for (let k = 0; k < last; k++) if (view.getFloat64(i + 8 * k, true) !== w[k]) return false;
  return view.getFloat64(i + n - 8, true) === w[last];
}
