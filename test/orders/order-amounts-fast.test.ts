/** InFlightOrder.remaining gives the quantity itself while nothing filled: the same value as subtracting the fill. */
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import type { Order } from '../../src/model/order.js';
import { InFlightOrder } from '../../src/orders/in-flight.js';

describe('order amount shortcuts', () => {
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
