/**
 * Public views of the engine's configuration (GET /markets, GET /currencies) and the live USD valuation used for
 * account volume. Kept apart from the facade so the facade stays a list of delegations.
 */
import { type Decimal, ONE } from '../core/decimal.js';
import type { Currency, Market } from '../model/market.js';
import { usdRatesFromBtcReference, type UsdRateSource } from './accounts/account-volume.js';
import type { Catalog } from './catalog.js';
import type { CurrencyConfig, MarketConfig, SimConfig } from './config.js';

/** A market as GET /markets answers it (per-market fee overrides are engine configuration, not wire fields). */
export function marketView(m: MarketConfig): Market {
  const out: Market = {
    symbol: m.symbol,
    baseCurrencySymbol: m.baseCurrencySymbol,
    quoteCurrencySymbol: m.quoteCurrencySymbol,
    minTradeSize: m.minTradeSize,
    precision: m.precision,
    status: m.status,
    createdAt: m.createdAt,
    prohibitedIn: [...(m.prohibitedIn ?? [])],
    associatedTermsOfService: [],
    tags: [...(m.tags ?? [])],
  };
  if (m.notice !== undefined) out.notice = m.notice;
  return out;
}

/** A currency as GET /currencies answers it (`needsTag` is wallet configuration, not a wire field). */
export function currencyView(c: CurrencyConfig): Currency {
  return {
    symbol: c.symbol,
    name: c.name,
    coinType: c.coinType,
    status: c.status,
    minConfirmations: c.minConfirmations,
    txFee: c.txFee,
    prohibitedIn: [],
    associatedTermsOfService: [],
    tags: [],
  };
}

/**
 * USD value of one unit of a currency from live prices: `<CUR>-USD` directly, else `<CUR>-BTC` × `BTC-USD`,
 * else `USD`-quoted inverse (`USD-<CUR>` does not exist in practice), else the configured BTC references.
 * `rate(m)` answers a market's reference rate (last trade, else book midpoint) or undefined.
 */
export function liveUsdRates(catalog: Catalog, config: SimConfig, rate: (marketSymbol: string) => Decimal | undefined): UsdRateSource {
  const fallback = usdRatesFromBtcReference(config.btcReferenceRates);
  const live = (m: string): Decimal | undefined => (catalog.hasMarket(m) ? rate(m) : undefined);
  return (currency) => {
    if (currency === 'USD') return ONE;
    const direct = live(`${currency}-USD`);
    if (direct) return direct;
    const btcUsd = currency === 'BTC' ? undefined : live('BTC-USD');
    const viaBtc = live(`${currency}-BTC`);
    if (btcUsd && viaBtc) return viaBtc.times(btcUsd);
    return fallback(currency);
  };
}
