/**
 * Configuration of the simulated exchange: which currencies and markets exist, commission, limits and the
 * (virtual-time) delays of the asynchronous processes. Everything the engine treats as "how the service behaved"
 * and that a test or a demo may want to change lives here, so no module hard-codes it.
 */
import type { RetentionLimits } from './retention.js';
import { type Decimal, dec } from '../core/decimal.js';

/** A currency the simulated exchange lists (the `/currencies` resource, plus what the wallet needs). */
export interface CurrencyConfig {
  symbol: string;
  name: string;
  /** Chain family as the service reported it (`BITCOIN`, `ETH`, `RIPPLE`, ...). */
  coinType: string;
  status: 'ONLINE' | 'OFFLINE';
  /** Confirmations before a deposit is credited. */
  minConfirmations: number;
  /** Network fee charged on a withdrawal, in this currency. */
  txFee: Decimal;
  /** Tag needed for deposits, e.g. XRP. */
  needsTag?: boolean;
}

/** A market `<BASE>-<QUOTE>` (the `/markets` resource, plus optional per-market commission). */
export interface MarketConfig {
  symbol: string;
  baseCurrencySymbol: string;
  quoteCurrencySymbol: string;
  /** Smallest order quantity, in base currency. */
  minTradeSize: Decimal;
  /** Number of decimals allowed in a limit price. */
  precision: number;
  status: 'ONLINE' | 'OFFLINE';
  createdAt: Date;
  /** Maker commission rate for this market; falls back to {@link SimConfig.fees}. */
  makerFee?: Decimal;
  /** Taker commission rate for this market; falls back to {@link SimConfig.fees}. */
  takerFee?: Decimal;
  notice?: string;
  prohibitedIn?: string[];
  tags?: string[];
}

/** The whole simulator configuration. Durations are virtual milliseconds of the injected Clock. */
export interface SimConfig {
  currencies: CurrencyConfig[];
  markets: MarketConfig[];
  /** Default commission rates (fractions: 0.0035 = 0.35 %). */
  fees: { maker: Decimal; taker: Decimal };
  /** Open orders allowed per account before MAX_ORDERS_ALLOWED. */
  maxOpenOrders: number;
  /** Delay between a conditional order's trigger condition being met and its order being placed. */
  conditionalTriggerDelayMs: number;
  /** Delay before a newly requested deposit address becomes PROVISIONED. */
  addressProvisionDelayMs: number;
  /** Delay before a newly added allowed withdrawal address becomes usable. */
  allowedAddressWaitMs: number;
  /** Time between successive withdrawal status steps (REQUESTED -> AUTHORIZED -> PENDING -> COMPLETED). */
  withdrawalStepMs: number;
  /**
   * The markets' price slippage limit: how far (a fraction of the best opposite rate) a MARKET or CEILING_MARKET
   * order may walk the book; an order whose fills would go further is refused with 409 ORDERBOOK_DEPTH (seed:
   * "execution would exceed the market's price slippage limit"). Undefined: no limit (a demo that wants market
   * orders to sweep a thin book). Default 0.1 (10 %); the service's own figure is not recorded.
   */
  maxSlippage?: Decimal | undefined;
  /**
   * Sub-accounts and transfers for partner accounts only, as the seed says (403 FORBIDDEN for others; an account is
   * a partner when created so, e.g. control API `POST /accounts {partner: true}`). False opens them to every
   * account (a demo). Default true.
   */
  partnersOnly: boolean;
  /** Minimum order value in satoshi (1e-8 BTC) below which DUST_TRADE_DISALLOWED_MIN_VALUE applies; 50 000. */
  dustMinValueSatoshi: number;
  /**
   * BTC value of one unit of a currency, used by the dust check only when no market links that currency to BTC
   * (neither `<CUR>-BTC` nor `BTC-<CUR>` has a price yet). Keyed by currency symbol.
   */
  btcReferenceRates?: Record<string, Decimal>;
  /** How long closed orders and executions are kept (default 7 days, 10 000 per account each; sim/retention.ts). */
  retention?: { closedOrders?: RetentionLimits; executions?: RetentionLimits };
}

const d = (iso: string): Date => new Date(iso);

/**
 * Markets as the service listed them: symbols, minTradeSize, precision and createdAt are taken verbatim from the
 * recorded `/v3/markets` response of 2021-06-14 (shared/data/bittrex-v3-ws-2021/BITTREX.0, line 1).
 */
