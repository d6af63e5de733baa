/** A trading engine on a virtual clock with captured events, plus the checks every trading test repeats. */
import { expect } from 'vitest';
import { type Decimal, ZERO, dec } from '../../../src/core/decimal.js';
import type { NewOrder, Order } from '../../../src/model/order.js';
import type { OrderDirection, OrderType, TimeInForce } from '../../../src/model/enums.js';
import type { SimConfig } from '../../../src/sim/config.js';
import { Trading } from '../../../src/sim/trading.js';
import { buyReserve, maxFee } from '../../../src/sim/trading-amounts.js';
import { simFoundations } from '../sim-fixture.js';

export { START, refusal } from '../sim-fixture.js';

/** A fresh trading engine. */
export function setup(overrides: Partial<SimConfig> = {}) {
  const foundations = simFoundations(overrides);
  const { ledger } = foundations;
  const trading = new Trading(foundations);
  const fund = (accountId: string, currency: string, amount: string) => ledger.credit(accountId, currency, dec(amount));
  const place = (accountId: string, o: Partial<NewOrder> & { marketSymbol?: string }) =>
    trading.placeOrder(accountId, { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', ...o } as NewOrder);
  const limit = (accountId: string, direction: OrderDirection, quantity: string, rate: string, timeInForce: TimeInForce = 'GOOD_TIL_CANCELLED', marketSymbol = 'BTC-USD') =>
    place(accountId, { marketSymbol, direction, type: 'LIMIT', timeInForce, quantity: dec(quantity), limit: dec(rate) });
  const order = (type: OrderType, direction: OrderDirection, timeInForce: TimeInForce, amounts: { quantity?: string; ceiling?: string; limit?: string }, marketSymbol = 'BTC-USD'): NewOrder => {
    const n: NewOrder = { marketSymbol, direction, type, timeInForce };
    if (amounts.quantity !== undefined) n.quantity = dec(amounts.quantity);
    if (amounts.ceiling !== undefined) n.ceiling = dec(amounts.ceiling);
    if (amounts.limit !== undefined) n.limit = dec(amounts.limit);
    return n;
  };
  const bal = (accountId: string, currency: string) => ledger.get(accountId, currency);
  return { ...foundations, trading, fund, place, limit, order, bal };
}

export type Harness = ReturnType<typeof setup>;

/** Every account's balances, for "state unchanged" comparisons. */
export function balances(h: Harness, accounts: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of accounts) for (const [cur, b] of h.ledger.list(a)) out[`${a}:${cur}`] = `${b.total.toFixed()}/${b.held.toFixed()}`;
  return out;
}

/**
 * The invariants after every operation: each currency conserved, no negative balance, held ≤ total, and held
 * equal to what the account's open orders reserve (computed here independently of the engine's bookkeeping).
 */
export function checkInvariants(h: Pick<Harness, 'trading' | 'ledger' | 'catalog'>, accounts: string[]): void {
  // Problems are collected and asserted once: one expect per balance would dominate long property runs.
  const problems: string[] = [];
  for (const a of h.ledger.audit()) if (!a.discrepancy.isZero()) problems.push(`${a.currency} not conserved: ${a.discrepancy.toFixed()}`);
  for (const acct of accounts) {
    const expected = new Map<string, Decimal>();
    for (const o of h.trading.reads.openOrders(acct).data) {
      const m = h.catalog.market(o.marketSymbol);
      const rem = o.quantity!.minus(o.fillQuantity);
      const [cur, amt] = o.direction === 'SELL'
        ? [m.baseCurrencySymbol, rem]
        : [m.quoteCurrencySymbol, buyReserve(rem, o.limit!, maxFee(h.catalog.feeRates(m.symbol)))];
      expected.set(cur, (expected.get(cur) ?? ZERO).plus(amt));
    }
    for (const [cur, b] of h.ledger.list(acct)) {
      if (b.total.isNegative()) problems.push(`${acct} ${cur} total ${b.total.toFixed()} < 0`);
      if (b.held.isNegative() || b.held.gt(b.total)) problems.push(`${acct} ${cur} held ${b.held.toFixed()} outside 0..${b.total.toFixed()}`);
      const want = expected.get(cur) ?? ZERO;
      if (!b.held.eq(want)) problems.push(`${acct} ${cur} held ${b.held.toFixed()} != open orders' reserve ${want.toFixed()}`);
    }
  }
  expect(problems).toEqual([]);
}

/** Order as plain strings for readable assertions. */
export function brief(o: Order) {
  return {
    status: o.status,
    fillQuantity: o.fillQuantity.toFixed(),
    proceeds: o.proceeds.toFixed(),
    commission: o.commission.toFixed(),
  };
}
