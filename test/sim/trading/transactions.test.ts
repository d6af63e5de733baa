/**
 * Trading.transact: several placements and cancellations on one market published as one operation — what the
 * replay driver uses to re-enact one recorded message as the service published it (one orderBook delta per
 * depth, one sequence step, no intermediate book).
 */
import { describe, expect, it } from 'vitest';
import type { OrderBookEntry } from '../../../src/model/market.js';
import type { SimEvent } from '../../../src/sim/events.js';
import { seqKey } from '../../../src/sim/sequences.js';
import { checkInvariants, refusal, setup } from './harness.js';

type BookEvent = Extract<SimEvent, { kind: 'orderBook' }>;
const bookEvents = (events: SimEvent[]) => events.filter((e): e is BookEvent => e.kind === 'orderBook');
const txt = (entries: OrderBookEntry[]) => entries.map((e) => `${e.quantity.toFixed()}@${e.rate.toFixed()}`);

function funded() {
  const h = setup();
  for (const a of ['lp', 'user']) {
    h.fund(a, 'BTC', '100');
    h.fund(a, 'USD', '10000000');
  }
  return h;
}

describe('Trading.transact', () => {
  it('publishes a level cancelled and placed again, and other levels, as one delta per depth with the net quantities', () => {
    const h = funded();
    const a = h.limit('lp', 'SELL', '1', '30010');
    const b = h.limit('lp', 'SELL', '2', '30020');
    const c = h.limit('lp', 'SELL', '3', '30030');
    const seq25 = h.sequences.current(seqKey.orderBook('BTC-USD', 25));
    h.events.length = 0;
    let seenInside = -1;
    const placed = h.trading.transact('BTC-USD', () => {
      h.trading.cancelOrder('lp', a.id);
      h.trading.cancelOrder('lp', b.id);
      h.trading.cancelOrder('lp', c.id);
      const a2 = h.limit('lp', 'SELL', '0.5', '30010'); // quantity changed
      h.limit('lp', 'SELL', '2', '30020'); // same quantity again: no change to publish
      h.limit('lp', 'SELL', '4', '30040'); // a new level (30030 is gone)
      seenInside = h.events.length;
      return a2;
    });
    expect(seenInside).toBe(0); // nothing is published before the transaction ends
    expect(placed.status).toBe('OPEN');
    expect(bookEvents(h.events).map((e) => [e.depth, txt(e.askDeltas), txt(e.bidDeltas)])).toEqual([
      [1, ['0.5@30010'], []],
      [25, ['0.5@30010', '0@30030', '4@30040'], []],
      [500, ['0.5@30010', '0@30030', '4@30040'], []],
    ]);
    expect(h.sequences.current(seqKey.orderBook('BTC-USD', 25))).toBe(seq25 + 1);
    // One order event per changed order (its final state), in order of first change.
    const orders = h.events.filter((e) => e.kind === 'order').map((e) => (e.kind === 'order' ? e.delta.status : ''));
    expect(orders).toEqual(['CLOSED', 'CLOSED', 'CLOSED', 'OPEN', 'OPEN', 'OPEN']);
    expect(txt(h.trading.reads.orderBook('BTC-USD', 25).data.ask)).toEqual(['0.5@30010', '2@30020', '4@30040']);
    checkInvariants(h, ['lp', 'user']);
  });

  it('a trade and the restoring of the level it took show no book change; its fills are still published', () => {
    const h = funded();
    const level = h.limit('lp', 'SELL', '1', '30010');
    h.events.length = 0;
    h.trading.transact('BTC-USD', () => {
      const taken = h.limit('user', 'BUY', '0.4', '30010', 'IMMEDIATE_OR_CANCEL');
      expect(taken.fillQuantity.toFixed()).toBe('0.4');
      h.trading.cancelOrder('lp', level.id);
      h.limit('lp', 'SELL', '1', '30010');
    });
    expect(bookEvents(h.events)).toEqual([]);
    const executions = h.events.filter((e) => e.kind === 'execution').map((e) => (e.kind === 'execution' ? e.accountId : ''));
    expect(executions.sort()).toEqual(['lp', 'user']);
    checkInvariants(h, ['lp', 'user']);
  });

  it('a refused operation inside changes nothing and the others apply; nested calls join; another market is refused', () => {
    const h = funded();
    h.events.length = 0;
    h.trading.transact('BTC-USD', () => {
      h.limit('lp', 'SELL', '1', '30010');
      expect(refusal(() => h.limit('lp', 'SELL', '1000', '30020')).code).toBe('INSUFFICIENT_FUNDS');
      h.trading.transact('BTC-USD', () => h.limit('lp', 'SELL', '1', '30030'));
      expect(() => h.limit('lp', 'SELL', '1', '2000', 'GOOD_TIL_CANCELLED', 'ETH-USD')).toThrow(/transaction on BTC-USD cannot change ETH-USD/);
    });
    expect(bookEvents(h.events).find((e) => e.depth === 25)!.askDeltas.map((e) => e.rate.toFixed())).toEqual(['30010', '30030']);
    expect(bookEvents(h.events)).toHaveLength(3);
    // After the transaction, operations publish on their own again.
    h.events.length = 0;
    h.limit('user', 'BUY', '1', '29000');
    expect(bookEvents(h.events).map((e) => e.depth)).toEqual([1, 25, 500]);
    checkInvariants(h, ['lp', 'user']);
  });

  it('publishes what was done when the callback throws', () => {
    const h = funded();
    h.events.length = 0;
    expect(() =>
      h.trading.transact('BTC-USD', () => {
        h.limit('lp', 'SELL', '1', '30010');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(bookEvents(h.events).map((e) => txt(e.askDeltas))).toEqual([['1@30010'], ['1@30010'], ['1@30010']]);
  });
});
