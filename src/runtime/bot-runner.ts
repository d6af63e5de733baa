/**
 * Running a bot from its config: the venue (paper: an in-process simulator reached over real HTTP and hub
 * connections; live: URLs), the Bittrex gateway, the kernel, the ops endpoint and a periodic summary in the log.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { createBittrexGateway } from '../bittrex/gateway.js';
import { createV1Gateway } from '../bittrex/v1/gateway/v1-gateway.js';
import type { ExchangeGateway } from '../gateway/exchange-gateway.js';
import type { SharedThrottler } from '../bittrex/rest/shared-throttler.js';
import { createThrottler, type Throttler } from '../bittrex/rest/throttler.js';
import { systemClock, type TimerHandle } from '../core/clock.js';
import { createLogger, registerSecret } from '../telemetry/logger.js';
import { createMetrics, throttlerMetrics } from '../telemetry/metrics.js';
import { startOpsServer, type OpsServer } from '../telemetry/ops-server.js';
import { resolveCredentials, venueDialect, type BotConfig } from './bot-config.js';
import { loadBotPlugins } from './bot-plugins.js';
import { Kernel } from './kernel.js';
import { engineConfigOf, loadSimConfig, parseSimConfig } from './sim-config.js';
import { assertPaperMarkets } from './paper-markets.js';
import { startSimulator, type RunningSimulator } from './simulator.js';
import { watchStalls } from './stall-watch.js';
import type { StrategyFailure } from '../strategy/strategy-errors.js';

/** A running bot. */
export interface RunningBot {
  readonly kernel: Kernel;
  readonly gateway: ExchangeGateway;
  readonly simulator: RunningSimulator | undefined;
  readonly ops: OpsServer | undefined;
  readonly journalPath: string;
  /**
   * Resolves with the reason when the bot stopped by itself because no strategy was left running
   * (`onAllStrategiesFailed: stop`); the open orders were cancelled and the bot is stopped by then. Never rejects.
   */
  readonly failed: Promise<string>;
  /** Graceful stop: strategies, in-flight requests, (optionally) open orders, journal, connections. */
  stop(): Promise<void>;
}

/** How often the summary line (market, orders, positions, PnL) is logged. */
export const SUMMARY_INTERVAL_MS = 5_000;

/**
 * Start the bot `cfg` describes.
 *
 * @example
 * const bot = await runBot(loadBotConfig('config/paper.yaml'));
 * process.once('SIGINT', () => void bot.stop());
 */
