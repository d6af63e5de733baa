/**
 * A raw DEFLATE decoder (RFC 1951, no zlib header) for hub payloads, reusing its buffers from call to call.
 *
 * Why not `node:zlib`: hub payloads are tiny (the 2021 capture: median 122 bytes compressed, 135 inflated), so
 * `inflateRawSync` spends nearly all of its ~10-15 µs per call building and closing a zlib stream object (a
 * Duplex, a 32 KiB window, listeners), not inflating; and it leaves that garbage behind, which shows up as GC
 * pauses in the stream-latency p99. pako's one-shot `inflateRaw` allocates its output chunk and code tables per
 * call too. This decoder keeps its output buffer and Huffman tables between calls, so a payload costs only the
 * decoding itself (`npm run bench -- --only hub-decode` has the figures).
 *
 * Why not a library: the well-kept pure-JS inflaters were measured on the same 1,015 captured payloads
 * (base64 -> inflate -> JSON.parse, one run, 2026-11-21): this decoder ~84-105k msgs/s, node:zlib ~49k,
 * fflate 0.8 with a reused output buffer ~42k (~6-7k without one), pako 3 ~19k. None reuses its Huffman tables,
 * which is where small payloads spend their time; the gap is the stream-latency p99 target.
 *
 * It accepts exactly what zlib accepts (the same code-table rules: over-subscribed sets are errors, incomplete
 * sets only for a single one-bit code, at most 286 literal/length and 30 distance codes, an end-of-block code
 * required) and stops after the final block, ignoring trailing bytes as `inflateRawSync` does; the tests check
 * it against zlib on valid, truncated and corrupted streams.
 */

/** The decoder's problem with its input; the codec turns it into a WireFormatError. */
export class InflateError extends Error {
  override readonly name = 'InflateError';
}

// Length codes 257..285 and distance codes 0..29: base value and extra bits (RFC 1951, 3.2.5).
const LEN_BASE = Uint16Array.of(3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258);
const LEN_EXTRA = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0);
const DIST_BASE = Uint16Array.of(1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577);
const DIST_EXTRA = Uint8Array.of(0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13);
/** The order in which code-length code lengths are sent. */
const CL_ORDER = Uint8Array.of(16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15);

/** REV15[n] is the 15-bit `n` with its bits reversed: Huffman codes are sent most significant bit first. */
const REV15 = new Uint16Array(1 << 15);
for (let n = 1; n < REV15.length; n++) REV15[n] = (REV15[n >> 1]! >> 1) | ((n & 1) << 14);

/**
 * A decoding table: `entries[bits & mask]` (bits in stream order) is `symbol << 4 | codeLength`, 0 where no code
 * lives (only possible for the single one-bit code zlib allows). One table per alphabet, sized for the longest
 * code the current block uses, reused across blocks and calls.
 */
class HuffmanTable {
  entries = new Int32Array(1 << 9);
  mask = 0;
  readonly #count = new Uint16Array(16);
  readonly #next = new Uint16Array(16);

