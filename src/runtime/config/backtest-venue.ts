/**
 * The `venue` of a bot config that backtests: `{ kind: backtest, data, from, to, balances, latency, fillModel,
 * fees }`. The rest of the bot config (strategies, risk, depth) is the same file `rexbot run` reads, so a strategy
 * is backtested with exactly the settings it trades with.
 *
 * - `data`: recorded files, each read by a named reader format (`rexbot`, `bittrex-v3-ws`, `tardis`,
 *   `candles-csv`, `candles-json`, ...) with format-specific `params`; several files (and markets) are merged by time.
 * - `from` / `to`: the run window (ISO 8601 or epoch ms). Events before `from` only build the recorded book (a
 *   warm-up); events after `to` are not read.
 * - `balances`: the account's starting balances.
 * - `latency`: market-data (venue to bot), order-entry (bot to venue) and cancel (bot to venue) latencies, each a
 *   constant in ms, a seeded distribution, or a file of measured values in ms.
 * - `fillModel`: the queue model for resting orders on L2 data and the bar-level rules for candle data.
 * - `fees`: maker/taker commission rates (default: the simulator's).
 */
import { z } from 'zod';
import { marketSymbolSchema, nonNegativeDecimal } from './schema-helpers.js';

/** A time in the config: ISO 8601 text or epoch milliseconds. */
const timeSchema = z.union([
  z.number().int().nonnegative(),
  z.string().refine((s) => Number.isFinite(Date.parse(s)), 'must be an ISO 8601 time like 2021-06-14T00:00:00Z'),
]).transform((v) => (typeof v === 'number' ? v : Date.parse(v)));

/** One recorded data file. */
export const backtestDataSchema = z.strictObject({
  /** Reader format name, e.g. `rexbot`, `bittrex-v3-ws`, `tardis`, `candles-csv`, `candles-json`. */
  format: z.string().min(1),
  /** File path (relative to the config file). */
  path: z.string().min(1),
  /** Only these markets of the file (all by default). */
  markets: z.array(marketSymbolSchema).optional(),
  /** Format-specific settings (column mapping, market symbol of a single-market file, candle interval). */
  params: z.record(z.string(), z.unknown()).optional(),
  /** A malformed line: `fail` (default) stops the run with file:line, `skip` reports it and leaves it out. */
  onBadLine: z.enum(['fail', 'skip']).default('fail'),
});

/** A latency: constant ms, a seeded distribution, or measured values from a file. */
export const latencySchema = z.union([
  z.number().nonnegative(),
  z.strictObject({
    /** Constant latency in ms. */
    kind: z.literal('constant'),
    ms: z.number().nonnegative(),
  }),
  z.strictObject({
    /** Normal distribution (draws below `min` are clamped to it). */
    kind: z.literal('normal'),
    mean: z.number().nonnegative(),
    stdev: z.number().nonnegative(),
    min: z.number().nonnegative().default(0),
    seed: z.union([z.number(), z.string()]).default(1),
  }),
  z.strictObject({
    /** Log-normal: `median` ms and the standard deviation `sigma` of the log; a heavy right tail like real networks. */
    kind: z.literal('lognormal'),
    median: z.number().positive(),
    sigma: z.number().nonnegative(),
    min: z.number().nonnegative().default(0),
    seed: z.union([z.number(), z.string()]).default(1),
  }),
  z.strictObject({
    /** Uniform between `min` and `max` ms. */
    kind: z.literal('uniform'),
    min: z.number().nonnegative(),
    max: z.number().nonnegative(),
    seed: z.union([z.number(), z.string()]).default(1),
  }),
  z.strictObject({
    /** Measured values: a file of numbers in ms (one per line, or whitespace/comma separated), drawn in a seeded order. */
    kind: z.literal('file'),
    path: z.string().min(1),
    /** `cycle` replays the values in file order; `sample` draws them at random (seeded). */
    order: z.enum(['cycle', 'sample']).default('sample'),
    seed: z.union([z.number(), z.string()]).default(1),
  }),
]);

/** The queue model of resting orders on L2 data. */
export const queueModelSchema = z.enum(['pessimistic', 'optimistic', 'power', 'log']);

/** The backtest venue. */
export const backtestVenueSchema = z.strictObject({
  /** Replay recorded data in-process, on virtual time, against the simulator engine. */
  kind: z.literal('backtest'),
  data: z.array(backtestDataSchema).min(1),
  from: timeSchema.optional(),
  to: timeSchema.optional(),
  /** Starting balances by currency, e.g. `{ USD: '10000', BTC: '0.5' }`. */
  balances: z.record(z.string().regex(/^[A-Z0-9]+$/, 'must be a currency symbol like USD'), nonNegativeDecimal).default({}),
  latency: z
    .strictObject({
      /** Venue to bot: market data, private streams and REST answers. */
      marketData: latencySchema.default(0),
      /** Bot to venue: new orders (and conditional orders). */
      orderEntry: latencySchema.default(0),
      /** Bot to venue: cancellations. */
      cancel: latencySchema.default(0),
    })
    .prefault({}),
  fillModel: z
    .strictObject({
      /**
       * How an unexplained decrease of a level is split between the queue ahead of our order and behind it:
       * `pessimistic` (all behind), `optimistic` (all ahead), `power` (default; ahead share f(a)/(f(a)+f(b)) with
       * f(x) = x^exponent) or `log` (f(x) = ln(1+x)).
       */
      queue: queueModelSchema.default('power'),
      /** Exponent of the `power` queue model (default 3). */
      exponent: z.number().positive().default(3),
      /** Bar-level data: a resting limit fills when the bar `touch`es its price, or only when it trades through. */
      barLimitFill: z.enum(['touch', 'trade-through']).default('trade-through'),
    })
    .prefault({}),
  /** Commission rates; default: the simulator's (maker 0.0035, taker 0.0035 unless its config says otherwise). */
  fees: z.strictObject({ maker: nonNegativeDecimal, taker: nonNegativeDecimal }).optional(),
  /**
   * Market definitions (minTradeSize, precision) as the service listed them: a recorded `/v3/markets` response
   * (`BITTREX.0` format, as the simulator's `recordedMarkets`). Markets neither there nor in the simulator's
   * defaults get minTradeSize 1e-8 and precision 8.
   */
  recordedMarkets: z.strictObject({ file: z.string().min(1), symbols: z.array(marketSymbolSchema).optional() }).optional(),
  /** Markets of the recording to list on the venue (default: the strategies' markets). */
  markets: z.array(marketSymbolSchema).optional(),
  /** Equity sampling interval of the report, ms of virtual time (default 60 000). */
  equityIntervalMs: z.number().int().positive().default(60_000),
  /** Seed of everything random in the run (ids, probabilistic parts). */
  seed: z.union([z.number(), z.string()]).default(1),
}).refine((v) => v.from === undefined || v.to === undefined || v.from < v.to, { message: 'from must be before to', path: ['to'] });

/** A parsed backtest venue. */
export type BacktestVenueConfig = z.output<typeof backtestVenueSchema>;
/** A parsed latency setting. */
export type LatencyConfig = z.output<typeof latencySchema>;
/** A parsed data entry. */
export type BacktestDataConfig = z.output<typeof backtestDataSchema>;
