/**
 * The price band decides most orders without dividing (|rate − mid| ≤ band × mid, the product exact). On random
 * books, limits and bands — limits exactly at the band's edge, a hair inside and outside it, bands and mids with
 * many digits (where the product would be rounded and the division decides) — it must answer exactly as the
 * division `|rate − mid| / mid ≤ band` it stands for, message included.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../../src/core/decimal.js';
import { mulberry32 } from '../../../src/core/prng.js';
import { priceBandCheck } from '../../../src/risk/checks/price-band.js';
import { checkCtx, config, fixture, lvl, order } from '../fixture.js';

/** The check as it was, for a limit order with a mid. */
function reference(rate: Decimal, mid: Decimal, band: Decimal): string[] {
  const distance = rate.minus(mid).abs().div(mid);
  if (distance.lte(band)) return [];
  return [`rate ${rate.toFixed()} is ${distance.times(100).toFixed(2)} % from mid ${mid.toFixed()} (band ${band.times(100).toFixed()} %)`];
}

describe('price-band without the division', () => {
  it('answers as the division does (randomized, edges included)', () => {
    const rnd = mulberry32(31);
    const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(rnd() * 10))).join('');
    let fast = 0;
    for (let n = 0; n < 3000; n++) {
      const fx = fixture();
      const bid = dec(`${1 + Math.floor(rnd() * 60000)}.${digits(1 + Math.floor(rnd() * (rnd() < 0.1 ? 30 : 3)))}`);
      const ask = bid.plus(dec(`0.${digits(1 + Math.floor(rnd() * 3))}`)).plus(rnd() < 0.5 ? 0 : 1);
      fx.book('BTC-USD', [lvl('1', bid.toFixed())], [lvl('1', ask.toFixed())]);
      const mid = bid.plus(ask).div(2);
      const band = rnd() < 0.1 ? dec(`0.${digits(35)}1`) : dec(`0.${digits(1 + Math.floor(rnd() * 3))}1`);
      const edge = band.times(mid);
      const r = rnd();
      const side = rnd() < 0.5 ? 1 : -1;
      // At the edge exactly, just inside, just outside (by one unit of the 40th digit or of 1e-3), or anywhere.
      const offset = r < 0.25 ? edge : r < 0.4 ? edge.minus(dec('1e-30')) : r < 0.55 ? edge.plus(dec('1e-30')) : r < 0.65 ? edge.plus(dec('0.001')) : mid.times(rnd() * 0.2);
      const rate = mid.plus(offset.times(side));
      if (!rate.gt(0)) continue;
      if (band.sd() + mid.sd() <= Decimal.precision && rate.minus(mid).abs().lte(edge)) fast++;
      const got = priceBandCheck.check(order({ limit: rate }), checkCtx(fx), config({ priceBand: band }));
      expect('order' in got ? [] : got.map((x) => x.message)).toEqual(reference(rate, mid, band));
      // The same book (the same mid object) again, as for the other orders of a requote: with the same band, with
      // another one (exact or not), and with the same band object under another mid.
      const other = rnd() < 0.5 ? band : rnd() < 0.5 ? dec(`0.${digits(1 + Math.floor(rnd() * 3))}1`) : dec(`0.${digits(35)}1`);
      const again = mid.plus(mid.times(rnd() * 0.12).times(side));
      const got2 = priceBandCheck.check(order({ limit: again }), checkCtx(fx), config({ priceBand: other }));
      expect('order' in got2 ? [] : got2.map((x) => x.message)).toEqual(reference(again, mid, other));
      fx.book('BTC-USD', [lvl('1', bid.plus(1).toFixed())], [lvl('1', ask.plus(1).toFixed())]);
      const moved = mid.plus(1);
      const got3 = priceBandCheck.check(order({ limit: again }), checkCtx(fx), config({ priceBand: other }));
      expect('order' in got3 ? [] : got3.map((x) => x.message)).toEqual(reference(again, moved, other));
    }
    expect(fast).toBeGreaterThan(500);
  });
});
