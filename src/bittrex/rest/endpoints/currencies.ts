/** Currency endpoints (public, unsigned). */
import { arrayOf } from '../../../model/decode.js';
import { type Currency, decodeCurrency } from '../../../model/market.js';
import type { HttpTransport } from '../http.js';
import { segment } from '../validate.js';

/** `client.currencies`: public currency data. */
export interface CurrenciesEndpoints {
  /** GET /currencies — every currency. */
  list(): Promise<Currency[]>;
  /** GET /currencies/{symbol} — one currency. */
  get(symbol: string): Promise<Currency>;
}

const decodeCurrencies = arrayOf(decodeCurrency);

/** Builds `client.currencies` over a transport. */
export function createCurrenciesEndpoints(http: HttpTransport): CurrenciesEndpoints {
  return {
    list: () => http.call({ method: 'GET', path: '/currencies', signed: false }, decodeCurrencies),
    get: async (symbol) =>
      http.call({ method: 'GET', path: `/currencies/${segment('symbol', symbol, 'GET /currencies/{symbol}')}`, signed: false }, decodeCurrency),
  };
}
