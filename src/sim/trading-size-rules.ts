/**
 * The size rules of an order: the market's minimum trade size (MIN_TRADE_REQUIREMENT_NOT_MET) and the minimum
 * trade value of 50 000 satoshi (DUST_TRADE_DISALLOWED_MIN_VALUE). Both are 400: the request is invalid as sent.
 *
 * - Base quantity: the order's quantity; for a ceiling order the ceiling divided by its limit (CEILING_LIMIT) or
 *   by the best opposite rate (CEILING_MARKET; no estimate, so no check, on an empty book).
 * - Quote value: quantity × limit (LIMIT), quantity × best opposite rate or reference rate (MARKET), the
 *   ceiling (ceiling orders).
 * - BTC value of the quote amount: as is for BTC-quoted markets; otherwise converted through the market linking
 *   the quote currency to BTC (`<QUOTE>-BTC` or `BTC-<QUOTE>`) at its reference rate (last trade, else book
 *   midpoint), else through `config.btcReferenceRates`; with no rate at all the dust rule cannot be evaluated
 *   and is skipped rather than refusing every order of a market that has not traded yet.
 */
import { Decimal, dlt } from '../core/decimal.js';
import { dmul } from '../core/decimal-fast.js';
import type { Catalog } from './catalog.js';
import type { SimConfig } from './config.js';
import { badRequest } from './sim-error.js';
import type { ValidOrder } from './trading-validate.js';

/** Where the rules read rates. */
export interface RateSource {
  /** Best rate on the side an order of this direction would take from (asks for a BUY). */
  bestOpposite(marketSymbol: string, direction: 'BUY' | 'SELL'): Decimal | undefined;
  /** Last trade rate, else the book midpoint, else undefined. */
  reference(marketSymbol: string): Decimal | undefined;
}

/** Enforces minimum trade size and minimum trade value. */
export class SizeRules {
  readonly #catalog: Catalog;
  readonly #config: SimConfig;
  readonly #rates: RateSource;
  readonly #minBtc: Decimal;
  readonly #linkCache = new Map<string, { direct: string | undefined; inverse: string | undefined }>();

  constructor(catalog: Catalog, config: SimConfig, rates: RateSource) {
    this.#catalog = catalog;
    this.#config = config;
    this.#rates = rates;
    this.#minBtc = new Decimal(config.dustMinValueSatoshi).div(100_000_000);
  }

  /** The part that needs no rate: a quantity order below minTradeSize (400 MIN_TRADE_REQUIREMENT_NOT_MET). */
  checkQuantity(v: ValidOrder): void {
    if (v.quantity !== undefined && dlt(v.quantity, v.market.minTradeSize)) throw minTrade(v);
  }

  /** Throw 400 MIN_TRADE_REQUIREMENT_NOT_MET or DUST_TRADE_DISALLOWED_MIN_VALUE when `v` is too small. */
  check(v: ValidOrder): void {
    const m = v.market;
    const opposite = this.#rates.bestOpposite(m.symbol, v.direction);
    let base = v.quantity;
    if (base === undefined) {
      const rate = v.limit ?? opposite;
      base = rate ? v.ceiling!.div(rate) : undefined;
    }
    if (base !== undefined && dlt(base, m.minTradeSize)) throw minTrade(v);
    let quote = v.ceiling;
    if (quote === undefined) {
      const rate = v.limit ?? opposite ?? this.#rates.reference(m.symbol);
      quote = rate ? dmul(v.quantity!, rate) : undefined;
    }
    if (quote === undefined) return;
    if (this.#belowMinValue(m.quoteCurrencySymbol, quote)) {
      throw badRequest('DUST_TRADE_DISALLOWED_MIN_VALUE', `order value is below ${this.#minBtc.toFixed()} BTC`);
    }
  }

  /**
   * `btcValue(currency, amount) < minimum`, as {@link check} needs it on every order. Through an inverse market
   * (`BTC-<QUOTE>`, e.g. USD) it compares `amount < minimum × rate` instead of dividing: the same comparison
   * (rate > 0) without decimal.js's long division, which profiled as the costliest step of placing an order; the
   * product is exact, where the quotient is rounded to 40 digits (which can only matter for rates beyond 1e26).
   */
  #belowMinValue(currency: string, amount: Decimal): boolean {
    if (currency === 'BTC') return dlt(amount, this.#minBtc);
    const links = this.#links(currency);
    if (links.direct !== undefined) {
      const r = this.#rates.reference(links.direct);
      if (r) return dlt(dmul(amount, r), this.#minBtc);
    }
    if (links.inverse !== undefined) {
      const r = this.#rates.reference(links.inverse);
      if (r && !r.isZero() && !r.isNegative()) return dlt(amount, dmul(this.#minBtc, r));
    }
    const configured = this.#config.btcReferenceRates?.[currency];
    return configured ? dlt(amount.times(configured), this.#minBtc) : false;
  }

  /** The listed markets linking `currency` to BTC (the catalog's market list is fixed at construction). */
  #links(currency: string): { direct: string | undefined; inverse: string | undefined } {
    let links = this.#linkCache.get(currency);
    if (!links) {
      const direct = `${currency}-BTC`;
      const inverse = `BTC-${currency}`;
      links = {
        direct: this.#catalog.hasMarket(direct) ? direct : undefined,
        inverse: this.#catalog.hasMarket(inverse) ? inverse : undefined,
      };
      this.#linkCache.set(currency, links);
    }
    return links;
  }

  /** BTC value of `amount` of `currency`, or undefined when no rate links it to BTC. */
  btcValue(currency: string, amount: Decimal): Decimal | undefined {
    if (currency === 'BTC') return amount;
    const { direct, inverse } = this.#links(currency);
    if (direct !== undefined) {
      const r = this.#rates.reference(direct);
      if (r) return amount.times(r);
    }
    if (inverse !== undefined) {
      const r = this.#rates.reference(inverse);
      if (r && r.gt(0)) return amount.div(r);
    }
    const configured = this.#config.btcReferenceRates?.[currency];
    return configured ? amount.times(configured) : undefined;
  }
}

function minTrade(v: ValidOrder) {
  return badRequest('MIN_TRADE_REQUIREMENT_NOT_MET', `${v.market.symbol} minimum trade size is ${v.market.minTradeSize.toFixed()}`);
}
