/**
 * The risk engine judges orders at their worst case (issue 14, items 3-6):
 * 3. reservations: an unacknowledged BUY holds quantity × limit plus commission, a market buy its walk plus fee;
 * 4. pending orders count: max position and REDUCING add every order of the same side still resting or in flight
 *    (all strategies), and a reducing order never flips a position — the strategy's or the market's;
 * 5. ceiling orders are sized at the most base they can trade, not ceiling ÷ limit;
 * 6. with the exchange's commission rate, the engine's estimate and the simulator's reservation agree to the
 *    satoshi: the engine approves exactly what the simulator accepts.
 */
import { describe, expect, it } from 'vitest';
import { type Decimal, dec } from '../../src/core/decimal.js';
import type { RiskVerdict } from '../../src/model/intent.js';
import type { PendingOrder } from '../../src/risk/order-reserve.js';
import { RiskEngine } from '../../src/risk/risk-engine.js';
import { SATOSHI } from '../../src/model/trading-amounts.js';
import { refusal, setup } from '../sim/trading/harness.js';
import { config, fixture, lvl, marketOrder, order } from './fixture.js';
import { estimateFill } from '../../src/risk/order-value.js';
import { reserveOf } from '../../src/risk/order-reserve.js';

const codesOf = (v: RiskVerdict): string[] => (v.approved ? [] : v.reasons.map((r) => r.code));

/** The fixture with `pending` as the account's live orders. */
function withPending(pending: PendingOrder[]) {
  const fx = fixture();
  fx.ctx.pendingOrders = () => pending;
  return fx;
}

const pendingBuy = (quantity: string, limit: string, extra: Partial<PendingOrder> = {}): PendingOrder => ({
  strategy: 's1',
  marketSymbol: 'BTC-USD',
  direction: 'BUY',
  type: 'LIMIT',
  quantity: dec(quantity),
  limit: dec(limit),
  unacknowledged: false,
  ...extra,
});

describe('reservations are worst case (3)', () => {
  it('an unacknowledged BUY 0.03@30000 holds 903.15 at 0.35 %, not 900', () => {
    const fx = withPending([pendingBuy('0.03', '30000', { unacknowledged: true })]);
    fx.balances.set('USD', dec('1806.29')); // 903.15 + 903.14: one cent short of a second order
    const engine = new RiskEngine(config({ commissionRate: dec('0.0035') }), fx.ctx);
    const v = engine.evaluate(order({ quantity: dec('0.03'), limit: dec('30000') }));
    expect(codesOf(v)).toEqual(['INSUFFICIENT_BALANCE']);
    expect(v.approved ? '' : v.reasons[0]!.message).toBe('needs 903.15 USD, 903.14 available after in-flight orders');
    fx.balances.set('USD', dec('1806.3'));
    expect(engine.evaluate(order({ quantity: dec('0.03'), limit: dec('30000') })).approved).toBe(true);
    engine.close();
  });

  it('an unacknowledged market buy holds its walk of the book plus fee, not the best ask alone', () => {
    // Asks: 1 @ 30010, 2 @ 30020. A market buy of 1.5 walks to 45020 (+ 157.57 fee); the best ask alone says 45015.
    const fx = withPending([{ ...pendingBuy('1.5', '0'), type: 'MARKET', limit: undefined, unacknowledged: true }]);
    fx.balances.set('USD', dec('45177.57').plus('301.15035').minus(SATOSHI));
    const engine = new RiskEngine(config({ commissionRate: dec('0.0035'), priceBand: undefined }), fx.ctx);
    // 0.01 @ 30010 needs 300.1 + 1.05035 after the in-flight walk's 45020 + 157.57.
    expect(codesOf(engine.evaluate(order({ quantity: dec('0.01'), limit: dec('30010') })))).toEqual(['INSUFFICIENT_BALANCE']);
    fx.balances.set('USD', dec('45177.57').plus('301.15035'));
    expect(engine.evaluate(order({ quantity: dec('0.01'), limit: dec('30010') })).approved).toBe(true);
    engine.close();
  });
});

