/**
 * Market and currency permissions (GET /account/permissions/...). Everything is allowed by default — the
 * simulator has no regions or verification levels — and tests or demos can restrict an account per market or
 * currency to see how a client copes.
 *
 * Defaults per currency: `view` true; a FIAT currency (coinType `FIAT`) deposits and withdraws by wire transfer
 * (and deposits by credit card), every other currency by blockchain only.
 */
import type { CurrencyPolicy, MarketPolicy } from '../../model/account.js';
import type { Catalog } from '../catalog.js';
import type { CurrencyConfig } from '../config.js';
import { normalizeId } from './account-registry.js';

/** A restriction of a market policy: the fields given replace the defaults. */
export type MarketPolicyOverride = Partial<Omit<MarketPolicy, 'symbol'>>;
/** A restriction of a currency policy: the fields given replace the defaults (nested objects wholesale). */
export type CurrencyPolicyOverride = Partial<Omit<CurrencyPolicy, 'symbol'>>;

/** Per-account market and currency policies. */
export class Permissions {
  readonly #catalog: Catalog;
  readonly #markets = new Map<string, MarketPolicyOverride>();
  readonly #currencies = new Map<string, CurrencyPolicyOverride>();

  constructor(catalog: Catalog) {
    this.#catalog = catalog;
  }

  /** GET /account/permissions/markets: one policy per listed market, sorted by symbol. */
  marketPolicies(accountId: string): MarketPolicy[] {
    return this.#catalog.markets().map((m) => this.#market(accountId, m.symbol));
  }

  /** GET /account/permissions/markets/{m}; 404 MARKET_DOES_NOT_EXIST / 400 MARKET_NAME_REVERSED from the catalog. */
  marketPolicy(accountId: string, marketSymbol: string): MarketPolicy {
    return this.#market(accountId, this.#catalog.market(marketSymbol).symbol);
  }

  /** GET /account/permissions/currencies: one policy per listed currency, sorted by symbol. */
  currencyPolicies(accountId: string): CurrencyPolicy[] {
    return this.#catalog.currencies().map((c) => this.#currency(accountId, c));
  }

  /** GET /account/permissions/currencies/{c}; 404 CURRENCY_DOES_NOT_EXIST from the catalog. */
  currencyPolicy(accountId: string, currencySymbol: string): CurrencyPolicy {
    return this.#currency(accountId, this.#catalog.currency(currencySymbol));
  }

  /** True when the account may place orders of `direction` on `marketSymbol` (for the trading side to consult). */
  canTrade(accountId: string, marketSymbol: string, direction: 'BUY' | 'SELL'): boolean {
    const p = this.marketPolicy(accountId, marketSymbol);
    return direction === 'BUY' ? p.buy : p.sell;
  }

  /** Restrict (or re-allow) a market for an account: control entry point for tests and demos. */
  setMarketPolicy(accountId: string, marketSymbol: string, override: MarketPolicyOverride): void {
    const symbol = this.#catalog.market(marketSymbol).symbol;
    const key = policyKey(accountId, symbol);
    this.#markets.set(key, { ...this.#markets.get(key), ...override });
  }

  /** Restrict (or re-allow) a currency for an account: control entry point for tests and demos. */
  setCurrencyPolicy(accountId: string, currencySymbol: string, override: CurrencyPolicyOverride): void {
    const symbol = this.#catalog.currency(currencySymbol).symbol;
    const key = policyKey(accountId, symbol);
    this.#currencies.set(key, { ...this.#currencies.get(key), ...override });
  }

  #market(accountId: string, symbol: string): MarketPolicy {
    const o = this.#markets.get(policyKey(accountId, symbol));
    return { symbol, view: o?.view ?? true, buy: o?.buy ?? true, sell: o?.sell ?? true };
  }

  #currency(accountId: string, c: CurrencyConfig): CurrencyPolicy {
    const fiat = c.coinType === 'FIAT';
    const o = this.#currencies.get(policyKey(accountId, c.symbol));
    return {
      symbol: c.symbol,
      view: o?.view ?? true,
      deposit: { ...(o?.deposit ?? { blockchain: !fiat, creditCard: fiat, wireTransfer: fiat }) },
      withdraw: { ...(o?.withdraw ?? { blockchain: !fiat, wireTransfer: fiat }) },
    };
  }
}

function policyKey(accountId: string, symbol: string): string {
  return `${normalizeId(accountId)}\u0000${symbol}`;
}
