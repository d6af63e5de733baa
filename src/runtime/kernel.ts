/**
 * The kernel: one wiring of live data, portfolio, risk, orders and strategies over any ExchangeGateway and any
 * Clock. Live trading, paper trading and (later) backtests differ only in the gateway and the clock they hand in.
 *
 * Start order matters and is enforced here: streams synchronize, the journal is reconciled against the exchange
 * (strategies never start while an order is unaccounted for), the journal is compacted (it now matches the
 * exchange, so what it can forget is known) and watched for size, then strategies run. Stop order is the reverse:
 * strategies stop emitting, in-flight requests settle, open orders are cancelled if configured, the journal is
 * flushed and closed.
 */
import { filter, type Subscription } from 'rxjs';
import { type Decimal, ZERO } from '../core/decimal.js';
import { CANDLE_INTERVALS } from '../model/enums.js';
import type { Market } from '../model/market.js';
import { type CompactionResult, Journal } from '../orders/journal.js';
import type { OrderEvent } from '../orders/order-events.js';
import { OrderManager, type ReconcileReport } from '../orders/order-manager.js';
import { Portfolio } from '../portfolio/portfolio.js';
import { RiskEngine } from '../risk/risk-engine.js';
import { LimitsKeeper, restoreLimitState } from '../risk/limits-keeper.js';
import { midOf } from '../risk/order-value.js';
import { quotientSurelyAtLeast } from '../risk/checks/dust.js';
import { createStrategyContext } from '../strategy/strategy-context.js';
import { FreshPluginRun, loadConfiguredStrategy, type ConfiguredStrategy } from '../strategy/load-strategy.js';
import { runStrategy, type RunningStrategy } from '../strategy/strategy-runner.js';
import { createLiveData, type LiveData } from '../sync/live-data.js';
import type { HealthReport } from '../telemetry/ops-server.js';
import { OrderActivityLog } from '../telemetry/order-activity-log.js';
import type { StrategyFailure } from '../strategy/strategy-errors.js';
import { kernelMetrics } from './kernel-metrics.js';
import { DEFAULT_JOURNAL_COMPACT_BYTES, type KernelOptions, type StopOptions } from './kernel-options.js';

export { DEFAULT_JOURNAL_COMPACT_BYTES, type KernelOptions, type StopOptions, type StrategyEntry } from './kernel-options.js';

/** The running trading core. */
export class Kernel {
  readonly live: LiveData;
  readonly portfolio: Portfolio;
  readonly risk: RiskEngine;
  readonly orders: OrderManager;
  readonly journal: Journal;
  /** Placed, cancelled and filled orders as short log lines, and their counts for the periodic summary. */
  readonly activity: OrderActivityLog;
  readonly #limits: LimitsKeeper;
  /** Per currency, the names of the markets linking it to BTC (see #btcLink). */
  readonly #btcLinks = new Map<string, { direct: string; inverse: string }>();
  #strategies: RunningStrategy[] = [];
  #reconcile: ReconcileReport | undefined;
  #subs: Subscription[] = [];
  #state: 'created' | 'starting' | 'running' | 'stopping' | 'stopped' = 'created';
  readonly #unwatchJournal: () => void;

