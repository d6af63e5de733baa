/**
 * How long the simulator keeps what only grows (issue 9 item 6): 120k create/cancel cycles grew RSS by ~1.4 KB
 * per closed order, so a simulator running for days ran out of memory. Closed orders and executions are kept per
 * account for `maxAgeMs` and at most `maxPerAccount` (the newest); idempotency keys for their 24-hour window (the
 * seed's clientOrderId rule) — see idempotency.ts.
 *
 * Pagination stays whole: the id of a dropped item is remembered (a tombstone, ~100 bytes instead of the item)
 * for {@link TOMBSTONE_MS} (an hour: a page walk takes seconds), so a client paging through history with its
 * token reaches the end of what is kept (an empty next page) instead of INVALID_NEXT_PAGE_TOKEN.
 */

/** Retention of one kind of history. */
export interface RetentionLimits {
  /** Items older than this are dropped. */
  maxAgeMs: number;
  /** At most this many (the newest) per account. */
  maxPerAccount: number;
}

/** Default retention of closed orders and executions: 7 days, 10 000 per account. */
export const DEFAULT_RETENTION: Readonly<RetentionLimits> = Object.freeze({ maxAgeMs: 7 * 24 * 3_600_000, maxPerAccount: 10_000 });

/** How long a dropped item's id still answers as "past the end" of a page walk. */
export const TOMBSTONE_MS = 3_600_000;

/**
 * Ids of dropped items, forgotten after {@link TOMBSTONE_MS}.
 *
 * Retention drops in batches (see {@link dropCount}), and in a busy simulator every order ends up dropping about
 * three items (its closed order and two executions), while `has` is asked only by a page walk naming a dropped
 * item. So a batch is kept as it came, and the id index is built when `has` or `size` asks, from where the
 * previous question stopped: no map insertion per dropped item on the order path. Answers are those of an index
 * kept up to date at every add.
 */
export class Tombstones {
  /** Batches in the order added (their times never decrease); `[head, length)` are live. */
  readonly #batches: Array<{ at: number; ids: readonly string[] }> = [];
  #head = 0;
  /** Batches `[head, indexed)` are in `#index`. */
  #indexed = 0;
  /** Lower-cased id -> time of its latest indexed batch. */
  readonly #index = new Map<string, number>();

  /** Remember one dropped id. */
  add(id: string, now: number): void {
    this.addAll([id], now);
  }

  /** Remember ids dropped together at `now` (the array is kept, not copied). */
  addAll(ids: readonly string[], now: number): void {
    if (ids.length === 0) return;
    this.#batches.push({ at: now, ids });
    this.#expire(now);
  }

  has(id: string): boolean {
    return this.#indexNow().has(id.toLowerCase());
  }

  get size(): number {
    return this.#indexNow().size;
  }

  /** The index, with every live batch in it. */
  #indexNow(): Map<string, number> {
    const b = this.#batches;
    if (b.length > this.#head) this.#expire(b[b.length - 1]!.at);
    for (; this.#indexed < b.length; this.#indexed++) {
      const batch = b[this.#indexed]!;
      for (const id of batch.ids) {
        const key = id.toLowerCase();
        // Re-inserted, so the map's order stays the order of the latest drop of each id.
        this.#index.delete(key);
        this.#index.set(key, batch.at);
      }
    }
    return this.#index;
  }

  /** Forget the batches older than {@link TOMBSTONE_MS} at `now` (the newest batch never is). */
  #expire(now: number): void {
    const b = this.#batches;
    while (this.#head < b.length - 1 && now - b[this.#head]!.at >= TOMBSTONE_MS) {
      const batch = b[this.#head]!;
      if (this.#head < this.#indexed) {
        // An id dropped again later stays: its entry carries the later batch's time.
        for (const id of batch.ids) {
          const key = id.toLowerCase();
          if (this.#index.get(key) === batch.at) this.#index.delete(key);
        }
      }
      b[this.#head++] = EXPIRED;
    }
    if (this.#indexed < this.#head) this.#indexed = this.#head;
    // Compact in bulk: the dead prefix is dropped once it is as long as what is live.
    if (this.#head > 1024 && this.#head * 2 > b.length) {
      b.splice(0, this.#head);
      this.#indexed -= this.#head;
      this.#head = 0;
    }
  }
}

const EXPIRED = Object.freeze({ at: -Infinity, ids: [] as readonly string[] });

/**
 * How many items to drop from the front (oldest first) of `list`: those past the age limit, and those over the
 * count. Dropping waits for a batch (1/16 of the cap, at least 1) so that a list at its cap is not spliced on
 * every add.
 */
export function dropCount<T>(list: readonly T[], limits: RetentionLimits, ageOf: (item: T) => number | undefined, now: number): number {
  const slack = Math.max(1, Math.floor(limits.maxPerAccount / 16));
  let k = list.length - limits.maxPerAccount >= slack ? list.length - limits.maxPerAccount : 0;
  while (k < list.length) {
    const t = ageOf(list[k]!);
    if (t === undefined || now - t <= limits.maxAgeMs) break;
    k++;
  }
  return k;
}
