/**
 * Where a synthetic market's mid price starts. Realistic defaults (mid-2021 orders of magnitude) so a demo's
 * BTC-USD trades near 30 000 and ETH-BTC near 0.065, for any market of the catalog: a direct table first, then a
 * cross through reference USD values of both currencies, then a neutral fallback.
 */
import { Decimal, type Decimal as DecimalT } from '../../core/decimal.js';
import type { MarketConfig } from '../config.js';

/** Start prices of well-known markets, as quote per base. */
export const DEFAULT_START_PRICES: Readonly<Record<string, string>> = {
  'BTC-USD': '30000',
  'BTC-USDT': '30000',
  'BTC-EUR': '27000',
  'ETH-USD': '2000',
  'ETH-USDT': '2000',
  'ETH-BTC': '0.065',
  'LTC-BTC': '0.0045',
  'USDT-USD': '1',
  'XRP-USD': '0.85',
  'ADA-USDT': '1.5',
};

/**
 * Reference USD value of one unit of a currency, used to derive a start price for markets not in
 * {@link DEFAULT_START_PRICES} (e.g. LTC-USD = LTC / USD).
 */
export const DEFAULT_USD_VALUES: Readonly<Record<string, string>> = {
  BTC: '30000',
  ETH: '2000',
  USD: '1',
  USDT: '1',
  USDC: '1',
  EUR: '1.11',
  LTC: '140',
  XRP: '0.85',
  ADA: '1.5',
  KSM: '420',
  DAWN: '2',
  REPV2: '15',
  SUKU: '0.27',
  SOLVE: '0.072',
  CRV: '1.8',
  FTC: '0.02',
};

/** Used when neither table knows the market: one quote unit per base unit. */
export const FALLBACK_START_PRICE = '1';

/**
 * The start price of `market`: the explicit override, else the table, else the cross through USD values, else
 * {@link FALLBACK_START_PRICE}; rounded to the market's price precision but never below one price tick.
 *
 * @example
 * startPriceFor(btcUsdMarket)            // 30000
 * startPriceFor(ltcUsdMarket)            // 140 (cross: LTC 140 / USD 1)
 * startPriceFor(btcUsdMarket, '31000')   // 31000
 */
export function startPriceFor(
  market: MarketConfig,
  override?: DecimalT | string,
  tables: { startPrices?: Readonly<Record<string, string>>; usdValues?: Readonly<Record<string, string>> } = {},
): DecimalT {
  const startPrices = tables.startPrices ?? DEFAULT_START_PRICES;
  const usd = tables.usdValues ?? DEFAULT_USD_VALUES;
  let price: DecimalT;
  if (override !== undefined) price = new Decimal(override);
  else if (startPrices[market.symbol] !== undefined) price = new Decimal(startPrices[market.symbol] as string);
  else {
    const base = usd[market.baseCurrencySymbol];
    const quote = usd[market.quoteCurrencySymbol];
    price = base !== undefined && quote !== undefined ? new Decimal(base).div(quote) : new Decimal(FALLBACK_START_PRICE);
  }
  const tick = new Decimal(1).div(new Decimal(10).pow(market.precision));
  const rounded = price.toDecimalPlaces(market.precision, Decimal.ROUND_HALF_EVEN);
  // A price below one tick cannot be quoted; a hundred ticks leaves room for a spread and a walk.
  return rounded.lt(tick.times(100)) ? tick.times(100) : rounded;
}
