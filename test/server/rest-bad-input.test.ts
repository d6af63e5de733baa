/**
 * Bad input through the real server (issue 3): malformed JSON, wrong types, unknown fields, oversize bodies and
 * absurd numbers (negative, NaN, Infinity, 1e400, 30 decimals) on every creating endpoint — POST /orders,
 * /withdrawals, /conditional-orders, /batch, /transfers, /addresses — sent as raw signed requests (the client
 * would refuse most of them). Each answers the status and code the service would have given, never a 500 and
 * never a state change; the server keeps answering. Also bad query parameters, unknown routes (404) and wrong
 * methods (405).
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { accountState, type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

const BTC_ADDR = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
const DP30 = '0.000000000000000000000000000001';

/** One bad body and what it must answer. `raw` bodies go on the wire as they are (not valid JSON, or huge). */
interface Case {
  name: string;
  body: unknown;
  raw?: string;
  status: number;
  code: string;
}

/** Bodies that are wrong whatever the endpoint: `code` is the endpoint's code for a malformed body. */
function generic(code: string): Case[] {
  const nested = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
  return [
    { name: 'malformed JSON', body: undefined, raw: '{"marketSymbol": "BTC-USD",', status: 400, code: 'BAD_REQUEST' },
    { name: 'NaN literal', body: undefined, raw: '{"quantity": NaN}', status: 400, code: 'BAD_REQUEST' },
    { name: 'trailing garbage', body: undefined, raw: '{} {}', status: 400, code: 'BAD_REQUEST' },
    { name: 'not UTF-8 JSON', body: undefined, raw: '\u0000\u0001', status: 400, code: 'BAD_REQUEST' },
    { name: 'oversize body', body: undefined, raw: JSON.stringify({ pad: 'x'.repeat(300_000) }), status: 413, code: 'PAYLOAD_TOO_LARGE' },
    { name: 'empty body', body: undefined, raw: '', status: 400, code },
    { name: 'null', body: null, status: 400, code },
    { name: 'a string', body: 'order', status: 400, code },
    { name: 'a number', body: 1e308, status: 400, code },
    // Nesting past the wire parser's bound is malformed JSON, whole body or one field (a field used to answer 500).
    { name: 'deeply nested', body: undefined, raw: nested, status: 400, code: 'BAD_REQUEST' },
    { name: 'a field nested 6000 deep', body: undefined, raw: `{"quantity":${'['.repeat(6_000)}${']'.repeat(6_000)}}`, status: 400, code: 'BAD_REQUEST' },
    { name: '__proto__ field', body: undefined, raw: '{"__proto__": {"admin": true}}', status: 400, code },
  ];
}

/** Field-level cases: `base` with one field replaced (undefined removes it), each answering `code` unless told. */
function fields(base: Record<string, unknown>, code: string, changes: Array<[string, Record<string, unknown>, string?]>): Case[] {
  return changes.map(([name, change, c]) => {
    const body: Record<string, unknown> = { ...base, ...change };
    for (const [k, v] of Object.entries(change)) if (v === undefined) delete body[k];
    return { name, body, status: c?.startsWith('404') ? 404 : 400, code: c?.replace(/^404 /, '') ?? code };
  });
}

/** Absurd amounts for `field`, as strings and as JSON numbers. */
function absurd(field: string): Array<[string, Record<string, unknown>, string?]> {
  return [
    [`${field} negative`, { [field]: '-1' }],
    [`${field} negative number`, { [field]: -0.5 }],
    [`${field} zero`, { [field]: '0' }],
    [`${field} NaN string`, { [field]: 'NaN' }],
    [`${field} Infinity string`, { [field]: 'Infinity' }],
    [`${field} 1e400 string`, { [field]: '1e400' }],
    [`${field} 1e400 number`, { [field]: 1e400 }],
    [`${field} 1e30`, { [field]: '1000000000000000000000000000000' }],
    [`${field} 30 decimals`, { [field]: DP30 }],
    [`${field} 30 decimals number`, { [field]: 1e-30 }],
    [`${field} 9 decimals`, { [field]: '1.000000001' }],
    [`${field} hex`, { [field]: '0x10' }],
    [`${field} empty string`, { [field]: '' }],
    [`${field} boolean`, { [field]: true }],
    [`${field} array`, { [field]: ['1'] }],
  ];
}

