/**
 * No fill for nothing (issue 14, item 7) and ceiling buys that spend their ceiling (item 8).
 * - A remainder whose proceeds would round to zero never trades: a resting order left with such a remainder
 *   closes, and a taker's walk stops at it (the taker's dust remainder neither trades nor rests).
 * - Random flows on ETH-BTC (rates ~0.06, where a satoshi of ETH is worth less than a satoshi of BTC): no fill has
 *   zero proceeds, no buy pays more than quantity × limit, no sell receives less than it by more than the
 *   per-fill rounding down of its proceeds (< 1e-8 per fill), and every invariant of the ledger holds.
 * - A ceiling buy fills the largest quantity its ceiling pays for: one satoshi more would cost more than it.
 */
import { describe, expect, it } from 'vitest';
import { type Decimal, dec } from '../../../src/core/decimal.js';
import type { OrderDirection } from '../../../src/model/enums.js';
import { buyCost, fillQuote, SATOSHI } from '../../../src/model/trading-amounts.js';
import { balances, brief, checkInvariants, refusal, setup } from './harness.js';

const M = 'ETH-BTC';

function funded() {
  const h = setup();
  for (const a of ['maker', 'maker2', 'taker']) {
    h.fund(a, 'ETH', '1000');
    h.fund(a, 'BTC', '100');
  }
  return h;
}

/** Every execution of `accounts` with zero proceeds. */
function zeroFills(h: ReturnType<typeof setup>, accounts: string[]) {
  return accounts.flatMap((a) => h.trading.reads.executions(a, { marketSymbol: M }).filter((e) => fillQuote(e.quantity, e.rate).isZero()));
}

describe('no fill for nothing', () => {
  it('a resting SELL left with 1e-8 ETH at 0.06 (worth 6e-10 BTC) closes instead of giving it away', () => {
    const h = funded();
    const maker = h.limit('maker', 'SELL', '0.1', '0.06', 'GOOD_TIL_CANCELLED', M);
    h.limit('taker', 'BUY', '0.09999999', '0.06', 'IMMEDIATE_OR_CANCEL', M);
    expect(brief(h.trading.getOrder('maker', maker.id))).toMatchObject({ status: 'CLOSED', fillQuantity: '0.09999999', proceeds: '0.00599999' });
    expect(h.trading.reads.orderBook(M, 25).data.ask).toEqual([]);
    // Nothing is left to sell 1e-8 ETH for nothing to the next buyer.
    const next = h.limit('taker', 'BUY', '0.01', '0.06', 'IMMEDIATE_OR_CANCEL', M);
    expect(next.fillQuantity.toFixed()).toBe('0');
    expect(zeroFills(h, ['maker', 'taker'])).toEqual([]);
    checkInvariants(h, ['maker', 'taker']);
  });

  it('a taker\'s walk stops at a remainder worth nothing: it neither trades nor rests', () => {
    const h = funded();
    h.limit('maker', 'SELL', '0.1', '0.06', 'GOOD_TIL_CANCELLED', M);
    const second = h.limit('maker2', 'SELL', '0.1', '0.06', 'GOOD_TIL_CANCELLED', M);
    const taker = h.limit('taker', 'BUY', '0.10000001', '0.06', 'GOOD_TIL_CANCELLED', M);
    expect(taker.status).toBe('CLOSED');
    expect(taker.fillQuantity.toFixed()).toBe('0.1');
    expect(h.trading.getOrder('maker2', second.id).fillQuantity.toFixed()).toBe('0');
    expect(zeroFills(h, ['maker', 'maker2', 'taker'])).toEqual([]);
    checkInvariants(h, ['maker', 'maker2', 'taker']);
  });

  it('random flows: no zero-proceeds fill, no average price outside the limit beyond the per-fill rounding', () => {
    const h = funded();
    let seed = 99;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const accounts = ['maker', 'maker2', 'taker'];
    const ids: { account: string; id: string }[] = [];
    for (let i = 0; i < 600; i++) {
      const account = accounts[Math.floor(rnd() * 3)]!;
      let direction: OrderDirection = rnd() < 0.5 ? 'BUY' : 'SELL';
      let rate = dec(Math.floor(5_990_000 + rnd() * 20_000)).times(SATOSHI); // 0.0599 .. 0.0601
      // Sizes with satoshi tails, so partial fills leave tiny remainders.
      let quantity = dec(Math.floor(140_180 + rnd() * 3_000_000)).times(SATOSHI);
      // Half the time, take all but a few satoshis of another account's resting order: a remainder worth nothing.
      const open = accounts.filter((a) => a !== account).flatMap((a) => h.trading.reads.openOrders(a).data);
      if (open.length > 0 && rnd() < 0.5) {
        const target = open[Math.floor(rnd() * open.length)]!;
        direction = target.direction === 'BUY' ? 'SELL' : 'BUY';
        rate = target.limit!;
        const rest = target.quantity!.minus(target.fillQuantity).minus(SATOSHI.times(1 + Math.floor(rnd() * 15)));
        if (rest.gt('0.0014018')) quantity = rest;
      }
      try {
        const o = h.limit(account, direction, quantity.toFixed(), rate.toFixed(), rnd() < 0.3 ? 'IMMEDIATE_OR_CANCEL' : 'GOOD_TIL_CANCELLED', M);
        ids.push({ account, id: o.id });
      } catch {
        // SELF_TRADE and the like: refused without changes.
      }
    }
    expect(zeroFills(h, accounts)).toEqual([]);
    let fills = 0;
    for (const { account, id } of ids) {
      const o = h.trading.getOrder(account, id);
      const n = h.trading.reads.orderExecutions(account, id).length;
      fills += n;
      const atLimit = o.fillQuantity.times(o.limit!);
      if (o.direction === 'BUY') expect(o.proceeds.lte(atLimit), `${id}`).toBe(true);
      else expect(o.proceeds.gt(atLimit.minus(SATOSHI.times(n))) || n === 0, `${id}`).toBe(true);
    }
    expect(fills).toBeGreaterThan(300);
    checkInvariants(h, accounts);
  });
});

