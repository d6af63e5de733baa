/**
 * Configuration of the synthetic market driver, as plain data (numbers, strings, records) so a YAML file maps onto
 * it one to one. Every field has a default ({@link DEFAULT_SYNTHETIC_MARKET_CONFIG}); per-market overrides change
 * the price model or the participants of one market only.
 *
 * Sizes are in "lots" of the market's `minTradeSize`: the service set minTradeSize per market to a roughly equal
 * small value (a few USD in 2021), so the same lot counts give sensible sizes on BTC-USD and on XRP-USD alike.
 */
import type { DecimalInput } from '../../core/decimal.js';

/** The market makers of one market. */
export interface MakerConfig {
  /** Makers per market (each an account of its own). */
  count: number;
  /** Levels per side each maker quotes. */
  levels: number;
  /** Distance of the first maker's best bid/ask from the mid, in basis points. */
  halfSpreadBps: number;
  /** Extra half-spread of each further maker (maker k quotes `halfSpreadBps + k × makerSpreadStepBps`). */
  makerSpreadStepBps: number;
  /**
   * Approximate distance between a maker's levels, in basis points of the mid; levels sit on a grid of 1, 2 or
   * 5 × 10^k price ticks (at least one tick), so most of a ladder survives small moves of the mid.
   */
  levelSpacingBps: number;
  /**
   * A maker moves its ladder (cancels levels that left it, places new ones) only when the mid has moved by more
   * than this since the ladder's centre was set. Levels emptied by fills are refilled at every tick regardless.
   */
  requoteThresholdBps: number;
  /** Size of each level, uniform in [min, max] lots. */
  levelLots: [min: number, max: number];
}

/** The noise takers of one market (one account). */
export interface TakerConfig {
  /**
   * Baseline taker orders per minute. With `clustering` the long-run mean is ratePerMinute / (1 − clustering)
   * (defaults: 30 → 100 a minute, in bursts). 0 disables the taker.
   */
  ratePerMinute: number;
  /**
   * Branching ratio of the self-exciting arrivals in [0, 0.95]: the share of orders set off by earlier orders.
   * 0 gives plain Poisson arrivals; higher values give bursts and lulls.
   */
  clustering: number;
  /** How fast a burst dies down: the decay time constant of the excitation, in ms. */
  clusterDecayMs: number;
  /** Size of each taker order, uniform in [min, max] lots. */
  lots: [min: number, max: number];
  /** Share of taker orders sent as LIMIT IMMEDIATE_OR_CANCEL instead of MARKET IMMEDIATE_OR_CANCEL. */
  limitShare: number;
  /** How far through the mid a limit taker is willing to go, in basis points. */
  limitSlippageBps: number;
}

/** What may differ per market. */
export interface SyntheticMarketOverride {
  /** Start (and anchor) price; the start-price table or a cross of reference USD values otherwise. */
  startPrice?: DecimalInput;
  volatilityPerSqrtSecond?: number;
  anchorPullPerSecond?: number;
  makers?: Partial<MakerConfig>;
  takers?: Partial<TakerConfig>;
}

/** Configuration of the synthetic market driver. */
export interface SyntheticMarketConfig {
  /** PRNG seed: the same seed (and config and clock) gives the same orders and trades. */
  seed: number | string;
  /** Markets to drive; every ONLINE market of the catalog when omitted. */
  markets?: string[];
  /** Period of the price walk and of the makers' quote check, in clock milliseconds. */
  tickMs: number;
  /** Standard deviation of the log mid per √second (0.0002 ≈ 1.2 % per hour). */
  volatilityPerSqrtSecond: number;
  /** Mean reversion of the log mid towards the start price, per second (keeps long demos plausible). */
  anchorPullPerSecond: number;
  makers: MakerConfig;
  takers: TakerConfig;
  /**
   * Start inventory of each participant, as a multiple of what it trades at once (a maker's full ladder, a
   * taker's largest order) in each currency. Participants are topped up through the ledger when they drift short.
   */
  fundingMultiple: number;
  /** Cancel the participants' open orders on stop (true) or leave the book as it is (false). */
  cancelOnStop: boolean;
  /**
   * Hours of trade history generated at start (recent trades, the 24-hour summary, candles of every interval),
   * ending at the start price, so clients and indicators start warm. 0 = start with no history.
   */
  historyHours: number;
  /** Per-market overrides, keyed by market symbol. */
  perMarket?: Record<string, SyntheticMarketOverride>;
}

/** The defaults: a lively but plausible market, a trade every few seconds per market. */
export const DEFAULT_SYNTHETIC_MARKET_CONFIG: Readonly<SyntheticMarketConfig> = Object.freeze<SyntheticMarketConfig>({
  seed: 1,
  tickMs: 500,
  volatilityPerSqrtSecond: 0.0002,
  anchorPullPerSecond: 1 / 21_600,
  makers: {
    count: 3,
    levels: 10,
    halfSpreadBps: 3,
    makerSpreadStepBps: 2,
    levelSpacingBps: 2,
    requoteThresholdBps: 3,
    levelLots: [40, 120],
  },
  takers: { ratePerMinute: 30, clustering: 0.7, clusterDecayMs: 20_000, lots: [15, 80], limitShare: 0.25, limitSlippageBps: 15 },
  fundingMultiple: 20,
  cancelOnStop: true,
  historyHours: 0,
});