const ORDER = { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: '0.01', limit: '20000' };
const ORDER_CASES: Case[] = [
  ...generic('ORDER_TYPE_INVALID'),
  ...fields(ORDER, 'ORDER_TYPE_INVALID', [
    ...absurd('quantity'),
    ['limit negative', { limit: '-20000' }],
    ['limit 1e400', { limit: 1e400 }],
    ['limit NaN', { limit: 'NaN' }],
    // More than 8 decimals is malformed for every amount (engine table); within 8, the market's precision decides.
    ['limit 30 decimals', { limit: `20000${DP30.slice(1)}` }],
    ['limit finer than the market', { limit: '20000.0001' }, 'RATE_PRECISION_NOT_ALLOWED'],
    ['unknown field', { quantiy: '0.01' }],
    ['marketSymbol a number', { marketSymbol: 5 }],
    ['marketSymbol missing', { marketSymbol: undefined }],
    ['direction unknown', { direction: 'UP' }],
    ['type lower case', { type: 'limit' }],
    ['timeInForce missing', { timeInForce: undefined }],
    ['useAwards a string', { useAwards: 'yes' }],
    ['clientOrderId a number', { clientOrderId: 12 }],
    ['clientOrderId not a uuid', { clientOrderId: 'x'.repeat(5000) }],
  ]),
];

const WITHDRAWAL = { currencySymbol: 'BTC', quantity: '0.01', cryptoAddress: BTC_ADDR };
const WITHDRAWAL_CASES: Case[] = [
  ...generic('BAD_REQUEST'),
  ...fields(WITHDRAWAL, 'BAD_REQUEST', [
    ...absurd('quantity'),
    ['unknown field', { address: BTC_ADDR }],
    ['currencySymbol a number', { currencySymbol: 1 }],
    ['cryptoAddress an object', { cryptoAddress: { a: 1 } }],
    ['cryptoAddress missing', { cryptoAddress: undefined }],
    ['clientWithdrawalId a boolean', { clientWithdrawalId: true }],
  ]),
];

const CONDITIONAL = {
  marketSymbol: 'BTC-USD',
  operand: 'LTE',
  triggerPrice: '20000',
  orderToCreate: { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: '0.01' },
};
const CONDITIONAL_CASES: Case[] = [
  ...generic('BAD_REQUEST'),
  ...fields(CONDITIONAL, 'BAD_REQUEST', [
    ...absurd('triggerPrice'),
    ['trailingStopPercent negative', { triggerPrice: undefined, trailingStopPercent: '-5' }],
    ['trailingStopPercent 1e400', { triggerPrice: undefined, trailingStopPercent: 1e400 }],
    ['trailingStopPercent NaN', { triggerPrice: undefined, trailingStopPercent: 'NaN' }],
    ['trailingStopPercent over 100', { triggerPrice: undefined, trailingStopPercent: '150' }],
    ['operand unknown', { operand: 'EQ' }],
    ['unknown field', { trigger: '20000' }],
    // The order inside is a malformed order creation request.
    ['orderToCreate quantity 1e400', { orderToCreate: { ...CONDITIONAL.orderToCreate, quantity: 1e400 } }, 'ORDER_TYPE_INVALID'],
    ['orderToCreate quantity negative', { orderToCreate: { ...CONDITIONAL.orderToCreate, quantity: '-1' } }, 'ORDER_TYPE_INVALID'],
    ['orderToCreate quantity 30 decimals', { orderToCreate: { ...CONDITIONAL.orderToCreate, quantity: DP30 } }, 'ORDER_TYPE_INVALID'],
    ['orderToCreate unknown field', { orderToCreate: { ...CONDITIONAL.orderToCreate, qty: '1' } }],
    ['orderToCreate a string', { orderToCreate: 'sell' }],
    ['orderToCancel id a number', { orderToCancel: { type: 'ORDER', id: 7 } }],
    ['orderToCancel unknown type', { orderToCancel: { type: 'WITHDRAWAL', id: 'x' } }],
  ]),
];

