import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { QuotesIntent } from '../../src/model/intent.js';
import { Decimal, ONE } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import { roundRate } from '../../src/strategy/price-rounding.js';
import marketMaker, { ladderSteps, passive, quoteLadder, type MarketMakerParams } from '../../strategies/market-maker.js';
import { createStrategyHarness, testMarket } from '../helpers/strategy-harness.js';

const M = 'BTC-USD';
const rates = (qs: { rate: { toString(): string } }[]) => qs.map((q) => q.rate.toString());

async function maker(params: Record<string, unknown>, precision = 8) {
  return createStrategyHarness(marketMaker, { markets: [M], params, marketInfo: [testMarket(M, { precision })] });
}

describe('market-maker example', () => {
  it('quotes a ladder symmetric around the mid with the configured spread and spacing', async () => {
    const h = await maker({ spread: '0.02', levels: 2, levelSpacing: '0.01', size: '0.5', skew: '0.01' });
    h.setBook(M, [['100', '1']], [['102', '1']]); // mid 101
    const [q] = h.take() as QuotesIntent[];
    expect(q).toMatchObject({ kind: 'quotes', key: 'mm:BTC-USD', marketSymbol: M });
    // Level 0 at ±1 % of 101 (half the 2 % spread), level 1 one more 1 % out.
    expect(rates(q!.bids)).toEqual(['99.99', '98.98']);
    expect(rates(q!.asks)).toEqual(['102.01', '103.02']);
    expect([...q!.bids, ...q!.asks].every((l) => l.quantity.eq(dec('0.5')))).toBe(true);
    // Symmetric: each bid and its ask are equally far from the mid.
    const mid = dec(101);
    q!.bids.forEach((b, i) => expect(mid.minus(b.rate).eq(q!.asks[i]!.rate.minus(mid))).toBe(true));
  });

  it('skews the ladder down when long and up when short, and stops the side at maxPosition', async () => {
    const h = await maker({ spread: '0.02', levels: 1, maxPosition: '0.1', skew: '0.01', throttleMs: 0 });
    h.setPosition(M, '0.05'); // half of maxPosition: center = 101 × (1 - 0.01 × 0.5) = 100.495
    h.setBook(M, [['100', '1']], [['102', '1']]);
    let q = h.last('quotes')!;
    expect(rates(q.bids)).toEqual(['99.49005']);
    expect(rates(q.asks)).toEqual(['101.49995']);

    h.setPosition(M, '-0.05'); // short: center = 101.505
    h.setBook(M, [['100', '2']], [['102', '1']]); // same prices, new quantity: a book update
    q = h.last('quotes')!;
    expect(rates(q.bids)).toEqual(['100.48995']);
    expect(rates(q.asks)).toEqual(['102.52005']);

    // A fill taking the position to +maxPosition requotes without a book change, and drops the bids.
    h.setPosition(M, '0');
    h.fill({ intentKey: 'mm:BTC-USD', direction: 'BUY', quantity: '0.1', rate: '99.99' });
    q = h.last('quotes')!;
    expect(q.bids).toEqual([]);
    expect(rates(q.asks)).toEqual(['100.9899']); // center 101 × (1 - 0.01) = 99.99; ask 99.99 × 1.01
  });

  it('rounds bids down and asks up to the market precision', async () => {
    const h = await maker({ spread: '0.003', levels: 1, throttleMs: 0 }, 2);
    h.setBook(M, [['100', '1']], [['101', '1']]); // mid 100.5: 100.34925 / 100.65075
    const q = h.last('quotes')!;
    expect(rates(q.bids)).toEqual(['100.34']);
    expect(rates(q.asks)).toEqual(['100.66']);
  });

  it('throttles on the clock: the first update at once, the latest at the end of the window', async () => {
    const h = await maker({ spread: '0.02', levels: 1, throttleMs: 1000 });
    h.setBook(M, [['100', '1']], [['102', '1']]);
    await h.advance(100);
    h.setBook(M, [['110', '1']], [['112', '1']]);
    await h.advance(100);
    h.setBook(M, [['120', '1']], [['122', '1']]);
    expect(h.emitted.map((e) => [rates((e.intent as QuotesIntent).bids)[0], e.at - h.emitted[0]!.at])).toEqual([['99.99', 0]]);
    await h.advance(800);
    expect(h.emitted.map((e) => [rates((e.intent as QuotesIntent).bids)[0], e.at - h.emitted[0]!.at])).toEqual([
      ['99.99', 0],
      ['119.79', 1000], // mid 121 × 0.99; the 110 book was superseded inside the window
    ]);
  });

  it('stays quiet while the book is one-sided or the ladder is unchanged', async () => {
    const h = await maker({ spread: '0.02', levels: 1, throttleMs: 0 });
    h.setBook(M, [['100', '1']], []);
    expect(h.take()).toEqual([]);
    h.setBook(M, [['100', '1']], [['102', '1']]);
    h.setBook(M, [['100', '5'], ['99', '1']], [['102', '3']]); // deeper changes, same mid
    expect(h.take()).toHaveLength(1);
  });

  it('says its ladder again after a fill even when the ladder did not change, so the filled level is placed again', async () => {
    // A bid and an ask both fill (net position unchanged) in a market that does not move: the ladder is the same,
    // but two of its orders are gone. The order manager places only what a wish lacks when it gets one, so the
    // strategy must say it again, or it would quote half a ladder until the market moves.
    const h = await maker({ spread: '0.02', levels: 1, throttleMs: 1000 });
    h.setBook(M, [['100', '1']], [['102', '1']]);
    const [first] = h.take() as QuotesIntent[];
    await h.advance(100);
    // Both fills inside the window the ladder opened: the throttle hands on only the state after both, at the
    // window's end, with the position as it was.
    h.fill({ intentKey: 'mm:BTC-USD', direction: 'BUY', quantity: '0.01', rate: first!.bids[0]!.rate });
    h.fill({ intentKey: 'mm:BTC-USD', direction: 'SELL', quantity: '0.01', rate: first!.asks[0]!.rate });
    await h.advance(1000);
    const again = h.take() as QuotesIntent[];
    expect(again.length).toBeGreaterThan(0);
    expect(rates(again.at(-1)!.bids)).toEqual(rates(first!.bids));
    expect(rates(again.at(-1)!.asks)).toEqual(rates(first!.asks));
    // A book change that leaves the ladder as it was still says nothing.
    await h.advance(2000);
    h.setBook(M, [['100', '5']], [['102', '3']]);
    await h.advance(1000);
    expect(h.take()).toEqual([]);
  });

  it('never crosses the book when skewed hard on a tight book: the reducing side rests one tick above the bid', async () => {
    const h = await maker({ spread: '0.002', levels: 2, skew: '0.01', maxPosition: '1', throttleMs: 0 });
    h.setPosition(M, '0.9'); // center ≈ mid × 0.991: both asks would sit below the best bid
    h.setBook(M, [['100', '1']], [['100.1', '1']]);
    const q = h.last('quotes')!;
    // Long: the asks are what sells the inventory, so they stay, at the best price that does not cross (one
    // tick of the market's precision above the bid), once; dropped, the maker could never sell again.
    expect(rates(q.asks)).toEqual(['100.00000001']);
    expect(q.bids.every((b) => b.rate.lt(dec('100.1')))).toBe(true);
  });

  it('passive: crossing quotes move one tick inside the spread, one per rate; without a tick they are dropped', () => {
    const qs = (...r: string[]) => r.map((rate) => ({ rate: dec(rate), quantity: dec('1') }));
    expect(rates(passive(qs('99', '98'), dec('100'), dec('0.5'), 'BUY'))).toEqual(['99', '98']);
    expect(rates(passive(qs('101', '100', '99.5', '98'), dec('100'), dec('0.5'), 'BUY'))).toEqual(['99.5', '98']);
    expect(rates(passive(qs('98', '99', '101'), dec('100'), dec('0.5'), 'SELL'))).toEqual(['100.5', '101']);
    expect(rates(passive(qs('101', '99'), dec('100'), undefined, 'BUY'))).toEqual(['99']);
    expect(passive(qs('1'), dec('0.5'), dec('0.5'), 'BUY')).toEqual([]);
  });

  it('prices off the rest of the market: its own resting quotes are left out of the touch', async () => {
    const h = await maker({ spread: '0.02', levels: 1, throttleMs: 0 });
    const own = (id: string, direction: 'BUY' | 'SELL', limit: string, quantity: string, filled = '0') =>
      h.account.applyOrder({
        id, marketSymbol: M, direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec(quantity), limit: dec(limit),
        fillQuantity: dec(filled), commission: dec(0), proceeds: dec(0), status: 'OPEN', createdAt: new Date(0),
      });
    // Our quotes are the touch (99.5 / 101.5, 0.5 left of each after a partial fill); the market is 99 / 103.
    own('b', 'BUY', '99.5', '1', '0.5');
    own('a', 'SELL', '101.5', '0.5');
    h.setBook(M, [['99.5', '0.5'], ['99', '2']], [['101.5', '0.5'], ['103', '2']]);
    // Mid of the others: (99 + 103) / 2 = 101, not our own (99.5 + 101.5) / 2 = 100.5 (which would never move).
    expect(rates(h.last('quotes')!.bids)).toEqual(['99.99']);
    expect(rates(h.last('quotes')!.asks)).toEqual(['102.01']);
    // Someone else joins our bid: that level is the market's again.
    h.setBook(M, [['99.5', '1.5'], ['99', '2']], [['101.5', '0.5'], ['103', '2']]);
    expect(rates(h.last('quotes')!.bids)).toEqual(['100.2375']); // mid (99.5 + 103) / 2 = 101.25, less 1 %
  });

  it('quotes every configured market under its own key', async () => {
    const h = await createStrategyHarness(marketMaker, { markets: [M, 'ETH-USD'], params: { levels: 1, throttleMs: 0 } });
    h.setBook('ETH-USD', [['10', '1']], [['11', '1']]);
    h.setBook(M, [['100', '1']], [['101', '1']]);
    expect(h.take().map((i) => i.key)).toEqual(['mm:ETH-USD', 'mm:BTC-USD']);
    expect(h.runner.status).toBe('running');
  });

  it('rejects bad params with the field named', async () => {
    await expect(maker({ spread: 0, levels: 50 })).rejects.toThrow(
      "strategy plugin 'market-maker': invalid params: params.spread: must be greater than 0, got 0; params.levels: Too big: expected number to be <=20",
    );
  });

  it('prices each level as the offset from the center written out per level (the steps worked out once)', () => {
    // The ladder as first written: level i at center × (1 ∓ (spread / 2 + i × levelSpacing)).
    const reference = (mid: Decimal, position: Decimal, p: MarketMakerParams, precision: number) => {
      const ratio = Decimal.max(-1, Decimal.min(1, position.div(p.maxPosition)));
      const center = mid.times(ONE.minus(p.skew.times(ratio)));
      const bids: string[] = [];
      const asks: string[] = [];
      for (let i = 0; i < p.levels; i++) {
        const offset = p.spread.div(2).plus(p.levelSpacing.times(i));
        if (ratio.lt(1)) bids.push(roundRate(center.times(ONE.minus(offset)), precision, 'down').toFixed());
        if (ratio.gt(-1)) asks.push(roundRate(center.times(ONE.plus(offset)), precision, 'up').toFixed());
      }
      return { bids, asks };
    };
    const rnd = mulberry32(21);
    for (let n = 0; n < 300; n++) {
      const p: MarketMakerParams = {
        spread: dec((0.0001 + rnd() * 0.01).toFixed(5)),
        levels: 1 + Math.floor(rnd() * 5),
        levelSpacing: dec((rnd() * 0.002).toFixed(5)),
        size: dec('0.01'),
        maxPosition: dec('0.1'),
        skew: dec((rnd() * 0.002).toFixed(4)),
        throttleMs: 0,
      };
      const mid = dec((20000 + rnd() * 20000).toFixed(3));
      const position = dec(((rnd() - 0.5) * 0.3).toFixed(3));
      const precision = Math.floor(rnd() * 6);
      const steps = ladderSteps(p);
      for (const ladder of [quoteLadder(mid, position, p, precision, steps), quoteLadder(mid, position, p, precision)]) {
        expect({ bids: ladder.bids.map((q) => q.rate.toFixed()), asks: ladder.asks.map((q) => q.rate.toFixed()) }).toEqual(reference(mid, position, p, precision));
      }
    }
  });
});
