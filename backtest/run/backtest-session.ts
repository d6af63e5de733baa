/**
 * One backtest run: the same Kernel as `rexbot run` (sync, stores, strategies, risk, orders, journal) over the
 * {@link BacktestVenue} through its in-process gateway, on one VirtualClock, fed by recorded data merged by time.
 *
 * The loop: for each recorded event, move the clock to its time (timers due before it fire first, in time order:
 * commands reaching the venue, messages reaching the bot, strategy timers, equity samples), then apply it to the
 * venue, which publishes market data and fills; the bot receives them after the market-data latency. The bot's
 * reactions to an event run to their end before the next event is applied: the loop waits a turn of the event
 * loop for them when they queued any work, and goes straight on when they did not (reaction-watch.ts). Events
 * before `from` only build the recorded book (warm-up, before the kernel starts); events after `to` end the run.
 * At the end the clock moves to `to` (or the last event), in-flight commands settle, and the kernel stops
 * without cancelling (the report shows what was still open).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { drainMicrotasks, flushMicrotasks, VirtualClock } from '../../src/core/clock.js';
import type { Decimal } from '../../src/core/decimal.js';
import type { BotConfig } from '../../src/runtime/bot-config.js';
import type { BacktestVenueConfig } from '../../src/runtime/config/backtest-venue.js';
import { discardingJournalFs } from '../../src/orders/journal-appender.js';
import { Kernel } from '../../src/runtime/kernel.js';
import { defaultSimConfig, type MarketConfig } from '../../src/sim/config.js';
import { MAX_RECORDED_MARKETS_BYTES, marketsFromRecordedText } from '../../src/sim/driver/recorded-markets.js';
import { createSimEngine } from '../../src/sim/engine.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { createMetrics } from '../../src/telemetry/metrics.js';
import type { MarketDataReader, MarketEvent } from '../readers/reader.js';
import { readConfiguredJobFile } from '../sweep/confined-files.js';
import { SkippedLines } from './skipped-lines.js';
import type { ReportInput, ReportStrategyFailure } from '../report/report-input.js';
import { createBacktestGateway } from '../venue/backtest-gateway.js';
import { BacktestVenue } from '../venue/backtest-venue.js';
import { createLatency } from '../venue/latency.js';
import { queueModel, type QueueModelName } from '../venue/queue-model.js';
import { backtestAssumptions } from './assumptions.js';
import { mergeByTime } from './merge-events.js';
import { fireTimers } from './fire-timers.js';
import { ReactionWatch } from './reaction-watch.js';
import { ReportBuilder } from './report-builder.js';
import { scratchParent } from './scratch-dir.js';

/**
 * The default (silent) logger, made once at load: pino reads the wall clock when a logger is created, and a run
 * must not (the real-time guard test watches it).
 */
const SILENT = createLogger({ level: 'silent' });

/** A bot config whose venue is a backtest. */
export type BacktestBotConfig = BotConfig & { venue: BacktestVenueConfig };

/** Progress of a run. */
export interface BacktestProgress {
  events: number;
  /** Virtual time now. */
  at: number;
  from: number;
  /** The configured end, or (`open`) the time reached so far. */
  to: number;
  /** The run has no end time: it ends with its data, so `to` says nothing of how far it has come. */
  open?: boolean | undefined;
  /** With `open`: the share of the data files' bytes read, 0..1, when every reader can tell. */
  read?: number | undefined;
}

/** The share of the readers' bytes read, 0..1, when every one of them can tell. */
function dataRead(readers: readonly MarketDataReader[]): number | undefined {
  let read = 0;
  let total = 0;
  for (const r of readers) {
    const p = r.progress?.();
    if (!p) return undefined;
    read += p.read;
    total += p.total;
  }
  return total > 0 ? read / total : undefined;
}

/** Inputs of {@link runSession}. */
export interface SessionOptions {
  config: BacktestBotConfig;
  readers: readonly MarketDataReader[];
  /** Override of the config's queue model (`--band` runs the same config under others). */
  queueModel?: QueueModelName | undefined;
  params?: Record<string, unknown> | undefined;
  onProgress?: ((p: BacktestProgress) => void) | undefined;
  /** Events between progress reports (default 10 000). */
  progressEvery?: number | undefined;
  logger?: Logger | undefined;
  /** What the readers skipped (their `onError`); the counts alone when absent. */
  skipped?: SkippedLines | undefined;
  /** Called with the kernel once it runs (tests look inside). */
  onKernel?: ((kernel: Kernel, venue: BacktestVenue) => void) | undefined;
}

