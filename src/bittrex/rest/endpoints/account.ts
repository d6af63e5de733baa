/** Account endpoints: the account itself, 30-day volume, trading fees and market/currency permissions. */
import {
  type Account,
  type AccountVolume,
  type CommissionRates,
  type CurrencyPolicy,
  type MarketPolicy,
  decodeAccount,
  decodeAccountVolume,
  decodeCommissionRates,
  decodeCurrencyPolicy,
  decodeMarketPolicy,
} from '../../../model/account.js';
import { arrayOf, type Decoder } from '../../../model/decode.js';
import type { CallOptions, HttpTransport } from '../http.js';
import { segment } from '../validate.js';

/** `client.account`: everything under /account. All calls are signed. */
export interface AccountEndpoints {
  /** GET /account — the account (echoes the sub-account named in Api-Subaccount-Id). */
  get(opts?: CallOptions): Promise<Account>;
  /** GET /account/volume — 30-day traded volume. */
  volume(opts?: CallOptions): Promise<AccountVolume>;
  /** GET /account/fees/trading — maker/taker commission rates of every market. */
  tradingFees(opts?: CallOptions): Promise<CommissionRates[]>;
  /** GET /account/fees/trading/{marketSymbol} — commission rates of one market. */
  tradingFee(marketSymbol: string, opts?: CallOptions): Promise<CommissionRates>;
  /** GET /account/permissions/markets — what the account may do on each market. */
  marketPermissions(opts?: CallOptions): Promise<MarketPolicy[]>;
  /** GET /account/permissions/markets/{marketSymbol} — permissions on one market. */
  marketPermission(marketSymbol: string, opts?: CallOptions): Promise<MarketPolicy>;
  /** GET /account/permissions/currencies — deposit/withdraw permissions of each currency. */
  currencyPermissions(opts?: CallOptions): Promise<CurrencyPolicy[]>;
  /** GET /account/permissions/currencies/{currencySymbol} — permissions on one currency. */
  currencyPermission(currencySymbol: string, opts?: CallOptions): Promise<CurrencyPolicy>;
}

/**
 * The seed answers one policy object for the single-symbol permission endpoints; the official document shows a
 * one-element array. Accept both, so the client works against servers written from either.
 */
function objectOrSingleton<T>(item: Decoder<T>): Decoder<T> {
  return (v, path, where) => (Array.isArray(v) && v.length === 1 ? item(v[0], `${path}[0]`, where) : item(v, path, where));
}

const decodeFees = arrayOf(decodeCommissionRates);
const decodeMarketPolicies = arrayOf(decodeMarketPolicy);
const decodeCurrencyPolicies = arrayOf(decodeCurrencyPolicy);
const decodeOneMarketPolicy = objectOrSingleton(decodeMarketPolicy);
const decodeOneCurrencyPolicy = objectOrSingleton(decodeCurrencyPolicy);

/** Builds `client.account` over a transport. */
export function createAccountEndpoints(http: HttpTransport): AccountEndpoints {
  const get = <T>(path: string, decoder: Decoder<T>, opts?: CallOptions): Promise<T> =>
    http.call({ method: 'GET', path, signed: true, subaccountId: opts?.subaccountId }, decoder);
  return {
    get: (opts) => get('/account', decodeAccount, opts),
    volume: (opts) => get('/account/volume', decodeAccountVolume, opts),
    tradingFees: (opts) => get('/account/fees/trading', decodeFees, opts),
    tradingFee: async (marketSymbol, opts) =>
      get(`/account/fees/trading/${segment('marketSymbol', marketSymbol, 'GET /account/fees/trading/{marketSymbol}')}`, decodeCommissionRates, opts),
    marketPermissions: (opts) => get('/account/permissions/markets', decodeMarketPolicies, opts),
    marketPermission: async (marketSymbol, opts) =>
      get(
        `/account/permissions/markets/${segment('marketSymbol', marketSymbol, 'GET /account/permissions/markets/{marketSymbol}')}`,
        decodeOneMarketPolicy,
        opts,
      ),
    currencyPermissions: (opts) => get('/account/permissions/currencies', decodeCurrencyPolicies, opts),
    currencyPermission: async (currencySymbol, opts) =>
      get(
        `/account/permissions/currencies/${segment('currencySymbol', currencySymbol, 'GET /account/permissions/currencies/{currencySymbol}')}`,
        decodeOneCurrencyPolicy,
        opts,
      ),
  };
}
