/**
 * The listed currencies and markets, looked up by symbol with the service's refusals (unknown symbol, reversed
 * market name). Built once from {@link SimConfig}; only a market's status changes at run time (operator control).
 */
import type { Decimal } from '../core/decimal.js';
import type { CurrencyConfig, MarketConfig, SimConfig } from './config.js';
import { badRequest, notFound } from './sim-error.js';

/** Markets and currencies of the simulated exchange. */
export class Catalog {
  readonly #currencies = new Map<string, CurrencyConfig>();
  readonly #markets = new Map<string, MarketConfig>();
  readonly #fees: { maker: Decimal; taker: Decimal };

  /** Validates the configuration: every market's currencies must be listed, symbols unique and `BASE-QUOTE`. */
  constructor(cfg: SimConfig) {
    this.#fees = cfg.fees;
    for (const c of cfg.currencies) {
      if (this.#currencies.has(c.symbol)) throw new Error(`catalog: duplicate currency ${c.symbol}`);
      this.#currencies.set(c.symbol, { ...c });
    }
    for (const m of cfg.markets) {
      if (this.#markets.has(m.symbol)) throw new Error(`catalog: duplicate market ${m.symbol}`);
      if (m.symbol !== `${m.baseCurrencySymbol}-${m.quoteCurrencySymbol}`) {
        throw new Error(`catalog: market ${m.symbol} is not ${m.baseCurrencySymbol}-${m.quoteCurrencySymbol}`);
      }
      for (const cur of [m.baseCurrencySymbol, m.quoteCurrencySymbol]) {
        if (!this.#currencies.has(cur)) throw new Error(`catalog: market ${m.symbol} uses unlisted currency ${cur}`);
      }
      if (!Number.isInteger(m.precision) || m.precision < 0) throw new Error(`catalog: bad precision on ${m.symbol}`);
      this.#markets.set(m.symbol, { ...m });
    }
  }

  /** The currency `symbol` (case-insensitive, as the service was); 404 CURRENCY_DOES_NOT_EXIST otherwise. */
  currency(symbol: string): CurrencyConfig {
    const c = this.#currencies.get(symbol.toUpperCase());
    if (!c) throw notFound('CURRENCY_DOES_NOT_EXIST', `currency ${symbol} does not exist`);
    return c;
  }

  /** True when `symbol` is a listed currency. */
  hasCurrency(symbol: string): boolean {
    return this.#currencies.has(symbol.toUpperCase());
  }

  /**
   * The market `symbol` (case-insensitive). When only the reversed symbol (`QUOTE-BASE`, the v1.1 order) is
   * listed the service answered 400 MARKET_NAME_REVERSED; otherwise 404 MARKET_DOES_NOT_EXIST.
   */
  market(symbol: string): MarketConfig {
    const key = symbol.toUpperCase();
    const m = this.#markets.get(key);
    if (m) return m;
    const parts = key.split('-');
    if (parts.length === 2 && this.#markets.has(`${parts[1]}-${parts[0]}`)) {
      throw badRequest('MARKET_NAME_REVERSED', `market ${symbol} appears to be in quote-base order`);
    }
    throw notFound('MARKET_DOES_NOT_EXIST', `market ${symbol} does not exist`);
  }

  /** True when `symbol` is a listed market (exact `BASE-QUOTE`, case-insensitive). */
  hasMarket(symbol: string): boolean {
    return this.#markets.has(symbol.toUpperCase());
  }

  /** All currencies, sorted by symbol. */
  currencies(): CurrencyConfig[] {
    return [...this.#currencies.values()].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  }

  /** All markets, sorted by symbol. */
  markets(): MarketConfig[] {
    return [...this.#markets.values()].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  }

  /** Take a market ONLINE or OFFLINE (operator control; order placement on an OFFLINE market is refused). */
  setMarketStatus(symbol: string, status: 'ONLINE' | 'OFFLINE'): void {
    this.market(symbol).status = status;
  }

  /** Take a currency ONLINE or OFFLINE (operator control; wallet operations on it answer 503 CURRENCY_OFFLINE). */
  setCurrencyStatus(symbol: string, status: 'ONLINE' | 'OFFLINE'): void {
    this.currency(symbol).status = status;
  }

  /** Commission rates of a market: its own when configured, the exchange default otherwise. */
  feeRates(symbol: string): { maker: Decimal; taker: Decimal } {
    const m = this.market(symbol);
    return { maker: m.makerFee ?? this.#fees.maker, taker: m.takerFee ?? this.#fees.taker };
  }
}