const BATCH_CASES: Case[] = [
  ...generic('BAD_REQUEST'),
  { name: 'an object', body: { resource: 'ORDER', operation: 'POST', payload: ORDER }, status: 400, code: 'BAD_REQUEST' },
];
/** Batches whose operations are each refused: the batch answers 200 and every item its own 400. */
const BATCH_ITEM_CASES: Array<{ name: string; op: unknown; code: string }> = [
  { name: 'quantity NaN', op: { resource: 'ORDER', operation: 'POST', payload: { ...ORDER, quantity: 'NaN' } }, code: 'ORDER_TYPE_INVALID' },
  { name: 'quantity 1e400', op: { resource: 'ORDER', operation: 'POST', payload: { ...ORDER, quantity: '1e400' } }, code: 'ORDER_TYPE_INVALID' },
  { name: 'quantity negative', op: { resource: 'ORDER', operation: 'POST', payload: { ...ORDER, quantity: -1 } }, code: 'ORDER_TYPE_INVALID' },
  { name: 'quantity 30 decimals', op: { resource: 'ORDER', operation: 'POST', payload: { ...ORDER, quantity: DP30 } }, code: 'ORDER_TYPE_INVALID' },
  { name: 'payload unknown field', op: { resource: 'ORDER', operation: 'POST', payload: { ...ORDER, foo: 1 } }, code: 'ORDER_TYPE_INVALID' },
  { name: 'payload missing', op: { resource: 'ORDER', operation: 'POST' }, code: 'ORDER_TYPE_INVALID' },
  { name: 'operation unknown', op: { resource: 'ORDER', operation: 'PUT', payload: ORDER }, code: 'BAD_REQUEST' },
  { name: 'resource unknown', op: { resource: 'WITHDRAWAL', operation: 'POST', payload: ORDER }, code: 'BAD_REQUEST' },
  { name: 'operation unknown field', op: { resource: 'ORDER', operation: 'POST', payload: ORDER, priority: 1 }, code: 'BAD_REQUEST' },
  { name: 'delete id a number', op: { resource: 'ORDER', operation: 'DELETE', payload: { id: 5 } }, code: 'BAD_REQUEST' },
  { name: 'operation a string', op: 'POST', code: 'BAD_REQUEST' },
];

const TRANSFER_CASES = (sub: string): Case[] => [
  ...generic('BAD_REQUEST'),
  ...fields({ toSubaccountId: sub, currencySymbol: 'USD', amount: '10' }, 'BAD_REQUEST', [
    ...absurd('amount'),
    ['unknown field', { to: sub }],
    ['toMasterAccount a string', { toMasterAccount: 'yes' }],
    ['toSubaccountId a number', { toSubaccountId: 42 }],
    ['requestId an object', { requestId: {} }],
    ['both destinations', { toMasterAccount: true }],
    ['no destination', { toSubaccountId: undefined }],
  ]),
];

const ADDRESS_CASES: Case[] = [
  ...generic('BAD_REQUEST'),
  ...fields({ currencySymbol: 'LTC' }, 'BAD_REQUEST', [
    ['currencySymbol a number', { currencySymbol: 5 }],
    ['currencySymbol an array', { currencySymbol: ['LTC'] }],
    ['currencySymbol missing', { currencySymbol: undefined }],
    ['currencySymbol unknown', { currencySymbol: 'NOPE' }, '404 CURRENCY_DOES_NOT_EXIST'],
    ['unknown field', { currency: 'LTC' }],
  ]),
];

