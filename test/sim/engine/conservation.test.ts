/**
 * CONSERVATION PROPERTY: a seeded PRNG drives random flows through the whole engine — many accounts, every order
 * type and time in force, cancels, cancel-all, batches, conditional orders (stops, take-profits, trailing, OCO)
 * triggered by virtual time — across several markets. After EVERY step: each currency is conserved exactly
 * (ledger audit), no balance is negative, held ≤ total, and held equals what the account's open orders reserve.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { type Decimal, dec } from '../../../src/core/decimal.js';
import type { OrderType, TimeInForce } from '../../../src/model/enums.js';
import type { NewOrder } from '../../../src/model/order.js';
import { createSimEngine } from '../../../src/sim/engine.js';
import { FEE_ACCOUNT_ID } from '../../../src/sim/ledger.js';
import { SimError } from '../../../src/sim/sim-error.js';
import { Prng } from '../../sync/prng.js';
import { checkInvariants } from '../trading/harness.js';

/** Per market: mid price, price tick and a typical quantity range (values above the dust and size minimums). */
const MARKETS = [
  { symbol: 'BTC-USD', mid: 30000, tick: '1', qty: [0.001, 0.05] },
  { symbol: 'ETH-BTC', mid: 0.06, tick: '0.00001', qty: [0.01, 0.5] },
  { symbol: 'ETH-USD', mid: 1800, tick: '0.5', qty: [0.01, 1] },
  { symbol: 'LTC-BTC', mid: 0.005, tick: '0.000001', qty: [0.12, 5] },
] as const;

const TYPES: readonly OrderType[] = ['LIMIT', 'LIMIT', 'LIMIT', 'MARKET', 'CEILING_LIMIT', 'CEILING_MARKET'];
const LIMIT_TIFS: readonly TimeInForce[] = ['GOOD_TIL_CANCELLED', 'GOOD_TIL_CANCELLED', 'POST_ONLY_GOOD_TIL_CANCELLED', 'IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL'];

