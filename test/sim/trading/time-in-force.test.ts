import { describe, expect, it } from 'vitest';
import { ORDER_TYPES, TIME_IN_FORCES, type OrderType, type TimeInForce } from '../../../src/model/enums.js';
import { SEED_TIME_IN_FORCE_TYPES } from '../../fixtures/seed-time-in-force.js';
import { checkInvariants, refusal, setup } from './harness.js';

/** The refusal for a combination the table does not allow. */
function expectedCode(type: OrderType, tif: TimeInForce): string {
  if (tif === 'BUY_NOW' || tif === 'INSTANT') return 'INVALID_ORDER_TYPE';
  return type === 'MARKET' || type === 'CEILING_MARKET' ? 'INVALID_MARKET_ORDER' : 'INVALID_ORDER_TYPE';
}

function amounts(type: OrderType, direction: 'BUY' | 'SELL', tif: TimeInForce) {
  const postOnly = tif === 'POST_ONLY_GOOD_TIL_CANCELLED';
  // Crossing limits so IOC/FOK fill; a post-only limit between the two resting levels.
  const limit = postOnly ? '29500' : direction === 'BUY' ? '30000' : '29000';
  switch (type) {
    case 'LIMIT': return { quantity: '0.01', limit };
    case 'MARKET': return { quantity: '0.01' };
    case 'CEILING_LIMIT': return { ceiling: '500', limit };
    case 'CEILING_MARKET': return { ceiling: '500' };
  }
}

describe('timeInForce × order type (seed table)', () => {
  for (const type of ORDER_TYPES) {
    for (const tif of TIME_IN_FORCES) {
      for (const direction of ['BUY', 'SELL'] as const) {
        const allowed = SEED_TIME_IN_FORCE_TYPES[tif].includes(type);
        it(`${type} ${tif} ${direction}: ${allowed ? 'accepted' : expectedCode(type, tif)}`, () => {
          const h = setup();
          for (const a of ['lp', 'me']) {
            h.fund(a, 'BTC', '5');
            h.fund(a, 'USD', '100000');
          }
          h.limit('lp', 'SELL', '1', '30000');
          h.limit('lp', 'BUY', '1', '29000');
          const n = h.order(type, direction, tif, amounts(type, direction, tif));
          if (!allowed) {
            expect(refusal(() => h.trading.placeOrder('me', n))).toMatchObject({ status: 400, code: expectedCode(type, tif) });
            expect(h.trading.reads.openOrders('me').data).toEqual([]);
            return;
          }
          const o = h.trading.placeOrder('me', n);
          expect(o.timeInForce).toBe(tif);
          expect(o.type).toBe(type);
          if (tif === 'POST_ONLY_GOOD_TIL_CANCELLED') {
            expect(o.status).toBe('OPEN');
            expect(o.fillQuantity.isZero()).toBe(true);
          } else {
            // Everything else crosses the resting liquidity and fills (GTC completely, IOC/FOK immediately).
            expect(o.status).toBe('CLOSED');
            expect(o.fillQuantity.gt(0)).toBe(true);
          }
          checkInvariants(h, ['lp', 'me']);
        });
      }
    }
  }
});
