/**
 * Listeners that say when they would ignore events (a hub bridge with no subscriber): the engine may then skip
 * building balance, order, execution, candle and ticker payloads, but every sequence moves exactly as if they had been built, and a listener
 * that wants them again sees the same events, numbered the same, as one that listened all along.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { CANDLE_INTERVALS } from '../../../src/model/enums.js';
import type { NewOrder } from '../../../src/model/order.js';
import { createSimEngine } from '../../../src/sim/engine.js';
import { SimEventBus, type SimEvent } from '../../../src/sim/events.js';

const START = Date.parse('2021-06-14T00:00:00Z');

const limit = (direction: 'BUY' | 'SELL', quantity: string, rate: string, timeInForce: NewOrder['timeInForce'] = 'GOOD_TIL_CANCELLED'): NewOrder => ({
  marketSymbol: 'BTC-USD', direction, type: 'LIMIT', timeInForce, quantity: dec(quantity), limit: dec(rate),
});

/** Trade a little on a fresh engine; `listen` says when the one (interested-when-told) listener wants events. */
function run(listen: (phase: number) => boolean) {
  const e = createSimEngine({ clock: new VirtualClock(START) });
  let phase = 0;
  const seen: SimEvent[] = [];
  e.bus.on((ev) => seen.push(ev), () => listen(phase));
  const lp = e.createParticipant({ BTC: dec('10'), USD: dec('1000000') });
  const user = e.createParticipant({ BTC: dec('10'), USD: dec('1000000') });
  e.placeOrder(lp, limit('SELL', '5', '30010'));
  e.placeOrder(lp, limit('BUY', '5', '29990'));
  for (phase = 0; phase < 3; phase++) {
    e.placeOrder(user, limit('BUY', '0.01', '30010', 'IMMEDIATE_OR_CANCEL'));
    e.placeOrder(user, limit('SELL', '0.02', '29990', 'IMMEDIATE_OR_CANCEL'));
  }
  // Ids are random per engine: accounts by role, orders without their id.
  const role = (id: string) => (id === lp ? 'lp' : id === user ? 'user' : id);
  const last = seen
    .filter((ev) => ['balance', 'order', 'execution', 'candle', 'ticker', 'tickers'].includes(ev.kind))
    .map((ev) =>
      ev.kind === 'order'
        ? { ...ev, accountId: role(ev.accountId), delta: { ...ev.delta, id: '' } }
        : ev.kind === 'execution'
          ? { ...ev, accountId: role(ev.accountId), deltas: ev.deltas.map((x) => ({ ...x, id: '', orderId: '' })) }
        : ev.kind === 'balance'
          ? { ...ev, accountId: role(ev.accountId) }
          : ev,
    );
  const seqs = {
    balance: e.funds.balancesSequence(user),
    orders: e.trading.reads.openOrders(user).sequence,
    executions: e.trading.reads.lastExecution(user).sequence,
    tickers: e.tickers().sequence,
    candles: CANDLE_INTERVALS.map((i) => e.marketData.candles('BTC-USD', 'TRADE', i).sequence),
  };
  e.dispose();
  return { last, seqs };
}

describe('event interest', () => {
  it('a bus wants a kind while any listener has no interest test or says yes', () => {
    const bus = new SimEventBus();
    expect(bus.wants('balance')).toBe(false);
    let on = false;
    const off = bus.on(() => {}, (kind) => on && kind === 'balance');
    expect(bus.wants('balance')).toBe(false);
    on = true;
    expect(bus.wants('balance')).toBe(true);
    expect(bus.wants('order')).toBe(false);
    const offAll = bus.on(() => {});
    expect(bus.wants('order')).toBe(true);
    offAll();
    expect(bus.wants('order')).toBe(false);
    expect(bus.wants('balance')).toBe(true);
    off();
    expect(bus.wants('balance')).toBe(false);
  });

  it('balance, order, execution, candle and ticker events skipped while unwanted leave every sequence as it would be; wanted ones are identical', () => {
    const always = run(() => true);
    const later = run((phase) => phase === 2);
    // The same REST sequences whether or not the payloads were built.
    expect(later.seqs).toEqual(always.seqs);
    // Once wanted, the events (payloads and sequence numbers) are those a listener of all along saw for that phase.
    const wantedLater = later.last;
    expect(wantedLater.length).toBeGreaterThan(0);
    expect(wantedLater.length).toBeLessThan(always.last.length);
    expect(always.last.slice(-wantedLater.length)).toEqual(wantedLater);
  });
});
