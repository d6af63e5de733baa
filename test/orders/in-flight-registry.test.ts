import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { Market } from '../../src/model/market.js';
import type { NewOrder } from '../../src/model/order.js';
import { InFlightRegistry } from '../../src/orders/in-flight-registry.js';
import { unacknowledgedReserve } from '../../src/orders/in-flight-reserve.js';
import { InFlightOrder } from '../../src/orders/in-flight.js';
import { exchangeOrder } from './harness.js';

const market: Market = { symbol: 'BTC-USD', baseCurrencySymbol: 'BTC', quoteCurrencySymbol: 'USD', minTradeSize: dec('0.0001'), precision: 3, status: 'ONLINE', createdAt: new Date(0) };
const markets = (s: string) => (s === 'BTC-USD' ? market : undefined);
const prices = { bestBid: () => ({ rate: dec('29990'), quantity: dec('1') }), bestAsk: () => ({ rate: dec('30010'), quantity: dec('1') }) };

const request = (direction: 'BUY' | 'SELL', limit: string): NewOrder => ({ marketSymbol: 'BTC-USD', direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec(limit) });
let n = 0;
const entry = (direction: 'BUY' | 'SELL' = 'BUY', limit = '29000') =>
  new InFlightOrder({ clientOrderId: `c${++n}`, strategy: 's', intentKey: `k${n}`, role: 'order', request: request(direction, limit), createdAt: 0 });
const exchange = exchangeOrder;

/** The set must be exactly the live orders that are unacknowledged (what the reservation walked before), in order. */
function expectIndexRight(r: InFlightRegistry): void {
  const reference = [...r.allLiveOrders()].filter((e) => e.isUnacknowledged);
  expect([...r.unacknowledgedOrders()]).toEqual(reference);
  for (const c of ['USD', 'BTC']) {
    expect(unacknowledgedReserve(r.unacknowledgedOrders(), c, markets, prices).toFixed()).toBe(unacknowledgedReserve(r.allLiveOrders(), c, markets, prices).toFixed());
  }
}

describe('InFlightRegistry: unacknowledged orders', () => {
  it('submit → ack → fill → close: in the set until the exchange acknowledges, never again after', () => {
    const r = new InFlightRegistry();
    const resting = entry('SELL', '31000');
    r.addOrder(resting);
    resting.transition('SUBMITTED');
    resting.applyOrder(exchange(resting, {}));
    const e = entry();
    r.addOrder(e);
    expect([...r.unacknowledgedOrders()]).toEqual([e]);
    expect(unacknowledgedReserve(r.unacknowledgedOrders(), 'USD', markets, prices).toFixed()).toBe('2900');
    expectIndexRight(r);
    e.transition('SUBMITTED');
    expect(r.unacknowledgedOrders().has(e)).toBe(true);
    expectIndexRight(r);
    // A retry goes back to PENDING_SUBMIT: still unacknowledged, same place.
    e.transition('PENDING_SUBMIT');
    e.transition('SUBMITTED');
    expectIndexRight(r);
    e.applyOrder(exchange(e, {}));
    expect(r.unacknowledgedOrders().size).toBe(0);
    expectIndexRight(r);
    e.applyOrder(exchange(e, { fillQuantity: dec('0.05') }));
    expect(e.state).toBe('PARTIALLY_FILLED');
    expectIndexRight(r);
    e.applyOrder(exchange(e, { fillQuantity: dec('0.1'), status: 'CLOSED' }));
    e.closedReported = true;
    r.update(e);
    expect(r.unacknowledgedOrders().size).toBe(0);
    expectIndexRight(r);
  });

  it('reject: leaves the set when it fails', () => {
    const r = new InFlightRegistry();
    const e = entry('SELL', '31000');
    r.addOrder(e);
    e.transition('SUBMITTED');
    expect(unacknowledgedReserve(r.unacknowledgedOrders(), 'BTC', markets, prices).toFixed()).toBe('0.1');
    e.transition('FAILED');
    r.update(e);
    expect(r.unacknowledgedOrders().size).toBe(0);
    expectIndexRight(r);
  });

  it('ambiguity → lost: stays while AMBIGUOUS, leaves when LOST, stays out when the order turns up after all', () => {
    const r = new InFlightRegistry();
    const e = entry();
    const other = entry('SELL', '31000');
    r.addOrder(e);
    r.addOrder(other);
    e.transition('SUBMITTED');
    e.transition('AMBIGUOUS');
    expect([...r.unacknowledgedOrders()]).toEqual([e, other]);
    expectIndexRight(r);
    e.transition('LOST');
    r.update(e);
    expect([...r.unacknowledgedOrders()]).toEqual([other]);
    expectIndexRight(r);
    // Late adoption: the lost request did land.
    expect(e.applyOrder(exchange(e, {}))).toBe(true);
    r.linkOrderId(e, e.orderId!);
    r.revive(e);
    expect(e.state).toBe('OPEN');
    expect([...r.unacknowledgedOrders()]).toEqual([other]);
    expectIndexRight(r);
  });

  it('adoption at start: an entry re-created and added, then applied, leaves the set', () => {
    const r = new InFlightRegistry();
    const e = entry();
    r.addOrder(e);
    r.linkOrderId(e, `o-${e.clientOrderId}`);
    expect(r.unacknowledgedOrders().has(e)).toBe(true);
    expectIndexRight(r);
    e.applyOrder(exchange(e, { fillQuantity: dec('0.02') }));
    expect(r.unacknowledgedOrders().has(e)).toBe(false);
    expectIndexRight(r);
    // An order created by a conditional order is SUBMITTED before it is added.
    const created = new InFlightOrder({ clientOrderId: 'cond-1', strategy: 's', intentKey: 'tp', role: 'takeProfit', marketSymbol: 'BTC-USD', direction: 'SELL', createdAt: 0 });
    created.transition('SUBMITTED');
    r.addOrder(created);
    expect(r.unacknowledgedOrders().has(created)).toBe(true);
    expectIndexRight(r);
    created.applyOrder({ ...exchange(e, {}), id: 'o-created' });
    expect(r.unacknowledgedOrders().has(created)).toBe(false);
    expectIndexRight(r);
  });
});

describe('InFlightRegistry: recent finished entries', () => {
  /** Place, acknowledge and close `e` in `r`: it leaves the live indexes for the recent finished ones. */
  const finish = (r: InFlightRegistry, e: InFlightOrder): void => {
    r.addOrder(e);
    e.transition('SUBMITTED');
    const ack = exchange(e, {});
    e.applyOrder(ack);
    r.linkOrderId(e, ack.id);
    e.applyOrder(exchange(e, { status: 'CLOSED' }));
    e.closedReported = true; // the tracker's mark once the close was reported: the entry is done
    r.update(e);
  };

  it('keeps the newest maxFinished, forgetting the oldest first, over many turns of the window', () => {
    const r = new InFlightRegistry({ maxFinished: 3 });
    const done: InFlightOrder[] = [];
    for (let i = 0; i < 11; i++) {
      const e = entry();
      finish(r, e);
      done.push(e);
      const kept = done.slice(-3);
      for (const d of done) {
        const known = kept.includes(d);
        expect(r.order(d.clientOrderId)).toBe(known ? d : undefined);
        expect(r.orderById(`o-${d.clientOrderId}`)).toBe(known ? d : undefined);
      }
    }
  });

  it('maxFinished 0 forgets an entry as soon as it is done', () => {
    const r = new InFlightRegistry({ maxFinished: 0 });
    const e = entry();
    finish(r, e);
    expect(r.order(e.clientOrderId)).toBeUndefined();
  });
});