export async function runBot(cfg: BotConfig, opts: { logger?: Logger; env?: NodeJS.ProcessEnv } = {}): Promise<RunningBot> {
  const logger = opts.logger ?? createLogger({ name: cfg.bot.name, level: cfg.log.level });
  const baseDir = dirname(resolve(cfg.file));
  // Every plugin loads and its params check out before anything starts: a typo in a param is reported with its
  // line in the YAML, not after the embedded simulator has started and the streams have synchronized.
  await loadBotPlugins(cfg);
  const clock = systemClock;
  let simulator: RunningSimulator | undefined;
  let restUrl: string;
  let hubUrl: string;
  let credentials: { apiKey: string; apiSecret: string } | undefined;
  let v3RestUrl: string | undefined; // where a v1 gateway reads each market's precision (see v1-gateway.ts)
  if (cfg.venue.kind === 'paper') {
    const simCfg = cfg.venue.simulator ? loadSimConfig(resolve(baseDir, cfg.venue.simulator), opts.env) : parseSimConfig('', '<defaults>', baseDir);
    // A market the simulator does not list is refused at its line in the YAML, before the simulator starts.
    assertPaperMarkets(cfg, engineConfigOf(simCfg).markets.map((m) => m.symbol));
    simulator = await startSimulator(simCfg, { env: {}, onInternalError: (err, where) => logger.error({ err, where }, 'simulator internal error') });
    restUrl = venueDialect(cfg.venue) === 'v1' ? simulator.server.restV1Url : simulator.server.restUrl;
    v3RestUrl = simulator.server.restUrl;
    hubUrl = cfg.transport === 'core' ? simulator.server.coreHubUrl : simulator.server.hubUrl;
    credentials = { apiKey: simulator.demo.apiKey, apiSecret: simulator.demo.apiSecret };
    logger.info({ rest: restUrl, hub: hubUrl, driver: simulator.driver.kind }, 'paper trading against the in-process simulator');
  } else if (cfg.venue.kind === 'backtest') {
    throw new Error(`${cfg.file}: venue kind 'backtest' runs with \`rexbot backtest ${cfg.file}\`, not \`rexbot run\``);
  } else {
    restUrl = cfg.venue.restUrl;
    hubUrl = cfg.venue.hubUrl;
    v3RestUrl = cfg.venue.v3RestUrl;
    credentials = resolveCredentials(cfg);
  }
  if (credentials) registerSecret(credentials.apiSecret);

  const metrics = createMetrics({ defaultMetrics: true, labels: { bot: cfg.bot.name } });
  const { throttler, shared } = await createKeyThrottler(cfg, credentials, logger);
  throttlerMetrics(throttler, metrics.registry);
  const gateway: ExchangeGateway = venueDialect(cfg.venue) === 'v1'
    ? createV1Gateway({ restUrl, hubUrl, credentials, clock, throttler, v3RestUrl, precision: 'precision' in cfg.venue ? cfg.venue.precision : undefined, logger: logger.child({ component: 'gateway' }) })
    : createBittrexGateway({ restUrl, hubUrl, transport: cfg.transport, credentials, clock, throttler, logger: logger.child({ component: 'gateway' }) });
  if (venueDialect(cfg.venue) === 'v1') logger.info({ rest: restUrl, hub: hubUrl }, 'speaking the legacy v1.1 interface (limit orders only; no candles or conditional orders)');

  // A paper run talks to a simulator born with this process, so it keeps its own journal; a live bot keeps one
  // journal for its whole life, which is what makes a restart after a crash reconcile.
  mkdirSync(resolve(baseDir, cfg.journal.dir), { recursive: true });
  const journalPath = cfg.venue.kind === 'paper'
    ? join(resolve(baseDir, cfg.journal.dir), `${cfg.bot.name}-paper-${new Date(clock.now()).toISOString().replace(/[:.]/g, '-')}.jsonl`)
    : join(resolve(baseDir, cfg.journal.dir), `${cfg.bot.name}.jsonl`);

  let kernel: Kernel | undefined;
  // The ops endpoint first: a port it cannot have (another bot's, say) stops the run before anything trades. It
  // was started after the kernel, and its failure left a bot trading with no signal handler and no way to stop
  // gracefully (found by an attack pass: an order left open after Ctrl-C).
  let ops: OpsServer | undefined;
  try {
    ops = cfg.ops.enabled
      ? await startOpsServer({ metrics, health: () => kernel?.health() ?? { healthy: false, state: 'starting' }, host: cfg.ops.host, port: cfg.ops.port })
      : undefined;
  } catch (err) {
    await gateway.close().catch(() => undefined);
    await shared?.close();
    await simulator?.stop();
    throw new Error(`ops endpoint ${cfg.ops.host}:${cfg.ops.port} could not be opened (${(err as Error).message}); nothing was started`, { cause: err });
  }
  let reportFailure: (reason: string) => void = () => undefined;
  const failed = new Promise<string>((resolve) => (reportFailure = resolve));
  let stopBot: (how?: { cancelOpenOrders?: boolean }) => Promise<void> = async () => undefined;
  const onAllStrategiesFailed = (failures: readonly StrategyFailure[]) => {
    const reason = `no strategy is running: ${failures.map((f) => f.message).join('; ')}`;
    if (cfg.onAllStrategiesFailed === 'keep') {
      logger.error({ strategies: failures.map((f) => f.strategy) }, `${reason} (onAllStrategiesFailed: keep, so the bot stays up)`);
      return;
    }
    logger.error({ strategies: failures.map((f) => f.strategy) }, `${reason}; cancelling open orders and stopping`);
    // Out of the failing strategy's call stack: stopping waits for in-flight requests.
    queueMicrotask(() => void stopBot({ cancelOpenOrders: true }).then(() => reportFailure(reason)));
  };
  try {
    kernel = await Kernel.create({
      gateway,
      clock,
      logger,
      metrics,
      strategies: cfg.strategies.filter((s) => s.enabled).map((s) => ({ name: s.name, use: s.use, markets: s.markets, params: s.params })),
      risk: cfg.risk,
      journalPath,
      journalCompactBytes: cfg.journal.compactBytes,
      journalHistoryPath: cfg.journal.keepHistory ? `${journalPath}.history` : undefined,
      depth: cfg.depth,
      // v1.1 has no candles: follow none rather than refuse to start.
      ...(venueDialect(cfg.venue) === 'v1' ? { candleIntervals: [] } : {}),
      baseDir,
      onStrategyFailure: cfg.onStrategyFailure,
      onAllStrategiesFailed,
    });
    await kernel.start();
  } catch (err) {
    await ops?.close();
    await gateway.close().catch(() => undefined);
    await shared?.close();
    await simulator?.stop();
    throw err;
  }

  // Where the journal is: `rexbot report` reads it, and a relative journal.dir is taken from the config's folder.
  logger.info({ journal: journalPath }, `order journal: ${journalPath}`);
  const running = kernel;
  if (ops) logger.info({ metrics: `${ops.url}/metrics`, health: `${ops.url}/health` }, 'ops endpoint');
  const summary: TimerHandle = clock.setInterval(() => logSummary(logger, running), SUMMARY_INTERVAL_MS);
  const stalls = watchStalls({ logger });

  let stopping: Promise<void> | undefined;
  stopBot = (how: { cancelOpenOrders?: boolean } = {}) => {
    stopping ??= (async () => {
      const cancelOpenOrders = how.cancelOpenOrders ?? cfg.shutdown.cancelOpenOrders;
      summary.cancel();
      stalls.stop();
      logger.info({ cancelOpenOrders }, 'stopping');
      await running.stop({ cancelOpenOrders });
      logSummary(logger, running);
      await ops?.close();
      await gateway.close();
      await shared?.close();
      await simulator?.stop();
      logger.info('stopped');
    })();
    return stopping;
  };
  return {
    kernel: running,
    gateway,
    simulator,
    ops,
    journalPath,
    failed,
    stop: () => stopBot(),
  };
}

