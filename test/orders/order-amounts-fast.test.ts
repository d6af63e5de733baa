/**
 * Two shortcuts on the order path against the arithmetic they skip: buyReserve's memory of recent answers (by the
 * identity of its decimal arguments) and InFlightOrder.remaining giving the quantity itself while nothing filled.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import { buyReserve, ceil8 } from '../../src/model/trading-amounts.js';
import type { Order } from '../../src/model/order.js';
import { InFlightOrder } from '../../src/orders/in-flight.js';

/** buyReserve's rule, computed afresh. */
const plainReserve = (q: Decimal, limit: Decimal, fee: Decimal) => {
  const exact = q.times(limit);
  return ceil8(exact).plus(ceil8(exact.times(fee)));
};

describe('order amount shortcuts', () => {
  it('buyReserve answers as the plain rule for reused and fresh arguments alike', () => {
    const rnd = mulberry32(99);
    const pool: Decimal[] = [];
    const pick = () => {
      // Reuse an object already seen (the memory's hit), or make a new one (sometimes equal in value to an old one).
      if (pool.length > 0 && rnd() < 0.6) return pool[Math.floor(rnd() * pool.length)]!;
      const d = dec((rnd() * 50000).toFixed(Math.floor(rnd() * 9)));
      pool.push(d);
      if (pool.length > 40) pool.shift();
      return d;
    };
    const fees = [dec('0.0035'), dec('0.0025'), dec('0'), dec('0.0075')];
    for (let n = 0; n < 20000; n++) {
      const q = pick();
      const limit = pick();
      const fee = fees[Math.floor(rnd() * fees.length)]!;
      expect(buyReserve(q, limit, fee).toFixed()).toBe(plainReserve(q, limit, fee).toFixed());
    }
  });

  it('InFlightOrder.remaining is the quantity less what filled, whatever filled', () => {
    const rnd = mulberry32(5);
    for (let n = 0; n < 2000; n++) {
      const quantity = dec((rnd() * 10).toFixed(Math.floor(rnd() * 9)));
      const request = { marketSymbol: 'BTC-USD', direction: 'BUY' as const, type: 'LIMIT' as const, timeInForce: 'GOOD_TIL_CANCELLED' as const, quantity, limit: dec('100') };
      const e = new InFlightOrder({ clientOrderId: `c${n}`, strategy: 's', intentKey: 'k', role: 'order', request, createdAt: 0 });
      expect(e.remaining?.toFixed()).toBe(quantity.toFixed());
      e.transition('SUBMITTED');
      const r = rnd();
      const filled = r < 0.3 ? dec(0) : r < 0.4 ? new Decimal('-0') : dec((rnd() * quantity.toNumber()).toFixed(8));
      const order: Order = {
        id: `o${n}`,
        marketSymbol: 'BTC-USD',
        direction: 'BUY',
        type: 'LIMIT',
        timeInForce: 'GOOD_TIL_CANCELLED',
        quantity,
        limit: dec('100'),
        fillQuantity: filled,
        commission: dec('0'),
        proceeds: dec('0'),
        status: 'OPEN',
        createdAt: new Date(0),
      };
      e.applyOrder(order);
      expect(e.remaining?.toFixed()).toBe(quantity.sub(filled).toFixed());
      expect(e.remaining?.eq(quantity.sub(filled))).toBe(true);
    }
  });
});
