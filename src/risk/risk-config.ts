/**
 * Risk engine configuration: the type, its documented defaults, and a zod schema for the bot YAML
 * (`risk:` section). Decimal fields accept YAML numbers or strings (`"0.05"`, preferred for exactness) and come
 * out as {@link Decimal}s. Limits with no sensible universal value (notional, position, daily loss, drawdown:
 * they depend on the account's size and currency) are off unless configured.
 */
import { z } from 'zod';
import { type Decimal, dec, parseDecimal, ZERO } from '../core/decimal.js';

/** The checks, by name, in the order the engine runs them (rounding checks before the ones that value an order). */
export const RISK_CHECK_NAMES = [
  'trading-state',
  'stream-live',
  'market-online',
  'precision',
  'min-trade-size',
  'dust',
  'price-band',
  'max-notional',
  'max-position',
  'available-balance',
  'max-open-orders',
  'submit-rate',
] as const;
/** Name of a risk check (also its file name in src/risk/checks/). */
export type RiskCheckName = (typeof RISK_CHECK_NAMES)[number];

/** What the engine does with an order that breaks a rounding rule: fix it, or refuse it. */
export type RoundingPolicy = 'round' | 'deny';

/** A default limit plus per-market overrides. */
export interface MarketLimits {
  /** Applies to markets without an override; undefined = no limit. */
  default?: Decimal | undefined;
  /** Per market symbol (`BTC-USD`). */
  markets: Record<string, Decimal>;
}

/** Risk engine configuration. Every field is documented with its default ({@link defaultRiskConfig}). */
export interface RiskConfig {
  /** Markets orders may be placed on (MARKET_NOT_PERMITTED otherwise). Default: undefined = every market. */
  allowedMarkets?: string[] | undefined;
  /** Limit price with more decimals than the market's precision: round it passive, or deny. Default 'round'. */
  precisionPolicy: RoundingPolicy;
  /**
   * Quantity below the market's minTradeSize: round it up to the minimum, or deny. Default 'deny' (rounding up
   * makes an order bigger than the strategy asked for). Orders that reduce a position are never rounded up.
   */
  minTradeSizePolicy: RoundingPolicy;
  /** Minimum order value in satoshi of BTC (the exchange's dust rule). Default 50,000. */
  dustMinValueSatoshi: number;
  /** Open orders (incl. in-flight placements) above which resting orders are denied. Default 100. */
  maxOpenOrders: number;
  /** Maximum quote value of one order. Default: no limit. */
  maxNotional: MarketLimits;
  /** Maximum absolute base position per market after a full fill (all strategies together). Default: no limit. */
  maxPosition: MarketLimits;
  /** Largest distance of a limit (or a market order's worst fill) from the mid, as a fraction. Default 0.05. */
  priceBand: Decimal | undefined;
  /** Orders approved per rolling window. Default 120 per 60,000 ms. */
  submitRate: { maxOrders: number; windowMs: number };
  /**
   * Commission rate assumed when valuing what an order holds (src/risk/order-reserve.ts, by the exchange's rounding
   * rule in src/model/trading-amounts.ts) and how much a ceiling sell can sell. Set it to the exchange's rate (the
   * simulator's larger of maker and taker) and the engine's estimate equals the exchange's reservation to the
   * last unit. Default 0.0075 (0.75 %).
   */
  commissionRate: Decimal;
  /** Daily loss (reporting currency, > 0) at which trading is restricted. Default: off. */
  dailyLossLimit?: Decimal | undefined;
  /** State entered when the daily loss limit is reached. Default 'REDUCING'. */
  onDailyLoss: 'REDUCING' | 'HALTED';
  /** Drawdown from the equity peak (reporting currency, > 0) at which trading halts. Default: off. */
  maxDrawdown?: Decimal | undefined;
  /** Whether orders that reduce a position pass while HALTED (they do while REDUCING). Default true. */
  haltedAllowsReducing: boolean;
  /** Deny orders while the market's book or the account stream is not synchronized. Default true. */
  requireLiveStreams: boolean;
  /** How often the trading state is re-evaluated without orders (marks move), ms. Default 1,000. */
  evaluationIntervalMs: number;
  /** Names of checks not to run (e.g. `['price-band']`). Default none. */
  disabledChecks: RiskCheckName[];
}

/**
 * The defaults, one fresh object per call.
 *
 * @example
 * const engine = new RiskEngine({ ...defaultRiskConfig(), maxOpenOrders: 20, dailyLossLimit: dec('500') }, ctx);
 */
