/**
 * The simulator's YAML configuration (`config/sim.yaml`): where it listens, which clock it runs on, the exchange's
 * rules, the demo account's starting balances and what moves the markets. Every field has a default, so an empty
 * file is a working simulator: one whose demo account can trade ({@link DEFAULT_DEMO_BALANCES}).
 */
import { z } from 'zod';
import { dec, type Decimal } from '../core/decimal.js';
import { defaultSimConfig, type SimConfig } from '../sim/config.js';
import type { MarketDriverConfig } from '../sim/driver/market-driver.js';
import { dirname, isAbsolute, resolve } from 'node:path';
import { marketsFromRecordedList } from '../sim/driver/recorded-markets.js';
import { ConfigError, parseYamlConfig, readConfigFile, yamlLocator } from './config/yaml-config.js';
import { marketSymbolSchema, nonNegativeDecimal, portSchema, positiveDecimal } from './config/schema-helpers.js';
import { simConfigProblems } from './sim-config-checks.js';

const lotRange = z
  .tuple([z.number().int().positive(), z.number().int().positive()])
  .refine(([min, max]) => min <= max, 'must be [min, max] with min <= max');

/** A commission rate: a fraction (0.0035 = 0.35 %), never negative, below 1 (a fee of all the proceeds or more). */
const feeRate = nonNegativeDecimal.refine((d) => d.lt(1), 'must be a fraction below 1 (0.0035 = 0.35 %)');

/** Taker activity: baseline rate, burstiness (see TakerConfig), order sizes. Also settable per market. */
const takersSchema = z.strictObject({
  ratePerMinute: z.number().min(0).optional(),
  clustering: z.number().min(0).max(0.95).optional(),
  clusterDecayMs: z.number().min(1).optional(),
  lots: lotRange.optional(),
  limitShare: z.number().min(0).max(1).optional(),
  limitSlippageBps: z.number().min(0).optional(),
});

const perMarketSchema = z.strictObject({
  startPrice: positiveDecimal.optional(),
  volatilityPerSqrtSecond: z.number().min(0).max(0.1).optional(),
  anchorPullPerSecond: z.number().min(0).optional(),
  takers: takersSchema.optional(),
});

const syntheticSchema = z.strictObject({
  kind: z.literal('synthetic'),
  seed: z.union([z.number().int(), z.string()]).optional(),
  markets: z.array(marketSymbolSchema).optional(),
  tickMs: z.number().int().min(10).optional(),
  volatilityPerSqrtSecond: z.number().min(0).max(0.1).optional(),
  anchorPullPerSecond: z.number().min(0).optional(),
  fundingMultiple: z.number().positive().optional(),
  cancelOnStop: z.boolean().optional(),
  makers: z.strictObject({
    count: z.number().int().min(0).max(50).optional(),
    levels: z.number().int().min(1).max(200).optional(),
    halfSpreadBps: z.number().positive().optional(),
    makerSpreadStepBps: z.number().min(0).optional(),
    levelSpacingBps: z.number().positive().optional(),
    requoteThresholdBps: z.number().min(0).optional(),
    levelLots: lotRange.optional(),
  }).optional(),
  takers: takersSchema.optional(),
  /** Hours of trade history generated before the simulator serves (trades, 24-hour summary, candles). */
  historyHours: z.number().min(0).max(744).default(24),
  perMarket: z.record(marketSymbolSchema, perMarketSchema).optional(),
});

const replaySchema = z.strictObject({
  kind: z.literal('replay'),
  /** Hub session captures (`BITTREX.ws.1.0` format), relative to the config file. */
  ws: z.array(z.string()).optional(),
  /** REST order-book snapshot captures (`BITTREX.http.0.0` format), relative to the config file. */
  http: z.array(z.string()).optional(),
  /** `rexbot record` files (`*.jsonl.gz`), relative to the config file: snapshots and messages in one. */
  recordings: z.array(z.string()).optional(),
  /** Legacy v1.1 hub captures (hub c2, with their own snapshots), relative to the config file. */
  v1Ws: z.array(z.string()).optional(),
  markets: z.array(marketSymbolSchema).optional(),
  depth: z.number().int().min(1).max(500).optional(),
  speed: z.number().positive().optional(),
  onBadLine: z.enum(['fail', 'skip']).optional(),
  replayTrades: z.boolean().optional(),
  cancelOnStop: z.boolean().optional(),
}).refine((d) => (d.recordings?.length ?? 0) > 0 || (d.v1Ws?.length ?? 0) > 0 || ((d.ws?.length ?? 0) > 0 && (d.http?.length ?? 0) > 0), {
  message: 'a replay needs `recordings` (rexbot record files), legacy v1.1 hub captures under `v1Ws`, or v3 hub captures under `ws` with their REST snapshots under `http`',
});


