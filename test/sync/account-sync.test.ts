/** Private streams: one synchronizer and one store per account (rule 2), routed by accountId. */
import { describe, expect, it } from 'vitest';
import { VirtualClock, flushMicrotasks } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { decodeStreamMessage } from '../../src/bittrex/hub/messages.js';
import type { Balance, Order } from '../../src/model/index.js';
import { AccountStore } from '../../src/store/account-store.js';
import { AccountSync, type AccountSnapshotSource, type AccountSyncStatus } from '../../src/sync/account-sync.js';

const T = '2021-06-14T00:00:00Z';
const balanceMsg = (accountId: string, sequence: number, total: string) =>
  decodeStreamMessage('balance', { accountId, sequence, delta: { currencySymbol: 'BTC', total, available: total, updatedAt: T } });
const orderMsg = (accountId: string, sequence: number, id: string, status: 'OPEN' | 'CLOSED', clientOrderId: string) =>
  decodeStreamMessage('order', {
    accountId,
    sequence,
    delta: {
      id,
      marketSymbol: 'BTC-USD',
      direction: 'SELL',
      type: 'LIMIT',
      timeInForce: 'GOOD_TIL_CANCELLED',
      quantity: '1',
      limit: '100',
      clientOrderId,
      fillQuantity: '0',
      commission: '0',
      proceeds: '0',
      status,
      createdAt: T,
    },
  });
const bal = (total: string): Balance => ({ currencySymbol: 'BTC', total: dec(total), available: dec(total), updatedAt: new Date(0) });

describe('AccountSync', () => {
  it('keeps independent sequences per account, each in its own store', async () => {
    const clock = new VirtualClock(0);
    const stores = new Map<string, AccountStore>();
    const storeOf = (id: string) => stores.get(id) ?? stores.set(id, new AccountStore({ accountId: id })).get(id)!;
    const seq: Record<string, number> = { master: 100, sub1: 8 };
    const snapshots: AccountSnapshotSource = {
      balances: async (id) => ({ data: [bal(id === 'master' ? '1' : '2')], sequence: seq[id]! }),
      openOrders: async (id) => ({ data: [] as Order[], sequence: seq[id]! }),
      openConditionalOrders: async (id) => ({ data: [], sequence: seq[id]! }),
      openDeposits: async (id) => ({ data: [], sequence: seq[id]! }),
      executionsLastId: async (id) => ({ sequence: seq[id]! }),
      executionsSince: async () => [],
    };
    const sync = new AccountSync({ clock, storeOf, snapshots });
    const statuses: AccountSyncStatus[] = [];
    sync.status$.subscribe((s) => statuses.push(s));
    sync.balances('master'); // started up front: quiet streams must not wait for a first message
    expect(sync.route(balanceMsg('sub1', 8, '2'))).toBe(true); // first sight of sub1: created, queued, in the snapshot
    await flushMicrotasks();
    sync.route(balanceMsg('master', 101, '1.5'));
    sync.route(balanceMsg('sub1', 9, '3'));
    expect(storeOf('master').balance('BTC')?.total.toString()).toBe('1.5');
    expect(storeOf('sub1').balance('BTC')?.total.toString()).toBe('3');
    expect(statuses.filter((s) => s.status.state === 'live').map((s) => `${s.stream}/${s.accountId}`).sort()).toEqual([
      'balance/master',
      'balance/sub1',
    ]);
    // A gap on one account resyncs that account only.
    sync.route(balanceMsg('sub1', 11, '4'));
    expect(sync.balances('sub1').status).toMatchObject({ state: 'resyncing', reason: 'gap' });
    expect(sync.balances('master').status.state).toBe('live');
    expect(sync.route(decodeStreamMessage('heartbeat', undefined))).toBe(false);
  });

  it('routes order messages: clientOrderId lookups work and closed orders leave the open set', async () => {
    const clock = new VirtualClock(0);
    const store = new AccountStore({ accountId: 'a' });
    const snapshots: AccountSnapshotSource = {
      balances: async () => ({ data: [], sequence: 0 }),
      openOrders: async () => ({ data: [], sequence: 1 }),
      openConditionalOrders: async () => ({ data: [], sequence: 0 }),
      openDeposits: async () => ({ data: [], sequence: 0 }),
      executionsLastId: async () => ({ sequence: 0 }),
      executionsSince: async () => [],
    };
    const sync = new AccountSync({ clock, storeOf: () => store, snapshots });
    sync.orders('a');
    await flushMicrotasks();
    sync.route(orderMsg('a', 2, 'o1', 'OPEN', 'client-1'));
    expect(store.orderByClientOrderId('client-1')?.id).toBe('o1');
    sync.route(orderMsg('a', 3, 'o1', 'CLOSED', 'client-1'));
    expect(store.openOrders()).toEqual([]);
    expect(store.orderByClientOrderId('client-1')?.status).toBe('CLOSED');
    sync.reconnect();
    expect(sync.orders('a').status).toEqual({ state: 'resyncing', reason: 'reconnect' });
    sync.stop();
  });
});