describe('REST bad input end to end', () => {
  let fx: SimFixture;
  let me: TestAccount;
  let sub: string;

  beforeAll(async () => {
    fx = await startFixture();
    me = await fx.account({ USD: '100000', BTC: '2' });
    sub = (await me.client.subaccounts.create()).id;
    // Something on the book and in flight, so "unchanged" means something.
    await me.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('20000') });
  });
  afterAll(async () => {
    await fx.close();
  });

  async function expectRefusals(path: string, cases: Case[]): Promise<void> {
    const before = await accountState(me.client);
    const got: string[] = [];
    for (const c of cases) {
      const r = await fx.signed(me, 'POST', path, { body: c.raw ?? JSON.stringify(c.body) });
      got.push(`${c.name}: ${r.status} ${r.json?.code}`);
    }
    // All at once, so one run shows every mismatch.
    expect(got).toEqual(cases.map((c) => `${c.name}: ${c.status} ${c.code}`));
    expect(await accountState(me.client), `${path}: state changed`).toBe(before);
    expect((await fx.raw('GET', '/ping')).status).toBe(200);
    const audit = await fx.control('GET', '/audit');
    expect(audit.json.filter((a: { discrepancy: string }) => Number(a.discrepancy) !== 0)).toEqual([]);
  }

  it('POST /orders', async () => expectRefusals('/orders', ORDER_CASES));
  it('POST /withdrawals', async () => expectRefusals('/withdrawals', WITHDRAWAL_CASES));
  it('POST /conditional-orders', async () => expectRefusals('/conditional-orders', CONDITIONAL_CASES));
  it('POST /transfers', async () => expectRefusals('/transfers', TRANSFER_CASES(sub)));
  it('POST /addresses', async () => expectRefusals('/addresses', ADDRESS_CASES));
  it('POST /batch', async () => {
    await expectRefusals('/batch', BATCH_CASES);
    const before = await accountState(me.client);
    const r = await fx.post(me, '/batch', BATCH_ITEM_CASES.map((c) => c.op));
    expect(r.status, r.text).toBe(200);
    const got = (r.json as Array<{ status: number; payload: { code: string } }>).map((x, i) => `${BATCH_ITEM_CASES[i]!.name}: ${x.status} ${x.payload.code}`);
    expect(got).toEqual(BATCH_ITEM_CASES.map((c) => `${c.name}: 400 ${c.code}`));
    expect(await accountState(me.client)).toBe(before);
  });

  it('refuses bad query parameters with 400 naming the parameter', async () => {
    const targets = [
      '/orders/closed?pageSize=0',
      '/orders/closed?pageSize=201',
      '/orders/closed?pageSize=-1',
      '/orders/closed?pageSize=1e400',
      '/orders/closed?pageSize=abc',
      '/orders/closed?startDate=yesterday',
      '/orders/closed?startDate=2021-06-14T00:00:00Z&endDate=2021-06-13T00:00:00Z',
      '/orders/closed?nextPageToken=a&previousPageToken=b',
      '/executions?pageSize=99999999999999999999',
      '/transfers/sent?toMasterAccount=maybe',
      '/deposits/closed?status=LOST',
      '/withdrawals/open?status=GONE',
    ];
    for (const t of targets) {
      const r = await fx.signed(me, 'GET', t);
      expect({ status: r.status, code: r.json?.code }, t).toEqual({ status: 400, code: 'BAD_REQUEST' });
      expect(r.json.data?.invalidRequestParameters, t).toEqual(expect.any(Array));
    }
    for (const t of ['/markets/BTC-USD/orderbook?depth=abc', '/markets/BTC-USD/orderbook?depth=-25', '/markets/BTC-USD/orderbook?depth=1e400']) {
      const r = await fx.raw('GET', t);
      expect({ status: r.status, code: r.json?.code }, t).toEqual({ status: 400, code: 'BAD_REQUEST' });
    }
  });

  it('takes a client going away mid-body as a broken request, not a server failure', async () => {
    for (const path of ['/v3/orders', '/control/accounts']) {
      const accepted = new Promise<Socket>((r) => fx.sim.http.once('connection', r));
      const socket = connect(fx.sim.port, '127.0.0.1');
      const serverSide = await accepted;
      const gone = new Promise((r) => serverSide.once('close', r));
      // Headers promise 1000 bytes; 5 arrive, then the connection closes.
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`);
      await new Promise((r) => serverSide.once('data', r));
      socket.destroy();
      await gone;
    }
    // Any failure report would have been made by the time another request is answered.
    expect((await fx.raw('GET', '/ping')).status).toBe(200);
    expect(fx.internalErrors).toEqual([]);
  });

  it('answers unknown routes 404 and wrong methods 405 with Allow', async () => {
    for (const [method, path] of [['GET', '/v3/nope'], ['GET', '/v3'], ['GET', '/v2/markets'], ['GET', '/'], ['POST', '/v3/orders/open/extra'], ['GET', '/v3/markets/BTC-USD/orderbook/extra'], ['GET', '/v3/orders/%E0%A4%A']]) {
      const r = await fx.http(method!, path!);
      expect({ status: r.status, code: r.json?.code }, `${method} ${path}`).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
    const cases: Array<[string, string, string]> = [
      ['PUT', '/orders', 'POST'],
      ['PATCH', '/balances', 'GET, HEAD'],
      ['DELETE', '/markets', 'GET'],
      ['POST', '/markets/BTC-USD/ticker', 'GET'],
      ['DELETE', '/balances/BTC', 'GET'],
      ['GET', '/batch', 'POST'],
    ];
    for (const [method, target, allow] of cases) {
      const r = await fx.signed(me, method, target);
      expect({ status: r.status, code: r.json?.code, allow: r.headers.allow }, `${method} ${target}`).toEqual({ status: 405, code: 'NOT_ALLOWED', allow });
    }
    expect((await fx.raw('GET', '/ping')).status).toBe(200);
  });
});