/**
 * The demo account's balances when a config names none (`demo.balances`): those config/sim.yaml writes out. A paper
 * bot without `venue.simulator`, `rexbot sim` without a config and `rexbot validate`'s rehearsal run on these;
 * an empty default left such a bot running with every order denied INSUFFICIENT_BALANCE. `balances: {}` still
 * starts the account empty.
 */
export const DEFAULT_DEMO_BALANCES: Readonly<Record<string, string>> = Object.freeze({
  USD: '100000',
  USDT: '100000',
  BTC: '2',
  ETH: '20',
  LTC: '100',
  XRP: '50000',
  ADA: '50000',
});

/** Schema of config/sim.yaml. */
export const simFileSchema = z.strictObject({
  server: z.strictObject({
    host: z.string().default('127.0.0.1'),
    port: portSchema.default(0),
    /** Calls per minute per API key before 429 THROTTLED; 0 = unlimited. */
    callsPerMinute: z.number().int().min(0).default(0),
    timestampWindowMs: z.number().int().positive().default(300_000),
    /** Time to receive a whole request; a body trickled slower is cut with 408. */
    requestTimeoutMs: z.number().int().positive().default(30_000),
    /** Open connections at most (REST and hub); further ones are closed at once. */
    maxConnections: z.number().int().positive().default(1024),
    /** Unsent bytes slow hub consumers may hold, per connection and all together, before they are dropped. */
    hubBuffers: z.strictObject({
      perConnection: z.number().int().positive().default(16 * 1024 * 1024),
      total: z.number().int().positive().default(256 * 1024 * 1024),
    }).prefault({}),
  }).prefault({}),
  /** `system`: wall-clock time; `virtual`: time moves only through POST /control/clock/advance. */
  clock: z.enum(['system', 'virtual']).default('system'),
  exchange: z.strictObject({
    markets: z.array(marketSymbolSchema).optional(),
    fees: z.strictObject({ maker: feeRate, taker: feeRate }).optional(),
    maxOpenOrders: z.number().int().positive().optional(),
    conditionalTriggerDelayMs: z.number().int().min(0).optional(),
    addressProvisionDelayMs: z.number().int().min(0).optional(),
    allowedAddressWaitMs: z.number().int().min(0).optional(),
    withdrawalStepMs: z.number().int().min(0).optional(),
    /** Minimum order value in satoshi (DUST_TRADE_DISALLOWED_MIN_VALUE); the seed's 50 000 by default. */
    dustMinValueSatoshi: z.number().int().min(0).optional(),
    /** Price slippage limit of market orders (fraction; ORDERBOOK_DEPTH beyond it); `null` switches it off. Default 0.1. */
    maxSlippage: nonNegativeDecimal.nullable().optional(),
    /** Sub-accounts and transfers for partner accounts only (seed); false opens them to every account. Default true. */
    partnersOnly: z.boolean().optional(),
    /** Add markets (and their currencies) from a recorded GET /v3/markets response (line 1 of a `BITTREX.0` file). */
    recordedMarkets: z.strictObject({ file: z.string(), symbols: z.array(marketSymbolSchema).min(1) }).optional(),
  }).prefault({}),
  demo: z.strictObject({
    /** Starting balances by currency; default {@link DEFAULT_DEMO_BALANCES}. */
    balances: z.record(z.string().regex(/^[A-Z0-9]+$/), positiveDecimal).default(() => Object.fromEntries(Object.entries(DEFAULT_DEMO_BALANCES).map(([c, v]) => [c, dec(v)]))),
    /** Whether the demo account is a partner (sub-accounts, transfers). Default true. */
    partner: z.boolean().default(true),
  }).prefault({}),
  driver: z.discriminatedUnion('kind', [syntheticSchema, replaySchema, z.strictObject({ kind: z.literal('none') })]).prefault({ kind: 'synthetic' }),
});

/** A parsed config/sim.yaml; `baseDir` resolves the relative paths it names. */
export type SimFileConfig = z.output<typeof simFileSchema> & { baseDir: string };

/**
 * Load and validate a simulator config file. Every error is a ConfigError naming the file, the field path and its
 * line: schema errors, and the problems only the whole file shows (see sim-config-checks.ts), such as a driver
 * market the exchange does not list or a capture file that does not exist.
 */