/** What a run returns. */
export interface SessionResult {
  report: ReportInput;
  events: number;
}

/** Run one backtest (see the module note). */
export async function runSession(opts: SessionOptions): Promise<SessionResult> {
  const cfg = opts.config;
  const v = cfg.venue;
  const baseDir = dirname(resolve(cfg.file));
  const strategies = cfg.strategies.filter((s) => s.enabled);
  const markets = [...new Set(v.markets ?? strategies.flatMap((s) => s.markets))];
  if (markets.length === 0) throw new Error(`${cfg.file}: no markets to backtest (no enabled strategy names one)`);
  const events = mergeByTime(opts.readers)[Symbol.asyncIterator]();
  let batch: readonly MarketEvent[] = [];
  let bi = 0;
  const next = async (): Promise<MarketEvent | undefined> => {
    while (bi >= batch.length) {
      const r = await events.next();
      if (r.done) return undefined;
      batch = r.value;
      bi = 0;
    }
    return batch[bi++];
  };

  let event = await next();
  // No data is a mistake to name, not an empty report: with no event the run would start at time 0 and sample
  // equity every interval up to 'to' (decades of samples: it ran out of memory, silently).
  if (event === undefined) throw new Error(`${cfg.file}: the data holds no events for ${markets.join(', ')} (${dataNames(cfg)})`);
  const from = v.from ?? event.at;
  const to = v.to ?? Number.POSITIVE_INFINITY;
  const spanOk = spanCheck(cfg.file, from, v.equityIntervalMs);
  const clock = new VirtualClock(Math.min(from, event?.at ?? from));
  const counted = (prefix: string) => {
    let n = 0;
    return () => `${prefix}-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;
  };
  const engine = createSimEngine({ clock, config: engineConfig(markets, v, baseDir), newId: counted('e0000000') });
  const balances: Record<string, Decimal> = { ...v.balances };
  const accountId = engine.createParticipant(balances);
  const qm = queueModel(opts.queueModel ?? v.fillModel.queue, v.fillModel.exponent);
  const venue = new BacktestVenue({ engine, clock, accountId, markets, queueModel: qm, barLimitFill: v.fillModel.barLimitFill });
  const latency = {
    marketData: createLatency(v.latency.marketData, baseDir, 'marketData'),
    orderEntry: createLatency(v.latency.orderEntry, baseDir, 'orderEntry'),
    cancel: createLatency(v.latency.cancel, baseDir, 'cancel'),
  };
  const gateway = createBacktestGateway(venue, latency);
  const dir = mkdtempSync(join(scratchParent(), 'rexbot-backtest-'));
  const logger = opts.logger ?? SILENT;
  const valuation = markets[0]!.slice(markets[0]!.indexOf('-') + 1);
  const report = new ReportBuilder(venue, valuation, balances);
  let kernel: Kernel | undefined;
  let failures: ReportStrategyFailure[] = [];
  let count = 0;
  let lastAt = from;
  try {
    // Warm-up: the book as it stood at `from`.
    while (event && event.at < from) {
      clock.set(event.at);
      venue.apply(event);
      event = await next();
    }
    if (event === undefined || event.at > to) {
      throw new Error(`${cfg.file}: no events for ${markets.join(', ')} from ${isoTime(from)}${Number.isFinite(to) ? ` to ${isoTime(to)}` : ''} in the data (${dataNames(cfg)})`);
    }
    await clock.advanceTo(from);
    kernel = await Kernel.create({
      gateway,
      clock,
      logger,
      metrics: createMetrics(),
      strategies: strategies.map((s) => ({ name: s.name, use: s.use, markets: s.markets, params: s.params })),
      risk: cfg.risk,
      journalPath: join(dir, 'journal.jsonl'),
      journalCompactBytes: 0,
      journalFsync: false,
      // The journal file is deleted with `dir` when the run ends: nothing would ever read what is written to it.
      journalFs: discardingJournalFs,
      depth: cfg.depth,
      baseDir,
      // A sweep thread runs jobs one after another and --band runs three in one process: each run starts from the
      // plugin's own top-level state, or its report would depend on the runs before it.
      freshPluginModules: true,
      onStrategyFailure: cfg.onStrategyFailure,
      newId: counted('c0000000'),
    });
    const k = kernel;
    k.orders.events$.subscribe(report.onOrderEvent);
    await settle(clock, k.start());
    opts.onKernel?.(k, venue);
    report.sample(clock.now());
    const sampler = clock.setInterval(() => report.sample(clock.now()), v.equityIntervalMs);
    const every = opts.progressEvery ?? 10_000;
    const end = Number.isFinite(to) ? to : undefined;
    /** Progress at `at`: with no end time, how much of the data is read says how far the run has come. */
    const progress = (events: number, at: number, until: number): BacktestProgress => {
      if (end !== undefined) return { events, at, from, to: until };
      return { events, at, from, to: until, open: true, read: dataRead(opts.readers) };
    };
    const streams = gateway.streams;
    const watch = new ReactionWatch().enable();
    // What the venue published for the bot at once waits here for delivery (`pending`), at the point where the
    // gateway's drain microtask would have run; `unsettled`: the bot may have reactions still queued.
    let pending = false;
    let unsettled = true;
    try {
      while (event && event.at <= to) {
        spanOk(event.at, 'an event');
        // Timers due by then fire first, in order, the bot's reactions settling before and after each where they
        // queued work (fireTimers: advanceTo's drains, less those that would find nothing to run). Otherwise only the bot's reactions to the previous event must settle: what was published for it is
        // delivered now, and the loop waits a turn (drainMicrotasks: until no continuation is left) only if the
        // venue or the delivery queued any work (ReactionWatch) — a reaction that queued nothing is complete.
        const due = clock.nextTimerAt();
        if (due !== undefined && due <= event.at) {
          // Delivered before the clock moves, as the drain microtask ran at advanceTo's first settle (watched: fireTimers
          // drains first only if something was queued).
          if (pending) {
            watch.watching = true;
            streams.deliverDue();
            watch.watching = false;
          }
          // What the event or the delivery queued (watch.saw), or the turn before, settles before the first timer.
          const rest = fireTimers(clock, watch, event.at, unsettled || watch.saw);
          if (rest) await rest;
        } else {
          clock.set(event.at);
          if (pending) {
            watch.watching = true;
            streams.deliverDue();
            watch.watching = false;
            if (watch.saw) unsettled = true;
          }
          if (unsettled) await drainMicrotasks();
        }
        pending = false;
        unsettled = false;
        watch.reset();
        watch.watching = true;
        streams.holdDue = true;
        try {
          venue.apply(event);
        } finally {
          streams.holdDue = false;
        }
        pending = streams.holding;
        lastAt = event.at;
        report.sampleWhenFirstValued(event.at);
        // Watched too: whatever it queues ran in the turn that followed the event before.
        if (++count % every === 0) opts.onProgress?.(progress(count, event.at, end ?? event.at));
        watch.watching = false;
        if (bi < batch.length) event = batch[bi++];
        else {
          // A batch's end waits for the reader: what is pending is delivered first (the drain microtask ran in this
          // wait before), and the reactions to it settle at the top, as they did after it.
          if (pending) streams.deliverDue();
          unsettled = pending;
          pending = false;
          event = await next();
        }
      }
    } finally {
      watch.disable();
    }
    if (pending) streams.deliverDue();
    spanOk(end ?? lastAt, "the window's end");
    await clock.advanceTo(end ?? lastAt, drainMicrotasks);
    sampler.cancel();
    report.sample(clock.now());
    opts.onProgress?.(progress(count, clock.now(), end ?? lastAt));
    // The backtest logs nothing: a strategy's failure reaches the user through the report (and the command).
    failures = k.strategyFailures().map((f) => ({ strategy: f.strategy, phase: f.phase, message: f.message }));
    await settle(clock, k.stop({ cancelOpenOrders: false }));
    kernel = undefined;
  } finally {
    if (kernel) await settle(clock, kernel.stop({ cancelOpenOrders: false })).catch(() => undefined);
    await events.return?.(undefined);
    venue.close();
    await gateway.close();
    engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
  const q = venue.queueStats();
  const dataWarnings = (opts.skipped ?? new SkippedLines()).warnings(opts.readers);
  return {
    events: count,
    report: report.build({
      kind: 'backtest',
      name: cfg.bot.name,
      strategies: strategies.map((s) => s.name),
      markets,
      from,
      to: Number.isFinite(to) ? to : lastAt,
      assumptions: backtestAssumptions({ venue: v, queue: qm, latency, markets, engine, queueStats: q, unknownMarketEvents: venue.stats.unknownMarket, mismatches: venue.stats.mismatches, deltasBeforeSnapshot: venue.stats.deltasBeforeSnapshot, earlyDeltas: venue.stats.earlyDeltas, sequenceGaps: venue.stats.sequenceGaps, barMarkets: venue.barMarkets }),
      events: count,
      queueModel: opts.queueModel ?? v.fillModel.queue,
      ...(opts.params && Object.keys(opts.params).length > 0 ? { params: opts.params } : {}),
      ...(failures.length > 0 ? { strategyFailures: failures } : {}),
      ...(dataWarnings.length > 0 ? { dataWarnings } : {}),
    }),
  };
}

/**
 * Wait for `p` while moving the clock: a kernel starting or stopping waits for gateway answers, which arrive on
 * clock timers (latency). Fails if nothing is left to move and `p` still has not settled.
 */
async function settle<T>(clock: VirtualClock, p: Promise<T>): Promise<T> {
  let done = false;
  const tracked = p.finally(() => (done = true));
  tracked.catch(() => undefined);
  for (let i = 0; i < 100_000 && !done; i++) {
    await flushMicrotasks();
    if (done) break;
    const due = clock.nextTimerAt();
    if (due === undefined) {
      await flushMicrotasks(100);
      if (!done) throw new Error('backtest: the kernel waits for something no timer will bring');
      break;
    }
    await clock.advanceTo(due);
  }
  return tracked;
}

/** The simulator's config with the run's markets listed and its fees. */
function engineConfig(markets: readonly string[], v: BacktestVenueConfig, baseDir: string) {
  const base = defaultSimConfig();
  const extra: MarketConfig[] = [];
  if (v.recordedMarkets) {
    const file = resolve(baseDir, v.recordedMarkets.file);
    const rec = marketsFromRecordedText(readConfiguredJobFile(file, 'venue.recordedMarkets.file', MAX_RECORDED_MARKETS_BYTES), file, { symbols: v.recordedMarkets.symbols ?? [...markets] });
    // Recorded definitions win over the defaults of the same symbol.
    const recorded = new Set(rec.markets.map((m) => m.symbol));
    base.markets = base.markets.filter((m) => !recorded.has(m.symbol));
    extra.push(...rec.markets);
    const have = new Set(base.currencies.map((c) => c.symbol));
    base.currencies.push(...rec.currencies.filter((c) => !have.has(c.symbol)));
  }
  const known = new Set([...base.markets, ...extra].map((m) => m.symbol));
  const currencies = new Set(base.currencies.map((c) => c.symbol));
  for (const symbol of markets) {
    if (known.has(symbol)) continue;
    const [baseCur, quoteCur] = symbol.split('-') as [string, string];
    extra.push({
      symbol,
      baseCurrencySymbol: baseCur,
      quoteCurrencySymbol: quoteCur,
      minTradeSize: base.markets[0]!.minTradeSize.mul(0).plus('0.00000001'),
      precision: 8,
      status: 'ONLINE',
      createdAt: new Date(0),
    });
    for (const c of [baseCur, quoteCur]) {
      if (currencies.has(c)) continue;
      currencies.add(c);
      base.currencies.push({ symbol: c, name: c, coinType: 'UNKNOWN', status: 'ONLINE', minConfirmations: 0, txFee: base.currencies[0]!.txFee.mul(0) });
    }
  }
  return defaultSimConfig({
    markets: [...base.markets, ...extra],
    currencies: base.currencies,
    ...(v.fees ? { fees: { maker: v.fees.maker, taker: v.fees.taker } } : {}),
  });
}

/**
 * Equity samples a run may take (one per `equityIntervalMs` of virtual time, each kept for the report) before a
 * time is taken for a mistake: 10M, 19 years at the default minute.
 */
const MAX_EQUITY_SAMPLES = 10_000_000;

/**
 * A check that a time the run is about to reach keeps its equity samples within {@link MAX_EQUITY_SAMPLES} of
 * `from`: a time far off in the data (a bad line: year 2277, or seconds read as ms) or a far `to` would otherwise
 * have the run sample its way there until memory ran out, saying nothing.
 */
function spanCheck(file: string, from: number, intervalMs: number): (at: number, what: string) => void {
  const limit = from + MAX_EQUITY_SAMPLES * intervalMs;
  return (at, what) => {
    if (at <= limit) return;
    const samples = Math.floor((at - from) / intervalMs);
    throw new Error(
      `${file}: ${what} at ${isoTime(at)} is ${((at - from) / 31_557_600_000).toFixed(1)} years after the run's start (${isoTime(from)}): ` +
        `${samples.toExponential(2)} equity samples at one every ${intervalMs} ms. A time far off in the data (a bad line?), or a ` +
        'window too long for venue.equityIntervalMs',
    );
  };
}

/** An epoch-ms time as ISO 8601, or the number when it is beyond what a Date holds. */
function isoTime(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? `${ms} ms` : d.toISOString();
}

/** The data files of a config, for messages. */
function dataNames(cfg: BacktestBotConfig): string {
  return cfg.venue.data.map((d) => d.path).join(', ');
}
