/**
 * The planner's shortcuts equal the general path they stand for: a quote's proposal is what propose() makes of its
 * order spec (key for key), and roundRate() on a rate already at the precision is toDecimalPlaces() of it.
 */
import { describe, expect, it } from 'vitest';
import { Decimal, dec } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import type { Market } from '../../src/model/market.js';
import type { InFlightOrder } from '../../src/orders/in-flight.js';
import { propose, roundRate } from '../../src/orders/planner-orders.js';
import { planIntent, type PlannerView } from '../../src/orders/planner.js';

const market: Market = {
  symbol: 'BTC-USD',
  baseCurrencySymbol: 'BTC',
  quoteCurrencySymbol: 'USD',
  minTradeSize: dec('0.0001'),
  precision: 3,
  status: 'ONLINE',
  createdAt: new Date(0),
};

const view = (position: Decimal): PlannerView => ({
  market: (s) => (s === market.symbol ? market : undefined),
  mid: () => undefined,
  position: () => position,
  liveOrders: (): InFlightOrder[] => [],
  liveConditionals: () => [],
  orderById: () => undefined,
});

describe('planner fast paths', () => {
  it('proposes each quote exactly as propose() does with its order spec', () => {
    const rnd = mulberry32(11);
    for (let n = 0; n < 200; n++) {
      const position = dec(Math.floor(rnd() * 7) - 3).div(10);
      const level = () => ({ rate: dec((29000 + rnd() * 2000).toFixed(Math.floor(rnd() * 5))), quantity: dec((0.01 + rnd()).toFixed(4)) });
      const bids = Array.from({ length: Math.floor(rnd() * 4) }, level);
      const asks = Array.from({ length: Math.floor(rnd() * 4) }, level);
      const plan = planIntent('mm', { kind: 'quotes', key: 'l', marketSymbol: market.symbol, bids, asks }, view(position));
      const desired = [...bids.map((q) => ({ ...q, direction: 'BUY' as const })), ...asks.map((q) => ({ ...q, direction: 'SELL' as const }))];
      if (desired.length === 0) {
        expect(plan).toEqual({ kind: 'steps', steps: [] });
        continue;
      }
      expect(plan.kind).toBe('steps');
      const step = plan.kind === 'steps' ? plan.steps[0] : undefined;
      expect(step?.kind).toBe('batch');
      const places = step?.kind === 'batch' ? step.places : [];
      expect(places).toHaveLength(desired.length);
      places.forEach((placed, i) => {
        const d = desired[i]!;
        const limit = d.rate.toDecimalPlaces(market.precision, d.direction === 'BUY' ? Decimal.ROUND_DOWN : Decimal.ROUND_UP);
        const spec = { marketSymbol: market.symbol, direction: d.direction, type: 'LIMIT' as const, timeInForce: 'GOOD_TIL_CANCELLED' as const, quantity: d.quantity, limit };
        const general = propose(spec, 'mm', 'l', position);
        expect(placed.role).toBe('quote');
        expect(placed.proposal).toStrictEqual(general);
        expect(Object.keys(placed.proposal)).toEqual(Object.keys(general));
      });
    }
  });

  it('rounds a rate already at the precision to itself, and any other as toDecimalPlaces does', () => {
    const rnd = mulberry32(5);
    for (let n = 0; n < 2000; n++) {
      const rate = dec((rnd() * 10 ** Math.floor(rnd() * 7)).toFixed(Math.floor(rnd() * 10)));
      const precision = Math.floor(rnd() * 9);
      for (const direction of ['BUY', 'SELL'] as const) {
        const general = rate.toDecimalPlaces(precision, direction === 'BUY' ? Decimal.ROUND_DOWN : Decimal.ROUND_UP);
        const rounded = roundRate(rate, precision, direction);
        expect(rounded.toFixed()).toBe(general.toFixed());
        expect(rounded.eq(general)).toBe(true);
        if (rate.decimalPlaces() <= precision) expect(rounded).toBe(rate);
      }
    }
  });
});
