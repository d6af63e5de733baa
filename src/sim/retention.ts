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

/** Ids of dropped items, forgotten after {@link TOMBSTONE_MS} (insertion order is time order). */
export class Tombstones {
  readonly #at = new Map<string, number>();
  /**
   * At most the time of the first (oldest) entry: while `now` is within {@link TOMBSTONE_MS} of it, nothing can
   * have expired and the sweep (an iterator per add, three adds per order once retention drops) is skipped.
   */
  #oldest = Infinity;

  add(id: string, now: number): void {
    if (this.#at.size === 0) this.#oldest = now;
    this.#at.set(id.toLowerCase(), now);
    if (now - this.#oldest < TOMBSTONE_MS) return;
    for (const [k, t] of this.#at) {
      if (now - t < TOMBSTONE_MS) {
        this.#oldest = t;
        break;
      }
      this.#at.delete(k);
    }
  }

  has(id: string): boolean {
    return this.#at.has(id.toLowerCase());
  }

  get size(): number {
    return this.#at.size;
  }
}

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
