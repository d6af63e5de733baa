/**
 * The risk engine: every order the planner proposes passes {@link RiskEngine.evaluate} before the order manager
 * sends it. It runs every check (src/risk/checks/, one per file) and collects ALL their reasons, so a denial
 * says everything that is wrong at once; checks may also correct an order (precision, min trade size) when the
 * config says to round. Denials are values, never exceptions, and are counted per reason code in
 * `rexbot_risk_denials_total{reason}`. Except over the submit rate while ACTIVE: a full window denies
 * SUBMIT_RATE alone before any other check runs (a strategy over the rate meets it at every requote; the order
 * manager retries the wish when the window admits it, and that evaluation runs every check).
 *
 * Trading state (NautilusTrader's small state machine):
 * - ACTIVE: orders pass the checks.
 * - REDUCING: only orders that reduce a position pass. Entered when the daily loss reaches `dailyLossLimit`
 *   (with `onDailyLoss: 'REDUCING'`); left automatically at the next UTC day, or by {@link RiskEngine.resume}.
 * - HALTED: no risk-increasing order passes. Entered on `maxDrawdown`, on the daily loss with
 *   `onDailyLoss: 'HALTED'`, or by {@link RiskEngine.halt}; left only by {@link RiskEngine.resume} — a halt
 *   needs a person.
 * Automatic transitions only ever tighten (ACTIVE → REDUCING → HALTED). Limits are re-evaluated on every
 * evaluate() and every `evaluationIntervalMs` of the clock, because marks move without any order.
 * Equity is the portfolio's: an amount whose conversion mark is missing is valued at its last known rate (the
 * `rexbot_equity_stale` gauge is then 1), never as zero; with no rate ever known it is 2 and the limits are not
 * judged until one is. {@link RiskEngine.resume} accepts the losses so far: the daily loss and the drawdown then count from the
 * equity at the moment of the resume (otherwise the next evaluation would trip the same limit again).
 */
import { BehaviorSubject, type Observable } from 'rxjs';
import type { Counter, Gauge } from 'prom-client';
import type { TimerHandle } from '../core/clock.js';
import { type Decimal, dgt, ZERO } from '../core/decimal.js';
import type { ProposedOrder, RiskReason, RiskVerdict } from '../model/intent.js';
import { utcDay } from '../portfolio/equity-curve.js';
import type { Marks } from '../portfolio/portfolio.js';
import { type CounterTally, tallyOf } from '../telemetry/counter-tally.js';
import { metricName, type Metrics } from '../telemetry/metrics.js';
import { availableBalanceCheck } from './checks/available-balance.js';
import { dustCheck } from './checks/dust.js';
import { marketOnlineCheck } from './checks/market-online.js';
import { maxNotionalCheck } from './checks/max-notional.js';
import { maxOpenOrdersCheck } from './checks/max-open-orders.js';
import { maxPositionCheck } from './checks/max-position.js';
import { minTradeSizeCheck } from './checks/min-trade-size.js';
import { precisionCheck } from './checks/precision.js';
import { priceBandCheck } from './checks/price-band.js';
import { streamLiveCheck } from './checks/stream-live.js';
import { submitRateCheck } from './checks/submit-rate.js';
import { ApprovalWindow } from './approval-window.js';
import { tradingStateCheck } from './checks/trading-state.js';
import { estimateFill, type FillEstimate, midOf } from './order-value.js';
import type { RiskConfig } from './risk-config.js';
import type { CheckContext, RiskCheck, RiskContext, TradingState } from './risk-context.js';
import type { RestrictionCause, RiskLimitState, RiskStats, TradingStateChange } from './risk-state.js';

export type { CheckContext, CheckResult, RiskCheck, RiskContext, TradingState } from './risk-context.js';
export type { RiskConfig } from './risk-config.js';
export type { RestrictionCause, RiskLimitState, RiskStats, TradingStateChange } from './risk-state.js';

