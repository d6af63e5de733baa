/**
 * Running the simulator as a service: engine + market driver + network server + a funded demo account, from a
 * {@link SimFileConfig}. Used by `rexbot sim` and by paper trading (which starts it in-process).
 */
import { type Clock, systemClock, VirtualClock } from '../core/clock.js';
import { createFundedAccount } from '../server/control/control-api.js';
import { startSimServer, type SimServer } from '../server/sim-server.js';
import { createMarketDriver, type MarketDriver } from '../sim/driver/market-driver.js';
import { createSimEngine, type SimEngine } from '../sim/engine.js';
import { demoBalancesOf, driverConfigOf, engineConfigOf, type SimFileConfig } from './sim-config.js';

/** The demo account's credentials. `apiSecret` is present only when it was generated (to print it once). */
export interface DemoAccount {
  accountId: string;
  apiKey: string;
  apiSecret: string;
  generated: boolean;
}

/** A running simulator. */
export interface RunningSimulator {
  readonly engine: SimEngine;
  readonly server: SimServer;
  readonly driver: MarketDriver;
  readonly demo: DemoAccount;
  readonly clock: Clock;
  /** The one line of JSON `rexbot sim` prints when ready. */
  readyLine(): string;
  stop(): Promise<void>;
}

/** Environment variables naming the demo account's key (all scopes). */
export const SIM_KEY_ENV = 'REXBOT_SIM_API_KEY';
export const SIM_SECRET_ENV = 'REXBOT_SIM_API_SECRET';

/**
 * Start a simulator from `cfg`. When the environment holds REXBOT_SIM_API_KEY and REXBOT_SIM_API_SECRET the
 * funded demo master account uses that key; otherwise a key is generated.
 */
export async function startSimulator(cfg: SimFileConfig, opts: { env?: NodeJS.ProcessEnv; port?: number; onInternalError?: (err: unknown, where: string) => void } = {}): Promise<RunningSimulator> {
  const env = opts.env ?? process.env;
  const clock: Clock = cfg.clock === 'virtual' ? new VirtualClock(systemClock.now()) : systemClock;
  const engine = createSimEngine({ clock, config: engineConfigOf(cfg) });
  const driver = createMarketDriver(engine, clock, driverConfigOf(cfg));
  const key = env[SIM_KEY_ENV];
  const secret = env[SIM_SECRET_ENV];
  const fromEnv = Boolean(key && secret);
  const acct = createFundedAccount(engine, {
    balances: Object.fromEntries(Object.entries(demoBalancesOf(cfg)).map(([c, d]) => [c, d.toFixed()])),
    apiKey: fromEnv ? key : undefined,
    apiSecret: fromEnv ? secret : undefined,
    partner: cfg.demo.partner,
  });
  // The driver starts before the server listens: a synthetic market generates its history (historyHours) and
  // places its first quotes, so the first client finds trades, a summary, candles and a two-sided book.
  driver.start();
  let server: SimServer;
  try {
    server = await startSimServer({
      engine,
      host: cfg.server.host,
      port: opts.port ?? cfg.server.port,
      callsPerMinute: cfg.server.callsPerMinute,
      timestampWindowMs: cfg.server.timestampWindowMs,
      requestTimeoutMs: cfg.server.requestTimeoutMs,
      maxConnections: cfg.server.maxConnections,
      hubBuffers: cfg.server.hubBuffers,
      ...(opts.onInternalError ? { onInternalError: opts.onInternalError } : {}),
    });
  } catch (err) {
    driver.stop();
    engine.dispose();
    throw err;
  }
  const demo: DemoAccount = { ...acct, generated: !fromEnv };
  return {
    engine,
    server,
    driver,
    demo,
    clock,
    readyLine() {
      const line: Record<string, unknown> = {
        ready: true,
        rest: server.restUrl,
        restV1: server.restV1Url,
        hub: server.hubUrl,
        coreHub: server.coreHubUrl,
        control: server.controlUrl,
        controlToken: server.controlToken,
        clock: cfg.clock,
        driver: driver.kind,
        markets: engine.catalog.markets().map((m) => m.symbol),
        demo: { accountId: demo.accountId, apiKey: demo.apiKey, ...(demo.generated ? { apiSecret: demo.apiSecret } : {}) },
      };
      return JSON.stringify(line);
    },
    async stop() {
      driver.stop();
      await server.close();
      engine.dispose();
    },
  };
}
