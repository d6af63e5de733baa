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
import { createThrottler } from '../bittrex/rest/throttler.js';
import { systemClock, type TimerHandle } from '../core/clock.js';
import { createLogger, registerSecret } from '../telemetry/logger.js';
import { createMetrics, throttlerMetrics } from '../telemetry/metrics.js';
import { startOpsServer, type OpsServer } from '../telemetry/ops-server.js';
import { resolveCredentials, type BotConfig } from './bot-config.js';
import { Kernel } from './kernel.js';
import { loadSimConfig, parseSimConfig } from './sim-config.js';
import { startSimulator, type RunningSimulator } from './simulator.js';

/** A running bot. */
export interface RunningBot {
  readonly kernel: Kernel;
  readonly gateway: ExchangeGateway;
  readonly simulator: RunningSimulator | undefined;
  readonly ops: OpsServer | undefined;
  readonly journalPath: string;
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
  const clock = systemClock;
  let simulator: RunningSimulator | undefined;
  let restUrl: string;
  let hubUrl: string;
  let credentials: { apiKey: string; apiSecret: string } | undefined;
  if (cfg.venue.kind === 'paper') {
    const simCfg = cfg.venue.simulator ? loadSimConfig(resolve(baseDir, cfg.venue.simulator), opts.env) : parseSimConfig('', '<defaults>', baseDir);
    simulator = await startSimulator(simCfg, { env: {}, onInternalError: (err, where) => logger.error({ err, where }, 'simulator internal error') });
    restUrl = cfg.venue.dialect === 'v1' ? simulator.server.restV1Url : simulator.server.restUrl;
    hubUrl = cfg.transport === 'core' ? simulator.server.coreHubUrl : simulator.server.hubUrl;
    credentials = { apiKey: simulator.demo.apiKey, apiSecret: simulator.demo.apiSecret };
    logger.info({ rest: restUrl, hub: hubUrl, driver: simulator.driver.kind }, 'paper trading against the in-process simulator');
  } else {
    restUrl = cfg.venue.restUrl;
    hubUrl = cfg.venue.hubUrl;
    credentials = resolveCredentials(cfg);
  }
  if (credentials) registerSecret(credentials.apiSecret);

  const metrics = createMetrics({ defaultMetrics: true, labels: { bot: cfg.bot.name } });
  const throttler = createThrottler({ clock, callsPerMinute: cfg.callsPerMinute });
  throttlerMetrics(throttler, metrics.registry);
  const gateway: ExchangeGateway = cfg.venue.dialect === 'v1'
    ? createV1Gateway({ restUrl, hubUrl, credentials, clock, throttler })
    : createBittrexGateway({ restUrl, hubUrl, transport: cfg.transport, credentials, clock, throttler, logger: logger.child({ component: 'gateway' }) });
  if (cfg.venue.dialect === 'v1') logger.info({ rest: restUrl, hub: hubUrl }, 'speaking the legacy v1.1 interface (limit orders only; no candles or conditional orders)');

  // A paper run talks to a simulator born with this process, so it keeps its own journal; a live bot keeps one
  // journal for its whole life, which is what makes a restart after a crash reconcile.
  mkdirSync(resolve(baseDir, cfg.journal.dir), { recursive: true });
  const journalPath = cfg.venue.kind === 'paper'
    ? join(resolve(baseDir, cfg.journal.dir), `${cfg.bot.name}-paper-${new Date(clock.now()).toISOString().replace(/[:.]/g, '-')}.jsonl`)
    : join(resolve(baseDir, cfg.journal.dir), `${cfg.bot.name}.jsonl`);

  let kernel: Kernel;
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
      ...(cfg.venue.dialect === 'v1' ? { candleIntervals: [] } : {}),
      baseDir,
      onStrategyFailure: cfg.onStrategyFailure,
    });
    await kernel.start();
  } catch (err) {
    await gateway.close().catch(() => undefined);
    await simulator?.stop();
    throw err;
  }

  const ops = cfg.ops.enabled ? await startOpsServer({ metrics, health: () => kernel.health(), host: cfg.ops.host, port: cfg.ops.port }) : undefined;
  if (ops) logger.info({ metrics: `${ops.url}/metrics`, health: `${ops.url}/health` }, 'ops endpoint');
  const summary: TimerHandle = clock.setInterval(() => logSummary(logger, kernel), SUMMARY_INTERVAL_MS);

  let stopping: Promise<void> | undefined;
  return {
    kernel,
    gateway,
    simulator,
    ops,
    journalPath,
    stop() {
      stopping ??= (async () => {
        summary.cancel();
        logger.info({ cancelOpenOrders: cfg.shutdown.cancelOpenOrders }, 'stopping');
        await kernel.stop({ cancelOpenOrders: cfg.shutdown.cancelOpenOrders });
        logSummary(logger, kernel);
        await ops?.close();
        await gateway.close();
        await simulator?.stop();
        logger.info('stopped');
      })();
      return stopping;
    },
  };
}

/** One line a person can read: each market's mid and spread, open orders, and each strategy's position and PnL. */
export function logSummary(logger: Logger, kernel: Kernel): void {
  const markets: Record<string, string> = {};
  for (const m of kernel.marketSymbols) {
    const bid = kernel.live.market.bestBid(m);
    const ask = kernel.live.market.bestAsk(m);
    if (bid && ask) markets[m] = `${bid.rate.toFixed()} / ${ask.rate.toFixed()}`;
  }
  const strategies: Record<string, unknown> = {};
  for (const s of kernel.strategies) {
    strategies[s.name] = {
      status: s.status,
      positions: Object.fromEntries(kernel.portfolio.positions(s.name).map((p) => [p.marketSymbol, p.quantity.toFixed()])),
      realizedPnl: kernel.portfolio.realizedPnl(s.name).toFixed(8),
      unrealizedPnl: kernel.portfolio.unrealizedPnl(kernel.mark, s.name).toFixed(8),
    };
  }
  logger.info({ markets, openOrders: kernel.live.account?.openOrders().length ?? 0, trading: kernel.risk.state, strategies }, 'summary');
}
