/**
 * The replay guard's memory of one API key's signed requests in one time slot: a set of (timestamp offset, signature
 * id) pairs, both small numbers (see replay-guard.ts), kept in typed arrays with open addressing.
 *
 * Why not a `Map<id, offset>`: a slot holds every state-changing request of the key for its span (tens of
 * thousands of orders at a few thousand a second), and a Map that size had every lookup walk a bucket chain
 * through a large heap table, with each 52-bit id a heap number of its own, so one `firstUse` cost about a
 * microsecond, mostly cache misses, and the whole table was GC-traced and copied as it grew. Here a lookup hashes
 * the pair into two flat arrays outside the JS heap: one or two probes, no object per request.
 */

/** Offsets must fit an Int32Array cell after the +1 that marks a used cell. */
export const MAX_OFFSET = 0x7ffffffe;

const FIRST_CAPACITY = 16;

/** A set of (offset, id) pairs: offset an integer in [0, {@link MAX_OFFSET}], id any number but NaN. */
export class SignatureSet {
  /** offset + 1 per cell; 0 marks an empty cell. */
  #offsets = new Int32Array(FIRST_CAPACITY);
  #ids = new Float64Array(FIRST_CAPACITY);
  #mask = FIRST_CAPACITY - 1;
  #size = 0;

  /** Pairs held. */
  get size(): number {
    return this.#size;
  }

  /** Add the pair; false when it was already there (nothing changes then). */
  add(offset: number, id: number): boolean {
    const mark = offset + 1;
    const offsets = this.#offsets;
    const ids = this.#ids;
    const mask = this.#mask;
    for (let i = cellOf(offset, id, mask); ; i = (i + 1) & mask) {
      const o = offsets[i]!;
      if (o === 0) {
        offsets[i] = mark;
        ids[i] = id;
        // Kept at most half full, so a probe sequence stays short and always reaches an empty cell.
        if (++this.#size * 2 > mask + 1) this.#grow();
        return true;
      }
      if (o === mark && ids[i] === id) return false;
    }
  }

  #grow(): void {
    const oldOffsets = this.#offsets;
    const oldIds = this.#ids;
    const capacity = oldOffsets.length * 2;
    const offsets = new Int32Array(capacity);
    const ids = new Float64Array(capacity);
    const mask = capacity - 1;
    for (let j = 0; j < oldOffsets.length; j++) {
      const o = oldOffsets[j]!;
      if (o === 0) continue;
      let i = cellOf(o - 1, oldIds[j]!, mask);
      while (offsets[i] !== 0) i = (i + 1) & mask;
      offsets[i] = o;
      ids[i] = oldIds[j]!;
    }
    this.#offsets = offsets;
    this.#ids = ids;
    this.#mask = mask;
  }
}

/**
 * The first cell to probe for a pair. An id is the first 52 bits of an HMAC, so its low 32 bits are already
 * uniform; the offset is mixed in so one id at several offsets spreads out too.
 */
function cellOf(offset: number, id: number, mask: number): number {
  const h = Math.imul((id % 0x100000000) ^ offset, 0x9e3779b1);
  return (h ^ (h >>> 15)) & mask;
}