  private constructor(
    private readonly opts: KernelOptions,
    private readonly configured: ConfiguredStrategy[],
    private readonly markets: Map<string, Market>,
  ) {
    const { gateway, clock, logger, metrics } = opts;
    this.activity = new OrderActivityLog(logger);
    const marketSymbols = [...new Set(opts.strategies.flatMap((s) => s.markets))];
    const candles = opts.candleIntervals ?? CANDLE_INTERVALS;
    this.live = createLiveData(gateway, { clock, markets: marketSymbols, depths: [opts.depth], trades: true, candles, logger });
    this.portfolio = new Portfolio({ clock, quoteCurrency: quoteOfFirst(marketSymbols) });
    this.journal = Journal.open(opts.journalPath, {
      onWarning: (m) => logger.warn({ journal: opts.journalPath }, m),
      historyPath: opts.journalHistoryPath,
      fsync: opts.journalFsync,
      ...(opts.journalFs ? { fs: opts.journalFs } : {}),
    });
    const market = (s: string) => this.markets.get(s.toUpperCase());
    const account = this.live.account!;
    // Risk reads the order manager (in-flight reservations), the manager asks risk: closures break the cycle.
    // eslint-disable-next-line prefer-const
    let orders: OrderManager;
    this.risk = new RiskEngine(
      opts.risk,
      {
        clock,
        market,
        marketStore: this.live.market,
        streamLive: (m) => this.live.isLive(m),
        available: (c) => account.balance(c)?.available ?? ZERO,
        openOrderCount: () => orders.openOrderCount(),
        inFlightReserved: (c) => orders.inFlightReserved(c),
        pendingOrders: () => orders.pendingOrders(),
        portfolio: this.portfolio,
        btcValue: (c, amount) => this.#btcValue(c, amount),
        btcAtLeast: (c, amount, min) => this.#btcAtLeast(c, amount, min),
      },
      metrics,
    );
    orders = new OrderManager({
      gateway,
      risk: this.risk,
      journal: this.journal,
      clock,
      account,
      marketStore: this.live.market,
      markets: market,
      portfolio: this.portfolio,
      logger: logger.child({ component: 'orders' }),
      metrics,
      newId: opts.newId,
    });
    this.orders = orders;
    // Positions and limits come back together, before any evaluation: the day open, the peaks and a halt are
    // those of the last run, so its PnL counts neither as today's nor as a fall from zero (resuming restores the
    // same positions again, then adds what was missed).
    const saved = this.journal.state;
    for (const p of saved.positions()) this.portfolio.restorePosition(p);
    restoreLimitState(saved.limits, this.portfolio, this.risk, (m) => midOf(this.live.market, m));
    this.#limits = new LimitsKeeper({
      clock,
      portfolio: this.portfolio,
      risk: this.risk,
      checkEveryMs: opts.risk.evaluationIntervalMs,
      write: (s) => this.journal.append({ t: 'limits', ...s }),
    });
    // A journal that cannot be written refuses every order; say so where people look: HALTED with the reason (a
    // halt waits for a person, who can see the disk is fine again), an error log, and /health.
    this.#unwatchJournal = this.journal.onHealth((e) => {
      if (e.kind === 'failed') {
        logger.error({ err: e.error, journal: this.journal.path, torn: e.error.torn }, 'journal write failed; orders refused, trading halted');
        this.risk.halt(`journal cannot be written: ${e.error.message}`);
      } else {
        logger.warn({ journal: this.journal.path }, 'journal writable again; trading stays HALTED until resumed');
      }
    });
  }

  /**
   * Load every strategy plugin (validating its params) and reference data, then build the kernel. A bad plugin
   * fails here, before any connection to trading is made and before any order.
   */
  static async create(opts: KernelOptions): Promise<Kernel> {
    const configured: ConfiguredStrategy[] = [];
    // Fresh modules are per run, not per strategy: two strategies of one plugin share its top level, as live.
    const run = opts.freshPluginModules ? new FreshPluginRun() : 'shared';
    for (const s of opts.strategies) {
      configured.push(await loadConfiguredStrategy({ use: s.use, name: s.name, params: s.params ?? {} }, { baseDir: opts.baseDir, run }));
    }
    const markets = new Map((await opts.gateway.markets()).map((m) => [m.symbol, m]));
    const unknown = opts.strategies.flatMap((s) => s.markets).filter((m) => !markets.has(m));
    if (unknown.length) throw new Error(`unknown market(s) on ${opts.gateway.venue}: ${[...new Set(unknown)].join(', ')}`);
    return new Kernel(opts, configured, markets);
  }

  /** Every market a strategy trades. */
  get marketSymbols(): readonly string[] {
    return [...new Set(this.opts.strategies.flatMap((s) => s.markets))];
  }

  /** Reconciliation result of the last start. */
  get reconcileReport(): ReconcileReport | undefined {
    return this.#reconcile;
  }

  /** Running strategies. */
  get strategies(): readonly RunningStrategy[] {
    return this.#strategies;
  }

  /** Synchronize, reconcile, then run strategies. Throws (and runs nothing) if reconciliation refuses. */
  async start(): Promise<void> {
    if (this.#state !== 'created') throw new Error(`kernel cannot start from state ${this.#state}`);
    this.#state = 'starting';
    const { logger, clock, metrics } = this.opts;
    this.#subs.push(kernelMetrics({ metrics, kernel: this, logger, streams: this.opts.gateway.streams, activity: this.activity }));
    this.#subs.push(this.live.status$.subscribe((s) => {
      // At start every stream synchronizes and goes live at once: those lines are debug, and one info line says
      // when all are live. Later, a stream that resyncs and comes back is news: both at info.
      const starting = this.#state === 'starting';
      if (s.status.state === 'live') logger[starting ? 'debug' : 'info']({ stream: s.stream }, `${s.stream} live`);
      else logger[starting && s.status.state === 'synchronizing' ? 'debug' : 'info']({ stream: s.stream, status: s.status, cause: s.cause }, 'stream status');
    }));
    // ACTIVE is the normal state (at start, or trading resumed): info. REDUCING and HALTED stop trading: warn.
    this.#subs.push(this.risk.state$.subscribe((s) => logger[s.state === 'ACTIVE' ? 'info' : 'warn']({ state: s.state, reason: s.reason }, 'trading state')));
    this.#subs.push(this.portfolio.staleness$.subscribe((v) => {
      if (v.stale.length === 0 && v.unvalued.length === 0) logger.info('equity valued at current marks again');
      else logger.warn({ stale: v.stale, unvalued: v.unvalued, equity: v.equity.toFixed() }, 'equity stale: valued at the last known rates (unvalued: no rate known, limits wait)');
    }));
    await this.live.start();
    await this.#waitLive(this.opts.liveTimeoutMs ?? 30_000);
    logger.info({ streams: this.live.channels.length }, `${this.live.channels.length} streams live`);
    this.#reconcile = await this.orders.reconcile();
    // The ids of open orders the journal did not know, besides their count: they are what an operator looks up.
    const unknown = this.#reconcile.unknownOpenOrders;
    logger.info({ ...this.#reconcile, unknownOpenOrders: unknown.length, unknownOpenOrderIds: unknown.slice(0, 20).map((o) => o.id) }, 'journal reconciled');
    this.#startCompaction();
    // Only now: resuming needs the journal as it was opened.
    this.#limits.start();
    // The keeper refreshes the engine at every check, at the engine's own interval: one timer, not two.
    this.risk.stopOwnInterval();
    for (const c of this.configured) this.#startStrategy(c);
    this.#state = 'running';
    logger.info({ strategies: this.#strategies.map((s) => s.name), at: clock.now() }, 'kernel running');
    this.#checkAllFailed();
  }

  /** Stop strategies, settle requests, optionally cancel open orders, flush the journal, stop streams. */
  async stop(opts: StopOptions): Promise<void> {
    if (this.#state === 'stopped' || this.#state === 'stopping') return;
    this.#state = 'stopping';
    for (const s of this.#strategies) s.stop();
    try {
      await this.orders.drain();
      if (opts.cancelOpenOrders) await this.orders.cancelAll();
    } catch (err) {
      this.opts.logger.error({ err }, 'cancelling open orders on shutdown failed');
    }
    await this.orders.close();
    if (this.#reconcile) this.#limits.close();
    this.#unwatchJournal();
    try {
      this.journal.close();
    } catch (err) {
      this.opts.logger.error({ err, journal: this.journal.path }, 'closing the journal failed');
    }
    this.risk.close();
    for (const s of this.#subs) s.unsubscribe();
    await this.live.stop();
    this.#state = 'stopped';
  }

  /**
   * Compact now — reconciliation has just accounted for every order, so the journal matches the exchange — and
   * then whenever the file reaches the configured size. A failed compaction is logged and trading goes on: the
   * old journal is intact and still appended to.
   */
  #startCompaction(): void {
    const { logger, clock } = this.opts;
    const threshold = this.opts.journalCompactBytes ?? DEFAULT_JOURNAL_COMPACT_BYTES;
    if (threshold <= 0) return;
    const log = (trigger: 'start' | 'size', r: CompactionResult, startedAt: number) =>
      logger.info(
        { journal: this.journal.path, trigger, recordsBefore: r.before.records, bytesBefore: r.before.bytes, recordsAfter: r.after.records, bytesAfter: r.after.bytes, ms: clock.now() - startedAt },
        'journal compacted',
      );
    if (this.journal.size.records > 0) {
      const startedAt = clock.now();
      try {
        log('start', this.journal.compact(startedAt), startedAt);
      } catch (err) {
        logger.error({ err, journal: this.journal.path }, 'journal compaction failed; the journal is unchanged');
      }
    }
    let startedAt = 0;
    this.journal.autoCompact({
      thresholdBytes: threshold,
      now: () => (startedAt = clock.now()),
      onCompacted: (r) => log('size', r, startedAt),
      onError: (err) => logger.error({ err, journal: this.journal.path }, 'journal compaction failed; the journal is unchanged'),
    });
  }

  /** Current health: unhealthy when a stream is not live, trading is HALTED, a strategy failed, or the journal cannot be written. */
  health(): HealthReport {
    const failed = this.#strategies.filter((s) => s.status === 'failed').map((s) => s.name);
    const live = this.live.allLive();
    const journal = this.journal.writable ? { writable: true } : { writable: false, error: this.journal.lastWriteError?.message };
    return {
      healthy: this.#state === 'running' && live && this.risk.state !== 'HALTED' && failed.length === 0 && journal.writable,
      state: this.#state,
      trading: this.risk.state,
      tradingReason: this.risk.stateReason,
      journal,
      streamsLive: live,
      strategies: Object.fromEntries(this.#strategies.map((s) => [s.name, s.status])),
    };
  }

  /** The strategies that failed, each with its phase and cause (a backtest's report lists them). */
  strategyFailures(): StrategyFailure[] {
    return this.#strategies.flatMap((s) => (s.failure ? [s.failure] : []));
  }

  /** Marks for PnL: the synchronized mid of each market. */
  mark = (marketSymbol: string): Decimal | undefined => this.live.market.mid(marketSymbol);

  #startStrategy(c: ConfiguredStrategy): void {
    const { clock, logger, opts } = { ...this.opts, opts: this.opts };
    const entry = opts.strategies.find((s) => s.name === c.name)!;
    const ctx = createStrategyContext({
      name: c.name,
      params: c.params,
      clock,
      logger,
      markets: entry.markets,
      marketStore: this.live.market,
      account: this.live.account!,
      portfolio: this.portfolio,
      orderEvents$: this.orders.eventsFor(c.name),
      marketInfo: (s) => this.markets.get(s),
      bookDepth: opts.depth,
    });
    const running = runStrategy(
      c.definition,
      ctx,
      (i) => this.orders.submit(i.strategy, i.intent),
      (failure) => {
        // The runner has logged the failure (once, with its cause); here only the policy is applied.
        if (opts.onStrategyFailure === 'cancel') {
          this.orders.cancelAll(failure.strategy).catch((err: unknown) => logger.error({ err, strategy: failure.strategy }, 'cancelling a failed strategy\'s orders failed'));
        }
        // During start() the check waits until every strategy has been started (see start()).
        if (this.#state === 'running') this.#checkAllFailed();
      },
    );
    this.#strategies.push(running);
  }

  #allFailedReported = false;

  /** Report, once, that no strategy is running and at least one failed. */
  #checkAllFailed(): void {
    if (this.#allFailedReported || this.#strategies.length === 0) return;
    if (this.#strategies.some((s) => s.status === 'running')) return;
    const failures = this.#strategies.flatMap((s) => (s.failure ? [s.failure] : []));
    if (failures.length === 0) return;
    this.#allFailedReported = true;
    this.opts.onAllStrategiesFailed?.(failures);
  }

  async #waitLive(timeoutMs: number): Promise<void> {
    if (this.live.allLive()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = this.opts.clock.setTimeout(() => {
        sub.unsubscribe();
        const notLive = this.live.channels.filter((c) => this.live.status(c)?.status.state !== 'live');
        reject(new Error(`streams not live after ${timeoutMs} ms: ${notLive.join(', ')}`));
      }, timeoutMs);
      const sub = this.live.status$.pipe(filter(() => this.live.allLive())).subscribe(() => {
        timer.cancel();
        queueMicrotask(() => sub.unsubscribe());
        resolve();
      });
    });
  }

  /** Whether {@link Kernel.#btcValue} is surely at least `min`, decided without its division (see the dust rule). */
  #btcAtLeast(currency: string, amount: Decimal, min: Decimal): boolean {
    // BTC itself and a direct market are valued without a division: #btcValue decides those.
    if (currency === 'BTC') return false;
    const link = this.#btcLink(currency);
    if (midOf(this.live.market, link.direct)) return false;
    const inverse = midOf(this.live.market, link.inverse);
    return inverse !== undefined && quotientSurelyAtLeast(amount, inverse, min);
  }

  /** The markets linking `currency` to BTC (`<currency>-BTC`, `BTC-<currency>`), named once per currency: asked at every order. */
  #btcLink(currency: string): { direct: string; inverse: string } {
    let link = this.#btcLinks.get(currency);
    if (!link) this.#btcLinks.set(currency, (link = { direct: `${currency}-BTC`, inverse: `BTC-${currency}` }));
    return link;
  }

  #btcValue(currency: string, amount: Decimal): Decimal | undefined {
    if (currency === 'BTC') return amount;
    const link = this.#btcLink(currency);
    // midOf, the store's mid computed the same way, keeps the answer for the touch risk has just valued.
    const direct = midOf(this.live.market, link.direct);
    if (direct) return amount.mul(direct);
    const inverse = midOf(this.live.market, link.inverse);
    if (inverse && !inverse.isZero()) return amount.div(inverse);
    return undefined;
  }
}

function quoteOfFirst(markets: readonly string[]): string | undefined {
  const m = markets[0];
  return m ? m.slice(m.indexOf('-') + 1) : undefined;
}

/** Re-exported for callers that log order events. */
export type { OrderEvent };
