/**
 * The market feed's fast paths (feed-view.ts `followChange` and, with ours on the side, `followMerged`: one recorded
 * change followed in place) against its general path (rebuild the top levels and diff), on random books: the same
 * messages, entry for entry, and what they publish is always the recorded top levels plus ours.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import { MarketFeed, type FeedDepth } from '../../backtest/venue/market-feed.js';
import { RecordedBook, type BookSide } from '../../backtest/venue/recorded-book.js';
import { equalTo } from '../helpers/cheap-expect.js';
import { applyTo, expectedTops, messagesText } from '../helpers/feed-model.js';

const DEPTHS: FeedDepth[] = [1, 25, 500];

describe('MarketFeed: following one recorded change equals rebuilding the view', () => {
  // `oursEvery`: how often ours change. Rarely: views mostly follow the recorded book alone. Often, at rates on and
  // between the recorded ones and down past depth 25: views follow merged levels (followMerged), where a recorded
  // level leaving may leave ours shown alone and the level entering a full view may be ours, recorded or both.
  for (const [seed, oursEvery] of [[1, 0.03], [2, 0.03], [3, 0.03], [4, 0.03], [5, 0.03], [6, 0.2], [7, 0.2], [8, 0.2], [9, 0], [10, 0]] as const) {
    it(`random books, seed ${seed}, ours change with probability ${oursEvery}`, () => {
      const random = mulberry32(seed);
      const rng = { next: random };
      const fast = new RecordedBook();
      const general = new RecordedBook();
      const fastFeed = new MarketFeed('BTC-USD', fast);
      const generalFeed = new MarketFeed('BTC-USD', general);
      const oursBySide = { bid: new Map<string, Decimal>(), ask: new Map<string, Decimal>() };
      const models = new Map<string, Map<string, string>>();
      let followedMerged = 0;
      const recordedLists = new Set<readonly unknown[]>();
      let published = 0;
      for (const d of DEPTHS) {
        fastFeed.follow(d);
        generalFeed.follow(d);
        models.set(`${d}bid`, new Map());
        models.set(`${d}ask`, new Map());
      }
      for (let step = 0; step < 3000; step++) {
        const changes = rng.next() < 0.85 ? 1 : 1 + Math.floor(rng.next() * 3);
        for (let c = 0; c < changes; c++) {
          const side: BookSide = rng.next() < 0.5 ? 'bid' : 'ask';
          // Prices around a mid of 1000: bids below, asks above, 60 levels each, so depth 25 is often full.
          const offset = 1 + Math.floor(rng.next() * 60);
          const rate = new Decimal(side === 'bid' ? 1000 - offset : 1000 + offset);
          const existing = fast.side(side).get(rate.toNumber());
          const roll = rng.next();
          const quantity = roll < 0.3 ? ZERO : roll < 0.4 && existing ? new Decimal(existing.quantity.toString()) : new Decimal((1 + Math.floor(rng.next() * 500)) / 100);
          if (changes === 1 && rng.next() < 0.7) {
            // As the venue applies a recorded event: a list of one entry, which the feed may publish as it is (its rate
            // sometimes another object of the same value).
            const list = [{ quantity, rate: rng.next() < 0.5 ? rate : new Decimal(`${rate.toString()}.0`) }];
            fast.update(side === 'bid' ? list : [], side === 'ask' ? list : []);
            recordedLists.add(list);
          } else fast.side(side).set(rate, quantity);
          general.side(side).set(rate, quantity);
          // The general feed never sees a single change: a second, value-preserving write to some level.
          const any = general.side(side).atRank(0);
          if (any) general.side(side).set(any.rate, any.quantity);
        }
        if (oursEvery > 0.1 && (oursBySide.bid.size > 0 || oursBySide.ask.size > 0) && changes === 1) followedMerged++;
        if (rng.next() < oursEvery) {
          // Ours come and go on either side (views then take the merging path, and back).
          const side: BookSide = rng.next() < 0.5 ? 'bid' : 'ask';
          const far = oursEvery > 0.1 ? 45 : 30;
          const offset = 1 + Math.floor(rng.next() * far) + (oursEvery > 0.1 && rng.next() < 0.3 ? 0.5 : 0);
          const rate = new Decimal(side === 'bid' ? 1000 - offset : 1000 + offset);
          const have = oursBySide[side].get(rate.toString());
          const q = have && rng.next() < 0.6 ? have.neg() : new Decimal('0.5');
          fastFeed.addOurs(side, rate, q);
          generalFeed.addOurs(side, rate, q);
          const next = (have ?? ZERO).plus(q);
          if (next.lte(0)) oursBySide[side].delete(rate.toString());
          else oursBySide[side].set(rate.toString(), next);
        }
        const a = fastFeed.bookDeltas();
        const b = generalFeed.bookDeltas();
        // 7 comparisons a step, 3000 steps: compared in plain code first, `expect` only for a step that differs.
        equalTo(messagesText(a), messagesText(b), () => `messages at step ${step}`);
        for (const m of a) if (recordedLists.has(m.bidDeltas) || recordedLists.has(m.askDeltas)) published++;
        recordedLists.clear();
        for (const m of a) {
          applyTo(models.get(`${m.depth}bid`)!, m.bidDeltas);
          applyTo(models.get(`${m.depth}ask`)!, m.askDeltas);
        }
        for (const side of ['bid', 'ask'] as const) {
          const tops = expectedTops(fast, oursBySide[side], side, DEPTHS);
          for (const d of DEPTHS) equalTo(models.get(`${d}${side}`), tops.get(d), () => `depth ${d} ${side} at step ${step}`);
        }
      }
      if (oursEvery > 0.1) expect(followedMerged).toBeGreaterThan(2000);
      // Recorded one-entry lists were published as they were (most events without ours, a few with ours away from a side).
      expect(published).toBeGreaterThan(oursEvery === 0 ? 1000 : 0);
    });
  }
});

describe('MarketFeed: a recorded change beside our orders publishes the recorded list', () => {
  // followMerged, like followChange, hands out the recorded one-entry list when the entry it would build is that one
  // (the level holds none of ours): the same entries as the general path, without a list and entry per event.
  const setup = () => {
    const book = new RecordedBook();
    const feed = new MarketFeed('BTC-USD', book);
    for (let i = 1; i <= 10; i++) {
      book.bid.set(new Decimal(1000 - i), new Decimal(1));
      book.ask.set(new Decimal(1000 + i), new Decimal(1));
    }
    feed.follow(25);
    feed.addOurs('bid', new Decimal(999), new Decimal('0.5'));
    feed.bookDeltas();
    return { book, feed };
  };

  it('a quantity update of a level without ours', () => {
    const { book, feed } = setup();
    const list = [{ quantity: new Decimal(3), rate: new Decimal(995) }];
    book.update(list, []);
    const [m] = feed.bookDeltas();
    expect(m!.bidDeltas).toBe(list);
  });

  it('a level entering a view that is not full', () => {
    const { book, feed } = setup();
    const list = [{ quantity: new Decimal(2), rate: new Decimal('995.5') }];
    book.update(list, []);
    const [m] = feed.bookDeltas();
    expect(m!.bidDeltas).toBe(list);
  });

  it('but a level holding ours too gets an entry of its own (recorded + ours)', () => {
    const { book, feed } = setup();
    const list = [{ quantity: new Decimal(3), rate: new Decimal(999) }];
    book.update(list, []);
    const [m] = feed.bookDeltas();
    expect(m!.bidDeltas).not.toBe(list);
    expect(m!.bidDeltas.map((e) => [e.rate.toString(), e.quantity.toString()])).toEqual([['999', '3.5']]);
  });
});
