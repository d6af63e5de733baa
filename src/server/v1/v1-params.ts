/**
 * v1.1 query parameters: each missing one answers `<NAME>_NOT_PROVIDED`, each malformed one `<NAME>_INVALID`
 * (or the service's specific code), before anything reaches the engine. Bounds are tight on purpose: a value
 * that is not a plain decimal of sane size (`1e400`, 10 000 digits, `NaN`) never becomes an order.
 */
import { type Decimal, parsePlainDecimal } from '../../core/decimal.js';
import { v1MarketToSymbol } from '../../wire/v1/market-name.js';
import { V1_TIME_IN_FORCES, type V1TimeInForce } from '../../wire/v1/mapping/orders.js';
import { V1Failure } from './v1-failure.js';

/** A parameter as sent (the first, if repeated), or undefined when absent or empty. */
export function param(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  return v === null || v === '' ? undefined : v;
}

/** A required v1.1 market name → v3 symbol (not checked against the catalog: the engine says INVALID_MARKET). */
export function marketParam(q: URLSearchParams): string {
  const m = param(q, 'market');
  if (m === undefined) throw new V1Failure('MARKET_NOT_PROVIDED');
  return optionalMarketParam(q)!;
}

/** An optional market filter → v3 symbol or undefined. */
export function optionalMarketParam(q: URLSearchParams): string | undefined {
  const m = param(q, 'market');
  if (m === undefined) return undefined;
  const symbol = v1MarketToSymbol(m);
  if (symbol === undefined) throw new V1Failure('INVALID_MARKET');
  return symbol;
}

const CURRENCY_RE = /^[A-Za-z0-9]{1,20}$/;

/** A required currency code, upper-cased. */
export function currencyParam(q: URLSearchParams): string {
  const c = param(q, 'currency');
  if (c === undefined) throw new V1Failure('CURRENCY_NOT_PROVIDED');
  if (!CURRENCY_RE.test(c)) throw new V1Failure('INVALID_CURRENCY');
  return c.toUpperCase();
}

/** An optional currency filter. */
export function optionalCurrencyParam(q: URLSearchParams): string | undefined {
  return param(q, 'currency') === undefined ? undefined : currencyParam(q);
}

/** Plain positive decimal: at most 20 integer digits and the 8 decimals every v1.1 amount had. */
const AMOUNT_RE = /^\d{1,20}(\.\d{1,8})?$/;

/** A required positive amount (`quantity`, `rate`): `<NAME>_NOT_PROVIDED` / `<NAME>_INVALID`. */
export function amountParam(q: URLSearchParams, name: 'quantity' | 'rate'): Decimal {
  const v = param(q, name);
  const upper = name.toUpperCase();
  if (v === undefined) throw new V1Failure(`${upper}_NOT_PROVIDED`);
  const d = AMOUNT_RE.test(v) ? parsePlainDecimal(v, 0, v.length) : undefined;
  if (!d || !d.gt(0)) throw new V1Failure(`${upper}_INVALID`);
  return d;
}

/** `timeInForce`: absent means GTC; IOC or GTC in any case. */
export function timeInForceParam(q: URLSearchParams): V1TimeInForce {
  const v = param(q, 'timeInForce');
  if (v === undefined) return 'GTC';
  const up = v.toUpperCase();
  if (!(V1_TIME_IN_FORCES as readonly string[]).includes(up)) throw new V1Failure('INVALID_TIME_IN_FORCE');
  return up as V1TimeInForce;
}

const ID_RE = /^[A-Za-z0-9-]{1,64}$/;

/** A required order or payment uuid. */
export function uuidParam(q: URLSearchParams): string {
  const v = param(q, 'uuid');
  if (v === undefined) throw new V1Failure('UUID_NOT_PROVIDED');
  if (!ID_RE.test(v)) throw new V1Failure('UUID_INVALID');
  return v;
}

/** getorderbook `type`: buy, sell or both (any case). */
export function bookTypeParam(q: URLSearchParams): 'buy' | 'sell' | 'both' {
  const v = param(q, 'type');
  if (v === undefined) throw new V1Failure('TYPE_NOT_PROVIDED');
  const low = v.toLowerCase();
  if (low !== 'buy' && low !== 'sell' && low !== 'both') throw new V1Failure('TYPE_INVALID');
  return low;
}

/** withdraw `address` (required) and `paymentid` (optional), bounded in length. */
export function addressParams(q: URLSearchParams): { address: string; paymentid: string | undefined } {
  const address = param(q, 'address');
  if (address === undefined) throw new V1Failure('ADDRESS_NOT_PROVIDED');
  if (address.length > 256) throw new V1Failure('INVALID_ADDRESS');
  const paymentid = param(q, 'paymentid');
  if (paymentid !== undefined && paymentid.length > 256) throw new V1Failure('INVALID_ADDRESS');
  return { address, paymentid };
}