describe('a ceiling buy spends its ceiling', () => {
  it('fills the largest quantity the ceiling pays for, to the satoshi', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let gained = 0;
    for (let i = 0; i < 60; i++) {
      const h = funded();
      const rate = dec(Math.floor(5_000_000 + rnd() * 2_000_000)).times(SATOSHI);
      h.limit('maker', 'SELL', '500', rate.toFixed(), 'GOOD_TIL_CANCELLED', M);
      const ceiling = dec(Math.floor(1_000_000 + rnd() * 100_000_000)).times(SATOSHI);
      const o = h.trading.placeOrder('taker', h.order('CEILING_MARKET', 'BUY', 'IMMEDIATE_OR_CANCEL', { ceiling: ceiling.toFixed() }, M));
      const fee = h.catalog.feeRates(M).taker;
      const cost = (q: Decimal) => buyCost(q, rate, fee);
      expect(cost(o.fillQuantity).lte(ceiling), `${ceiling} @ ${rate}`).toBe(true);
      expect(cost(o.fillQuantity.plus(SATOSHI)).gt(ceiling), `${ceiling} @ ${rate}: one satoshi more still fits`).toBe(true);
      if (o.fillQuantity.gt(ceiling.div(rate.times(fee.plus(1))).toDecimalPlaces(8, 1))) gained++;
      expect(o.proceeds.plus(o.commission).lte(ceiling)).toBe(true);
    }
    expect(gained).toBeGreaterThan(10);
  });
});

describe('the price slippage limit (ORDERBOOK_DEPTH)', () => {
  it('refuses a market order walking beyond it, with nothing changed; without a limit it sweeps', () => {
    for (const maxSlippage of [dec('0.1'), undefined]) {
      const h = setup({ maxSlippage });
      h.fund('maker', 'BTC', '10');
      h.fund('taker', 'USD', '100000');
      h.limit('maker', 'SELL', '0.5', '30000');
      h.limit('maker', 'SELL', '0.5', '33001'); // just over 10 % above the best ask
      const market = h.order('MARKET', 'BUY', 'IMMEDIATE_OR_CANCEL', { quantity: '0.8' });
      if (maxSlippage) {
        const before = balances(h, ['maker', 'taker']);
        expect(refusal(() => h.trading.placeOrder('taker', market)).code).toBe('ORDERBOOK_DEPTH');
        expect(balances(h, ['maker', 'taker'])).toEqual(before);
        const ceiling = h.order('CEILING_MARKET', 'BUY', 'IMMEDIATE_OR_CANCEL', { ceiling: '25000' });
        expect(refusal(() => h.trading.placeOrder('taker', ceiling)).code).toBe('ORDERBOOK_DEPTH');
      } else {
        expect(h.trading.placeOrder('taker', market).fillQuantity.toFixed()).toBe('0.8');
      }
      checkInvariants(h, ['maker', 'taker']);
    }
  });
});
