/**
 * Commission rates per market (GET /account/fees/trading[/{marketSymbol}]), answered from the catalog so they
 * are exactly the rates the matching engine charges. The service answered a list for all markets and one
 * CommissionRates object for a single market.
 */
import type { CommissionRates } from '../../model/account.js';
import type { Catalog } from '../catalog.js';

/** One CommissionRates per listed market, sorted by symbol. */
export function tradingFees(catalog: Catalog): CommissionRates[] {
  return catalog.markets().map((m) => tradingFee(catalog, m.symbol));
}

/** The rates of one market; 404 MARKET_DOES_NOT_EXIST / 400 MARKET_NAME_REVERSED from the catalog. */
export function tradingFee(catalog: Catalog, marketSymbol: string): CommissionRates {
  const symbol = catalog.market(marketSymbol).symbol;
  const { maker, taker } = catalog.feeRates(symbol);
  return { marketSymbol: symbol, makerRate: maker, takerRate: taker };
}