describe('pending orders count (4)', () => {
  const limits = { maxPosition: { default: dec('1'), markets: {} } };

  it('long 0.8, limit 1: one BUY 0.2 resting, a second BUY 0.2 is denied', () => {
    const pending: PendingOrder[] = [];
    const fx = withPending(pending);
    fx.fill('BUY', '0.8', '30000');
    const engine = new RiskEngine(config(limits), fx.ctx);
    expect(engine.evaluate(order({ quantity: dec('0.2') })).approved).toBe(true);
    pending.push(pendingBuy('0.2', '30000', { unacknowledged: true }));
    expect(codesOf(engine.evaluate(order({ quantity: dec('0.2') })))).toEqual(['MAX_POSITION']);
    // Orders another strategy (or no strategy of this bot) has resting count as well.
    pending[0] = pendingBuy('0.1', '30000', { strategy: undefined });
    expect(codesOf(engine.evaluate(order({ quantity: dec('0.2') })))).toEqual(['MAX_POSITION']);
    expect(engine.evaluate(order({ quantity: dec('0.1') })).approved).toBe(true);
    engine.close();
  });

  it('long 1.5, limit 1: SELL 2.9 would end at -1.4 and is denied; SELL 0.5 back under the limit passes', () => {
    const fx = withPending([]);
    fx.fill('BUY', '1.5', '30000');
    const engine = new RiskEngine(config(limits), fx.ctx);
    expect(codesOf(engine.evaluate(order({ direction: 'SELL', quantity: dec('2.9') })))).toEqual(['MAX_POSITION']);
    expect(engine.evaluate(order({ direction: 'SELL', quantity: dec('0.5') })).approved).toBe(true);
    engine.close();
  });

  it('REDUCING: from long 1, a second SELL 1 while the first is pending is not reducing', () => {
    const pending: PendingOrder[] = [];
    const fx = withPending(pending);
    fx.fill('BUY', '1', '30000');
    const engine = new RiskEngine(config(), fx.ctx);
    engine.halt('test');
    const sell = order({ direction: 'SELL', quantity: dec('1'), reducesPosition: true });
    expect(engine.evaluate(sell).approved).toBe(true);
    pending.push({ ...pendingBuy('1', '30000'), direction: 'SELL', unacknowledged: true });
    expect(codesOf(engine.evaluate(sell))).toEqual(['TRADING_HALTED']);
    engine.close();
  });

  it('REDUCING looks at the market\'s position of all strategies too: s1 long 1, s2 short 1 — s1 selling is not reducing', () => {
    const fx = withPending([]);
    fx.fill('BUY', '1', '30000', { strategy: 's1' });
    fx.fill('SELL', '1', '30000', { strategy: 's2' });
    const engine = new RiskEngine(config({ dailyLossLimit: dec('1') }), fx.ctx);
    fx.book('BTC-USD', [lvl('5', '29000')], [lvl('5', '29002')]);
    engine.refresh();
    expect(engine.state).toBe('ACTIVE'); // flat overall: no loss
    engine.halt('test');
    expect(codesOf(engine.evaluate(order({ direction: 'SELL', quantity: dec('1'), limit: dec('29000'), reducesPosition: true })))).toEqual(['TRADING_HALTED']);
    engine.close();
  });
});

