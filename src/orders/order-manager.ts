/**
 * The order manager: the last step of the one-way order path (strategy → planner → risk → order manager →
 * gateway) and the source of every {@link OrderEvent}.
 *
 * `submit()` first checks the intent's shape (model/intent-validate.ts: a malformed one is denied INVALID_INTENT),
 * then plans it against what is in flight, passes each concrete placement through the risk engine
 * (synchronously, so the next evaluation already counts it), gives it a fresh clientOrderId, journals it
 * (fsynced) and only then sends it; cancels skip risk. Outcomes arrive as events — `submit()` never throws.
 * State comes from the REST answers and from the account store's order, conditional-order and execution feeds
 * (see {@link OrderTracker}); retries, adoption of existing orders and ambiguity live in {@link OrderRequests}.
 *
 * Intents of one key never race: a quote ladder or target position that arrives while the key still has
 * unanswered requests is held (the latest one wins) and planned again as soon as the key's state changes.
 */
import { filter, type Observable, type Subscription } from 'rxjs';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Decimal } from '../core/decimal.js';
import { Multicast } from '../core/multicast.js';
import { dadd, dhalf } from '../core/decimal-fast.js';
import type { Intent } from '../model/intent.js';
import type { PendingOrder } from '../risk/order-reserve.js';
import { intentProblem } from '../model/intent-validate.js';
import { createLogger } from '../telemetry/logger.js';
import { BracketArming } from './bracket-legs.js';
import { DeferredIntents } from './deferred-intents.js';
import { FillTracker } from './fill-tracker.js';
import { InFlightConditional } from './in-flight-conditional.js';
import { unacknowledgedReserve } from './in-flight-reserve.js';
import { openOrderCount, pendingOrders } from './account-orders.js';
import { InFlightRegistry } from './in-flight-registry.js';
import { InFlightOrder, type InFlightState } from './in-flight.js';
import { resumeFromJournal } from './journal-resume.js';
import type { OrderRole } from './journal-records.js';
import type { OrderEvent } from './order-events.js';
import type { OrderManagerDeps } from './order-manager-deps.js';
import { orderManagerCounter, type OrderManagerCount } from './order-manager-metrics.js';
import { OrderRequests } from './order-requests.js';
import { OrderTracker } from './order-tracker.js';
import { PendingRequests } from './pending-requests.js';
import { toNewConditional, toNewOrder } from './planner-orders.js';
import { planIntent, type PlannedConditional, type PlannedOrder, type PlannerView, type PlanStep } from './planner.js';
import type { ReconcileReport } from './reconcile.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';

export type { ReconcileReport } from './reconcile.js';

/** A read-only snapshot of one followed order, for diagnostics and tests. */
export interface InFlightView {
  clientOrderId: string;
  strategy: string;
  intentKey: string;
  role: OrderRole;
  state: InFlightState;
  orderId: string | undefined;
}

/**
 * The order manager.
 *
 * @example
 * const journal = Journal.open('var/mm.journal');
 * const orders = new OrderManager({ gateway, risk, journal, clock, account, marketStore, markets: (s) => catalog.get(s), portfolio });
 * const report = await orders.reconcile();            // refuses (throws) if anything is unaccounted for
 * orders.eventsFor('mm').subscribe((e) => log.info(e));
 * orders.submit('mm', { kind: 'quotes', key: 'ladder', marketSymbol: 'BTC-USD', bids, asks });
 */
export class OrderManager {
  readonly #d: OrderManagerDeps;
  readonly #log: Logger;
  readonly #policy: RetryPolicy;
  readonly #newId: () => string;
  /** A Multicast, not a Subject: no errorContext closure per event (every request, answer and denial). */
  readonly #events = new Multicast<OrderEvent>();
  readonly #registry = new InFlightRegistry();
  readonly #tracker: OrderTracker;
  readonly #requests: OrderRequests;
  readonly #view: PlannerView;
  readonly #pending: PendingRequests;
  readonly #deferred: DeferredIntents;
  /** Orders of the running submit denied by the submit-rate brake alone. */
  #rateDenied = 0;
  readonly #brackets: BracketArming;
  readonly #sub: Subscription;
  /** Counts one in `order_manager_total{what, kind}` (a tally: handed to prom-client when scraped). */
  readonly #count: OrderManagerCount;
  #closed = false;

