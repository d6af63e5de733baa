/**
 * Client-chosen idempotency keys (clientOrderId, clientConditionalOrderId, clientWithdrawalId, transfer requestId).
 * A key repeated within the window answers `*_ALREADY_EXISTS` with the existing id; after the window it is no
 * longer checked (seed: 24 hours for clientOrderId; rexbot applies the same window to the others).
 */
import type { Clock } from '../core/clock.js';

/** 24 hours in milliseconds. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Keys are scoped per account: two accounts may use the same clientOrderId. */
export class IdempotencyIndex {
  readonly #entries = new Map<string, { id: string; at: number }>();
  readonly #clock: Clock;
  readonly #windowMs: number;

  constructor(clock: Clock, windowMs = IDEMPOTENCY_WINDOW_MS) {
    this.#clock = clock;
    this.#windowMs = windowMs;
  }

  /** The id registered under (account, key) within the window, if any. */
  find(accountId: string, key: string): string | undefined {
    const e = this.#entries.get(`${accountId}\u0000${key}`);
    if (!e) return undefined;
    if (this.#clock.now() - e.at >= this.#windowMs) return undefined;
    return e.id;
  }

  /** Register (account, key) -> id now; keys past the window are forgotten (they are no longer checked). */
  remember(accountId: string, key: string, id: string): void {
    const now = this.#clock.now();
    const k = `${accountId}\u0000${key}`;
    // Delete first so insertion order stays time order, and the oldest entries are always at the front.
    this.#entries.delete(k);
    this.#entries.set(k, { id, at: now });
    for (const [old, e] of this.#entries) {
      if (now - e.at < this.#windowMs) break;
      this.#entries.delete(old);
    }
  }

  /** Keys remembered now (expired ones are dropped as new ones arrive). */
  get size(): number {
    return this.#entries.size;
  }
}