async function run(seed: number, steps: number) {
  const rnd = new Prng(seed);
  const clock = new VirtualClock(Date.parse('2021-06-14T00:00:00Z'));
  let n = 0;
  const engine = createSimEngine({ clock, newId: () => `00000000-0000-4000-8000-${(n++).toString(16).padStart(12, '0')}` });
  const accounts: string[] = [];
  for (let i = 0; i < 8; i++) {
    accounts.push(engine.createParticipant({ BTC: dec('3'), ETH: dec('40'), USD: dec('100000'), LTC: dec('300') }));
  }
  const outcomes = new Map<string, number>();
  const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);

  const rate = (m: (typeof MARKETS)[number], spread: number): Decimal =>
    dec(m.tick).times(Math.max(1, Math.round(m.mid / Number(m.tick)) + Math.round(spread)));
  const quantity = (m: (typeof MARKETS)[number]): Decimal => {
    const [lo, hi] = m.qty;
    return dec((lo + rnd.next() * (hi - lo)).toFixed(6));
  };
  const newOrder = (): NewOrder => {
    const m = rnd.pick(MARKETS);
    const type = rnd.pick(TYPES);
    const direction = rnd.next() < 0.5 ? 'BUY' : 'SELL';
    // Limits straddle the mid so some orders rest and some cross; ±40 ticks.
    const limit = rate(m, (direction === 'BUY' ? -1 : 1) * (rnd.int(40) - 12));
    const o: NewOrder = { marketSymbol: m.symbol, direction, type, timeInForce: 'IMMEDIATE_OR_CANCEL' };
    if (type === 'LIMIT') o.timeInForce = rnd.pick(LIMIT_TIFS);
    else if (rnd.next() < 0.3) o.timeInForce = 'FILL_OR_KILL';
    if (type === 'LIMIT' || type === 'MARKET') o.quantity = quantity(m);
    else o.ceiling = quantity(m).times(m.mid).toDecimalPlaces(8);
    if (type === 'LIMIT' || type === 'CEILING_LIMIT') o.limit = limit;
    return o;
  };
  const attempt = (label: string, fn: () => unknown) => {
    try {
      fn();
      count(`${label} ok`);
    } catch (e) {
      if (!(e instanceof SimError)) throw e;
      count(`${label} ${e.code}`);
    }
  };

  for (let step = 0; step < steps; step++) {
    const acct = rnd.pick(accounts);
    const r = rnd.next();
    if (r < 0.55) {
      attempt('place', () => engine.placeOrder(acct, newOrder()));
    } else if (r < 0.7) {
      const open = engine.openOrders(acct).data;
      attempt('cancel', () => engine.cancelOrder(acct, open.length > 0 ? rnd.pick(open).id : '00000000-0000-4000-8000-ffffffffffff'));
    } else if (r < 0.72) {
      attempt('cancelAll', () => engine.cancelAll(acct, rnd.next() < 0.5 ? rnd.pick(MARKETS).symbol : undefined));
    } else if (r < 0.77) {
      const open = engine.openOrders(acct).data;
      attempt('batch', () => engine.batch(acct, [
        { resource: 'ORDER', operation: 'POST', payload: newOrder() },
        ...(open.length > 0 ? [{ resource: 'ORDER' as const, operation: 'DELETE' as const, payload: { id: rnd.pick(open).id } }] : []),
        { resource: 'ORDER', operation: 'POST', payload: newOrder() },
      ]));
    } else if (r < 0.88) {
      const m = rnd.pick(MARKETS);
      const direction = rnd.next() < 0.5 ? 'BUY' : 'SELL';
      const trailing = rnd.next() < 0.3;
      const open = engine.openOrders(acct, m.symbol).data.filter((o) => !o.orderToCancel);
      attempt('conditional', () => engine.createConditionalOrder(acct, {
        marketSymbol: m.symbol,
        operand: rnd.next() < 0.5 ? 'LTE' : 'GTE',
        ...(trailing ? { trailingStopPercent: dec(String(1 + rnd.int(5))) } : { triggerPrice: rate(m, rnd.int(20) - 10) }),
        orderToCreate: rnd.next() < 0.5
          ? { marketSymbol: m.symbol, direction, type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: quantity(m) }
          : { marketSymbol: m.symbol, direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: quantity(m), limit: rate(m, rnd.int(10) - 5) },
        ...(open.length > 0 && rnd.next() < 0.4 ? { orderToCancel: { type: 'ORDER' as const, id: rnd.pick(open).id } } : {}),
      }));
    } else if (r < 0.91) {
      const open = engine.openConditionalOrders(acct).data;
      if (open.length > 0) attempt('cancelConditional', () => engine.cancelConditionalOrder(acct, rnd.pick(open).id));
    } else {
      await clock.advance(rnd.int(3000));
    }
    checkInvariants(engine, [...accounts, FEE_ACCOUNT_ID]);
  }
  return { engine, outcomes, accounts };
}

describe('conservation property (seeded random flows through the whole engine)', () => {
  for (const seed of [1, 2021]) {
    it(`seed ${seed}: every currency conserved, no negative balance, held = open orders' reserve after every step`, async () => {
      const { engine, outcomes, accounts } = await run(seed, 1200);
      // Let pending conditional actions run, then check once more.
      await (engine.clock as VirtualClock).advance(engine.config.conditionalTriggerDelayMs);
      checkInvariants(engine, [...accounts, FEE_ACCOUNT_ID]);
      // The flow really exercised the engine: fills, every refusal family, conditional orders.
      const fills = accounts.reduce((s, a) => s + engine.executions(a, { pageSize: 200 }).length, 0);
      expect(fills).toBeGreaterThan(100);
      expect(outcomes.get('place ok') ?? 0).toBeGreaterThan(200);
      expect(outcomes.get('conditional ok') ?? 0).toBeGreaterThan(20);
      expect(engine.ledger.get(FEE_ACCOUNT_ID, 'USD').total.gt(0)).toBe(true);
      const closedConditional = accounts.flatMap((a) => engine.closedConditionalOrders(a, { pageSize: 200 }));
      expect(closedConditional.some((c) => c.status === 'COMPLETED')).toBe(true);
    });
  }
});