export function defaultRiskConfig(): RiskConfig {
  return {
    allowedMarkets: undefined,
    precisionPolicy: 'round',
    minTradeSizePolicy: 'deny',
    dustMinValueSatoshi: 50_000,
    maxOpenOrders: 100,
    maxNotional: { default: undefined, markets: {} },
    maxPosition: { default: undefined, markets: {} },
    priceBand: dec('0.05'),
    submitRate: { maxOrders: 120, windowMs: 60_000 },
    commissionRate: dec('0.0075'),
    dailyLossLimit: undefined,
    onDailyLoss: 'REDUCING',
    maxDrawdown: undefined,
    haltedAllowsReducing: true,
    requireLiveStreams: true,
    evaluationIntervalMs: 1_000,
    disabledChecks: [],
  };
}

/** The limit of `limits` for `marketSymbol`: its override, else the default, else undefined. */
export function limitFor(limits: MarketLimits, marketSymbol: string): Decimal | undefined {
  return limits.markets[marketSymbol] ?? limits.default;
}

/** A decimal from a YAML number or string; `positive` also refuses zero. */
function decimal(kind: 'positive' | 'non-negative') {
  return z.union([z.number(), z.string()]).transform((v, ctx): Decimal => {
    const d = parseDecimal(v);
    if (!d || (kind === 'positive' ? !d.gt(ZERO) : d.lt(ZERO))) {
      ctx.addIssue({ code: 'custom', message: `expected a ${kind} decimal (number or string), got ${JSON.stringify(v)}` });
      return z.NEVER;
    }
    return d;
  });
}

const marketLimitsSchema = z.strictObject({
  default: decimal('positive').optional(),
  markets: z.record(z.string().min(1), decimal('positive')).default(() => ({})),
});

const D = defaultRiskConfig();

/**
 * The zod schema of the `risk:` section: every field optional (defaults as documented on {@link RiskConfig}),
 * unknown fields rejected so a typo is an error rather than a silently ignored limit.
 *
 * @example
 * const botSchema = z.object({ risk: riskConfigSchema.default(defaultRiskConfig()), ... });
 * const risk = riskConfigSchema.parse({ maxOpenOrders: 20, dailyLossLimit: '500', priceBand: 0.02 });
 */
export const riskConfigSchema = z.strictObject({
  allowedMarkets: z.array(z.string().min(1)).optional(),
  precisionPolicy: z.enum(['round', 'deny']).default(D.precisionPolicy),
  minTradeSizePolicy: z.enum(['round', 'deny']).default(D.minTradeSizePolicy),
  dustMinValueSatoshi: z.number().int().nonnegative().default(D.dustMinValueSatoshi),
  maxOpenOrders: z.number().int().positive().default(D.maxOpenOrders),
  maxNotional: marketLimitsSchema.default(() => ({ markets: {} })),
  maxPosition: marketLimitsSchema.default(() => ({ markets: {} })),
  // `null` in YAML switches the band off.
  priceBand: decimal('positive')
    .nullable()
    .default(() => D.priceBand!)
    .transform((v) => v ?? undefined),
  submitRate: z
    .strictObject({ maxOrders: z.number().int().positive(), windowMs: z.number().int().positive() })
    .default(() => ({ ...D.submitRate })),
  commissionRate: decimal('non-negative').default(() => D.commissionRate),
  dailyLossLimit: decimal('positive').optional(),
  onDailyLoss: z.enum(['REDUCING', 'HALTED']).default(D.onDailyLoss),
  maxDrawdown: decimal('positive').optional(),
  haltedAllowsReducing: z.boolean().default(D.haltedAllowsReducing),
  requireLiveStreams: z.boolean().default(D.requireLiveStreams),
  evaluationIntervalMs: z.number().int().positive().default(D.evaluationIntervalMs),
  disabledChecks: z.array(z.enum(RISK_CHECK_NAMES)).default(() => []),
});

/**
 * Validate a `risk:` section (already parsed from YAML/JSON) and fill in the defaults. Throws zod's error on bad
 * input; the bot config loader reports it with file, line and field.
 *
 * @example
 * parseRiskConfig({ dailyLossLimit: '250', onDailyLoss: 'HALTED' }).maxOpenOrders; // 100
 */
export function parseRiskConfig(input: unknown): RiskConfig {
  return riskConfigSchema.parse(input ?? {});
}

/** What a user may write in YAML for the `risk:` section (before defaults and decimal parsing). */
export type RiskConfigInput = z.input<typeof riskConfigSchema>;
