/**
 * The L2 fill model of the backtest venue, one case each (issue 10, "Tests that must exist"): queue position,
 * cancellations under the queue models, latency, fills while a cancel is in flight, trade-through, one trade
 * never filling two of our orders, consumed liquidity, and balances/fees agreeing with the engine's ledger.
 * Recorded events are written by hand on BTC-USD; our orders go to the venue directly or through its gateway.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { dec } from '../../src/core/decimal.js';
import { commissionOn, fillQuote } from '../../src/sim/trading-amounts.js';
import type { MarketEvent } from '../../backtest/readers/reader.js';
import { ev, M, T0, venueHarness } from './venue-harness.js';
import { BookSequences } from '../../backtest/venue/book-sequences.js';
import { buildReplayTimeline } from '../../src/sim/driver/replay-timeline.js';

describe('backtest fill model: resting orders in the recorded queue', () => {
  it('behind 5 units: nothing fills until 5 units trade at our price, then the next trades fill us', async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['100', '5']], [['101', '5']]));
    const o = h.limit('BUY', '100', '1');
    expect(h.venue.queues(M)!.get(o.id)!.ahead.toFixed()).toBe('5');
    await h.play(ev.trade(T0 + 1, 'SELL', '100', '3'));
    await h.play(ev.delta(T0 + 2, [['100', '2']], [])); // the book shows the trade: explained, not a cancellation
    expect(h.filled(o.id)).toBe('0');
    await h.play(ev.trade(T0 + 3, 'SELL', '100', '2'));
    expect(h.filled(o.id)).toBe('0');
    await h.play(ev.trade(T0 + 4, 'SELL', '100', '0.4'));
    expect(h.filled(o.id)).toBe('0.4');
    await h.play(ev.trade(T0 + 5, 'SELL', '100', '2'));
    expect(h.order(o.id)).toMatchObject({ status: 'CLOSED' });
    expect(h.filled(o.id)).toBe('1');
    expect(h.venue.stats.mismatches).toBe(0);
  });

  it('a trade on our side of the book (taker BUY at a bid price) does not fill a resting buy', async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['100', '0.5']], [['101', '5']]));
    const o = h.limit('BUY', '100', '1');
    await h.play(ev.trade(T0 + 1, 'BUY', '100', '3'));
    expect(h.filled(o.id)).toBe('0');
  });

  it('a cancellation ahead of us moves us up under optimistic and not under pessimistic', async () => {
    const run = async (queue: 'optimistic' | 'pessimistic') => {
      const h = venueHarness({ queue });
      await h.play(ev.snapshot(T0, [['100', '5']], [['101', '5']]));
      const o = h.limit('BUY', '100', '1');
      await h.play(ev.delta(T0 + 1, [['100', '10']], [])); // 5 join behind us
      await h.play(ev.delta(T0 + 2, [['100', '7']], [])); // 3 cancelled, no trade explains it
      const ahead = h.venue.queues(M)!.get(o.id)!.ahead.toFixed();
      // A second later (a trade right after the decrease would be taken as its cause, not a second event).
      await h.play(ev.trade(T0 + 1_000, 'SELL', '100', '3'));
      return { ahead, filled: h.filled(o.id) };
    };
    expect(await run('optimistic')).toEqual({ ahead: '2', filled: '1' });
    expect(await run('pessimistic')).toEqual({ ahead: '5', filled: '0' });
  });

  it('a trade right after the book change it caused counts once, in either order, under every queue model', async () => {
    const run = async (queue: 'optimistic' | 'pessimistic' | 'power', tradeFirst: boolean) => {
      const h = venueHarness({ queue });
      await h.play(ev.snapshot(T0, [['100', '5']], [['101', '5']]));
      const o = h.limit('BUY', '100', '1');
      await h.play(ev.delta(T0 + 1, [['100', '10']], [])); // 5 join behind us
      const trade = ev.trade(T0 + 10, 'SELL', '100', '3');
      const delta = ev.delta(T0 + 10, [['100', '7']], []);
      await h.play(tradeFirst ? trade : delta);
      await h.play(tradeFirst ? delta : trade);
      return { ahead: h.venue.queues(M)!.get(o.id)!.ahead.toFixed(), filled: h.filled(o.id) };
    };
    for (const q of ['optimistic', 'pessimistic', 'power'] as const) {
      expect({ q, ...(await run(q, false)) }).toEqual({ q, ahead: '2', filled: '0' });
      expect({ q, ...(await run(q, true)) }).toEqual({ q, ahead: '2', filled: '0' });
    }
  });

  it('the probabilistic default moves us up by part of a cancellation, more when we are far back', async () => {
    const h = venueHarness({ queue: 'power' });
    await h.play(ev.snapshot(T0, [['100', '5']], [['101', '5']]));
    const o = h.limit('BUY', '100', '1');
    await h.play(ev.delta(T0 + 1, [['100', '6']], [])); // 1 behind us
    await h.play(ev.delta(T0 + 2, [['100', '4']], [])); // 2 cancelled
    const ahead = h.venue.queues(M)!.get(o.id)!.ahead;
    // f(5)=125, f(1)=1: almost all of the cancellation was ahead of us.
    expect(ahead.gt(3) && ahead.lt(3.05)).toBe(true);
  });

  it('a trade through our price fills us fully, whatever stood ahead', async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['100', '5']], [['101', '5']]));
    const o = h.limit('BUY', '100', '2');
    await h.play(ev.trade(T0 + 1, 'SELL', '99.5', '0.1'));
    expect(h.order(o.id)).toMatchObject({ status: 'CLOSED' });
    expect(h.filled(o.id)).toBe('2');
  });

  it('the recorded asks reaching our bid fill us fully at our price', async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['99', '5']], [['101', '5']]));
    const o = h.limit('BUY', '100', '1');
    await h.play(ev.delta(T0 + 1, [], [['100', '3']]));
    expect(h.filled(o.id)).toBe('1');
    const [x] = h.engine.orderExecutions(h.account, o.id);
    expect({ rate: x!.rate.toFixed(), isTaker: x!.isTaker }).toEqual({ rate: '100', isTaker: false });
  });

  it('two of our orders at one level cannot fill from the same trade; they share one queue, first come first served', async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['99', '5']], [['101', '5']]));
    const a = h.limit('BUY', '100', '1');
    const b = h.limit('BUY', '100', '1');
    await h.play(ev.trade(T0 + 1, 'SELL', '100', '1'));
    expect([h.filled(a.id), h.filled(b.id)]).toEqual(['1', '0']);
    await h.play(ev.trade(T0 + 2, 'SELL', '100', '0.5'));
    expect([h.filled(a.id), h.filled(b.id)]).toEqual(['1', '0.5']);
  });

  it('recorded quantity that joined between our two orders stands between them', async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['99', '5']], [['101', '5']]));
    const a = h.limit('BUY', '100', '1');
    await h.play(ev.delta(T0 + 1, [['100', '2']], []));
    const b = h.limit('BUY', '100', '1');
    await h.play(ev.trade(T0 + 2, 'SELL', '100', '2.5'));
    expect([h.filled(a.id), h.filled(b.id)]).toEqual(['1', '0']); // 1 to a, then 1.5 of the 2 between a and b
    await h.play(ev.trade(T0 + 3, 'SELL', '100', '1'));
    expect([h.filled(a.id), h.filled(b.id)]).toEqual(['1', '0.5']);
  });
});

describe('backtest venue: the recorded book stream', () => {
  it('starts at a snapshot: sequenced deltas before it or contained in it are left out, gaps are counted', async () => {
    const h = venueHarness();
    const seq = (e: ReturnType<typeof ev.delta>, n: number) => ({ ...e, sequence: n }) as typeof e;
    await h.play(seq(ev.delta(T0, [['99', '1']], []), 9)); // before any snapshot
    await h.play(seq(ev.snapshot(T0 + 1, [['100', '5']], [['101', '5']]), 10));
    await h.play(seq(ev.delta(T0 + 2, [['100', '9']], []), 10)); // already in the snapshot
    await h.play(seq(ev.delta(T0 + 3, [['100', '4']], []), 11));
    await h.play(seq(ev.delta(T0 + 4, [['100', '3']], []), 13)); // 12 is missing
    expect(h.venue.feed(M)!.book.bid.top(5).map((e) => `${e.quantity.toFixed()}@${e.rate.toFixed()}`)).toEqual(['3@100']);
    expect(h.venue.stats).toMatchObject({ deltasBeforeSnapshot: 2, sequenceGaps: 1 });
  });

  it('deltas recorded before the first snapshot but newer than it are played right after it, in sequence order', async () => {
    const h = venueHarness();
    const seq = (e: ReturnType<typeof ev.delta>, n: number) => ({ ...e, sequence: n }) as typeof e;
    // A capture subscribes before it fetches the snapshot: 12 and 11 arrive first (out of order), 9 is older.
    await h.play(seq(ev.delta(T0, [['100', '7']], []), 12));
    await h.play(seq(ev.delta(T0, [['100', '6'], ['98', '2']], []), 11));
    await h.play(seq(ev.delta(T0, [['99', '1']], []), 9));
    expect(h.venue.feed(M)!.book.bid.top(5)).toEqual([]); // nothing applies before the snapshot
    await h.play(seq(ev.snapshot(T0 + 1, [['100', '5']], [['101', '5']]), 10));
    const bids = () => h.venue.feed(M)!.book.bid.top(5).map((e) => `${e.quantity.toFixed()}@${e.rate.toFixed()}`);
    expect(bids()).toEqual(['7@100', '2@98']); // 11 then 12 on top of the snapshot; 9 was in it
    await h.play(seq(ev.delta(T0 + 2, [['100', '1']], []), 12)); // the stream's own copy of 12: a duplicate now
    expect(bids()).toEqual(['7@100', '2@98']);
    await h.play(seq(ev.delta(T0 + 3, [['100', '4']], []), 13));
    expect(bids()).toEqual(['4@100', '2@98']);
    expect(h.venue.stats).toMatchObject({ deltasBeforeSnapshot: 2, earlyDeltas: 2, sequenceGaps: 0 });
  });

  it('the same early deltas give the simulator replay timeline the same chain', () => {
    const d = (at: number, sequence: number) => ({ kind: 'orderBookDelta' as const, at, marketSymbol: M, depth: 500, sequence, bidDeltas: [], askDeltas: [] });
    const snap = { kind: 'snapshot' as const, at: T0 + 1, marketSymbol: M, sequence: 10, bid: [], ask: [] };
    const recorded = [d(T0, 12), d(T0, 11), d(T0, 9), snap, d(T0 + 2, 12), d(T0 + 3, 14)];
    const timeline = buildReplayTimeline([recorded as never]);
    const seqs = new BookSequences();
    const played: number[] = [];
    for (const e of recorded) {
      if (seqs.accept(e as never) === 'apply') played.push(e.sequence);
      for (const r of seqs.release()) played.push(r.sequence);
    }
    expect(played).toEqual(timeline.events.map((e) => (e as { sequence: number }).sequence));
    expect([seqs.leftOut, seqs.playedLate, seqs.gaps]).toEqual([timeline.stats.staleDeltas, timeline.stats.earlyDeltas, timeline.stats.gaps]);
  });

  it('a new snapshot replaces the book; our place in a shrunken level is capped by it', async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['100', '5']], [['101', '5']]));
    const o = h.limit('BUY', '100', '1');
    await h.play({ ...ev.snapshot(T0 + 1, [['100', '2'], ['99', '1']], [['101', '5']]), sequence: 50 } as MarketEvent);
    expect(h.venue.queues(M)!.get(o.id)!.ahead.toFixed()).toBe('2');
    await h.play(ev.trade(T0 + 1_000, 'SELL', '100', '2.5'));
    expect(h.filled(o.id)).toBe('0.5');
  });
});

describe('backtest venue: the book the bot sees', () => {
  it('is the recorded book with our resting orders added at their prices, as a venue shows them', async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['100', '5'], ['99', '1']], [['101', '5']]));
    await h.gateway.streams.subscribe([`orderbook_${M}_25`]);
    const deltas: string[] = [];
    h.gateway.streams.messages$.subscribe((m) => {
      if (m.name === 'orderBook') deltas.push(m.data.bidDeltas.map((e) => `${e.quantity.toFixed()}@${e.rate.toFixed()}`).join(' '));
    });
    const bids = async () => (await h.gateway.orderBook(M, 25)).data.bid.map((e) => `${e.quantity.toFixed()}@${e.rate.toFixed()}`);
    const a = h.limit('BUY', '100', '1');
    h.limit('BUY', '100.5', '2');
    expect(await bids()).toEqual(['2@100.5', '6@100', '1@99']);
    h.venue.cancelOrder(a.id);
    await h.play(ev.trade(T0 + 1, 'SELL', '100.5', '0.5'));
    expect(await bids()).toEqual(['1.5@100.5', '5@100', '1@99']);
    await h.clock.advanceTo(T0 + 2);
    expect(deltas).toEqual(['6@100', '2@100.5', '5@100', '1.5@100.5']);
  });
});

describe('backtest fill model: marketable orders and consumed liquidity', () => {
  it('walks the recorded book; what we took stays taken until the level grows again', async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['99', '5']], [['101', '1'], ['102', '1'], ['103', '5']]));
    const ioc = (rate: string, q: string) =>
      h.venue.placeOrder({ marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec(q), limit: dec(rate) });
    const first = ioc('103', '3');
    expect(h.engine.orderExecutions(h.account, first.id).map((x) => `${x.quantity.toFixed()}@${x.rate.toFixed()}`).sort()).toEqual(['1@101', '1@102', '1@103']);
    // The recording still shows 101 and 102; we consumed them.
    expect(h.venue.feed(M)!.book.ask.best()!.quantity.toFixed()).toBe('1');
    expect(ioc('102', '1').fillQuantity.toFixed()).toBe('0');
    // 2 more join at 101: available 3 - 1 consumed = 2.
    await h.play(ev.delta(T0 + 1, [], [['101', '3']]));
    expect(ioc('101', '5').fillQuantity.toFixed()).toBe('2');
    // The level empties and comes back: nothing of it is owed any more.
    await h.play(ev.delta(T0 + 2, [], [['101', '0']]));
    await h.play(ev.delta(T0 + 3, [], [['101', '1']]));
    expect(ioc('101', '5').fillQuantity.toFixed()).toBe('1');
    // The liquidity offered for the moment of each order was withdrawn: the engine's book holds nothing else.
    expect(h.engine.orderBook(M, 25).data.ask).toEqual([]);
  });

  it('refuses what the engine refuses (minTradeSize) and a post-only order that would take', async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['99', '5']], [['101', '5']]));
    expect(() => h.limit('BUY', '101', '0.00001')).toThrow(expect.objectContaining({ code: 'MIN_TRADE_REQUIREMENT_NOT_MET' }));
    expect(() =>
      h.venue.placeOrder({ marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'POST_ONLY_GOOD_TIL_CANCELLED', quantity: dec('1'), limit: dec('101') }),
    ).toThrow(expect.objectContaining({ code: 'POST_ONLY' }));
    expect(h.engine.orderBook(M, 25).data.ask).toEqual([]);
  });

  it('fees and balances agree with the engine\'s ledger to the last 1e-8', async () => {
    const h = venueHarness({ funding: { USD: '100000', BTC: '10' } });
    await h.play(ev.snapshot(T0, [['99.12345', '5']], [['101.00001', '0.33333333'], ['102.5', '7']]));
    const fees = h.engine.catalog.feeRates(M);
    const taker = h.venue.placeOrder({ marketSymbol: M, direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('1.23456789') });
    const maker = h.limit('SELL', '103.777', '0.98765432');
    await h.play(ev.trade(T0 + 1, 'BUY', '103.777', '0.5'));
    await h.play(ev.trade(T0 + 2, 'BUY', '104', '0.1')); // through: the rest fills
    expect(h.order(maker.id).status).toBe('CLOSED');
    let usd = dec('100000');
    let btc = dec('10');
    const fills = [...h.engine.orderExecutions(h.account, taker.id), ...h.engine.orderExecutions(h.account, maker.id)];
    for (const x of fills) {
      const quote = fillQuote(x.quantity, x.rate);
      const fee = commissionOn(quote, x.isTaker ? fees.taker : fees.maker);
      expect(x.commission.toFixed(8)).toBe(fee.toFixed(8));
      const buy = x.orderId === taker.id;
      usd = buy ? usd.minus(quote).minus(fee) : usd.plus(quote).minus(fee);
      btc = buy ? btc.plus(x.quantity) : btc.minus(x.quantity);
    }
    expect(fills.length).toBe(4);
    expect(h.balance('USD').toFixed(8)).toBe(usd.toFixed(8));
    expect(h.balance('BTC').toFixed(8)).toBe(btc.toFixed(8));
    for (const a of h.engine.ledger.audit()) expect(`${a.currency} ${a.discrepancy.toFixed()}`).toBe(`${a.currency} 0`);
  });
});

describe('backtest fill model: latency', () => {
  it('order-entry latency turns a fill into a miss: the liquidity is gone when the order arrives', async () => {
    const run = async (orderEntry: number) => {
      const h = venueHarness({ latency: { orderEntry } });
      await h.play(ev.snapshot(T0, [['99', '5']], [['101', '1']]));
      const placed = h.gateway.placeOrder({ marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('1'), limit: dec('101') });
      await h.play(ev.delta(T0 + 10, [], [['101', '0']]));
      await h.clock.advanceTo(T0 + 100);
      const order = await placed;
      return { filled: order.fillQuantity.toFixed(), arrived: order.createdAt.getTime() - T0 };
    };
    expect(await run(0)).toEqual({ filled: '1', arrived: 0 });
    expect(await run(50)).toEqual({ filled: '0', arrived: 50 });
  });

  it('a command reaches the venue at exactly its scheduled virtual time, not at the next market event', async () => {
    const h = venueHarness({ latency: { orderEntry: 7 } });
    await h.play(ev.snapshot(T0, [['99', '5']], [['101', '1']]));
    const placed = h.gateway.placeOrder({ marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('1'), limit: dec('100') });
    await h.play(ev.delta(T0 + 1_000, [['98', '1']], []));
    expect((await placed).createdAt.getTime()).toBe(T0 + 7);
  });

  it('a fill lands while our cancel is in flight; the cancel then fails as on a real venue', async () => {
    const h = venueHarness({ latency: { cancel: 50, marketData: 5 } });
    await h.play(ev.snapshot(T0, [['99', '5']], [['101', '5']]));
    const o = h.limit('BUY', '100', '1');
    const cancelling = h.gateway.cancelOrder(o.id);
    const outcome = cancelling.then(
      () => 'cancelled',
      (e: unknown) => (e instanceof ApiError ? e.code : String(e)),
    );
    await h.play(ev.trade(T0 + 20, 'SELL', '100', '1'));
    expect(h.filled(o.id)).toBe('1');
    await h.clock.advanceTo(T0 + 100);
    expect(await outcome).toBe('ORDER_NOT_OPEN');
  });

  it('market data reaches the bot after the market-data latency, in order', async () => {
    const h = venueHarness({ latency: { marketData: { kind: 'uniform', min: 1, max: 30, seed: 3 } } });
    await h.play(ev.snapshot(T0, [['99', '5']], [['101', '5']]));
    await h.gateway.streams.subscribe([`orderbook_${M}_25`]);
    const seen: Array<{ seq: number; at: number }> = [];
    h.gateway.streams.messages$.subscribe((m) => {
      if (m.name === 'orderBook') seen.push({ seq: m.data.sequence, at: h.clock.now() });
    });
    for (let i = 1; i <= 20; i++) await h.play(ev.delta(T0 + i, [[String(90 + (i % 5)), String(i)]], []));
    await h.clock.advanceTo(T0 + 200);
    expect(seen.map((s) => s.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    expect(seen.every((s, i) => s.at >= T0 + i + 2 && (i === 0 || s.at >= seen[i - 1]!.at))).toBe(true);
  });
});

describe('backtest venue: the market is the recording', () => {
  it("keeps no public market data of the engine's own operations: our fills are not public trades, nor its ticker", async () => {
    const h = venueHarness();
    await h.play(ev.snapshot(T0, [['100', '5']], [['101', '5']]));
    const o = h.limit('BUY', '101', '1'); // marketable: fills from the recorded ask at once
    expect(h.filled(o.id)).toBe('1');
    h.limit('SELL', '105', '1'); // rests: the engine's own book's top moves
    expect(h.engine.trades(M).data).toEqual([]);
    expect(h.engine.trades(M).sequence).toBe(0);
    expect(h.engine.ticker(M).lastTradeRate.toFixed()).toBe('0');
    // What the bot is served is the recording's.
    await h.play(ev.trade(T0 + 1, 'BUY', '101', '0.5'));
    expect(h.venue.feed(M)!.trades().data.map((t) => t.rate.toFixed())).toEqual(['101']);
  });
});
