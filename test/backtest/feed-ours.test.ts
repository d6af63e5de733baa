/**
 * The market feed's path for a change of ours alone (feed-view.ts `followOurs`: our resting quantity changed at one
 * level, the recorded book did not) and its merged rank without a scan of the view (`followMerged`), against the
 * general path (merge the top levels again and diff), on random books: the same messages, entry for entry, and
 * what they publish is always the recorded top levels plus ours.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import { MarketFeed, type FeedDepth } from '../../backtest/venue/market-feed.js';
import { RecordedBook, type BookSide } from '../../backtest/venue/recorded-book.js';
import { equalTo } from '../helpers/cheap-expect.js';
import { applyTo, expectedTops, messagesText } from '../helpers/feed-model.js';

const DEPTHS: FeedDepth[] = [1, 25, 500];
const SIDES: BookSide[] = ['bid', 'ask'];

describe('MarketFeed: following a change of ours at one level equals rebuilding the view', () => {
  // `levels`: how many recorded levels a side may hold (30: depth 25 often full, 500 rarely; 8: every view short).
  for (const [seed, levels] of [[11, 30], [12, 30], [13, 30], [14, 8], [15, 8], [16, 60]] as const) {
    it(`random books and orders, seed ${seed}, up to ${levels} recorded levels a side`, () => {
      const rng = mulberry32(seed);
      const fast = new RecordedBook();
      const general = new RecordedBook();
      const fastFeed = new MarketFeed('BTC-USD', fast);
      const generalFeed = new MarketFeed('BTC-USD', general);
      const ours = { bid: new Map<string, Decimal>(), ask: new Map<string, Decimal>() };
      const models = new Map<string, Map<string, string>>();
      for (const d of DEPTHS) {
        fastFeed.follow(d);
        generalFeed.follow(d);
        for (const side of SIDES) models.set(`${d}${side}`, new Map());
      }
      const rateOf = (side: BookSide, spread: number): Decimal => {
        // Recorded and our rates on the same grid (and ours sometimes between), so levels are shared, alone or both.
        const offset = 1 + Math.floor(rng() * spread) + (rng() < 0.2 ? 0.5 : 0);
        return new Decimal(side === 'bid' ? 1000 - offset : 1000 + offset);
      };
      let oursAlone = 0;
      for (let step = 0; step < 4000; step++) {
        const oursOnly = rng() < 0.5;
        if (!oursOnly) {
          // One recorded change (the fast feed may follow it through followMerged), or a few.
          const changes = rng() < 0.8 ? 1 : 2;
          for (let c = 0; c < changes; c++) {
            const side: BookSide = rng() < 0.5 ? 'bid' : 'ask';
            const rate = new Decimal(side === 'bid' ? 1000 - 1 - Math.floor(rng() * levels) : 1000 + 1 + Math.floor(rng() * levels));
            const quantity = rng() < 0.35 ? ZERO : new Decimal((1 + Math.floor(rng() * 500)) / 100);
            fast.side(side).set(rate, quantity);
            general.side(side).set(rate, quantity);
          }
        }
        // Changes of ours: often one level (one or several changes there), sometimes several levels.
        const ourChanges = oursOnly ? 1 + Math.floor(rng() * 3) : rng() < 0.3 ? 1 : 0;
        const sameLevel = rng() < 0.7;
        let side: BookSide = rng() < 0.5 ? 'bid' : 'ask';
        let rate = rateOf(side, levels + 5);
        for (let c = 0; c < ourChanges; c++) {
          if (!sameLevel && c > 0) {
            side = rng() < 0.5 ? 'bid' : 'ask';
            rate = rateOf(side, levels + 5);
          }
          const have = ours[side].get(rate.toString());
          const q = have && rng() < 0.5 ? (rng() < 0.7 ? have.neg() : have.neg().div(2)) : new Decimal((1 + Math.floor(rng() * 100)) / 100);
          fastFeed.addOurs(side, rate, q);
          generalFeed.addOurs(side, rate, q);
          const next = (have ?? ZERO).plus(q);
          if (next.lte(0)) ours[side].delete(rate.toString());
          else ours[side].set(rate.toString(), next);
        }
        if (oursOnly) oursAlone++;
        // The general feed never follows: a value-preserving write to each side moves its recorded versions on.
        for (const s of SIDES) {
          const any = general.side(s).atRank(0);
          if (any) {
            general.side(s).set(any.rate, any.quantity);
            general.side(s).set(any.rate, any.quantity);
          }
        }
        const a = fastFeed.bookDeltas();
        const b = generalFeed.bookDeltas();
        // 7 comparisons a step, 4000 steps: compared in plain code first, `expect` only for a step that differs.
        equalTo(messagesText(a), messagesText(b), () => `messages at step ${step}`);
        for (const m of a) {
          applyTo(models.get(`${m.depth}bid`)!, m.bidDeltas);
          applyTo(models.get(`${m.depth}ask`)!, m.askDeltas);
        }
        for (const s of SIDES) {
          const tops = expectedTops(fast, ours[s], s, DEPTHS);
          for (const d of DEPTHS) equalTo(models.get(`${d}${s}`), tops.get(d), () => `depth ${d} ${s} at step ${step}`);
        }
      }
      expect(oursAlone).toBeGreaterThan(1500);
    });
  }
});