  /**
   * Build from the used symbols `symbols[from .. to)` (ascending, minus `base`) and their code lengths (1-15) at
   * the same indices of `lengths`; every other symbol of the alphabet has no code. Only used symbols are listed
   * because a block's alphabet of 286 is mostly unused, and scanning it costs more than the table itself on small
   * payloads. Returns false for a set zlib rejects: over-subscribed, or incomplete unless it is a single code of
   * length 1 (`allowSingle`). An empty set builds a table of invalid entries.
   */
  build(symbols: Uint16Array, lengths: Uint8Array, from: number, to: number, base: number, allowSingle: boolean): boolean {
    const count = this.#count;
    count.fill(0);
    let max = 0;
    for (let k = from; k < to; k++) {
      const l = lengths[k]!;
      count[l]!++;
      if (l > max) max = l;
    }
    const bits = max === 0 ? 1 : max;
    const size = 1 << bits;
    if (this.entries.length < size) this.entries = new Int32Array(size);
    const entries = this.entries;
    this.mask = size - 1;
    if (max === 0) {
      entries.fill(0, 0, size);
      return true;
    }
    // Kraft: `left` is the number of unused codes of the current length.
    let left = 1;
    for (let len = 1; len <= max; len++) {
      left = (left << 1) - count[len]!;
      if (left < 0) return false;
    }
    if (left > 0) {
      if (!allowSingle || count[1] !== 1 || max !== 1) return false;
      entries.fill(0, 0, size);
    }
    // Canonical codes: first code of each length, then consecutive codes in symbol order.
    const next = this.#next;
    let code = 0;
    for (let len = 1; len <= max; len++) {
      code = (code + count[len - 1]!) << 1;
      next[len] = code;
    }
    for (let k = from; k < to; k++) {
      const len = lengths[k]!;
      const entry = ((symbols[k]! - base) << 4) | len;
      // Every index whose low `len` bits are this code (reversed) decodes to it.
      for (let i = REV15[next[len]!++]! >> (15 - len), step = 1 << len; i < size; i += step) entries[i] = entry;
    }
    return true;
  }
}

/** Fixed Huffman tables (block type 1), built once. */
const FIXED_LIT = new HuffmanTable();
const FIXED_DIST = new HuffmanTable();
{
  const symbols = new Uint16Array(320).map((_, i) => i);
  const l = new Uint8Array(320);
  l.fill(8, 0, 144);
  l.fill(9, 144, 256);
  l.fill(7, 256, 280);
  l.fill(8, 280, 288);
  l.fill(5, 288, 320);
  FIXED_LIT.build(symbols, l, 0, 288, 0, false);
  // 30 of the 32 five-bit codes are used; zlib builds the set from all 32 (codes 30-31 fail when decoded).
  FIXED_DIST.build(symbols, l, 288, 320, 288, false);
}

/** Input bytes past the end that the bit reader may look at (so it needs no bounds checks per read). */
export const INFLATE_INPUT_PADDING = 8;

/**
 * Reusable raw inflater. Not reentrant: one call at a time (JavaScript runs one anyway), and the bytes of
 * {@link RawInflater.output} are only valid until the next call.
 *
 * @example
 * const inflater = new RawInflater();
 * const input = new Uint8Array(compressed.length + INFLATE_INPUT_PADDING);
 * input.set(compressed);
 * const n = inflater.inflate(input, compressed.length);
 * const text = Buffer.from(inflater.output.buffer, 0, n).toString('utf8');
 */
export class RawInflater {
  /** The output of the last call is `output[0 .. n)`. Grows as needed; replaced (not reused) when it grows. */
  output: Uint8Array;
  readonly #maxOutput: number;
  readonly #initial: number;
  readonly #lit = new HuffmanTable();
  readonly #dist = new HuffmanTable();
  readonly #codeLengths = new HuffmanTable();
  /** The symbols with a code in the current dynamic block (literal/lengths, then distances + 286) and their lengths. */
  readonly #symbols = new Uint16Array(286 + 30);
  readonly #lengths = new Uint8Array(286 + 30);
  readonly #clLengths = new Uint8Array(19);