/** The effective settings of one market. */
export interface ResolvedMarketSettings {
  symbol: string;
  startPrice: DecimalInput | undefined;
  volatilityPerSqrtSecond: number;
  anchorPullPerSecond: number;
  makers: MakerConfig;
  takers: TakerConfig;
}

/**
 * Fill a partial configuration with the defaults (nested objects merged field by field).
 *
 * @example
 * const cfg = resolveSyntheticConfig({ seed: 42, takers: { ratePerMinute: 60 } });
 * cfg.takers.lots; // [15, 80] (default kept)
 */
export function resolveSyntheticConfig(partial: SyntheticMarketInput = {}): SyntheticMarketConfig {
  const d = DEFAULT_SYNTHETIC_MARKET_CONFIG;
  const out: SyntheticMarketConfig = {
    seed: partial.seed ?? d.seed,
    tickMs: partial.tickMs ?? d.tickMs,
    volatilityPerSqrtSecond: partial.volatilityPerSqrtSecond ?? d.volatilityPerSqrtSecond,
    anchorPullPerSecond: partial.anchorPullPerSecond ?? d.anchorPullPerSecond,
    makers: { ...d.makers, ...partial.makers },
    takers: { ...d.takers, ...partial.takers },
    fundingMultiple: partial.fundingMultiple ?? d.fundingMultiple,
    cancelOnStop: partial.cancelOnStop ?? d.cancelOnStop,
    historyHours: partial.historyHours ?? d.historyHours,
  };
  if (partial.markets) out.markets = [...partial.markets];
  if (partial.perMarket) out.perMarket = { ...partial.perMarket };
  validate(out);
  return out;
}

/** A configuration where every field may be left out (defaults apply). */
export type SyntheticMarketInput = Partial<Omit<SyntheticMarketConfig, 'makers' | 'takers'>> & {
  makers?: Partial<MakerConfig>;
  takers?: Partial<TakerConfig>;
};

/** The settings of `symbol`: the configuration with its per-market override applied. */
export function marketSettings(cfg: SyntheticMarketConfig, symbol: string): ResolvedMarketSettings {
  const o = cfg.perMarket?.[symbol] ?? {};
  const s: ResolvedMarketSettings = {
    symbol,
    startPrice: o.startPrice,
    volatilityPerSqrtSecond: o.volatilityPerSqrtSecond ?? cfg.volatilityPerSqrtSecond,
    anchorPullPerSecond: o.anchorPullPerSecond ?? cfg.anchorPullPerSecond,
    makers: { ...cfg.makers, ...o.makers },
    takers: { ...cfg.takers, ...o.takers },
  };
  validateParticipants(s.makers, s.takers, `perMarket.${symbol}`);
  return s;
}

function validate(c: SyntheticMarketConfig): void {
  if (!(c.tickMs >= 1)) throw new RangeError(`synthetic market: tickMs must be >= 1, got ${c.tickMs}`);
  if (!(c.volatilityPerSqrtSecond >= 0)) throw new RangeError('synthetic market: volatilityPerSqrtSecond must be >= 0');
  if (!(c.anchorPullPerSecond >= 0)) throw new RangeError('synthetic market: anchorPullPerSecond must be >= 0');
  if (!(c.fundingMultiple > 0)) throw new RangeError('synthetic market: fundingMultiple must be > 0');
  if (!(c.historyHours >= 0 && c.historyHours <= 24 * 31)) throw new RangeError('synthetic market: historyHours must be between 0 and 744');
  validateParticipants(c.makers, c.takers, 'synthetic market');
}

function validateParticipants(m: MakerConfig, t: TakerConfig, where: string): void {
  const int = (v: number, min: number) => Number.isInteger(v) && v >= min;
  if (!int(m.count, 0)) throw new RangeError(`${where}: makers.count must be an integer >= 0`);
  if (!int(m.levels, 1)) throw new RangeError(`${where}: makers.levels must be an integer >= 1`);
  for (const [k, v] of Object.entries({ halfSpreadBps: m.halfSpreadBps, makerSpreadStepBps: m.makerSpreadStepBps, levelSpacingBps: m.levelSpacingBps, requoteThresholdBps: m.requoteThresholdBps })) {
    if (!(v >= 0)) throw new RangeError(`${where}: makers.${k} must be >= 0`);
  }
  lots(m.levelLots, `${where}: makers.levelLots`);
  if (!(t.ratePerMinute >= 0)) throw new RangeError(`${where}: takers.ratePerMinute must be >= 0`);
  if (!(t.clustering >= 0 && t.clustering <= 0.95)) throw new RangeError(`${where}: takers.clustering must be between 0 and 0.95, got ${t.clustering}`);
  if (!(t.clusterDecayMs >= 1)) throw new RangeError(`${where}: takers.clusterDecayMs must be >= 1`);
  lots(t.lots, `${where}: takers.lots`);
  if (!(t.limitShare >= 0 && t.limitShare <= 1)) throw new RangeError(`${where}: takers.limitShare must be in [0, 1]`);
  if (!(t.limitSlippageBps >= 0)) throw new RangeError(`${where}: takers.limitSlippageBps must be >= 0`);
}

function lots(v: [number, number], where: string): void {
  if (!Array.isArray(v) || v.length !== 2 || !Number.isInteger(v[0]) || !Number.isInteger(v[1]) || v[0] < 1 || v[1] < v[0]) {
    throw new RangeError(`${where} must be [min, max] integers with 1 <= min <= max`);
  }
}