const DEFAULT_MARKETS: MarketConfig[] = [
  { symbol: 'BTC-USD', baseCurrencySymbol: 'BTC', quoteCurrencySymbol: 'USD', minTradeSize: dec('0.00005450'), precision: 3, status: 'ONLINE', createdAt: d('2018-05-31T13:24:40.77Z'), prohibitedIn: [], tags: [] },
  { symbol: 'ETH-USD', baseCurrencySymbol: 'ETH', quoteCurrencySymbol: 'USD', minTradeSize: dec('0.00141630'), precision: 3, status: 'ONLINE', createdAt: d('2018-06-20T18:16:05.573Z'), prohibitedIn: [], tags: [] },
  { symbol: 'ETH-BTC', baseCurrencySymbol: 'ETH', quoteCurrencySymbol: 'BTC', minTradeSize: dec('0.00140180'), precision: 8, status: 'ONLINE', createdAt: d('2015-08-14T09:02:24.817Z'), prohibitedIn: [], tags: [] },
  { symbol: 'BTC-USDT', baseCurrencySymbol: 'BTC', quoteCurrencySymbol: 'USDT', minTradeSize: dec('0.00005460'), precision: 8, status: 'ONLINE', createdAt: d('2015-12-11T06:31:40.633Z'), prohibitedIn: [], tags: [] },
  { symbol: 'ETH-USDT', baseCurrencySymbol: 'ETH', quoteCurrencySymbol: 'USDT', minTradeSize: dec('0.00141900'), precision: 8, status: 'ONLINE', createdAt: d('2017-04-20T17:26:37.647Z'), prohibitedIn: [], tags: [] },
  { symbol: 'USDT-USD', baseCurrencySymbol: 'USDT', quoteCurrencySymbol: 'USD', minTradeSize: dec('2.99508810'), precision: 5, status: 'ONLINE', createdAt: d('2018-05-31T13:27:08.477Z'), prohibitedIn: [], tags: [] },
  { symbol: 'LTC-BTC', baseCurrencySymbol: 'LTC', quoteCurrencySymbol: 'BTC', minTradeSize: dec('0.01156120'), precision: 8, status: 'ONLINE', createdAt: d('2014-02-13T00:00:00Z'), prohibitedIn: [], tags: [] },
  { symbol: 'XRP-USD', baseCurrencySymbol: 'XRP', quoteCurrencySymbol: 'USD', minTradeSize: dec('2.32153220'), precision: 5, status: 'ONLINE', createdAt: d('2018-08-20T21:47:01.797Z'), prohibitedIn: ['US'], tags: [] },
  { symbol: 'ADA-USDT', baseCurrencySymbol: 'ADA', quoteCurrencySymbol: 'USDT', minTradeSize: dec('2.51018480'), precision: 8, status: 'ONLINE', createdAt: d('2017-12-29T19:24:39.987Z'), prohibitedIn: [], tags: [] },
];

/** Currencies with plausible network fees and confirmation counts of the period (not recorded in the data set). */
const DEFAULT_CURRENCIES: CurrencyConfig[] = [
  { symbol: 'BTC', name: 'Bitcoin', coinType: 'BITCOIN', status: 'ONLINE', minConfirmations: 2, txFee: dec('0.0003') },
  { symbol: 'ETH', name: 'Ethereum', coinType: 'ETH', status: 'ONLINE', minConfirmations: 36, txFee: dec('0.006') },
  { symbol: 'USD', name: 'US Dollar', coinType: 'FIAT', status: 'ONLINE', minConfirmations: 0, txFee: dec('0') },
  { symbol: 'USDT', name: 'Tether', coinType: 'ETH_CONTRACT', status: 'ONLINE', minConfirmations: 36, txFee: dec('25') },
  { symbol: 'LTC', name: 'Litecoin', coinType: 'BITCOIN', status: 'ONLINE', minConfirmations: 6, txFee: dec('0.01') },
  { symbol: 'XRP', name: 'Ripple', coinType: 'RIPPLE', status: 'ONLINE', minConfirmations: 20, txFee: dec('1'), needsTag: true },
  { symbol: 'ADA', name: 'Cardano', coinType: 'ADA', status: 'ONLINE', minConfirmations: 10, txFee: dec('1') },
];

/**
 * Reference BTC values (mid-June 2021) for the dust check before any market has traded. Quotes linked to BTC
 * by a market with a last trade use that price instead.
 */
const DEFAULT_BTC_REFERENCE_RATES: Record<string, Decimal> = {
  BTC: dec('1'),
  USD: dec('0.000025'),
  USDT: dec('0.000025'),
  ETH: dec('0.0625'),
  LTC: dec('0.0045'),
  XRP: dec('0.000022'),
  ADA: dec('0.000040'),
};

/**
 * The default configuration, optionally with some fields replaced (arrays and `fees` are replaced wholesale).
 * Commission is Bittrex's base tier of 0.35 % for both maker and taker (the tier for a 30-day volume below
 * $25k); lower tiers are not modelled by default but a market may carry its own `makerFee`/`takerFee`.
 */
export function defaultSimConfig(overrides: Partial<SimConfig> = {}): SimConfig {
  return {
    // Copies, so a caller mutating its config (e.g. a market's status) never changes another engine's defaults.
    currencies: DEFAULT_CURRENCIES.map((c) => ({ ...c })),
    markets: DEFAULT_MARKETS.map((m) => ({ ...m, prohibitedIn: [...(m.prohibitedIn ?? [])], tags: [...(m.tags ?? [])] })),
    fees: { maker: dec('0.0035'), taker: dec('0.0035') },
    maxOpenOrders: 500,
    conditionalTriggerDelayMs: 1000,
    addressProvisionDelayMs: 5000,
    allowedAddressWaitMs: 24 * 60 * 60 * 1000,
    withdrawalStepMs: 60_000,
    dustMinValueSatoshi: 50_000,
    maxSlippage: dec('0.1'),
    partnersOnly: true,
    btcReferenceRates: { ...DEFAULT_BTC_REFERENCE_RATES },
    ...overrides,
  };
}
