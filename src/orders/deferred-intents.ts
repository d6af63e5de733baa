/**
 * Intents waiting for their key to settle. A quote ladder or target position planned while its key still has
 * unanswered requests is held here — only the latest one per key, since a newer wish replaces an older one —
 * and submitted again as soon as something changes for that key (an answer, a fill, a close). A newer intent
 * of the same key, a cancel of the key or a cancel-all drops the held one.
 */
import type { Intent } from '../model/intent.js';

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
  #stopped = false;

  constructor(private readonly resubmit: (strategy: string, intent: Intent) => void) {}

  /** Resubmissions scheduled but not yet run. */
  get pendingKicks(): number {
    return this.#kicks.size;
  }

  hold(strategy: string, intent: Intent): void {
    this.#held.set(keyOf(strategy, intent.key), { strategy, intent });
  }

  /** A new intent arrived: whatever it replaces or cancels is no longer wanted. */
  forget(strategy: string, intent: Intent): void {
    this.#held.delete(keyOf(strategy, intent.key));
    if (intent.kind === 'cancel' && intent.targetKey !== undefined) this.#held.delete(keyOf(strategy, intent.targetKey));
    if (intent.kind === 'cancelAll') this.clear(strategy, intent.marketSymbol);
  }

  /** Drop held intents of `strategy` (all when undefined), optionally only those of one market. */
  clear(strategy?: string, marketSymbol?: string): void {
    for (const [k, d] of this.#held) {
      if ((strategy === undefined || d.strategy === strategy) && (marketSymbol === undefined || marketOf(d.intent) === marketSymbol)) {
        this.#held.delete(k);
      }
    }
  }

  /** Something changed for (strategy, intentKey): resubmit its held intent once the current change is applied. */
  kick(strategy: string, intentKey: string): void {
    const k = keyOf(strategy, intentKey);
    if (this.#stopped || !this.#held.has(k) || this.#kicks.has(k)) return;
    this.#kicks.add(k);
    // A microtask, so the tracker finishes applying the change before the planner reads it.
    queueMicrotask(() => {
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
