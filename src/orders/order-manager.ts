/**
 * The order manager: the last step of the one-way order path (strategy → planner → risk → order manager →
 * gateway) and the source of every {@link OrderEvent}.
 *
 * `submit()` plans an intent against what is in flight, passes each concrete placement through the risk engine
 * (synchronously, so the next evaluation already counts it), gives it a fresh clientOrderId, journals it
 * (fsynced) and only then sends it; cancels skip risk. Outcomes arrive as events — `submit()` never throws.
 * State comes from the REST answers and from the account store's order, conditional-order and execution feeds
 * (see {@link OrderTracker}); retries, adoption of existing orders and ambiguity live in {@link OrderRequests}.
 *
 * Intents of one key never race: a quote ladder or target position that arrives while the key still has
 * unanswered requests is held (the latest one wins) and planned again as soon as the key's state changes.
 */
import { filter, type Observable, Subject, type Subscription } from 'rxjs';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { type Decimal, ZERO } from '../core/decimal.js';
import type { Intent } from '../model/intent.js';
import { createLogger } from '../telemetry/logger.js';
import { FillTracker } from './fill-tracker.js';
import { InFlightConditional } from './in-flight-conditional.js';
import { InFlightRegistry } from './in-flight-registry.js';
import { InFlightOrder, type InFlightState } from './in-flight.js';
import { JournalState, type JournaledConditional, type JournaledOrder } from './journal-state.js';
import type { BracketLegs, OrderRole } from './journal-records.js';
import type { OrderEvent } from './order-events.js';
import type { OrderManagerDeps } from './order-manager-deps.js';
import { OrderRequests } from './order-requests.js';
import { OrderTracker } from './order-tracker.js';
import { planBracketLegs } from './planner-bracket.js';
import { toNewConditional, toNewOrder } from './planner-orders.js';
import { planIntent, type PlannedConditional, type PlannedOrder, type PlannerView, type PlanStep } from './planner.js';
import { reconcileJournal, type ReconcileReport } from './reconcile.js';
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

