/**
 * Client-chosen idempotency keys (clientOrderId, clientConditionalOrderId, clientWithdrawalId, transfer requestId).
 * A key repeated within the window answers `*_ALREADY_EXISTS` with the existing id; after the window it is no
 * longer checked (seed: 24 hours for clientOrderId; rexbot applies the same window to the others).
 */
import type { Clock } from '../core/clock.js';

/** 24 hours in milliseconds. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** One remembered key: its id and time, and the account's map it is (or was, once replaced) in. */
interface Entry {
  readonly id: string;
  readonly at: number;
  readonly keys: Map<string, Entry>;
  readonly key: string;
}

/**
 * Keys are scoped per account: two accounts may use the same clientOrderId. Kept by account, then key — a lookup
 * (every order placed with a clientOrderId asks, and remembers) builds no string of the two — and in one list in
 * the order remembered, which forgets the oldest first once past the window, whatever their account.
 */
export class IdempotencyIndex {
  readonly #byAccount = new Map<string, Map<string, Entry>>();
  /**
   * Every entry remembered, oldest first, from `#head` on (an entry whose key was remembered again is skipped).
   * Slots before `#head` are emptied as it passes them, so a forgotten entry (its id and key text) is garbage at
   * once rather than when the prefix is next cut: up to a whole window of them was kept alive for nothing.
   */
  #order: Array<Entry | undefined> = [];
  #head = 0;
  #size = 0;
  readonly #clock: Clock;
  readonly #windowMs: number;

  constructor(clock: Clock, windowMs = IDEMPOTENCY_WINDOW_MS) {
    this.#clock = clock;
    this.#windowMs = windowMs;
  }

  /** The id registered under (account, key) within the window, if any. */
  find(accountId: string, key: string): string | undefined {
    const e = this.#byAccount.get(accountId)?.get(key);
    if (!e) return undefined;
    if (this.#clock.now() - e.at >= this.#windowMs) return undefined;
    return e.id;
  }

  /** Register (account, key) -> id now; keys past the window are forgotten (they are no longer checked). */
  remember(accountId: string, key: string, id: string): void {
    const now = this.#clock.now();
    let keys = this.#byAccount.get(accountId);
    if (!keys) this.#byAccount.set(accountId, (keys = new Map()));
    const entry: Entry = { id, at: now, keys, key };
    if (!keys.has(key)) this.#size++;
    keys.set(key, entry);
    const order = this.#order;
    order.push(entry);
    while (this.#head < order.length) {
      const e = order[this.#head]!;
      if (now - e.at < this.#windowMs) break;
      if (e.keys.get(e.key) === e) {
        e.keys.delete(e.key);
        this.#size--;
      }
      order[this.#head++] = undefined;
    }
    // The forgotten prefix is cut once it is as long as the rest: O(1) per key, amortized.
    if (this.#head > 1024 && this.#head * 2 > order.length) {
      this.#order = order.slice(this.#head);
      this.#head = 0;
    }
  }

  /** Keys remembered now (expired ones are dropped as new ones arrive). */
  get size(): number {
    return this.#size;
  }
}