export function loadSimConfig(file: string, env: NodeJS.ProcessEnv = process.env): SimFileConfig {
  return parseSimConfig(readConfigFile(file), file, dirname(resolve(file)), env);
}

/**
 * Parse simulator config text (for tests and embedded configs) as {@link loadSimConfig} does a file; relative
 * paths resolve against `baseDir`, `${VAR}` values come from `env` (none by default).
 */
export function parseSimConfig(text: string, file = '<inline>', baseDir = process.cwd(), env: NodeJS.ProcessEnv = {}): SimFileConfig {
  const cfg = parseYamlConfig(text, file, simFileSchema, env);
  const problems = simConfigProblems(cfg, baseDir);
  if (problems.length > 0) {
    const locate = yamlLocator(text);
    const issues = problems.map((p) => ({ path: pathText(p.key === undefined ? p.path : [...p.path, p.key]), message: p.message, ...locate(p.path, p.key) }));
    // In the file's reading order, as the schema's own errors come.
    issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0));
    throw new ConfigError(file, issues);
  }
  return { ...cfg, baseDir };
}

/** `['driver', 'markets', 0]` as `driver.markets[0]`, as the schema's errors write paths. */
function pathText(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${String(p)}` : String(p);
  return s;
}

const at = (cfg: SimFileConfig, p: string): string => (isAbsolute(p) ? p : resolve(cfg.baseDir, p));

/** The engine configuration a file describes (defaults for everything it leaves out). */
export function engineConfigOf(cfg: SimFileConfig): SimConfig {
  const base = defaultSimConfig();
  const ex = cfg.exchange;
  const out: SimConfig = { ...base };
  if (ex.markets) {
    const wanted = new Set(ex.markets);
    const unknown = ex.markets.filter((m) => !base.markets.some((bm) => bm.symbol === m));
    if (unknown.length) throw new Error(`exchange.markets: unknown market(s) ${unknown.join(', ')}; known: ${base.markets.map((m) => m.symbol).join(', ')}`);
    out.markets = base.markets.filter((m) => wanted.has(m.symbol));
  }
  if (ex.recordedMarkets) {
    // Recorded markets come on top of the chosen defaults, with any currency the defaults lack.
    const rec = marketsFromRecordedList(at(cfg, ex.recordedMarkets.file), { symbols: ex.recordedMarkets.symbols, knownCurrencies: base.currencies, field: 'exchange.recordedMarkets.file' });
    out.currencies = [...base.currencies, ...rec.currencies.filter((c) => !base.currencies.some((b) => b.symbol === c.symbol))];
    out.markets = [...out.markets, ...rec.markets.filter((m) => !out.markets.some((b) => b.symbol === m.symbol))];
  }
  if (ex.fees) out.fees = { maker: ex.fees.maker, taker: ex.fees.taker };
  if (ex.maxOpenOrders !== undefined) out.maxOpenOrders = ex.maxOpenOrders;
  if (ex.conditionalTriggerDelayMs !== undefined) out.conditionalTriggerDelayMs = ex.conditionalTriggerDelayMs;
  if (ex.addressProvisionDelayMs !== undefined) out.addressProvisionDelayMs = ex.addressProvisionDelayMs;
  if (ex.allowedAddressWaitMs !== undefined) out.allowedAddressWaitMs = ex.allowedAddressWaitMs;
  if (ex.withdrawalStepMs !== undefined) out.withdrawalStepMs = ex.withdrawalStepMs;
  if (ex.dustMinValueSatoshi !== undefined) out.dustMinValueSatoshi = ex.dustMinValueSatoshi;
  if (ex.maxSlippage !== undefined) out.maxSlippage = ex.maxSlippage ?? undefined;
  if (ex.partnersOnly !== undefined) out.partnersOnly = ex.partnersOnly;
  return out;
}

/** The market driver configuration a file describes. */
export function driverConfigOf(cfg: SimFileConfig): MarketDriverConfig {
  const d = cfg.driver;
  if (d.kind === 'replay') {
    const files = (list: string[] | undefined) => (list ?? []).map((p) => at(cfg, p));
    return { ...d, ws: files(d.ws), http: files(d.http), recordings: files(d.recordings), v1Ws: files(d.v1Ws) } as MarketDriverConfig;
  }
  return d as MarketDriverConfig;
}

/** Demo balances as decimals. */
export function demoBalancesOf(cfg: SimFileConfig): Record<string, Decimal> {
  return cfg.demo.balances;
}