const keyOf = (strategy: string, intentKey: string): string => `${strategy}\u0000${intentKey}`;

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
  readonly #events = new Subject<OrderEvent>();
  readonly #registry = new InFlightRegistry();
  readonly #tracker: OrderTracker;
  readonly #requests: OrderRequests;
  readonly #view: PlannerView;
  readonly #pending = new Set<Promise<unknown>>();
  readonly #deferred = new Map<string, { strategy: string; intent: Intent }>();
  readonly #kicks = new Set<string>();
  readonly #bracketing = new Set<string>();
  readonly #sub: Subscription;
  readonly #count: (labels: Record<string, string>) => void;
  #closed = false;

  /** Every event of every strategy. */
  readonly events$: Observable<OrderEvent> = this.#events.asObservable();

  constructor(deps: OrderManagerDeps) {
    this.#d = deps;
    this.#log = deps.logger ?? createLogger({ level: 'silent' });
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...(deps.retry ?? {}) };
    this.#newId = deps.newId ?? randomUUID;
    const counter = deps.metrics?.counter({
      name: 'order_manager_total',
      help: 'Order manager activity: intents by kind, events by type, requests by operation and outcome',
      labelNames: ['what', 'kind'],
    });
    this.#count = (labels) => counter?.inc({ what: labels.what ?? '', kind: labels.kind ?? '' });
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
      track: (p) => this.#track(p),
      hooks: {
        cancelRequested: (e) => this.#track(e instanceof InFlightConditional ? this.#requests.cancelConditional(e) : this.#requests.cancelOrders([e])),
        finished: (e) => this.#onFinished(e),
        keyChanged: (s, k) => this.#kick(s, k),
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
      count: (operation, outcome) => this.#count({ what: `request_${operation}`, kind: outcome }),
    });
    this.#view = {
      market: deps.markets,
      mid: (s) => {
        const bid = deps.marketStore.bestBid(s);
        const ask = deps.marketStore.bestAsk(s);
        return bid && ask ? bid.rate.add(ask.rate).div(2) : undefined;
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
    try {
      this.#count({ what: 'intent', kind: intent.kind });
      if (this.#closed) {
        this.#emit({ type: 'rejected', strategy, intentKey: intent.key, code: 'MANAGER_CLOSED', message: 'the order manager is closed', at });
        return;
      }
      this.#forgetDeferred(strategy, intent);
      const plan = planIntent(strategy, intent, this.#view);
      if (plan.kind === 'reject') this.#emit({ type: 'rejected', strategy, intentKey: intent.key, code: plan.code, message: plan.message, at });
      else if (plan.kind === 'defer') this.#deferred.set(keyOf(strategy, intent.key), { strategy, intent });
      else for (const step of plan.steps) this.#execute(step);
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
    const { journal, gateway } = this.#d;
    for (const w of journal.warnings) this.#log.warn({ journal: journal.path }, w);
    const state = JournalState.from(journal.replayed);
    for (const f of state.fills.values()) {
      const r = state.get(f.id);
      this.#tracker.replayFill(r?.strategy ?? '', r?.intentKey ?? '', f);
    }
    const result = await reconcileJournal({ gateway, state, log: this.#log });
    const apply: (() => void)[] = [];
    for (const res of result.resolutions) {
      const r = res.request;
      if (res.outcome === 'notPlaced') {
        journal.append({ t: 'lost', at: this.#d.clock.now(), id: r.kind === 'order' ? r.clientOrderId : r.clientConditionalOrderId });
        continue;
      }
      if ('order' in res) {
        const entry = this.#orderFromJournal(res.request);
        this.#registry.addOrder(entry);
        this.#registry.linkOrderId(entry, res.order.id);
        if (res.request.orderId !== undefined) this.#tracker.markAccepted(entry);
        apply.push(() => this.#tracker.applyOrder(entry, res.order));
      } else {
        const c = this.#conditionalFromJournal(res.request);
        this.#registry.addConditional(c);
        this.#registry.linkConditionalId(c, res.conditional.id);
        if (res.request.id !== undefined) this.#tracker.markAccepted(c);
        const created = res.createdOrder;
        if (created) apply.push(() => this.#tracker.followCreatedOrder(c, created.id, created));
        apply.push(() => this.#tracker.applyConditional(c, res.conditional));
      }
    }
    // Fills first, so orders found closed are complete when they are applied.
    this.#tracker.onExecutions(result.executions);
    for (const f of apply) f();
    for (const b of result.brackets) {
      const r = b.request;
      await this.#ensureBracketLegs({ ...r, marketSymbol: r.request.marketSymbol, direction: r.request.direction, bracket: r.bracket! }, b.filled);
    }
    this.#log.info(
      { ...result.report, unknownOpenOrders: result.report.unknownOpenOrders.map((o) => o.id) },
      'journal reconciled with the exchange',
    );
    return result.report;
  }

  /** Cancel every live order and conditional order of `strategy` (all strategies when omitted), optionally of one market. */
  async cancelAll(strategy?: string, marketSymbol?: string): Promise<void> {
    for (const [k, d] of this.#deferred) {
      if ((strategy === undefined || d.strategy === strategy) && (marketSymbol === undefined || marketOf(d.intent) === marketSymbol)) {
        this.#deferred.delete(k);
      }
    }
    const f = { strategy, marketSymbol };
    const work = [this.#requests.cancelOrders(this.#registry.liveOrders(f)), ...this.#registry.liveConditionals(f).map((c) => this.#requests.cancelConditional(c))];
    for (const p of work) this.#track(p);
    await Promise.all(work);
  }

  /** Funds reserved by placements sent but not yet acknowledged (what the exchange balance does not show yet). */
  inFlightReserved(currency: string): Decimal {
    let sum = ZERO;
    for (const e of this.#registry.allLiveOrders()) {
      if (!e.isUnacknowledged || !e.request) continue;
      const m = this.#d.markets(e.marketSymbol);
      if (!m) continue;
      const r = e.request;
      if (r.direction === 'BUY' && m.quoteCurrencySymbol === currency) {
        const price = r.limit ?? this.#d.marketStore.bestAsk(r.marketSymbol)?.rate;
        sum = sum.add(r.ceiling ?? (r.quantity && price ? r.quantity.mul(price) : ZERO));
      } else if (r.direction === 'SELL' && m.baseCurrencySymbol === currency) {
        const price = r.limit ?? this.#d.marketStore.bestBid(r.marketSymbol)?.rate;
        sum = sum.add(r.quantity ?? (r.ceiling && price ? r.ceiling.div(price) : ZERO));
      }
    }
    return sum;
  }

  /** Open orders of the account, counting placements in flight and orders not placed by this manager. */
  openOrderCount(): number {
    let n = 0;
    for (const e of this.#registry.allLiveOrders()) if (e.state !== 'CLOSED') n++;
    for (const o of this.#d.account.openOrders()) if (!this.#registry.orderById(o.id)) n++;
    return n;
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
      if (this.#pending.size === 0 && this.#kicks.size === 0) return;
      await Promise.allSettled([...this.#pending]);
    }
  }

  /** Stop accepting intents, finish what is in flight, stop following the account, close the journal. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#deferred.clear();
    await this.drain();
    this.#sub.unsubscribe();
    this.#tracker.close();
    this.#d.journal.close();
    this.#events.complete();
  }

  // ---- steps -----------------------------------------------------------------------------------------------

  #execute(step: PlanStep): void {
    switch (step.kind) {
      case 'cancel':
        this.#track(this.#requests.cancelOrders(step.orders));
        for (const c of step.conditionals) this.#track(this.#requests.cancelConditional(c));
        return;
      case 'place': {
        const entry = this.#approveOrder(step.order);
        if (entry) this.#track(this.#requests.placeOrder(entry));
        return;
      }
      case 'conditional': {
        const c = this.#approveConditional(step.conditional, undefined, undefined);
        if (c) this.#track(this.#requests.placeConditional(c));
        return;
      }
      case 'batch': {
        const places = step.places.map((p) => this.#approveOrder(p)).filter((e): e is InFlightOrder => e !== undefined);
        this.#track(this.#requests.batch(places, step.cancels));
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
    this.#emit({ type: 'denied', strategy: proposal.strategy, intentKey: proposal.intentKey, reasons: verdict.reasons, at: this.#d.clock.now() });
    return undefined;
  }

  // ---- brackets --------------------------------------------------------------------------------------------

  #onFinished(e: InFlightOrder): void {
    const filled = e.order?.fillQuantity;
    const bracket = e.bracket;
    if (e.role === 'entry' && bracket && e.state === 'CLOSED' && filled?.gt(0)) this.#track(this.#ensureBracketLegs({ ...pick(e), bracket }, filled));
  }

  /**
   * Place a filled entry's missing exit legs: the take-profit first, then the stop-loss paired with it through
   * orderToCancel, so they form an OCO pair.
   */
  async #ensureBracketLegs(
    entry: { clientOrderId: string; strategy: string; intentKey: string; marketSymbol: string; direction: 'BUY' | 'SELL'; bracket: BracketLegs },
    filled: Decimal,
  ): Promise<void> {
    if (this.#bracketing.has(entry.clientOrderId)) return;
    this.#bracketing.add(entry.clientOrderId);
    try {
      const legs = this.#registry.legsOf(entry.clientOrderId);
      let tp = legs.find((l) => l.role === 'takeProfit');
      const sl = legs.find((l) => l.role === 'stopLoss');
      if (tp && sl) return;
      const plan = planBracketLegs(entry, entry.bracket, filled, this.#tracker.position(entry.marketSymbol, entry.strategy));
      if (!tp) {
        tp = this.#approveConditional(plan.takeProfit, entry.clientOrderId, undefined);
        if (tp) await this.#requests.placeConditional(tp);
      }
      if (!sl) {
        const pair = tp?.id !== undefined && !tp.isFinal ? { type: 'CONDITIONAL_ORDER' as const, id: tp.id } : undefined;
        if (!pair) this.#log.warn({ clientOrderId: entry.clientOrderId }, 'bracket: stop-loss placed without a take-profit to pair with');
        const c = this.#approveConditional(plan.stopLoss, entry.clientOrderId, pair);
        if (c) await this.#requests.placeConditional(c);
      }
    } finally {
      this.#bracketing.delete(entry.clientOrderId);
    }
  }

  // ---- deferred intents ------------------------------------------------------------------------------------

  #kick(strategy: string, intentKey: string): void {
    const k = keyOf(strategy, intentKey);
    if (!this.#deferred.has(k) || this.#kicks.has(k)) return;
    this.#kicks.add(k);
    // After the current change is fully applied (never re-entering the tracker mid-update).
    queueMicrotask(() => {
      this.#kicks.delete(k);
      const d = this.#deferred.get(k);
      if (!d || this.#closed) return;
      this.#deferred.delete(k);
      this.submit(d.strategy, d.intent);
    });
  }

  #forgetDeferred(strategy: string, intent: Intent): void {
    this.#deferred.delete(keyOf(strategy, intent.key));
    if (intent.kind === 'cancel' && intent.targetKey !== undefined) this.#deferred.delete(keyOf(strategy, intent.targetKey));
    if (intent.kind === 'cancelAll') {
      for (const [k, d] of this.#deferred) {
        if (d.strategy === strategy && (intent.marketSymbol === undefined || marketOf(d.intent) === intent.marketSymbol)) this.#deferred.delete(k);
      }
    }
  }

  // ---- plumbing --------------------------------------------------------------------------------------------

  #orderFromJournal(r: JournaledOrder): InFlightOrder {
    const entry = new InFlightOrder({
      clientOrderId: r.clientOrderId,
      strategy: r.strategy,
      intentKey: r.intentKey,
      role: r.role,
      request: { ...r.request, clientOrderId: r.clientOrderId },
      bracket: r.bracket,
      createdAt: r.at,
    });
    this.#tracker.restoreFills(entry);
    return entry;
  }

  #conditionalFromJournal(r: JournaledConditional): InFlightConditional {
    return new InFlightConditional({
      clientConditionalOrderId: r.clientConditionalOrderId,
      strategy: r.strategy,
      intentKey: r.intentKey,
      role: r.role,
      request: r.request,
      parent: r.parent,
      createdAt: r.at,
    });
  }

  #track(p: Promise<unknown>): void {
    const guarded = p.catch((err) => this.#log.error({ err }, 'order request failed unexpectedly'));
    this.#pending.add(guarded);
    void guarded.finally(() => this.#pending.delete(guarded));
  }

  #emit(e: OrderEvent): void {
    this.#count({ what: 'event', kind: e.type });
    this.#log.debug({ event: e.type, strategy: e.strategy, key: e.intentKey }, 'order event');
    try {
      this.#events.next(e);
    } catch (err) {
      // A subscriber's failure must not break the manager's bookkeeping.
      this.#log.error({ err }, 'an order event subscriber threw');
    }
  }
}

function pick(e: InFlightOrder): { clientOrderId: string; strategy: string; intentKey: string; marketSymbol: string; direction: 'BUY' | 'SELL' } {
  return { clientOrderId: e.clientOrderId, strategy: e.strategy, intentKey: e.intentKey, marketSymbol: e.marketSymbol, direction: e.direction };
}

function marketOf(intent: Intent): string | undefined {
  switch (intent.kind) {
    case 'place':
      return intent.order.marketSymbol;
    case 'bracket':
      return intent.entry.marketSymbol;
    case 'quotes':
    case 'trailingStop':
    case 'targetPosition':
      return intent.marketSymbol;
    case 'cancelAll':
      return intent.marketSymbol;
    default:
      return undefined;
  }
}
