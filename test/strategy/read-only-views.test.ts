/**
 * What a strategy reads of its account cannot change the account: the read-only view hands out frozen copies of
 * the store's records. An attack pass found that a plugin could raise `ctx.account.balance('USD').available` and
 * so pass orders through the risk engine's balance check, which reads the same store.
 */
import { firstValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { Balance, Order } from '../../src/model/index.js';
import { AccountStore } from '../../src/store/account-store.js';
import { readonlyAccountView } from '../../src/strategy/read-only-views.js';

const balance = (currencySymbol: string, total: string): Balance => ({ currencySymbol, total: dec(total), available: dec(total), updatedAt: new Date(0) });
const order = (id: string): Order =>
  ({
    id,
    marketSymbol: 'BTC-USD',
    direction: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GOOD_TIL_CANCELLED',
    quantity: dec('1'),
    limit: dec('100'),
    fillQuantity: dec('0'),
    commission: dec('0'),
    proceeds: dec('0'),
    status: 'OPEN',
    createdAt: new Date(0),
    updatedAt: new Date(0),
  }) as Order;

describe('readonlyAccountView', () => {
  it('hands out frozen copies: writing to what a strategy read throws and leaves the store as it was', () => {
    const store = new AccountStore();
    store.setBalances([balance('USD', '1000')]);
    store.applyOrder(order('o1'));
    const view = readonlyAccountView(store);
    const usd = view.balance('USD')!;
    expect(() => Object.assign(usd, { available: dec('1e12') })).toThrow(TypeError);
    expect(() => (view.balances() as Map<string, Balance>).clear()).not.toThrow();
    expect(() => Object.assign(view.openOrders()[0]!, { quantity: dec('0') })).toThrow(TypeError);
    expect(() => Object.assign(view.order('o1')!, { status: 'CLOSED' })).toThrow(TypeError);
    expect(store.balance('USD')!.available.toString()).toBe('1000');
    expect(store.balances().size).toBe(1);
    expect(store.openOrders()[0]!.quantity?.toString()).toBe('1');
    expect(store.order('o1')!.status).toBe('OPEN');
    // The same values, though.
    expect(usd.available.toString()).toBe('1000');
    expect(view.openOrders().map((o) => o.id)).toEqual(['o1']);
  });

  it('its streams carry copies too', async () => {
    const store = new AccountStore();
    store.setBalances([balance('USD', '1000')]);
    const view = readonlyAccountView(store);
    const b = await firstValueFrom(view.balance$('USD'));
    expect(() => Object.assign(b, { available: dec('1e12') })).toThrow(TypeError);
    const events = firstValueFrom(view.changes$.pipe(take(1), toArray()));
    store.setBalances([balance('USD', '900')]);
    const [e] = await events;
    expect(e!.kind).toBe('balances');
    const sent = (e as { balances: readonly Balance[] }).balances[0]!;
    expect(() => Object.assign(sent, { available: dec('1e12') })).toThrow(TypeError);
    expect(store.balance('USD')!.available.toString()).toBe('900');
  });
});
