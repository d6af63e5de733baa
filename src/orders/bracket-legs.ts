/**
 * Arming a bracket: once its entry has filled, place the missing exit legs — the take-profit first, then the
 * stop-loss with `orderToCancel: { type: 'CONDITIONAL_ORDER', id: takeProfit.id }`, so the exchange pairs them
 * as OCO (reciprocally: whichever triggers first cancels the other). Idempotent: legs already placed (live in
 * the registry, including ones adopted at reconciliation) are not placed again, one entry is armed at a time,
 * and an `armed` journal record marks the entry done for good.
 */
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import type { Journal } from './journal.js';
import type { InFlightConditional } from './in-flight-conditional.js';
import type { InFlightRegistry } from './in-flight-registry.js';
import type { BracketLegs } from './journal-records.js';
import type { OrderRequests } from './order-requests.js';
import { planBracketLegs } from './planner-bracket.js';
import type { PlannedConditional } from './planner.js';

/** The entry a bracket protects. */
export interface BracketEntry {
  clientOrderId: string;
  strategy: string;
  intentKey: string;
  marketSymbol: string;
  direction: 'BUY' | 'SELL';
  bracket: BracketLegs;
}

/** Dependencies of {@link BracketArming}. */
export interface BracketArmingDeps {
  registry: InFlightRegistry;
  journal: Journal;
  clock: Clock;
  requests: OrderRequests;
  /** Risk, then a registered in-flight conditional order (undefined when denied). */
  approve: (p: PlannedConditional, parent: string, orderToCancel: { type: 'CONDITIONAL_ORDER'; id: string } | undefined) => InFlightConditional | undefined;
  position: (marketSymbol: string, strategy: string) => Decimal;
  log: Logger;
}

/**
 * Places bracket legs.
 *
 * @example
 * await arming.ensure({ clientOrderId, strategy, intentKey, marketSymbol, direction: 'BUY', bracket }, filledQuantity);
 */
export class BracketArming {
  readonly #d: BracketArmingDeps;
  readonly #busy = new Set<string>();

  constructor(deps: BracketArmingDeps) {
    this.#d = deps;
  }

  /** Place whichever of the entry's legs is missing, for `filled` base quantity. */
  async ensure(entry: BracketEntry, filled: Decimal): Promise<void> {
    const { registry, requests, approve, log } = this.#d;
    if (this.#busy.has(entry.clientOrderId)) return;
    this.#busy.add(entry.clientOrderId);
    try {
      const legs = registry.legsOf(entry.clientOrderId);
      let tp = legs.find((l) => l.role === 'takeProfit');
      const sl = legs.find((l) => l.role === 'stopLoss');
      if (tp && sl) return;
      const plan = planBracketLegs(entry, entry.bracket, filled, this.#d.position(entry.marketSymbol, entry.strategy));
      if (!tp) {
        tp = approve(plan.takeProfit, entry.clientOrderId, undefined);
        if (tp) await requests.placeConditional(tp);
      }
      if (!sl) {
        const pair = tp?.id !== undefined && !tp.isFinal ? { type: 'CONDITIONAL_ORDER' as const, id: tp.id } : undefined;
        if (!pair) log.warn({ clientOrderId: entry.clientOrderId }, 'bracket: stop-loss placed without a take-profit to pair with');
        const c = approve(plan.stopLoss, entry.clientOrderId, pair);
        if (c) await requests.placeConditional(c);
      }
      // Whatever became of the legs (placed, denied, refused), a restart must not arm this entry again: by then
      // the position may long be gone. Only a crash before this record lets reconciliation finish the job.
      this.#d.journal.append({ t: 'armed', at: this.#d.clock.now(), id: entry.clientOrderId });
    } finally {
      this.#busy.delete(entry.clientOrderId);
    }
  }
}