/** Every check, in the order they run: rounding checks come before the checks that value the order. */
export const DEFAULT_CHECKS: readonly RiskCheck[] = [
  tradingStateCheck,
  streamLiveCheck,
  marketOnlineCheck,
  precisionCheck,
  minTradeSizeCheck,
  dustCheck,
  priceBandCheck,
  maxNotionalCheck,
  maxPositionCheck,
  availableBalanceCheck,
  maxOpenOrdersCheck,
  submitRateCheck,
];

type Cause = RestrictionCause;

const SEVERITY: Record<TradingState, number> = { ACTIVE: 0, REDUCING: 1, HALTED: 2 };

/**
 * The risk engine.
 *
 * @example
 * const risk = new RiskEngine({ ...defaultRiskConfig(), dailyLossLimit: dec('250') }, ctx, metrics);
 * risk.state$.subscribe(({ state, reason }) => log.warn({ state, reason }, 'trading state'));
 * const verdict = risk.evaluate({ strategy: 'mm', intentKey: 'bid-1', reducesPosition: false, marketSymbol: 'BTC-USD',
 *   direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('30000.123') });
 * if (verdict.approved) send(verdict.order); // limit rounded down to the market's precision
 * else log.info({ reasons: verdict.reasons }, 'denied');
 */
export class RiskEngine {
  readonly #config: RiskConfig;
  readonly #ctx: RiskContext;
  readonly #checks: readonly RiskCheck[];
  readonly #checkCtx: CheckContext;
  readonly #marks: Marks;
  readonly #state$: BehaviorSubject<TradingStateChange>;
  /** `#state$.value.state`, kept beside it: every evaluation asks (the trading-state check), a field is cheaper. */
  #state: TradingState = 'ACTIVE';
  readonly #timer: TimerHandle;
  #cause: Cause | undefined;
  readonly #approvals: ApprovalWindow;
  /** The last estimate, for the order object it was made for; cleared at each evaluate() (the book may move). */
  #memoOrder: ProposedOrder | undefined;
  #memoEstimate: FillEstimate | undefined;
  /** Inside {@link RiskEngine.together}: whether its one refresh has run (undefined outside). */
  #planRefreshed: boolean | undefined;
  #day: number;
  #peak: Decimal = ZERO;
  /** Daily-loss baseline set by resume(): the equity at the resume, for the rest of that UTC day. */
  #resumeBase: { day: number; equity: Decimal } | undefined;
  readonly #stats: RiskStats = { evaluated: 0, approved: 0, denied: 0, denialsByReason: {} };
  readonly #denials: CounterTally | undefined;
  readonly #evaluations: CounterTally | undefined;
  readonly #stateGauge: Gauge | undefined;
  readonly #staleGauge: Gauge | undefined;
  #closed = false;
  /** The submit-rate check is among the checks run: it then also gates them (see the file comment). */
  readonly #rateGate: boolean;

  /** The trading state as it changes; emits the current state on subscription. */
  readonly state$: Observable<TradingStateChange>;

