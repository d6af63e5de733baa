/**
 * Intents waiting for their key to settle. A quote ladder or target position planned while its key still has
 * unanswered requests is held here — only the latest one per key, since a newer wish replaces an older one —
 * and submitted again as soon as something changes for that key (an answer, a fill, a close). A newer intent
 * of the same key, a cancel of the key or a cancel-all drops the held one.
 *
 * A wish the submit-rate brake turned away (some of its orders denied SUBMIT_RATE and nothing else) is held the
 * same way with a time: it is submitted again when the brake's window admits an order, unless a newer wish of
 * its key came first. Without that, a market maker whose last ladder met the brake in a quiet market would sit
 * without quotes until the market moved (the strategy says nothing while its wish is unchanged).
 */
import type { Clock, TimerHandle } from '../core/clock.js';
import type { Intent } from '../model/intent.js';

const SETTLED: Promise<void> = Promise.resolve();

const keyOf = (strategy: string, intentKey: string): string => `${strategy}\u0000${intentKey}`;

/**
 * Held intents.
 *
 * @example
 * const held = new DeferredIntents((strategy, intent) => manager.submit(strategy, intent));
 * held.hold('mm', ladder);          // planner said "defer"
 * held.kick('mm', ladder.key);      // the key's batch was answered: resubmitted after this change
 */
export class DeferredIntents {
  readonly #held = new Map<string, { strategy: string; intent: Intent }>();
  readonly #kicks = new Set<string>();
  /** Wishes held until a time ({@link DeferredIntents.holdUntil}), by key: their retry timers. */
  readonly #timed = new Map<string, { strategy: string; intent: Intent; timer: TimerHandle }>();
  #stopped = false;

  constructor(
    private readonly resubmit: (strategy: string, intent: Intent) => void,
    private readonly clock?: Clock,
  ) {}

  /** Resubmissions scheduled but not yet run. */
  get pendingKicks(): number {
    return this.#kicks.size;
  }

  hold(strategy: string, intent: Intent): void {
    this.#held.set(keyOf(strategy, intent.key), { strategy, intent });
  }

  /**
   * Hold `intent` until `at` on the clock, then resubmit it. Not kicked by changes of its key: what the brake
   * refused now it would refuse again before `at`.
   */
  holdUntil(strategy: string, intent: Intent, at: number): void {
    if (this.#stopped || !this.clock) return;
    const k = keyOf(strategy, intent.key);
    this.#drop(k);
    const timer = this.clock.setTimeout(() => {
      if (this.#timed.get(k)?.timer !== timer || this.#stopped) return;
      this.#timed.delete(k);
      this.resubmit(strategy, intent);
    }, Math.max(0, at - this.clock.now()));
    this.#timed.set(k, { strategy, intent, timer });
  }

  #drop(k: string): void {
    this.#held.delete(k);
    const timed = this.#timed.get(k);
    if (timed) {
      timed.timer.cancel();
      this.#timed.delete(k);
    }
  }

  /** A new intent arrived: whatever it replaces or cancels is no longer wanted. */
  forget(strategy: string, intent: Intent): void {
    // Every intent passes here and mostly nothing is held: no key text to build (and hash) for empty maps then.
    if (this.#held.size === 0 && this.#timed.size === 0) return;
    this.#drop(keyOf(strategy, intent.key));
    if (intent.kind === 'cancel' && intent.targetKey !== undefined) this.#drop(keyOf(strategy, intent.targetKey));
    if (intent.kind === 'cancelAll') this.clear(strategy, intent.marketSymbol);
  }

  /** Drop held intents of `strategy` (all when undefined), optionally only those of one market. */
  clear(strategy?: string, marketSymbol?: string): void {
    for (const [k, d] of [...this.#held, ...this.#timed]) {
      if ((strategy === undefined || d.strategy === strategy) && (marketSymbol === undefined || marketOf(d.intent) === marketSymbol)) {
        this.#drop(k);
      }
    }
  }

  /** Something changed for (strategy, intentKey): resubmit its held intent once the current change is applied. */
  kick(strategy: string, intentKey: string): void {
    // Every change of every followed order kicks its key, and mostly nothing is held: no key text to build then.
    if (this.#held.size === 0) return;
    const k = keyOf(strategy, intentKey);
    if (this.#stopped || !this.#held.has(k) || this.#kicks.has(k)) return;
    this.#kicks.add(k);
    // A microtask, so the tracker finishes applying the change before the planner reads it: a promise job rather
    // than queueMicrotask, the same place in the microtask queue without the AsyncResource Node wraps it in.
    void SETTLED.then(() => {
      this.#kicks.delete(k);
      const d = this.#held.get(k);
      if (!d || this.#stopped) return;
      this.#held.delete(k);
      this.resubmit(d.strategy, d.intent);
    });
  }

  /** Drop everything and never resubmit again. */
  stop(): void {
    this.#stopped = true;
    this.#held.clear();
    for (const t of this.#timed.values()) t.timer.cancel();
    this.#timed.clear();
  }
}

/** The market an intent is about, when it names one. */
export function marketOf(intent: Intent): string | undefined {
  switch (intent.kind) {
    case 'place':
      return intent.order.marketSymbol;
    case 'bracket':
      return intent.entry.marketSymbol;
    case 'quotes':
    case 'trailingStop':
    case 'targetPosition':
    case 'cancelAll':
      return intent.marketSymbol;
    default:
      return undefined;
  }
}
