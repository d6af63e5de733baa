/**
 * Choosing what moves the simulated markets: synthetic participants, a recorded capture, or nothing (the books
 * change only through user orders).
 */
import type { Clock } from '../../core/clock.js';
import type { DriverEngine } from './driver-engine.js';
import type { DriverStats } from './driver-stats.js';
import { type ReplayHooks, type ReplayInput, ReplayMarket } from './replay-market.js';
import type { SyntheticMarketInput } from './synthetic-config.js';
import { type SyntheticMarketHooks, SyntheticMarket } from './synthetic-market.js';

/** Which driver, with its configuration (every field but `kind` has a default). */
export type MarketDriverConfig =
  | ({ kind: 'synthetic' } & SyntheticMarketInput)
  | ({ kind: 'replay' } & ReplayInput)
  | { kind: 'none' };

/** A running driver. */
export interface MarketDriver {
  readonly kind: MarketDriverConfig['kind'];
  /** Begin moving the markets (idempotent while running). */
  start(): void;
  /** Stop every timer of the driver (idempotent). */
  stop(): void;
  /** What the driver did since it started. */
  readonly stats: DriverStats;
}

/**
 * Create the configured driver. Configuration problems (unknown market, unreadable or malformed capture with
 * `onBadLine: 'fail'`) throw here, before anything runs.
 *
 * @example
 * const driver = createMarketDriver(engine, clock, { kind: 'synthetic', seed: 42, markets: ['BTC-USD', 'ETH-BTC'] });
 * driver.start();
 * // ...
 * driver.stop();
 */
export function createMarketDriver(
  engine: DriverEngine,
  clock: Clock,
  config: MarketDriverConfig,
  hooks: SyntheticMarketHooks & ReplayHooks = {},
): MarketDriver {
  switch (config.kind) {
    case 'synthetic': {
      const { kind: _kind, ...rest } = config;
      const driver = new SyntheticMarket(engine, clock, rest, hooks);
      return {
        kind: 'synthetic',
        start: () => driver.start(),
        stop: () => driver.stop(),
        get stats() {
          return driver.stats;
        },
      };
    }
    case 'replay': {
      const { kind: _kind, ...rest } = config;
      const driver = new ReplayMarket(engine, clock, rest, hooks);
      return {
        kind: 'replay',
        start: () => driver.start(),
        stop: () => driver.stop(),
        get stats() {
          return driver.stats;
        },
      };
    }
    case 'none': {
      const stats: DriverStats = { placed: 0, cancelled: 0, rejected: {}, credits: 0, errors: 0 };
      return { kind: 'none', start: () => undefined, stop: () => undefined, stats };
    }
    default: {
      const unknown: never = config;
      throw new TypeError(`market driver: unknown kind ${JSON.stringify((unknown as { kind: unknown }).kind)}`);
    }
  }
}
