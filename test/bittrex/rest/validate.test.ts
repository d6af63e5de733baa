import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { ValidationError } from '../../../src/core/errors.js';
import { TIME_IN_FORCES, ORDER_TYPES } from '../../../src/model/enums.js';
import type { NewOrder } from '../../../src/model/order.js';
import { validateNewOrder } from '../../../src/bittrex/rest/validate.js';
import { SEED_TIME_IN_FORCE_TYPES } from '../../fixtures/seed-time-in-force.js';
import { type Harness, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => {
  // Every rule must refuse the call locally: the server sees nothing.
  expect(h.server.requests).toEqual([]);
  h.server.reset();
});

/** Asserts a ValidationError naming `field`, whose message contains `message` (and the endpoint, if given). */
async function refused(call: Promise<unknown>, field: string, message: string, where?: string): Promise<void> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  expect((err as ValidationError).field).toBe(field);
  expect((err as ValidationError).message).toContain(message);
  if (where) expect((err as ValidationError).message).toContain(`(${where})`);
}

const limit: NewOrder = { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', quantity: dec('1'), limit: dec('100'), timeInForce: 'GOOD_TIL_CANCELLED' };

describe('pagination rules', () => {
  const lists = () =>
    [
      ['orders.listClosed', (f: object) => h.client.orders.listClosed(f), 'GET /orders/closed'],
      ['conditionalOrders.listClosed', (f: object) => h.client.conditionalOrders.listClosed(f), 'GET /conditional-orders/closed'],
      ['deposits.listClosed', (f: object) => h.client.deposits.listClosed(f), 'GET /deposits/closed'],
      ['withdrawals.listClosed', (f: object) => h.client.withdrawals.listClosed(f), 'GET /withdrawals/closed'],
      ['executions.list', (f: object) => h.client.executions.list(f), 'GET /executions'],
      ['subaccounts.list', (f: object) => h.client.subaccounts.list(f), 'GET /subaccounts'],
      ['transfers.listSent', (f: object) => h.client.transfers.listSent(f), 'GET /transfers/sent'],
      ['transfers.listReceived', (f: object) => h.client.transfers.listReceived(f), 'GET /transfers/received'],
    ] as const;

  it.each([0, 201, 1.5, Number.NaN, -3])('pageSize %s is refused by every list endpoint', async (pageSize) => {
    for (const [, list, where] of lists()) {
      await refused(list({ pageSize }), 'pageSize', `pageSize: must be an integer from 1 to 200, got ${JSON.stringify(pageSize) ?? 'null'} (${where})`);
    }
  });

  it('nextPageToken and previousPageToken cannot be combined', async () => {
    for (const [, list, where] of lists()) {
      await refused(list({ nextPageToken: 'a', previousPageToken: 'b' }), 'previousPageToken', `cannot be combined with nextPageToken (${where})`);
    }
  });

  it('endDate must not be before startDate', async () => {
    const range = { startDate: new Date('2021-06-14T00:00:00Z'), endDate: new Date('2021-06-13T00:00:00Z') };
    for (const [name, list] of lists()) {
      if (name === 'subaccounts.list') continue;
      await refused(list(range), 'endDate', 'must not be before startDate (2021-06-13T00:00:00.000Z < 2021-06-14T00:00:00.000Z)');
    }
  });

  it('dates must be valid Dates; /subaccounts takes none', async () => {
    await refused(h.client.orders.listClosed({ startDate: new Date('nope') }), 'startDate', 'must be a valid Date, got Invalid Date');
    await refused(h.client.orders.listClosed({ endDate: '2021-06-01' as unknown as Date }), 'endDate', 'must be a valid Date, got "2021-06-01"');
    await refused(h.client.subaccounts.list({ startDate: new Date() } as object), 'startDate', 'is not supported (GET /subaccounts)');
  });

  it('iterators check direction, page size and tokens before the first request', async () => {
    const drain = async (it: AsyncIterable<unknown>) => {
      for await (const _ of it) void _;
    };
    await refused(drain(h.client.orders.iterateClosed({}, { direction: 'up' as 'next' })), 'direction', 'must be one of next, previous, got "up"');
    await refused(drain(h.client.executions.iterate({}, { pageSize: 500 })), 'pageSize', 'must be an integer from 1 to 200, got 500');
    await refused(drain(h.client.deposits.iterateClosed({ previousPageToken: 'x' })), 'previousPageToken', "cannot start a walk in direction 'next'");
  });

  it('filter enums and symbols', async () => {
    await refused(h.client.deposits.listOpen({ status: 'COMPLETED' as 'PENDING' }), 'status', 'must be one of PENDING, got "COMPLETED" (GET /deposits/open)');
    await refused(h.client.withdrawals.listClosed({ status: 'PENDING' as 'COMPLETED' }), 'status', 'must be one of COMPLETED, CANCELLED');
    await refused(h.client.withdrawals.listOpen({ status: 'CANCELLED' as 'PENDING' }), 'status', 'must be one of REQUESTED, AUTHORIZED, PENDING, ERROR_INVALID_ADDRESS');
    await refused(h.client.orders.listOpen({ marketSymbol: '' }), 'marketSymbol', 'must be a non-empty string, got ""');
    await refused(h.client.transfers.listSent({ toMasterAccount: 'yes' as unknown as boolean }), 'toMasterAccount', 'must be a boolean');
  });
});

describe('path parameters', () => {
  it('ids and symbols must be non-empty strings', async () => {
    await refused(h.client.orders.get(''), 'orderId', 'must be a non-empty string, got "" (GET /orders/{orderId})');
    await refused(h.client.orders.cancel(undefined as unknown as string), 'orderId', 'got undefined (DELETE /orders/{orderId})');
    await refused(h.client.markets.ticker(''), 'marketSymbol', 'GET /markets/{marketSymbol}/ticker');
    await refused(h.client.withdrawals.cancel(''), 'withdrawalId', 'DELETE /withdrawals/{withdrawalId}');
    await refused(h.client.addresses.create(''), 'currencySymbol', 'POST /addresses');
  });
});

describe('market data rules', () => {
  it('depth must be 1, 25 or 500', async () => {
    await refused(h.client.markets.orderBook('BTC-EUR', { depth: 10 as 25 }), 'depth', 'must be one of 1, 25, 500, got 10 (GET /markets/{marketSymbol}/orderbook)');
    await refused(h.client.markets.orderBookSequence('BTC-EUR', 100 as 25), 'depth', 'HEAD /markets/{marketSymbol}/orderbook');
  });

  it('candle interval and type', async () => {
    await refused(h.client.markets.candles('BTC-EUR', 'MINUTE_15' as 'MINUTE_5'), 'candleInterval', 'must be one of MINUTE_1, MINUTE_5, HOUR_1, DAY_1');
    await refused(h.client.markets.candlesSequence('BTC-EUR', 'DAY_1', { type: 'ASK' as 'TRADE' }), 'candleType', 'must be one of TRADE, MIDPOINT');
  });

  it('historical candles need exactly the date parts of their interval', async () => {
    const hist = h.client.markets.historicalCandles;
    await refused(hist('BTC-EUR', 'DAY_1', { year: 2021, month: 1 }), 'date.month', 'is not part of the path for DAY_1 candles; leave it out');
    await refused(hist('BTC-EUR', 'HOUR_1', { year: 2021 }), 'date.month', 'must be an integer from 1 to 12 for HOUR_1 candles, got undefined');
    await refused(hist('BTC-EUR', 'HOUR_1', { year: 2021, month: 2, day: 1 }), 'date.day', 'is not part of the path for HOUR_1 candles');
    await refused(hist('BTC-EUR', 'MINUTE_1', { year: 2021, month: 6 }), 'date.day', 'must be an integer from 1 to 31 for MINUTE_1 candles');
    await refused(hist('BTC-EUR', 'MINUTE_5', { year: 2021, month: 13, day: 1 }), 'date.month', 'got 13');
    await refused(hist('BTC-EUR', 'MINUTE_5', { year: 2021, month: 2, day: 30 }), 'date.day', '2021-2-30 is not a calendar day');
    await refused(hist('BTC-EUR', 'DAY_1', { year: 2021.5 }), 'date.year', 'must be an integer from 1 to 9999');
  });
});

describe('NewOrder rules (POST /orders)', () => {
  it('follows the seed timeInForce table for every type and time in force', () => {
    for (const tif of TIME_IN_FORCES) {
      for (const type of ORDER_TYPES) {
        const ceiling = type.startsWith('CEILING');
        const o: NewOrder = {
          marketSymbol: 'BTC-USD',
          direction: 'SELL',
          type,
          timeInForce: tif,
          ...(ceiling ? { ceiling: dec('10') } : { quantity: dec('1') }),
          ...(type.endsWith('LIMIT') ? { limit: dec('100') } : {}),
        };
        const ok = SEED_TIME_IN_FORCE_TYPES[tif].includes(type);
        if (ok) expect(() => validateNewOrder(o, 'POST /orders')).not.toThrow();
        else expect(() => validateNewOrder(o, 'POST /orders'), `${type} ${tif}`).toThrow(/newOrder\.timeInForce: /);
      }
    }
  });

  it.each([
    [{ timeInForce: 'BUY_NOW' }, 'newOrder.timeInForce', 'BUY_NOW is not allowed for any order type'],
    [{ type: 'MARKET', limit: undefined }, 'newOrder.timeInForce', 'GOOD_TIL_CANCELLED is only allowed for LIMIT orders, not MARKET'],
    [{ quantity: undefined }, 'newOrder.quantity', 'is required for LIMIT orders'],
    [{ ceiling: dec('5') }, 'newOrder.ceiling', 'must be left out of LIMIT orders'],
    [{ type: 'CEILING_LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL' }, 'newOrder.ceiling', 'is required for CEILING_LIMIT orders'],
    [{ type: 'CEILING_MARKET', timeInForce: 'FILL_OR_KILL', quantity: undefined, ceiling: dec('5') }, 'newOrder.limit', 'must be left out of CEILING_MARKET orders'],
    [{ type: 'CEILING_LIMIT', timeInForce: 'FILL_OR_KILL', quantity: undefined, ceiling: dec('5'), limit: undefined }, 'newOrder.limit', 'is required for CEILING_LIMIT orders'],
    [{ limit: undefined }, 'newOrder.limit', 'is required for LIMIT orders'],
    [{ type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL' }, 'newOrder.limit', 'must be left out of MARKET orders'],
    [{ quantity: dec('0') }, 'newOrder.quantity', 'must be positive, got 0'],
    [{ limit: dec('-1') }, 'newOrder.limit', 'must be positive, got -1'],
    [{ quantity: 0.1 }, 'newOrder.quantity', "must be a Decimal (use dec('...')), got 0.1"],
    [{ direction: 'LONG' }, 'newOrder.direction', 'must be one of BUY, SELL, got "LONG"'],
    [{ type: 'STOP' }, 'newOrder.type', 'must be one of LIMIT, MARKET, CEILING_LIMIT, CEILING_MARKET'],
    [{ marketSymbol: '' }, 'newOrder.marketSymbol', 'must be a non-empty string'],
    [{ clientOrderId: '' }, 'newOrder.clientOrderId', 'must be a non-empty string'],
    [{ useAwards: 'yes' }, 'newOrder.useAwards', 'must be a boolean'],
  ] as [Record<string, unknown>, string, string][])('%j -> %s', async (change, field, message) => {
    await refused(h.client.orders.create({ ...limit, ...change } as NewOrder), field, message, 'POST /orders');
  });

  it('the same rules apply to each placement of a batch', async () => {
    await refused(h.client.batch.submit([]), 'operations', 'must be a non-empty array');
    await refused(
      h.client.batch.submit([{ resource: 'ORDER', operation: 'DELETE', payload: { id: 'x' } }, { resource: 'ORDER', operation: 'POST', payload: { ...limit, timeInForce: 'INSTANT' } }]),
      'operations[1].payload.timeInForce',
      'INSTANT is not allowed for any order type (POST /batch)',
    );
    await refused(h.client.batch.submit([{ resource: 'ORDER', operation: 'DELETE', payload: { id: '' } }]), 'operations[0].payload.id', 'must be a non-empty string');
    await refused(h.client.batch.submit([{ resource: 'ORDER', operation: 'PUT', payload: { id: 'x' } } as never]), 'operations[0].operation', 'must be POST or DELETE, got "PUT"');
  });
});

describe('NewConditionalOrder rules (POST /conditional-orders)', () => {
  const base = { marketSymbol: 'BTC-USD', operand: 'LTE', triggerPrice: dec('30000') } as const;
  const inner: NewOrder = { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', quantity: dec('1'), limit: dec('29900'), timeInForce: 'GOOD_TIL_CANCELLED' };
  it.each([
    [{ trailingStopPercent: dec('1') }, 'newConditionalOrder.triggerPrice', 'cannot be combined with trailingStopPercent; give exactly one'],
    [{ triggerPrice: undefined }, 'newConditionalOrder.triggerPrice', 'or trailingStopPercent is required; give exactly one'],
    [{ triggerPrice: dec('0') }, 'newConditionalOrder.triggerPrice', 'must be positive'],
    [{ operand: 'EQ' }, 'newConditionalOrder.operand', 'must be one of LTE, GTE'],
    [{ orderToCreate: { ...inner, timeInForce: 'POST_ONLY_GOOD_TIL_CANCELLED' } }, 'newConditionalOrder.orderToCreate.timeInForce', 'post-only orders are not supported'],
    [{ orderToCreate: { ...inner, clientOrderId: 'abc' } }, 'newConditionalOrder.orderToCreate.clientOrderId', 'use clientConditionalOrderId'],
    [{ orderToCreate: { ...inner, useAwards: false } }, 'newConditionalOrder.orderToCreate.useAwards', 'is not supported inside a conditional order'],
    [{ orderToCreate: { ...inner, limit: undefined } }, 'newConditionalOrder.orderToCreate.limit', 'is required for LIMIT orders'],
    [{ orderToCancel: { type: 'TRADE', id: 'x' } }, 'newConditionalOrder.orderToCancel.type', 'must be one of ORDER, CONDITIONAL_ORDER'],
    [{ orderToCancel: { type: 'ORDER', id: '' } }, 'newConditionalOrder.orderToCancel.id', 'must be a non-empty string'],
  ] as [Record<string, unknown>, string, string][])('%j -> %s', async (change, field, message) => {
    await refused(h.client.conditionalOrders.create({ ...base, ...change } as never), field, message);
  });
});

describe('withdrawals and transfers', () => {
  it('NewWithdrawal needs a positive Decimal quantity and a destination', async () => {
    await refused(h.client.withdrawals.create({ currencySymbol: 'BTC', quantity: dec('0'), cryptoAddress: 'a' }), 'newWithdrawal.quantity', 'must be positive, got 0', 'POST /withdrawals');
    await refused(h.client.withdrawals.create({ currencySymbol: 'BTC', quantity: dec('1') }), 'newWithdrawal.cryptoAddress', 'is required (or fundsTransferMethodId');
    await refused(h.client.withdrawals.create({ currencySymbol: '', quantity: dec('1'), cryptoAddress: 'a' }), 'newWithdrawal.currencySymbol', 'must be a non-empty string');
  });

  it('NewTransfer needs a positive amount and exactly one destination', async () => {
    await refused(h.client.transfers.create({ currencySymbol: 'BTC', amount: dec('-1'), toMasterAccount: true }), 'newTransfer.amount', 'must be positive');
    await refused(h.client.transfers.create({ currencySymbol: 'BTC', amount: dec('1') }), 'newTransfer.toSubaccountId', 'give exactly one destination');
    await refused(h.client.transfers.create({ currencySymbol: 'BTC', amount: dec('1'), toSubaccountId: 'x', toMasterAccount: true }), 'newTransfer.toSubaccountId', 'give exactly one destination');
  });
});
