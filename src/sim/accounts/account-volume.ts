/**
 * 30-day trading volume per account (GET /account/volume), in USD equivalent as the service reported it.
 *
 * The trading side reports each fill's quote amount through {@link AccountVolumeTracker.record}; the amount is
 * valued in USD at that moment (the value of the trade when it happened, not at read time) with a pluggable
 * {@link UsdRateSource}. Fills are summed per account in buckets of one clock minute ({@link VOLUME_BUCKET_MS}),
 * so a simulator that runs for months keeps at most 43,200 buckets per account whatever its trade rate (one entry
 * per fill grew without bound under load). A bucket counts while its newest fill is inside the 30 days: at the
 * far edge of the window, fills up to one minute older than 30 days may still count.
 */
import type { Clock } from '../../core/clock.js';
import { type Decimal, ONE, ZERO } from '../../core/decimal.js';
import { dadd } from '../../core/decimal-fast.js';
import type { AccountVolume } from '../../model/account.js';
import { normalizeId } from './account-registry.js';

/** 30 days in milliseconds. */
export const VOLUME_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

/** Fills within one clock minute share one bucket (see the module comment). */
export const VOLUME_BUCKET_MS = 60_000;

/** USD value of one unit of `currency`, or undefined when unknown (that trade then adds nothing). */
export type UsdRateSource = (currency: string) => Decimal | undefined;

/**
 * A rate source from BTC reference values (config.btcReferenceRates: BTC value of one unit of each currency):
 * USD per unit = btc(currency) / btc(USD). USD itself is always 1.
 */
export function usdRatesFromBtcReference(btcRates: Record<string, Decimal> | undefined): UsdRateSource {
  return (currency) => {
    if (currency === 'USD') return ONE;
    const cur = btcRates?.[currency];
    const usd = btcRates?.['USD'];
    if (!cur || !usd || usd.isZero()) return undefined;
    return cur.div(usd);
  };
}

/** The fills of one account in one clock minute. */
interface Bucket {
  /** Start of the minute (epoch ms, a multiple of VOLUME_BUCKET_MS). */
  minute: number;
  /** The newest fill's time: the bucket leaves the window when this does. */
  at: number;
  usd: Decimal;
}

/** Rolling 30-day USD volume per account. */
export class AccountVolumeTracker {
  readonly #clock: Clock;
  readonly #entries = new Map<string, Bucket[]>();
  #rates: UsdRateSource;

  constructor(clock: Clock, rates: UsdRateSource) {
    this.#clock = clock;
    this.#rates = rates;
  }

  /** Replace the rate source (the engine may plug in live market prices). */
  setRateSource(rates: UsdRateSource): void {
    this.#rates = rates;
  }

  /**
   * Add a fill of `quoteAmount` (in `quoteCurrency`) executed at `at` (epoch ms or Date, default now) to the
   * account's volume. Called once per account and fill (both the maker's and the taker's account).
   */
  record(accountId: string, quoteAmount: Decimal, quoteCurrency: string, when?: number | Date): void {
    const at = when === undefined ? this.#clock.now() : typeof when === 'number' ? when : when.getTime();
    // Not positive: nothing to count (isZero/isNegative rather than lte(0), which builds a Decimal per fill).
    if (!quoteAmount.isFinite() || quoteAmount.isZero() || quoteAmount.isNegative()) return;
    const rate = this.#rates(quoteCurrency.toUpperCase());
    if (!rate) return;
    const key = normalizeId(accountId);
    let list = this.#entries.get(key);
    if (!list) this.#entries.set(key, (list = []));
    // USD-quoted fills (rate ONE) are their own USD value.
    const usd = rate === ONE ? quoteAmount : quoteAmount.times(rate);
    const minute = Math.floor(at / VOLUME_BUCKET_MS) * VOLUME_BUCKET_MS;
    const last = list[list.length - 1];
    if (last && last.minute === minute) {
      last.usd = dadd(last.usd, usd);
      if (at > last.at) last.at = at;
    } else {
      list.push({ minute, at, usd });
      // Pruned when the list grows (at most once per clock minute and account), not on every fill: a clock read
      // per fill on the matching path for a list that did not get longer. Reads prune for themselves.
      this.#prune(list);
    }
  }

  /** GET /account/volume: the USD volume of the last 30 days, as of now. */
  volume(accountId: string): AccountVolume {
    const now = this.#clock.now();
    const list = this.#entries.get(normalizeId(accountId)) ?? [];
    this.#prune(list);
    let sum = ZERO;
    const cutoff = now - VOLUME_WINDOW_MS;
    for (const e of list) if (e.at > cutoff && e.at <= now) sum = sum.plus(e.usd);
    // The value is computed on read, so it is current as of now.
    return { updated: new Date(now), volume30days: sum };
  }

  /** How many buckets the account holds now (diagnostics and tests: the bound is one per clock minute). */
  bucketCount(accountId: string): number {
    const list = this.#entries.get(normalizeId(accountId));
    if (!list) return 0;
    this.#prune(list);
    return list.length;
  }

  #prune(list: Bucket[]): void {
    // Fills are reported in time order, so the expired entries are at the head; this keeps record() O(1)
    // amortized on the matching hot path. A rare out-of-order entry is still excluded by volume()'s window test.
    const cutoff = this.#clock.now() - VOLUME_WINDOW_MS;
    let i = 0;
    while (i < list.length && list[i]!.at <= cutoff) i++;
    if (i > 0) list.splice(0, i);
  }
}
