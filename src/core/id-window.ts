/**
 * {@link IdWindow}: exactly the ids added and not yet dropped, oldest dropped first — what deduplicating recent
 * trades by id needs, on the path every recorded trade of a backtest takes (the market store and each strategy's
 * `trades$`). Unlike `RecentIds` (recent-ids.ts: two generations, approximate age) it holds exactly the ids added
 * and not yet dropped, so code that kept a `Set` in step with a list keeps its behaviour.
 *
 * A `Set<string>` does the same, but while the program allocates heavily (a backtest does) its lookups, adds and
 * deletes each touch the strings already held, scattered over the heap: measured at ~0.6 µs per trade against
 * ~0.1 µs in a quiet heap (a microbenchmark with allocation churn). Here a lookup compares 30-bit hashes kept in
 * arrays of small integers first and reads a held string only when the hashes match (the same id, or a rare
 * collision); dropping the oldest only moves an index, and the table is rebuilt from the live ids once the dropped
 * ones fill it (amortized O(1) per id). In a 1M-event no-op backtest the store's and the strategy's deduplication
 * went from ~5% of the profile to ~2%.
 */

/**
 * FNV-1a over the UTF-16 code units, cut to 30 bits: cheap, spreads the short sequential ids recordings use, and
 * stays a small integer (V8 stores a wider one in an array as a boxed number, allocated per id).
 */
function hashOf(id: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

/**
 * A set of string ids, oldest first, that drops its oldest on request.
 *
 * @example
 * const seen = new IdWindow();
 * seen.add('a'); // true: new
 * seen.add('a'); // false: already there
 * seen.dropOldest(); // 'a' is forgotten
 * seen.add('a'); // true
 */
export class IdWindow {
  /** The ids in the order they were added; the live ones from `#head` on. */
  #ids: string[] = [];
  /** `hashOf` of each entry of `#ids`, at the same index. */
  #hashes: number[] = [];
  #head = 0;
  /** Open addressing, linear probing: index into `#ids` plus one, 0 for empty. Dropped ids stay until a rebuild. */
  #table = new Int32Array(16);

  /** How many ids are held. */
  get size(): number {
    return this.#ids.length - this.#head;
  }

  /** Whether `id` is held. */
  has(id: string): boolean {
    return this.#find(id, hashOf(id));
  }

  /** Add `id` as the newest; false (and nothing changes) when it is already held. */
  add(id: string): boolean {
    const h = hashOf(id);
    if (this.#find(id, h)) return false;
    const at = this.#ids.length;
    this.#ids.push(id);
    this.#hashes.push(h);
    // At most half full (dropped ids included), so probes stay short and always end at an empty slot.
    if ((at + 1) * 2 > this.#table.length) this.#rebuild();
    else this.#insert(at, h);
    return true;
  }

  /** Forget the oldest id (none: no-op). */
  dropOldest(): void {
    if (this.#head < this.#ids.length) this.#head++;
  }

  #find(id: string, h: number): boolean {
    const table = this.#table;
    const mask = table.length - 1;
    const hashes = this.#hashes;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const e = table[i]!;
      if (e === 0) return false;
      const at = e - 1;
      if (at >= this.#head && hashes[at] === h && this.#ids[at] === id) return true;
    }
  }

  #insert(at: number, h: number): void {
    const table = this.#table;
    const mask = table.length - 1;
    let i = h & mask;
    while (table[i] !== 0) i = (i + 1) & mask;
    table[i] = at + 1;
  }

  /** Cut the dropped ids from the lists, size the table to the live ones (at most a quarter full), re-insert them. */
  #rebuild(): void {
    if (this.#head > 0) {
      this.#ids = this.#ids.slice(this.#head);
      this.#hashes = this.#hashes.slice(this.#head);
      this.#head = 0;
    }
    const n = this.#ids.length;
    let size = 16;
    while (size < n * 4) size *= 2;
    if (size !== this.#table.length) this.#table = new Int32Array(size);
    else this.#table.fill(0);
    for (let at = 0; at < n; at++) this.#insert(at, this.#hashes[at]!);
  }
}
