import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { RestClient } from '../../../src/bittrex/rest/client.js';
import { hasShared, sharedPath } from '../../helpers/shared.js';
import { type Harness, startHarness } from './harness.js';
import * as S from './wire-samples.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const drainFirst = async (it: AsyncIterable<unknown>) => {
  for await (const _ of it) return _;
  return undefined;
};

/** One call per client method, in the groups' order. */
const calls: [string, (c: RestClient) => Promise<unknown>][] = [
  ['account.get', (c) => c.account.get()],
  ['account.volume', (c) => c.account.volume()],
  ['account.tradingFees', (c) => c.account.tradingFees()],
  ['account.tradingFee', (c) => c.account.tradingFee('BTC-USD')],
  ['account.marketPermissions', (c) => c.account.marketPermissions()],
  ['account.marketPermission', (c) => c.account.marketPermission('BTC-USD')],
  ['account.currencyPermissions', (c) => c.account.currencyPermissions()],
  ['account.currencyPermission', (c) => c.account.currencyPermission('BTC')],
  ['addresses.list', (c) => c.addresses.list()],
  ['addresses.create', (c) => c.addresses.create('BTC')],
  ['addresses.get', (c) => c.addresses.get('BTC')],
  ['balances.list', (c) => c.balances.list()],
  ['balances.sequence', (c) => c.balances.sequence()],
  ['balances.get', (c) => c.balances.get('BTC')],
  ['batch.submit', (c) => c.batch.submit([{ resource: 'ORDER', operation: 'DELETE', payload: { id: S.ORDER_ID } }])],
  ['conditionalOrders.get', (c) => c.conditionalOrders.get(S.CONDITIONAL_ORDER_ID)],
  ['conditionalOrders.cancel', (c) => c.conditionalOrders.cancel(S.CONDITIONAL_ORDER_ID)],
  ['conditionalOrders.listClosed', (c) => c.conditionalOrders.listClosed()],
  ['conditionalOrders.listOpen', (c) => c.conditionalOrders.listOpen()],
  ['conditionalOrders.openSequence', (c) => c.conditionalOrders.openSequence()],
  ['conditionalOrders.create', (c) => c.conditionalOrders.create({ marketSymbol: 'BTC-USD', operand: 'GTE', triggerPrice: dec('40000') })],
  ['currencies.list', (c) => c.currencies.list()],
  ['currencies.get', (c) => c.currencies.get('BTC')],
  ['deposits.listOpen', (c) => c.deposits.listOpen()],
  ['deposits.openSequence', (c) => c.deposits.openSequence()],
  ['deposits.listClosed', (c) => c.deposits.listClosed()],
  ['deposits.byTxId', (c) => c.deposits.byTxId(S.TX_ID)],
  ['deposits.get', (c) => c.deposits.get(S.DEPOSIT_ID)],
  ['executions.get', (c) => c.executions.get(S.EXECUTION_ID)],
  ['executions.list', (c) => c.executions.list()],
  ['executions.iterate', (c) => drainFirst(c.executions.iterate())],
  ['executions.lastId', (c) => c.executions.lastId()],
  ['executions.lastIdSequence', (c) => c.executions.lastIdSequence()],
  ['markets.list', (c) => c.markets.list()],
  ['markets.summaries', (c) => c.markets.summaries()],
  ['markets.summariesSequence', (c) => c.markets.summariesSequence()],
  ['markets.tickers', (c) => c.markets.tickers()],
  ['markets.tickersSequence', (c) => c.markets.tickersSequence()],
  ['markets.ticker', (c) => c.markets.ticker('BTC-EUR')],
  ['markets.get', (c) => c.markets.get('BTC-EUR')],
  ['markets.summary', (c) => c.markets.summary('BTC-EUR')],
  ['markets.orderBook', (c) => c.markets.orderBook('BTC-EUR', { depth: 25 })],
  ['markets.orderBookSequence', (c) => c.markets.orderBookSequence('BTC-EUR', 25)],
  ['markets.trades', (c) => c.markets.trades('BTC-EUR')],
  ['markets.tradesSequence', (c) => c.markets.tradesSequence('BTC-EUR')],
  ['markets.candles', (c) => c.markets.candles('BTC-EUR', 'MINUTE_1')],
  ['markets.candlesSequence', (c) => c.markets.candlesSequence('BTC-EUR', 'MINUTE_1')],
  ['markets.historicalCandles', (c) => c.markets.historicalCandles('BTC-EUR', 'DAY_1', { year: 2021 })],
  ['orders.listClosed', (c) => c.orders.listClosed()],
  ['orders.listOpen', (c) => c.orders.listOpen()],
  ['orders.cancelAll', (c) => c.orders.cancelAll()],
  ['orders.openSequence', (c) => c.orders.openSequence()],
  ['orders.get', (c) => c.orders.get(S.ORDER_ID)],
  ['orders.cancel', (c) => c.orders.cancel(S.ORDER_ID)],
  ['orders.executions', (c) => c.orders.executions(S.ORDER_ID)],
  ['orders.create', (c) => c.orders.create({ marketSymbol: 'BTC-USD', direction: 'SELL', type: 'MARKET', quantity: dec('0.1'), timeInForce: 'IMMEDIATE_OR_CANCEL' })],
  ['ping.get', (c) => c.ping.get()],
  ['subaccounts.list', (c) => c.subaccounts.list()],
  ['subaccounts.create', (c) => c.subaccounts.create()],
  ['subaccounts.get', (c) => c.subaccounts.get(S.SUBACCOUNT_ID)],
  ['transfers.listSent', (c) => c.transfers.listSent()],
  ['transfers.listReceived', (c) => c.transfers.listReceived()],
  ['transfers.get', (c) => c.transfers.get(S.TRANSFER_ID)],
  ['transfers.create', (c) => c.transfers.create({ toMasterAccount: true, currencySymbol: 'BTC', amount: dec('0.1') })],
  ['withdrawals.listOpen', (c) => c.withdrawals.listOpen()],
  ['withdrawals.listClosed', (c) => c.withdrawals.listClosed()],
  ['withdrawals.byTxId', (c) => c.withdrawals.byTxId(S.TX_ID)],
  ['withdrawals.get', (c) => c.withdrawals.get(S.WITHDRAWAL_ID)],
  ['withdrawals.cancel', (c) => c.withdrawals.cancel(S.WITHDRAWAL_ID)],
  ['withdrawals.create', (c) => c.withdrawals.create({ currencySymbol: 'BTC', quantity: dec('0.5'), cryptoAddress: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy' })],
  ['withdrawals.allowedAddresses', (c) => c.withdrawals.allowedAddresses()],
];

describe('coverage of the v3 interface', () => {
  it.skipIf(!hasShared)('the test server knows exactly the 70 method/path pairs of api-spec-v3.json', () => {
    const spec = JSON.parse(readFileSync(sharedPath('reference', 'api-spec-v3.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const pairs = Object.entries(spec.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'head', 'post', 'delete', 'put', 'patch'].includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(pairs).toHaveLength(70);
    expect(new Set(h.server.routes.map((r) => r.key))).toEqual(new Set(pairs));
  });

  it('one client call reaches every route, and every answer decodes', async () => {
    h.server.reset();
    for (const [name, call] of calls) {
      await expect(call(h.client), name).resolves.toBeDefined();
    }
    const hit = new Set(h.server.requests.map((r) => r.route));
    expect(h.server.requests.every((r) => r.route !== undefined)).toBe(true);
    expect(hit).toEqual(new Set(h.server.routes.map((r) => r.key)));
    expect(hit.size).toBe(70);
  });

  it('every group method is documented by a call above (no method left untested)', () => {
    const names = new Set(calls.map(([n]) => n));
    for (const [group, obj] of Object.entries(h.client)) {
      if (typeof obj !== 'object' || group === 'throttler') continue;
      for (const method of Object.keys(obj as object)) {
        // iterate* walk the list endpoints called above; they have their own tests in paginate.test.ts.
        const known = names.has(`${group}.${method}`) || method.startsWith('iterate');
        expect(known, `${group}.${method}`).toBe(true);
      }
    }
  });
});