  /**
   * @param opts.initialOutput first output capacity in bytes (default 16 KiB)
   * @param opts.maxOutput most bytes one call may produce, against decompression bombs (default 64 MiB)
   */
  constructor(opts: { initialOutput?: number; maxOutput?: number } = {}) {
    this.#maxOutput = opts.maxOutput ?? 64 * 1024 * 1024;
    this.#initial = Math.min(opts.initialOutput ?? 16_384, this.#maxOutput);
    this.output = new Uint8Array(this.#initial);
  }

  /**
   * Inflate `input[0 .. length)`, which must be followed by {@link INFLATE_INPUT_PADDING} readable bytes (any
   * values). Returns the number of bytes written to {@link RawInflater.output}. Throws {@link InflateError}.
   */
  inflate(input: Uint8Array, length: number): number {
    if (input.length < length + INFLATE_INPUT_PADDING) throw new RangeError('inflate: input needs padding after `length`');
    // A call that had to grow far past the usual payload size should not keep that memory for good.
    if (this.output.length > 16 * this.#initial) this.output = new Uint8Array(this.#initial);
    const totalBits = length * 8;
    let out = this.output;
    let o = 0;
    let pos = 0;
    let final = 0;
    do {
      if (pos + 3 > totalBits) throw new InflateError('unexpected end of data');
      const head = (input[pos >> 3]! | (input[(pos >> 3) + 1]! << 8)) >> (pos & 7);
      final = head & 1;
      const type = (head >> 1) & 3;
      pos += 3;
      if (type === 0) {
        // Stored: skip to a byte boundary, LEN and its one's complement NLEN, then LEN raw bytes.
        const at = (pos + 7) >> 3;
        if (at + 4 > length) throw new InflateError('unexpected end of data');
        const len = input[at]! | (input[at + 1]! << 8);
        const nlen = input[at + 2]! | (input[at + 3]! << 8);
        if ((len ^ 0xffff) !== nlen) throw new InflateError('invalid stored block lengths');
        if (at + 4 + len > length) throw new InflateError('unexpected end of data');
        if (o + len > out.length) out = this.#grow(o, o + len);
        out.set(input.subarray(at + 4, at + 4 + len), o);
        o += len;
        pos = (at + 4 + len) * 8;
        continue;
      }
      let lit: HuffmanTable;
      let dist: HuffmanTable;
      if (type === 1) {
        lit = FIXED_LIT;
        dist = FIXED_DIST;
      } else if (type === 2) {
        pos = this.#readDynamicTables(input, pos, totalBits);
        lit = this.#lit;
        dist = this.#dist;
      } else {
        throw new InflateError('invalid block type');
      }
      const litEntries = lit.entries;
      const litMask = lit.mask;
      const distEntries = dist.entries;
      const distMask = dist.mask;
      for (;;) {
        // Three bytes hold the ≥ 17 bits any code or code + extra bits needs at any bit offset.
        let p = pos >> 3;
        let e = litEntries[((input[p]! | (input[p + 1]! << 8) | (input[p + 2]! << 16)) >> (pos & 7)) & litMask]!;
        if (e === 0) throw new InflateError('invalid literal/length code');
        pos += e & 15;
        if (pos > totalBits) throw new InflateError('unexpected end of data');
        const sym = e >> 4;
        if (sym < 256) {
          if (o === out.length) out = this.#grow(o, o + 1);
          out[o++] = sym;
          continue;
        }
        if (sym === 256) break;
        const li = sym - 257;
        if (li >= 29) throw new InflateError('invalid literal/length code');
        let len = LEN_BASE[li]!;
        const lx = LEN_EXTRA[li]!;
        if (lx > 0) {
          p = pos >> 3;
          len += ((input[p]! | (input[p + 1]! << 8)) >> (pos & 7)) & ((1 << lx) - 1);
          pos += lx;
        }
        p = pos >> 3;
        e = distEntries[((input[p]! | (input[p + 1]! << 8) | (input[p + 2]! << 16)) >> (pos & 7)) & distMask]!;
        if (e === 0) throw new InflateError('invalid distance code');
        pos += e & 15;
        const di = e >> 4;
        if (di >= 30) throw new InflateError('invalid distance code');
        let d = DIST_BASE[di]!;
        const dx = DIST_EXTRA[di]!;
        if (dx > 0) {
          p = pos >> 3;
          d += ((input[p]! | (input[p + 1]! << 8) | (input[p + 2]! << 16)) >> (pos & 7)) & ((1 << dx) - 1);
          pos += dx;
        }
        if (pos > totalBits) throw new InflateError('unexpected end of data');
        if (d > o) throw new InflateError('invalid distance too far back');
        if (o + len > out.length) out = this.#grow(o, o + len);
        // Byte by byte: a match may overlap its own output (distance < length repeats a pattern).
        for (let from = o - d, end = o + len; o < end; ) out[o++] = out[from++]!;
      }
    } while (final === 0);
    return o;
  }

  /** Read a dynamic block's code lengths and build the literal/length and distance tables; returns the new bit position. */
  #readDynamicTables(input: Uint8Array, pos: number, totalBits: number): number {
    if (pos + 14 > totalBits) throw new InflateError('unexpected end of data');
    let p = pos >> 3;
    const head = (input[p]! | (input[p + 1]! << 8) | (input[p + 2]! << 16)) >> (pos & 7);
    const nlit = (head & 31) + 257;
    const ndist = ((head >> 5) & 31) + 1;
    const nclen = ((head >> 10) & 15) + 4;
    pos += 14;
    if (nlit > 286 || ndist > 30) throw new InflateError('too many length or distance symbols');
    if (pos + nclen * 3 > totalBits) throw new InflateError('unexpected end of data');
    const cl = this.#clLengths;
    cl.fill(0);
    for (let i = 0; i < nclen; i++) {
      p = pos >> 3;
      cl[CL_ORDER[i]!] = ((input[p]! | (input[p + 1]! << 8)) >> (pos & 7)) & 7;
      pos += 3;
    }
    const symbols = this.#symbols;
    const lengths = this.#lengths;
    let used = 0;
    for (let sym = 0; sym < 19; sym++) {
      if (cl[sym] === 0) continue;
      symbols[used] = sym;
      lengths[used++] = cl[sym]!;
    }
    const clTable = this.#codeLengths;
    if (!clTable.build(symbols, lengths, 0, used, 0, false)) throw new InflateError('invalid code lengths set');
    const clEntries = clTable.entries;
    const clMask = clTable.mask;
    // The code lengths of all nlit + ndist symbols, as a run-length code; only the non-zero ones are kept.
    const total = nlit + ndist;
    used = 0;
    let litUsed = 0;
    let hasEnd = false;
    let prev = -1;
    for (let i = 0; i < total; ) {
      p = pos >> 3;
      const bits = (input[p]! | (input[p + 1]! << 8) | (input[p + 2]! << 16)) >> (pos & 7);
      const e = clEntries[bits & clMask]!;
      if (e === 0) throw new InflateError('invalid code lengths set');
      const width = e & 15;
      pos += width;
      const sym = e >> 4;
      let times = 1;
      if (sym < 16) {
        prev = sym;
      } else {
        const rest = bits >> width;
        if (sym === 16) {
          if (prev < 0) throw new InflateError('invalid bit length repeat');
          times = 3 + (rest & 3);
          pos += 2;
        } else if (sym === 17) {
          prev = 0;
          times = 3 + (rest & 7);
          pos += 3;
        } else {
          prev = 0;
          times = 11 + (rest & 127);
          pos += 7;
        }
        if (i + times > total) throw new InflateError('invalid bit length repeat');
      }
      if (prev !== 0) {
        for (const end = i + times; i < end; i++) {
          // Distances are numbered after the 286 literal/length symbols, so one ascending list holds both.
          symbols[used] = i < nlit ? i : i - nlit + 286;
          lengths[used++] = prev;
          if (i < nlit) litUsed++;
          if (i === 256) hasEnd = true;
        }
      } else {
        i += times;
      }
      if (pos > totalBits) throw new InflateError('unexpected end of data');
    }
    if (!hasEnd) throw new InflateError('invalid code -- missing end-of-block');
    if (!this.#lit.build(symbols, lengths, 0, litUsed, 0, true)) throw new InflateError('invalid literal/lengths set');
    if (!this.#dist.build(symbols, lengths, litUsed, used, 286, true)) throw new InflateError('invalid distances set');
    return pos;
  }

  /** A larger output holding the first `used` bytes, with room for at least `need`. */
  #grow(used: number, need: number): Uint8Array {
    if (need > this.#maxOutput) throw new InflateError(`inflates to more than ${this.#maxOutput} bytes`);
    let size = this.output.length * 2;
    while (size < need) size *= 2;
    const next = new Uint8Array(Math.min(size, this.#maxOutput));
    next.set(this.output.subarray(0, used));
    this.output = next;
    return next;
  }
}
