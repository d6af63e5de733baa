/**
 * A strategy's first moments, rehearsed before trading: the bot's strategies run in this process against the
 * simulator engine on a virtual clock (the paper venue's simulator config, or the defaults), through the same
 * kernel as a real run, for a few simulated seconds. A strategy that throws in `setup()`, errors its observable
 * or emits something that is not an intent fails here, in `rexbot validate`, instead of in the first minute of a
 * live run; so does one whose intents are malformed (a quantity given as a number or a string, not a Decimal), which
 * a run would deny one by one (INVALID_INTENT) while the strategy went on; one placing orders the bot's venue cannot
 * place without declaring them (a MARKET order on v1.1: rehearsal-findings.ts); and an error that escapes every
 * strategy's isolation (an unhandled rejection of a plugin's own `async` callback), which stops a run. It also
 * notes the wall-clock timers a strategy starts (real-timer-watch.ts), which on this virtual time, as in a
 * backtest, fire late or never, and its reads of the wall clock (clock-read-watch.ts: `Date.now()`, `new Date()`,
 * ...), which there give a time past every event the bot has seen. No socket is opened and nothing outside the process is touched; the journal goes to
 * a temp folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { VirtualClock } from '../core/clock.js';
import { createSimGateway } from '../gateway/sim-gateway.js';
import { createMarketDriver, type MarketDriverConfig } from '../sim/driver/market-driver.js';
import { createSimEngine } from '../sim/engine.js';
import { createLogger } from '../telemetry/logger.js';
import { createMetrics } from '../telemetry/metrics.js';
import { venueLacks } from '../model/venue-features.js';
import { venueDialect, type BotConfig } from './bot-config.js';
import { Kernel } from './kernel.js';
import { assertPaperMarkets } from './paper-markets.js';
import { watchRehearsal, type InvalidIntents, type RiskDenials, type UnsupportedOrders } from './rehearsal-findings.js';
import { captureStrayErrors, describeStrayError } from './stray-errors.js';
import type { RealTimerUse } from './real-timer-watch.js';
import type { ClockReadUse } from './clock-read-watch.js';
import { rehearsedPlugins, startRehearsalWatches, type RehearsalWatches } from './rehearsal-watches.js';
import { demoBalancesOf, driverConfigOf, engineConfigOf, loadSimConfig, parseSimConfig } from './sim-config.js';

/** What the rehearsal found, per strategy. */
export interface DryRunResult {
  /** Simulated milliseconds the strategies ran. */
  ranMs: number;
  strategies: {
    name: string;
    status: 'running' | 'failed' | 'stopped';
    error?: string | undefined;
    intents: number;
    /** Intents the order manager denied as malformed (INVALID_INTENT): how many, and the first one's key and reason. */
    invalidIntents?: InvalidIntents | undefined;
    /** Orders the bot's venue cannot place (a MARKET order on v1.1) that the strategy did not declare in `uses`. */
    unsupportedOrders?: UnsupportedOrders | undefined;
    /** Orders the risk engine denied (INVALID_INTENT aside), by reason code. */
    riskDenials?: RiskDenials | undefined;
    /**
     * Wall-clock timers the strategy started (setTimeout/setInterval, or RxJS operators on their default
     * scheduler): on virtual time they fire late or never, here and in a backtest (real-timer-watch.ts).
     */
    realTimers?: RealTimerUse | undefined;
    /**
     * Reads of the wall clock in the strategy's code (`Date.now()`, `new Date()`, `performance.now()`,
     * `process.hrtime`): the machine's time, not the bot's, here and in a backtest (clock-read-watch.ts).
     */
    clockReads?: ClockReadUse | undefined;
  }[];
  /**
   * Errors that escaped every strategy's isolation during the rehearsal (unhandled rejections, uncaught
   * exceptions), each distinct one once with where it was thrown (and how often, when more than once); `rexbot run`
   * stops the bot on the first. Absent when there were none.
   */
  strayErrors?: string[] | undefined;
  /**
   * Why the rehearsal could not run at all (a live or backtest bot's market the simulator's defaults do not list);
   * strategies is then empty. A paper bot's market its own simulator lacks is a ConfigError instead.
   */
  skipped?: string | undefined;
}

/** Options of {@link dryRun}. */
export interface DryRunOptions {
  /** Simulated milliseconds to run (default {@link DRY_RUN_MS}). */
  ms?: number;
  /** The environment `${VAR}` references of the simulator config resolve in. */
  env?: NodeJS.ProcessEnv;
  /**
   * The wall-clock watches, when the caller started them already (`rexbot validate` does, before it loads the
   * plugins: rehearsal-watches.ts); the caller then stops them. Without, the rehearsal starts and stops its own.
   */
  watches?: RehearsalWatches;
}

/** How long the strategies run in simulated time by default: long enough for throttles and first timers. */
export const DRY_RUN_MS = 15_000;

/**
 * Run `cfg`'s enabled strategies for `ms` simulated milliseconds against an in-process simulated market.
 *
 * @example
 * const r = await dryRun(loadBotConfig('config/paper.yaml'));
 * r.strategies.filter((s) => s.status === 'failed'); // [] when every setup() and first intents worked
 */