describe('ceiling orders at their worst case (5)', () => {
  it('from short 1, a CEILING_LIMIT BUY of 1 × limit can buy more than 1 below its limit: not reducing', () => {
    const fx = withPending([]);
    fx.fill('SELL', '1', '31000');
    fx.book('BTC-USD', [lvl('5', '29000')], [lvl('5', '29100')]);
    const engine = new RiskEngine(config({ priceBand: undefined }), fx.ctx);
    engine.halt('test');
    // Sized as 30000 / 30000 = 1 it looked reducing; at the 29100 ask it buys 1.0309 and ends long.
    const ceilingBuy = order({ type: 'CEILING_LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: undefined, ceiling: dec('30000'), limit: dec('30000'), reducesPosition: true });
    expect(codesOf(engine.evaluate(ceilingBuy))).toEqual(['TRADING_HALTED']);
    expect(engine.evaluate({ ...ceilingBuy, ceiling: dec('29000') }).approved).toBe(true);
    engine.close();
  });

  it('from long 1, a CEILING_LIMIT SELL of 1 × limit sells more than 1 (commission inside the ceiling): not reducing', () => {
    const fx = withPending([]);
    fx.fill('BUY', '1', '30000');
    const engine = new RiskEngine(config({ commissionRate: dec('0.0035') }), fx.ctx);
    engine.halt('test');
    const ceilingSell = order({ direction: 'SELL', type: 'CEILING_LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: undefined, ceiling: dec('29990'), limit: dec('29990'), reducesPosition: true });
    expect(codesOf(engine.evaluate(ceilingSell))).toEqual(['TRADING_HALTED']);
    expect(engine.evaluate({ ...ceilingSell, ceiling: dec('29880') }).approved).toBe(true);
    engine.close();
  });
});

describe('the engine and the simulator agree to the last unit (6)', () => {
  it('a limit buy the engine approves with exactly its reserve is one the simulator accepts, and a satoshi less is refused by both', () => {
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let rounded = 0;
    for (let i = 0; i < 200; i++) {
      const quantity = dec(Math.floor(1e4 + next() * 1e7)).times(SATOSHI); // 0.0001 .. 0.1 BTC, 8 decimals
      const limit = dec(Math.floor(29_000_000 + next() * 1_000_000)).div(1000); // 29000 .. 30000, 3 decimals
      const fee = setup().catalog.feeRates('BTC-USD').taker;
      const fx = fixture();
      const engine = new RiskEngine(config({ commissionRate: fee }), fx.ctx);
      const buy = order({ quantity, limit });
      // Funded with exactly what the simulator will hold: both accept.
      const reserve = reserveBySim(quantity, limit);
      fx.balances.set('USD', reserve);
      expect(engine.evaluate(buy).approved, `${quantity} @ ${limit}`).toBe(true);
      const exact = setup();
      exact.fund('a', 'USD', reserve.toFixed());
      expect(exact.place('a', { quantity, limit }).status).toBe('OPEN');
      fx.balances.set('USD', reserve.minus(SATOSHI));
      expect(engine.evaluate(buy).approved, `${quantity} @ ${limit} one satoshi short`).toBe(false);
      const short = setup();
      short.fund('a', 'USD', reserve.minus(SATOSHI).toFixed());
      expect(refusal(() => short.place('a', { quantity, limit })).code).toBe('INSUFFICIENT_FUNDS');
      if (!reserve.eq(quantity.times(limit).times(fee.plus(1)))) rounded++;
      engine.close();
    }
    expect(rounded).toBeGreaterThan(100); // most pairs need the rounding rule to agree
  });
});

describe('market buys: the engine never approves what the simulator refuses', () => {
  it('reserves the walk plus fee at least as the simulator spends it, and by at most the per-fill rounding more', () => {
    let seed = 4242;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 50; i++) {
      const sim = setup();
      const fee = sim.catalog.feeRates('BTC-USD').taker;
      sim.fund('maker', 'BTC', '100');
      const fx = fixture();
      const asks = [];
      for (let l = 0; l < 4; l++) {
        const rate = dec(30000 + l * 5 + Math.floor(next() * 5)).plus(dec(Math.floor(next() * 1000)).div(1000));
        const quantity = dec(Math.floor(1e6 + next() * 5e6)).times(SATOSHI);
        sim.limit('maker', 'SELL', quantity.toFixed(), rate.toFixed());
        asks.push(lvl(quantity.toFixed(), rate.toFixed()));
      }
      fx.book('BTC-USD', [lvl('1', '29990')], asks);
      // Somewhere into the book, never past it (the walk then has a rate for every unit).
      const depth = asks.reduce((sum, a) => sum.plus(a.quantity), dec(0));
      const quantity = depth.times(0.2 + next() * 0.75).toDecimalPlaces(8, 1);
      const buy = marketOrder('BUY', quantity.toFixed());
      const engine = new RiskEngine(config({ commissionRate: fee, priceBand: undefined }), fx.ctx);
      const estimate = estimateFill(buy, fx.store)!;
      const need = reserveOf(buy, estimate, fee)!;
      fx.balances.set('USD', need);
      expect(engine.evaluate(buy).approved, `${quantity}`).toBe(true);
      sim.fund('taker', 'USD', need.toFixed());
      const placed = sim.trading.placeOrder('taker', sim.order('MARKET', 'BUY', 'IMMEDIATE_OR_CANCEL', { quantity: quantity.toFixed() }));
      expect(placed.fillQuantity.toFixed()).toBe(quantity.toFixed());
      const spent = need.minus(sim.bal('taker', 'USD').total);
      expect(need.gte(spent)).toBe(true);
      expect(need.minus(spent).lte(SATOSHI.times(2 * 4 + 2)), `${need} vs ${spent}`).toBe(true);
      engine.close();
    }
  });
});

/** What the simulator holds for a limit buy: place it on a funded account and read `held`. */
function reserveBySim(quantity: Decimal, limit: Decimal): Decimal {
  const sim = setup();
  sim.fund('a', 'USD', '1000000');
  sim.place('a', { quantity, limit });
  return sim.bal('a', 'USD').held;
}