  /** Every event of every strategy. */
  readonly events$: Observable<OrderEvent> = this.#events.observable;

  constructor(deps: OrderManagerDeps) {
    this.#d = deps;
    this.#log = deps.logger ?? createLogger({ level: 'silent' });
    this.#pending = new PendingRequests(this.#log);
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...(deps.retry ?? {}) };
    this.#newId = deps.newId ?? randomUUID;
    this.#count = orderManagerCounter(deps.metrics);
    const emit = (e: OrderEvent) => this.#emit(e);
    this.#tracker = new OrderTracker({
      registry: this.#registry,
      fills: new FillTracker(),
      journal: deps.journal,
      clock: deps.clock,
      gateway: deps.gateway,
      account: deps.account,
      portfolio: deps.portfolio,
      policy: this.#policy,
      log: this.#log,
      emit,
      track: (p) => this.#pending.track(p),
      hooks: {
        cancelRequested: (e) => this.#pending.track(e instanceof InFlightConditional ? this.#requests.cancelConditional(e) : this.#requests.cancelOrders([e])),
        finished: (e) => this.#onFinished(e),
        keyChanged: (s, k) => this.#deferred.kick(s, k),
      },
    });
    this.#requests = new OrderRequests({
      gateway: deps.gateway,
      journal: deps.journal,
      clock: deps.clock,
      account: deps.account,
      tracker: this.#tracker,
      policy: this.#policy,
      batchSize: deps.batchSize ?? 50,
      newId: this.#newId,
      log: this.#log,
      emit,
      count: (operation, outcome) => this.#count(`request_${operation}`, outcome),
    });
    this.#deferred = new DeferredIntents((strategy, intent) => this.submit(strategy, intent), deps.clock);
    this.#brackets = new BracketArming({
      registry: this.#registry,
      journal: deps.journal,
      clock: deps.clock,
      requests: this.#requests,
      approve: (p, parent, pair) => this.#approveConditional(p, parent, pair),
      position: (m, s) => this.#tracker.position(m, s),
      log: this.#log,
    });
    this.#view = {
      market: deps.markets,
      mid: (s) => {
        const bid = deps.marketStore.bestBid(s);
        const ask = deps.marketStore.bestAsk(s);
        return bid && ask ? dhalf(dadd(bid.rate, ask.rate)) : undefined;
      },
      position: (m, s) => this.#tracker.position(m, s),
      liveOrders: (f) => this.#registry.liveOrders(f),
      liveConditionals: (f) => this.#registry.liveConditionals(f),
      orderById: (id) => this.#registry.orderById(id),
    };
    this.#sub = deps.account.changes$.subscribe((e) => {
      try {
        this.#tracker.onAccountEvent(e);
      } catch (err) {
        this.#log.error({ err }, 'applying an account change failed');
      }
    });
  }

  /** The events of one strategy. */
  eventsFor(strategy: string): Observable<OrderEvent> {
    return this.events$.pipe(filter((e) => e.strategy === strategy));
  }

  /**
   * Act on an intent of `strategy`. Never throws: planning failures, risk denials and exchange refusals are
   * events. The intent's key replaces that key's previous wish.
   */
  submit(strategy: string, intent: Intent): void {
    const at = this.#d.clock.now();
    // The strategy boundary: a plugin without a compiler (plain JavaScript) can emit anything. A malformed intent
    // is denied here, naming the strategy and the field, before it can reach planning, risk or the wire.
    const problem = intentProblem(intent);
    if (problem) {
      const key = typeof (intent as { key?: unknown } | null)?.key === 'string' ? (intent as { key: string }).key : '';
      this.#count('intent', 'invalid');
      this.#emit({ type: 'denied', strategy, intentKey: key, reasons: [{ code: 'INVALID_INTENT', message: `strategy '${strategy}': intent.${problem.field} ${problem.problem}` }], at });
      return;
    }
    try {
      this.#count('intent', intent.kind);
      if (this.#closed) {
        this.#emit({ type: 'rejected', strategy, intentKey: intent.key, code: 'MANAGER_CLOSED', message: 'the order manager is closed', at });
        return;
      }
      this.#deferred.forget(strategy, intent);
      const plan = planIntent(strategy, intent, this.#view);
      if (plan.kind === 'reject') this.#emit({ type: 'rejected', strategy, intentKey: intent.key, code: plan.code, message: plan.message, at });
      else if (plan.kind === 'defer') this.#deferred.hold(strategy, intent);
      else {
        const outer = this.#rateDenied;
        this.#rateDenied = 0;
        const risk = this.#d.risk;
        if (risk.together) risk.together(() => this.#executeAll(plan.steps));
        else this.#executeAll(plan.steps);
        // A wish (it replaces its key's previous one) whose orders met only the submit-rate brake is tried again
        // when the brake's window admits them: the strategy will not say the same thing twice.
        if (this.#rateDenied > 0 && (intent.kind === 'quotes' || intent.kind === 'targetPosition')) {
          const slot = this.#d.risk.submitSlotAt?.(this.#rateDenied);
          if (slot !== undefined) this.#deferred.holdUntil(strategy, intent, slot);
        }
        this.#rateDenied = outer;
      }
    } catch (err) {
      this.#log.error({ err, strategy, intent: intent.kind, key: intent.key }, 'submit failed');
      this.#emit({ type: 'rejected', strategy, intentKey: intent.key, code: 'INTERNAL_ERROR', message: (err as Error).message, at });
    }
  }

  /**
   * Settle the journal against the exchange (see reconcile.ts) and resume: adopted orders are followed again,
   * missed fills are reported, filled brackets get their missing legs. Throws a ReconcileError when anything stays
   * unaccounted for — strategies must not start then.
   */
  async reconcile(): Promise<ReconcileReport> {
    const { journal, gateway, clock } = this.#d;
    return resumeFromJournal({
      journal,
      gateway,
      clock,
      registry: this.#registry,
      tracker: this.#tracker,
      log: this.#log,
      armBracket: (entry, filled) => this.#brackets.ensure(entry, filled),
    });
  }

  /** Cancel every live order and conditional order of `strategy` (all strategies when omitted), optionally of one market. */
  async cancelAll(strategy?: string, marketSymbol?: string): Promise<void> {
    this.#deferred.clear(strategy, marketSymbol);
    const f = { strategy, marketSymbol };
    const work = [this.#requests.cancelOrders(this.#registry.liveOrders(f)), ...this.#registry.liveConditionals(f).map((c) => this.#requests.cancelConditional(c))];
    for (const p of work) this.#pending.track(p);
    await Promise.all(work);
  }

  /** Funds reserved by placements sent but not yet acknowledged (what the exchange balance does not show yet). */
  inFlightReserved(currency: string): Decimal {
    return unacknowledgedReserve(this.#registry.unacknowledgedOrders(), currency, this.#d.markets, this.#d.marketStore);
  }

  /**
   * The account's live orders as the risk engine counts them (src/risk/order-reserve.ts): ours — resting, cancel
   * pending or still in flight — with what each can still trade (quantity orders: the unfilled quantity), and the
   * open orders of the account this manager did not place.
   */
  pendingOrders(): PendingOrder[] {
    return pendingOrders(this.#registry, this.#d.account);
  }

  /** Open orders of the account, counting placements in flight and orders not placed by this manager. */
  openOrderCount(): number {
    return openOrderCount(this.#registry, this.#d.account);
  }

  /** The followed order placed with `clientOrderId` (or the order created by that conditional order). */
  inFlight(clientOrderId: string): InFlightView | undefined {
    const e = this.#registry.order(clientOrderId);
    return e && { clientOrderId, strategy: e.strategy, intentKey: e.intentKey, role: e.role, state: e.state, orderId: e.orderId };
  }

  /** Resolve once no request, retry or lookup is in flight (with a virtual clock, time must move for retries). */
  async drain(): Promise<void> {
    for (;;) {
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      if (this.#pending.size === 0 && this.#deferred.pendingKicks === 0) return;
      await Promise.allSettled(this.#pending.list());
    }
  }

  /** Stop accepting intents, finish what is in flight, stop following the account, close the journal. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#deferred.stop();
    await this.drain();
    this.#sub.unsubscribe();
    this.#tracker.close();
    this.#d.journal.close();
    this.#events.complete();
  }

  // ---- steps -----------------------------------------------------------------------------------------------

  #executeAll(steps: readonly PlanStep[]): void {
    for (const step of steps) this.#execute(step);
  }

  #execute(step: PlanStep): void {
    switch (step.kind) {
      case 'cancel':
        this.#pending.track(this.#requests.cancelOrders(step.orders));
        for (const c of step.conditionals) this.#pending.track(this.#requests.cancelConditional(c));
        return;
      case 'place': {
        const entry = this.#approveOrder(step.order);
        if (entry) this.#pending.track(this.#requests.placeOrder(entry));
        return;
      }
      case 'conditional': {
        const c = this.#approveConditional(step.conditional, undefined, undefined);
        if (c) this.#pending.track(this.#requests.placeConditional(c));
        return;
      }
      case 'batch': {
        // A loop into a literal, not map + filter: see ORDER_LISTS in order-lists.ts.
        const places: InFlightOrder[] = [];
        for (const p of step.places) {
          const e = this.#approveOrder(p);
          if (e) places.push(e);
        }
        // Every placement denied and nothing to cancel: no request to make (batch would return at once).
        if (places.length > 0 || step.cancels.length > 0) this.#pending.track(this.#requests.batch(places, step.cancels));
        return;
      }
    }
  }

  /** Risk, then an in-flight entry with a fresh clientOrderId (registered at once: the next plan sees it). */
  #approveOrder(p: PlannedOrder): InFlightOrder | undefined {
    const approved = this.#evaluate(p.proposal);
    if (!approved) return undefined;
    const clientOrderId = this.#newId();
    const entry = new InFlightOrder({
      clientOrderId,
      strategy: p.proposal.strategy,
      intentKey: p.proposal.intentKey,
      role: p.role,
      request: toNewOrder(approved, clientOrderId),
      bracket: p.bracket,
      createdAt: this.#d.clock.now(),
    });
    this.#registry.addOrder(entry);
    return entry;
  }

  #approveConditional(
    p: PlannedConditional,
    parent: string | undefined,
    orderToCancel: { type: 'CONDITIONAL_ORDER'; id: string } | undefined,
  ): InFlightConditional | undefined {
    const approved = this.#evaluate(p.proposal);
    if (!approved) return undefined;
    const id = this.#newId();
    const c = new InFlightConditional({
      clientConditionalOrderId: id,
      strategy: p.proposal.strategy,
      intentKey: p.proposal.intentKey,
      role: p.role,
      request: toNewConditional(p.trigger, approved, id, orderToCancel),
      parent,
      createdAt: this.#d.clock.now(),
    });
    this.#registry.addConditional(c);
    return c;
  }

  #evaluate(proposal: PlannedOrder['proposal']): PlannedOrder['proposal'] | undefined {
    let verdict;
    try {
      verdict = this.#d.risk.evaluate(proposal);
    } catch (err) {
      this.#log.error({ err }, 'risk evaluation threw; denying');
      verdict = { approved: false as const, reasons: [{ code: 'RISK_ERROR', message: (err as Error).message }] };
    }
    if (verdict.approved) return verdict.order;
    if (verdict.reasons.every((r) => r.code === 'SUBMIT_RATE')) this.#rateDenied++;
    this.#emit({ type: 'denied', strategy: proposal.strategy, intentKey: proposal.intentKey, reasons: verdict.reasons, at: this.#d.clock.now() });
    return undefined;
  }

  // ---- brackets ------------------------------------------------------------------------------------------

  #onFinished(e: InFlightOrder): void {
    const filled = e.order?.fillQuantity;
    const bracket = e.bracket;
    if (e.role !== 'entry' || !bracket || e.state !== 'CLOSED' || !filled?.gt(0)) return;
    const entry = { clientOrderId: e.clientOrderId, strategy: e.strategy, intentKey: e.intentKey, marketSymbol: e.marketSymbol, direction: e.direction, bracket };
    this.#pending.track(this.#brackets.ensure(entry, filled));
  }

  // ---- plumbing --------------------------------------------------------------------------------------------

  #emit(e: OrderEvent): void {
    this.#count('event', e.type);
    // Asked first: the fields object would be built for every event even with debug off.
    if (this.#log.isLevelEnabled('debug')) this.#log.debug({ event: e.type, strategy: e.strategy, key: e.intentKey }, 'order event');
    try {
      this.#events.next(e);
    } catch (err) {
      // A subscriber's failure must not break the manager's bookkeeping.
      this.#log.error({ err }, 'an order event subscriber threw');
    }
  }
}
