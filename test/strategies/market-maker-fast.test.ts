/**
 * The market maker's cheaper paths against the plain ones they replace: the remembered ladder (ladderFor) against
 * quoteLadder computed every time, and marketTouch against the per-rate map of our resting quantity it used to
 * build (keyed by rate text).
 */
import { describe, expect, it } from 'vitest';
import { Decimal, dec, ZERO } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import type { OrderBookEntry } from '../../src/model/market.js';
import type { Order } from '../../src/model/order.js';
import type { ReadonlyOrderBook } from '../../src/strategy/public-api.js';
import { ladderFor, ladderSteps, marketTouch, quoteLadder, type MarketMakerParams } from '../../strategies/market-maker.js';

const text = (l: { bids: { rate: Decimal; quantity: Decimal }[]; asks: { rate: Decimal; quantity: Decimal }[] }) => ({
  bids: l.bids.map((q) => `${q.rate.toFixed()}@${q.quantity.toFixed()}`),
  asks: l.asks.map((q) => `${q.rate.toFixed()}@${q.quantity.toFixed()}`),
});

/** marketTouch as it was: our resting quantity per rate text, then the first level with more than ours. */
function referenceTouch(bid: OrderBookEntry[], ask: OrderBookEntry[], own: readonly Order[]) {
  const restingAt = (direction: Order['direction']) => {
    const at = new Map<string, Decimal>();
    for (const o of own) {
      if (o.direction !== direction || !o.limit || !o.quantity) continue;
      const key = o.limit.toFixed();
      at.set(key, (at.get(key) ?? ZERO).plus(o.quantity.minus(o.fillQuantity ?? ZERO)));
    }
    return at;
  };
  const best = (levels: OrderBookEntry[], ours: Map<string, Decimal>) => levels.find((l) => l.quantity.gt(ours.get(l.rate.toFixed()) ?? ZERO))?.rate;
  return { bid: best(bid, restingAt('BUY')), ask: best(ask, restingAt('SELL')) };
}

describe('market-maker fast paths', () => {
  it('ladderFor answers as quoteLadder for every (mid, position), repeated or not', () => {
    const rnd = mulberry32(7);
    for (let run = 0; run < 30; run++) {
      const p: MarketMakerParams = {
        spread: dec((0.0001 + rnd() * 0.01).toFixed(5)),
        levels: 1 + Math.floor(rnd() * 4),
        levelSpacing: dec((rnd() * 0.002).toFixed(5)),
        size: dec('0.01'),
        maxPosition: dec('0.1'),
        skew: dec((rnd() * 0.002).toFixed(4)),
        throttleMs: 0,
      };
      const precision = rnd() < 0.2 ? undefined : Math.floor(rnd() * 6);
      const ladder = ladderFor(p, precision);
      let mid = dec('30000.5');
      let position = dec('0');
      for (let n = 0; n < 200; n++) {
        // Mostly repeats and small moves, as requotes see them; sometimes the same value written differently.
        const r = rnd();
        if (r < 0.3) mid = mid.plus(dec(Math.floor((rnd() - 0.5) * 20)).div(1000));
        else if (r < 0.4) position = dec(((rnd() - 0.5) * 0.3).toFixed(3));
        else if (r < 0.45) position = dec(rnd() < 0.5 ? '0.2' : '-0.2');
        else if (r < 0.5) mid = new Decimal(mid.toFixed(6));
        else if (r < 0.55) position = new Decimal(position.toFixed());
        expect(text(ladder(mid, position))).toEqual(text(quoteLadder(mid, position, p, precision, ladderSteps(p))));
      }
    }
  });

  it('marketTouch finds the same best bid and ask of others as the per-rate map did', () => {
    const rnd = mulberry32(11);
    const rate = (base: number, i: number, side: 1 | -1) => dec((base + side * i * 0.5).toFixed(1));
    let fallbacks = 0;
    // Now and then an empty level (a real book never holds one): only those make the fall-back necessary.
    const level = () => dec(rnd() < 0.2 ? 0 : (rnd() * 2).toFixed(2));
    for (let n = 0; n < 2000; n++) {
      const depth = Math.floor(rnd() * 6);
      const bid: OrderBookEntry[] = [];
      const ask: OrderBookEntry[] = [];
      for (let i = 0; i < depth; i++) bid.push({ rate: rate(100, i, -1), quantity: level() });
      for (let i = 0; i < depth; i++) ask.push({ rate: rate(100.5, i, 1), quantity: level() });
      const own: Order[] = [];
      const count = Math.floor(rnd() * 6);
      for (let i = 0; i < count; i++) {
        const buy = rnd() < 0.5;
        const levels = buy ? bid : ask;
        const at = levels.length > 0 && rnd() < 0.85 ? levels[Math.floor(rnd() * levels.length)]!.rate : dec((99 + rnd() * 3).toFixed(1));
        const quantity = dec((rnd() * 1.5).toFixed(2));
        own.push({
          direction: buy ? 'BUY' : 'SELL',
          // The same rate as another value object, sometimes with trailing zeros in its text.
          limit: rnd() < 0.5 ? at : new Decimal(`${at.toFixed(1)}0`),
          quantity: rnd() < 0.1 ? undefined : quantity,
          fillQuantity: rnd() < 0.3 ? dec((rnd() * quantity.toNumber()).toFixed(2)) : dec(0),
        } as unknown as Order);
      }
      // A fake book that answers top(n) and the ladder from the same levels (zero quantities included, which a
      // real book never holds, so the fall-back to the whole ladder is exercised too).
      let wholeLadder = 0;
      const book = {
        bidCount: bid.length,
        askCount: ask.length,
        top: (k: number) => ({ bid: bid.slice(0, k), ask: ask.slice(0, k) }),
        ladder: () => (wholeLadder++, { bid, ask }),
      } as unknown as ReadonlyOrderBook;
      const got = marketTouch(book, own);
      const want = referenceTouch(bid, ask, own);
      expect({ bid: got.bid?.toFixed(), ask: got.ask?.toFixed() }).toEqual({ bid: want.bid?.toFixed(), ask: want.ask?.toFixed() });
      // A real book holds no empty level: then the best own.length + 1 levels always hold the answer.
      if ([...bid, ...ask].every((l) => l.quantity.gt(0))) expect(wholeLadder).toBe(0);
      else fallbacks += wholeLadder;
    }
    expect(fallbacks).toBeGreaterThan(0); // the fall-back path was exercised, and answered right
  });
});