export async function dryRun(cfg: BotConfig, opts: DryRunOptions = {}): Promise<DryRunResult> {
  const ms = opts.ms ?? DRY_RUN_MS;
  const baseDir = dirname(resolve(cfg.file));
  const simCfg = cfg.venue.kind === 'paper' && cfg.venue.simulator
    ? loadSimConfig(resolve(baseDir, cfg.venue.simulator), opts.env)
    : parseSimConfig('', '<defaults>', baseDir);
  const clock = new VirtualClock(Date.UTC(2024, 0, 1));
  const engine = createSimEngine({ clock, config: engineConfigOf(simCfg) });
  const known = new Set(engine.catalog.markets().map((m) => m.symbol));
  const enabled = cfg.strategies.filter((s) => s.enabled);
  if (cfg.venue.kind === 'paper') {
    // The paper venue is this very simulator: a market it lacks is the config's mistake, not a reason to skip.
    try {
      assertPaperMarkets(cfg, [...known]);
    } catch (err) {
      engine.dispose();
      throw err;
    }
  }
  const missing = [...new Set(enabled.flatMap((s) => s.markets))].filter((m) => !known.has(m));
  if (missing.length > 0) {
    engine.dispose();
    return { ranMs: 0, strategies: [], skipped: `the simulator does not list ${missing.join(', ')}` };
  }
  const traded = new Set(enabled.flatMap((s) => s.markets));
  const online = engine.catalog.markets().filter((m) => m.status === 'ONLINE' && traded.has(m.symbol)).map((m) => m.symbol);
  const driver = createMarketDriver(engine, clock, rehearsalDriver(driverConfigOf(simCfg), traded, online));
  const balances = demoBalancesOf(simCfg);
  const account = engine.createParticipant(Object.keys(balances).length > 0 ? balances : undefined);
  const gateway = createSimGateway(engine, account);
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-validate-'));
  let kernel: Kernel | undefined;
  const strays = captureStrayErrors();
  let watches: RehearsalWatches;
  try {
    watches = opts.watches ?? startRehearsalWatches(rehearsedPlugins(enabled, baseDir));
  } catch (err) {
    await strays.stop();
    throw err;
  }
  const { timers, reads } = watches;
  try {
    driver.start();
    // Let the synthetic market build its books before the strategies look at them, as the paper venue does.
    await clock.advance(2_000);
    kernel = await Kernel.create({
      gateway,
      clock,
      logger: createLogger({ level: 'silent', clock }),
      metrics: createMetrics(),
      strategies: enabled.map((s) => ({ name: s.name, use: s.use, markets: s.markets, params: s.params })),
      risk: cfg.risk,
      journalPath: join(dir, 'journal.jsonl'),
      journalCompactBytes: 0,
      depth: cfg.depth,
      baseDir,
      onStrategyFailure: 'cancel',
    });
    const findings = watchRehearsal(kernel.orders.events$, venueLacks(venueDialect(cfg.venue)));
    const starting = kernel.start();
    // start() waits for streams to go live, which takes simulated time: advance until it has resolved.
    let started = false;
    void starting.then(() => (started = true), () => (started = true));
    for (let i = 0; i < 600 && !started; i++) await clock.advance(100);
    await starting;
    for (let left = ms; left > 0; left -= 250) await clock.advance(Math.min(250, left));
    findings.stop();
    await strays.stop();
    return {
      ranMs: ms,
      strayErrors: strays.errors.length > 0 ? countedOnce(strays.errors.map(describeStrayError)) : undefined,
      strategies: kernel.strategies.map((s) => ({
        name: s.name,
        status: s.status,
        error: s.failure ? describe(s.failure.cause) : undefined,
        intents: s.intentCount,
        invalidIntents: findings.invalidIntents.get(s.name),
        unsupportedOrders: findings.unsupportedOrders.get(s.name),
        riskDenials: findings.riskDenials.get(s.name),
        realTimers: timers.uses.get(s.name),
        clockReads: reads.uses.get(s.name),
      })),
    };
  } finally {
    await strays.stop();
    await kernel?.stop({ cancelOpenOrders: false }).catch(() => undefined);
    // After the strategies stopped: the wall-clock timers they left pending are cleared with the watch, and the
    // wall-clock functions (and the global Date) are the originals again, whatever went wrong. Watches the caller
    // started are the caller's to stop.
    if (!opts.watches) watches.stop();
    driver.stop();
    await gateway.close();
    engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The synthetic market moves only the markets the strategies trade: a strategy sees no other, and the simulator's
 * defaults list nine, each with a day of history and its own makers and takers, which were most of what
 * `rexbot validate` spent on a rehearsal of one market. Each market's prices come from its own seeded stream, so
 * the markets that move move as they would with the others. A replay is left as it is (it plays what it holds).
 */
function rehearsalDriver(cfg: MarketDriverConfig, traded: ReadonlySet<string>, tradedOnline: string[]): MarketDriverConfig {
  if (cfg.kind !== 'synthetic') return cfg;
  // With no list of its own the driver moves every ONLINE market; with one, the markets it names.
  return { ...cfg, markets: cfg.markets === undefined ? tradedOnline : cfg.markets.filter((m) => traded.has(m)) };
}

/** Each distinct line once, in first-seen order, with how many times it came when more than once. */
function countedOnce(lines: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const l of lines) counts.set(l, (counts.get(l) ?? 0) + 1);
  return [...counts].map(([l, n]) => (n === 1 ? l : `${l}, ${n} times`));
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