  /**
   * `checks` replaces {@link DEFAULT_CHECKS} (tests, or a runtime adding its own); `config.disabledChecks` is
   * applied to whichever list is used.
   */
  constructor(config: RiskConfig, ctx: RiskContext, metrics?: Metrics, opts: { checks?: readonly RiskCheck[] } = {}) {
    this.#config = config;
    this.#approvals = new ApprovalWindow(config.submitRate.windowMs);
    this.#ctx = ctx;
    const disabled = new Set<string>(config.disabledChecks);
    this.#checks = (opts.checks ?? DEFAULT_CHECKS).filter((c) => !disabled.has(c.name));
    this.#rateGate = this.#checks.includes(submitRateCheck);
    this.#marks = (market) => midOf(ctx.marketStore, market);
    const engine = this;
    // One context object for the engine's life: delegates to `ctx` (which may be a class instance, so no spread)
    // and adds the engine's own state.
    this.#checkCtx = {
      clock: ctx.clock,
      market: (s) => ctx.market(s),
      marketStore: ctx.marketStore,
      streamLive: (s) => ctx.streamLive(s),
      available: (c) => ctx.available(c),
      openOrderCount: () => ctx.openOrderCount(),
      inFlightReserved: (c) => ctx.inFlightReserved(c),
      portfolio: ctx.portfolio,
      ...(ctx.pendingOrders ? { pendingOrders: () => ctx.pendingOrders!() } : {}),
      ...(ctx.btcValue ? { btcValue: (c: string, a: Decimal) => ctx.btcValue!(c, a) } : {}),
      ...(ctx.btcAtLeast ? { btcAtLeast: (c: string, a: Decimal, min: Decimal) => ctx.btcAtLeast!(c, a, min) } : {}),
      get tradingState() {
        return engine.state;
      },
      get approvalsInWindow() {
        return engine.#approvals.count;
      },
      estimate(o) {
        if (engine.#memoOrder !== o) {
          engine.#memoEstimate = estimateFill(o, ctx.marketStore);
          engine.#memoOrder = o;
        }
        return engine.#memoEstimate;
      },
    };
    const now = ctx.clock.now();
    this.#day = utcDay(now);
    this.#state$ = new BehaviorSubject<TradingStateChange>({ state: 'ACTIVE', reason: 'started', at: now });
    this.state$ = this.#state$.asObservable();
    if (metrics) {
      // Counted per evaluation: tallies, handed to prom-client when scraped (see counter-tally.ts).
      const denials = reuse<Counter<'reason'>>(metrics, 'risk_denials_total') ?? metrics.counter({ name: 'risk_denials_total', help: 'Orders denied by the risk engine, per reason code', labelNames: ['reason'] });
      this.#denials = tallyOf(denials, ['reason']);
      const evaluations = reuse<Counter<'verdict'>>(metrics, 'risk_evaluations_total') ?? metrics.counter({ name: 'risk_evaluations_total', help: 'Orders evaluated by the risk engine, per verdict', labelNames: ['verdict'] });
      this.#evaluations = tallyOf(evaluations, ['verdict']);
      this.#stateGauge = reuse(metrics, 'risk_trading_state') ?? metrics.gauge({ name: 'risk_trading_state', help: 'Trading state: 0 ACTIVE, 1 REDUCING, 2 HALTED' });
      this.#stateGauge.set(0);
      this.#staleGauge = reuse(metrics, 'equity_stale') ?? metrics.gauge({ name: 'equity_stale', help: 'Equity valued with a last known rate (1), or missing an amount no rate values (2); 0 when current' });
      this.#staleGauge.set(0);
    }
    this.#timer = ctx.clock.setInterval(() => this.refresh(), config.evaluationIntervalMs);
  }

  /** The current trading state. */
  get state(): TradingState {
    return this.#state;
  }

  /** Why the engine is in its current state. */
  get stateReason(): string {
    return this.#state$.value.reason;
  }

  /** Counts since start (a copy). */
  stats(): RiskStats {
    return { ...this.#stats, denialsByReason: { ...this.#stats.denialsByReason } };
  }

  /**
   * Run every check on `order`. Approved: the order to send (possibly rounded). Denied: every reason found —
   * except over the submit rate while ACTIVE: SUBMIT_RATE alone, the other checks not run. Never throws: a check that throws
   * denies with RISK_CHECK_ERROR.
   */
  evaluate(order: ProposedOrder): RiskVerdict {
    const now = this.#ctx.clock.now();
    if (this.#planRefreshed !== true) {
      this.#refreshAt(now);
      if (this.#planRefreshed === false) this.#planRefreshed = true;
    }
    this.#approvals.prune(now);
    this.#memoOrder = undefined;
    this.#memoEstimate = undefined;
    this.#stats.evaluated++;
    // Only while ACTIVE: a halted or reducing engine's denial must still say why trading stopped.
    if (this.#rateGate && this.#state === 'ACTIVE' && this.#approvals.count >= this.#config.submitRate.maxOrders) {
      return this.#deny(submitRateCheck.check(order, this.#checkCtx, this.#config) as RiskReason[]);
    }
    let current = order;
    // Made at the first reason: most evaluations find none.
    let reasons: RiskReason[] | undefined;
    const checks = this.#checks;
    for (let c = 0; c < checks.length; c++) {
      const check = checks[c]!;
      let result;
      try {
        result = check.check(current, this.#checkCtx, this.#config);
      } catch (err) {
        (reasons ??= []).push({ code: 'RISK_CHECK_ERROR', message: `${check.name}: ${(err as Error)?.message ?? String(err)}` });
        continue;
      }
      // Nearly every check answers no reason: nothing to copy then (a spread call per check otherwise).
      let found: readonly RiskReason[] | undefined;
      if ('order' in result) {
        current = result.order;
        found = result.reasons;
      } else found = result;
      if (found !== undefined && found.length > 0) {
        reasons ??= [];
        for (let i = 0; i < found.length; i++) reasons.push(found[i]!);
      }
    }
    if (reasons !== undefined) return this.#deny(reasons);
    this.#stats.approved++;
    this.#approvals.add(now);
    this.#evaluations?.inc('approved');
    return { approved: true, order: current };
  }

  /** Counts a denial. */
  #deny(reasons: RiskReason[]): RiskVerdict {
    this.#stats.denied++;
    for (const r of reasons) {
      this.#stats.denialsByReason[r.code] = (this.#stats.denialsByReason[r.code] ?? 0) + 1;
      this.#denials?.inc(r.code);
    }
    this.#evaluations?.inc('denied');
    return { approved: false, reasons };
  }

  /**
   * When the submit-rate window admits `orders` more orders (at most its whole size) — the moment enough of its
   * oldest approvals have left it — or undefined when it admits them now. The order manager retries a quote ladder
   * the brake turned away then, all of it at once rather than one order per freed slot.
   */
  submitSlotAt(orders = 1): number | undefined {
    this.#approvals.prune(this.#ctx.clock.now());
    return this.#approvals.admitsAt(orders, this.#config.submitRate.maxOrders);
  }

  /** Stop risk-increasing orders until {@link RiskEngine.resume}. */
  halt(reason: string): void {
    this.#cause = 'manual';
    this.#transition('HALTED', reason);
  }

  /**
   * Back to ACTIVE. Losses so far are accepted: the daily loss counts from the current equity for the rest of
   * the UTC day, and the drawdown from the current equity as the new peak.
   */
  resume(reason = 'resumed'): void {
    const now = this.#ctx.clock.now();
    const equity = this.#ctx.portfolio.markToMarket(this.#marks).equity;
    this.#peak = equity;
    this.#resumeBase = { day: utcDay(now), equity };
    this.#cause = undefined;
    this.#transition('ACTIVE', reason);
  }

  /** What a restart needs to carry the limits on (see {@link RiskEngine.restoreLimits}). */
  limitState(): RiskLimitState {
    const { state, reason } = this.#state$.value;
    return { peak: this.#peak, day: this.#day, resumeBase: this.#resumeBase, state, cause: this.#cause, reason };
  }

  /**
   * After a restart, once the portfolio holds the restored positions and equity curve: carry the limits on from
   * `saved` exactly as if the process had never stopped — the same peak, the same resume baseline, the same
   * restriction (a halt still waits for a person; a daily-loss REDUCING of an earlier day ends at the next
   * evaluation, as it would have at midnight). Without a saved state, the peak is the equity now: the restored
   * PnL was made before, and is not a fall from a peak of zero.
   */
  restoreLimits(saved: RiskLimitState | undefined): void {
    if (!saved) {
      this.#peak = this.#ctx.portfolio.markToMarket(this.#marks).equity;
      return;
    }
    this.#peak = saved.peak;
    this.#day = saved.day;
    this.#resumeBase = saved.resumeBase;
    this.#cause = saved.state === 'ACTIVE' ? undefined : saved.cause;
    this.#transition(saved.state, saved.reason);
  }

  /** Re-evaluate the daily loss and drawdown limits now (the clock interval calls this). */
  refresh(): void {
    if (!this.#closed) this.#refreshAt(this.#ctx.clock.now());
  }

  /**
   * Run `fn`, evaluations one after another (one plan's orders), with the limits refreshed at the first only: nothing
   * a refresh reads (positions, balances, marks: moved by events only) changes inside a synchronous call, and the
   * refresh was most of the cost of each order of a ladder the submit-rate brake turns away.
   */
  together<T>(fn: () => T): T {
    if (this.#planRefreshed !== undefined) return fn();
    this.#planRefreshed = false;
    try {
      return fn();
    } finally {
      this.#planRefreshed = undefined;
    }
  }

  /**
   * Stop the engine's own interval: from now on whoever calls this re-evaluates it at least as often through
   * {@link RiskEngine.refresh} (the kernel's LimitsKeeper does at every check, at the same interval), and a second
   * timer would only repeat the same evaluation. Evaluations still refresh first, as always.
   */
  stopOwnInterval(): void {
    this.#timer.cancel();
  }

  /** Stop the interval and complete {@link RiskEngine.state$}. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#timer.cancel();
    this.#state$.complete();
  }

  #refreshAt(now: number): void {
    const portfolio = this.#ctx.portfolio;
    const equity = portfolio.markToMarket(this.#marks).equity;
    const valuation = portfolio.lastValuation;
    this.#staleGauge?.set(valuation.unvalued.length > 0 ? 2 : valuation.stale.length > 0 ? 1 : 0);
    const day = utcDay(now);
    if (day !== this.#day) {
      this.#day = day;
      // A daily-loss REDUCING lasts for its day; a HALT (whatever caused it) waits for a person.
      if (this.state === 'REDUCING' && this.#cause === 'dailyLoss') {
        this.#cause = undefined;
        this.#transition('ACTIVE', 'new UTC day: daily loss limit reset');
      }
    }
    // An amount no rate values is missing from `equity`: judged on it, the limits would trip (or miss) by that
    // whole amount. They wait until it can be valued; the gauge and the portfolio's staleness$ say why.
    if (valuation.unvalued.length > 0) return;
    if (dgt(equity, this.#peak)) this.#peak = equity;
    const { maxDrawdown, dailyLossLimit } = this.#config;
    if (maxDrawdown) {
      const drawdown = this.#peak.minus(equity);
      if (drawdown.gte(maxDrawdown)) {
        this.#tighten('HALTED', 'drawdown', `max drawdown reached: ${drawdown.toFixed()} from peak ${this.#peak.toFixed()} (limit ${maxDrawdown.toFixed()})`);
      }
    }
    if (dailyLossLimit) {
      const base = this.#resumeBase?.day === day ? this.#resumeBase.equity : portfolio.dayOpenEquity(now);
      const loss = base.minus(equity);
      if (loss.gte(dailyLossLimit)) {
        this.#tighten(this.#config.onDailyLoss, 'dailyLoss', `daily loss limit reached: ${loss.toFixed()} (limit ${dailyLossLimit.toFixed()})`);
      }
    }
  }

  // Automatic transitions only tighten.
  #tighten(state: TradingState, cause: Cause, reason: string): void {
    if (SEVERITY[state] <= SEVERITY[this.state]) return;
    this.#cause = cause;
    this.#transition(state, reason);
  }

  #transition(state: TradingState, reason: string): void {
    const current = this.#state$.value;
    if (this.#closed || (current.state === state && current.reason === reason)) return;
    this.#stateGauge?.set(SEVERITY[state]);
    this.#state = state;
    this.#state$.next({ state, reason, at: this.#ctx.clock.now() });
  }
}

/** A metric already declared on `metrics` (a second engine on the same registry shares the series). */
function reuse<M>(metrics: Metrics, name: string): M | undefined {
  return metrics.registry.getSingleMetric(metricName(name)) as M | undefined;
}
