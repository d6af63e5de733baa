import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { Balance, ConditionalOrder, Deposit, Execution, Order } from '../../src/model/index.js';
import { AccountStore } from '../../src/store/account-store.js';

const order = (id: string, status: 'OPEN' | 'CLOSED', clientOrderId?: string, market = 'BTC-USD'): Order => ({
  id,
  marketSymbol: market,
  direction: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GOOD_TIL_CANCELLED',
  quantity: dec('1'),
  limit: dec('100'),
  ...(clientOrderId !== undefined && { clientOrderId }),
  fillQuantity: dec(status === 'CLOSED' ? '1' : '0'),
  commission: dec('0'),
  proceeds: dec('0'),
  status,
  createdAt: new Date(0),
});
const balance = (currencySymbol: string, total: string): Balance => ({ currencySymbol, total: dec(total), available: dec(total), updatedAt: new Date(0) });
const execution = (id: string, at: number): Execution => ({
  id,
  marketSymbol: 'BTC-USD',
  executedAt: new Date(at),
  quantity: dec('1'),
  rate: dec('100'),
  orderId: 'o1',
  commission: dec('0.1'),
  isTaker: true,
});
const conditional = (id: string, status: ConditionalOrder['status'], cid: string): ConditionalOrder => ({
  id,
  marketSymbol: 'BTC-USD',
  operand: 'LTE',
  triggerPrice: dec('90'),
  status,
  clientConditionalOrderId: cid,
  createdAt: new Date(0),
});
const deposit = (id: string, status: Deposit['status']): Deposit => ({
  id,
  currencySymbol: 'BTC',
  quantity: dec('1'),
  cryptoAddress: 'addr',
  confirmations: 1,
  updatedAt: new Date(0),
  status,
});

describe('AccountStore', () => {
  it('stores first, then publishes', () => {
    const store = new AccountStore({ accountId: 'acc' });
    const seen: string[] = [];
    store.changes$.subscribe((ev) => {
      if (ev.kind === 'balances') seen.push(`balance ${store.balance('BTC')?.total}`);
      if (ev.kind === 'order') seen.push(`order open=${store.openOrders().length} status=${store.order(ev.order.id)?.status}`);
      if (ev.kind === 'executions') seen.push(`executions ${store.executions().length}`);
    });
    store.setBalances([balance('BTC', '1.5')], true);
    store.applyOrder(order('o1', 'OPEN', 'c1'));
    store.applyOrder(order('o1', 'CLOSED', 'c1'));
    store.addExecutions([execution('e1', 1)]);
    expect(seen).toEqual(['balance 1.5', 'order open=1 status=OPEN', 'order open=0 status=CLOSED', 'executions 1']);
  });

  it('finds orders by clientOrderId, open and recently closed', () => {
    const store = new AccountStore();
    store.resetOpenOrders([order('o1', 'OPEN', 'client-1'), order('o2', 'OPEN')]);
    expect(store.orderByClientOrderId('client-1')?.id).toBe('o1');
    store.applyOrder(order('o1', 'CLOSED', 'client-1'));
    expect(store.orderByClientOrderId('client-1')?.status).toBe('CLOSED');
    expect(store.orderByClientOrderId('nope')).toBeUndefined();
  });

  it('closed orders leave the open set and stay in a bounded recent list', () => {
    const store = new AccountStore({ maxRecentClosed: 2 });
    for (const id of ['a', 'b', 'c']) store.applyOrder(order(id, 'OPEN', `c-${id}`, id === 'c' ? 'ETH-USD' : 'BTC-USD'));
    expect(store.openOrders().map((o) => o.id)).toEqual(['a', 'b', 'c']);
    expect(store.openOrders('ETH-USD').map((o) => o.id)).toEqual(['c']);
    for (const id of ['a', 'b', 'c']) store.applyOrder(order(id, 'CLOSED', `c-${id}`));
    expect(store.openOrders()).toEqual([]);
    expect(store.recentClosedOrders().map((o) => o.id)).toEqual(['b', 'c']);
    expect(store.order('a')).toBeUndefined(); // evicted, and its client id with it
    expect(store.orderByClientOrderId('c-a')).toBeUndefined();
    expect(store.order('c')?.status).toBe('CLOSED');
  });

  it('a snapshot of open orders reports the ones that vanished', () => {
    const store = new AccountStore();
    store.applyOrder(order('o1', 'OPEN', 'c1'));
    store.applyOrder(order('o2', 'OPEN'));
    let vanished: string[] = [];
    store.changes$.subscribe((ev) => ev.kind === 'orders-reset' && (vanished = ev.vanished.map((o) => o.id)));
    store.resetOpenOrders([order('o2', 'OPEN'), order('o3', 'OPEN')]);
    expect(vanished).toEqual(['o1']);
    expect(store.openOrders().map((o) => o.id).sort()).toEqual(['o2', 'o3']);
    expect(store.orderByClientOrderId('c1')).toBeUndefined();
  });

  it('tracks conditional orders by id and client id; any status but OPEN is closed', () => {
    const store = new AccountStore();
    store.resetOpenConditionalOrders([conditional('k1', 'OPEN', 'cc1')]);
    expect(store.conditionalOrderByClientId('cc1')?.id).toBe('k1');
    store.applyConditionalOrder(conditional('k1', 'COMPLETED', 'cc1'));
    expect(store.openConditionalOrders()).toEqual([]);
    expect(store.conditionalOrder('k1')?.status).toBe('COMPLETED');
    expect(store.recentClosedConditionalOrders().map((o) => o.id)).toEqual(['k1']);
  });

  it('deduplicates executions by id and knows the newest', () => {
    const store = new AccountStore({ maxExecutions: 3 });
    expect(store.addExecutions([execution('e2', 2), execution('e1', 1)]).map((x) => x.id)).toEqual(['e2', 'e1']);
    expect(store.addExecutions([execution('e1', 1), execution('e3', 3)]).map((x) => x.id)).toEqual(['e3']);
    expect(store.newestExecution()?.id).toBe('e3');
    expect(store.hasExecution('e1')).toBe(true);
    store.addExecutions([execution('e4', 4)]);
    expect(store.executions().map((x) => x.id)).toEqual(['e1', 'e3', 'e4']);
    expect(store.hasExecution('e2')).toBe(false);
  });

  it('replaces pending deposits from a snapshot and keeps settled ones', () => {
    const store = new AccountStore();
    store.applyDeposit(deposit('d1', 'PENDING'));
    store.applyDeposit(deposit('d2', 'COMPLETED'));
    store.resetOpenDeposits([deposit('d3', 'PENDING')]);
    expect(store.deposits().map((d) => d.id).sort()).toEqual(['d2', 'd3']);
  });

  it('balance$ and openOrders$ start with the current state', () => {
    const store = new AccountStore();
    store.setBalances([balance('BTC', '1')], true);
    const totals: string[] = [];
    store.balance$('BTC').subscribe((b) => totals.push(b.total.toString()));
    store.setBalances([balance('BTC', '2')]);
    expect(totals).toEqual(['1', '2']);
    const counts: number[] = [];
    store.openOrders$().subscribe((os) => counts.push(os.length));
    store.applyOrder(order('o1', 'OPEN'));
    expect(counts).toEqual([0, 1]);
  });
});