/**
 * The throttler of the bot's API key: shared through Redis with every other process of the key when
 * `rateLimit.shared` is set (and there is a key), else this process's own.
 */
async function createKeyThrottler(
  cfg: BotConfig,
  credentials: { apiKey: string } | undefined,
  logger: Logger,
): Promise<{ throttler: Throttler; shared: SharedThrottler | undefined }> {
  const url = cfg.rateLimit.shared;
  if (url === undefined || !credentials) return { throttler: createThrottler({ clock: systemClock, callsPerMinute: cfg.callsPerMinute }), shared: undefined };
  const password = safeUrl(url)?.password;
  if (password) registerSecret(decodeURIComponent(password));
  const log = logger.child({ component: 'rate-limit' });
  const { maxProcesses, fallbackShare, cancelReserve, boundaryGuardMs } = cfg.rateLimit;
  // Loaded only here: a bot without a shared budget (and every backtest) never loads the Redis client.
  const { createSharedThrottler } = await import('../bittrex/rest/shared-throttler.js');
  const shared = createSharedThrottler({
    clock: systemClock,
    url,
    apiKey: credentials.apiKey,
    callsPerMinute: cfg.callsPerMinute,
    maxProcesses,
    fallbackShare,
    cancelReserve,
    boundaryGuardMs,
    logger: log,
  });
  const where = safeUrl(url)?.host ?? '?';
  if (await shared.connected()) log.info({ redis: where, ...shared.stats().shared.rule }, 'sharing the API key call budget through Redis');
  else log.warn({ redis: where, ...shared.stats().shared.rule }, 'Redis not reachable at start: spending the fallback share until it is');
  return { throttler: shared, shared };
}

function safeUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * One line a person can read: each market's bid / ask, open orders, each strategy's position and PnL, what
 * happened since the last summary (orders placed, cancelled, filled, denied) and the trading state. The same
 * values are fields of the line for machines.
 */
export function logSummary(logger: Logger, kernel: Kernel): void {
  const markets: Record<string, string> = {};
  for (const m of kernel.marketSymbols) {
    const bid = kernel.live.market.bestBid(m);
    const ask = kernel.live.market.bestAsk(m);
    if (bid && ask) markets[m] = `${bid.rate.toFixed()} / ${ask.rate.toFixed()}`;
  }
  const strategies: Record<string, { status: string; positions: Record<string, string>; realizedPnl: string; unrealizedPnl: string }> = {};
  for (const s of kernel.strategies) {
    strategies[s.name] = {
      status: s.status,
      positions: Object.fromEntries(kernel.portfolio.positions(s.name).map((p) => [p.marketSymbol, p.quantity.toFixed()])),
      realizedPnl: kernel.portfolio.realizedPnl(s.name).toFixed(8),
      unrealizedPnl: kernel.portfolio.unrealizedPnl(kernel.mark, s.name).toFixed(8),
    };
  }
  const openOrders = kernel.live.account?.openOrders().length ?? 0;
  const activity = kernel.activity.takeCounts();
  const text = [
    ...Object.entries(markets).map(([m, q]) => `${m} ${q}`),
    `${openOrders} open`,
    ...Object.entries(strategies).map(([name, s]) =>
      `${name}${s.status === 'running' ? '' : ` (${s.status})`} ${Object.entries(s.positions).map(([m, q]) => `${m} ${q}`).join(' ') || 'flat'} pnl ${trimZeros(s.realizedPnl)}/${trimZeros(s.unrealizedPnl)}`),
    `placed ${activity.placed} cancelled ${activity.cancelled} fills ${activity.fills}${activity.denied > 0 ? ` denied ${activity.denied}` : ''}${activity.rejected > 0 ? ` rejected ${activity.rejected}` : ''}`,
    kernel.risk.state,
  ].join(' | ');
  logger.info({ markets, openOrders, trading: kernel.risk.state, strategies, activity }, `summary: ${text}`);
}

/** `-0.12000000` → `-0.12`, `3.00000000` → `3`: exact digits, shorter to read. */
function trimZeros(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}
