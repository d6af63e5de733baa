/**
 * The route table of the REST test server: all 70 method/path pairs of shared/reference/api-spec-v3.json, the
 * query parameters each accepts, the body each POST must carry, and realistic answers (wire-samples.ts).
 * Paginated lists answer from mutable datasets with the seed's token rules, so iterators can be tested.
 */
import { dec } from '../../../src/core/decimal.js';
import { decodeNewConditionalOrder } from '../../../src/model/conditional-order.js';
import { arrayOf, bool, type Decoder, id, object, oneOf, str } from '../../../src/model/decode.js';
import { dec as decimal } from '../../../src/model/decode.js';
import { decodeNewOrder } from '../../../src/model/order.js';
import * as S from './wire-samples.js';

/** What a handler answers. `status` defaults to 200; `raw` sends a non-JSON body. */
export interface Reply {
  status?: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/** Datasets the paginated endpoints answer from (newest first), and ids that exist. Tests may replace them. */
export interface ServerState {
  closedOrders: Record<string, unknown>[];
  closedConditionalOrders: Record<string, unknown>[];
  closedDeposits: Record<string, unknown>[];
  closedWithdrawals: Record<string, unknown>[];
  executions: Record<string, unknown>[];
  subaccounts: Record<string, unknown>[];
  sentTransfers: Record<string, unknown>[];
  receivedTransfers: Record<string, unknown>[];
}

interface Ctx {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  subaccountId: string | undefined;
  state: ServerState;
}

/** One endpoint the server knows. */
export interface Route {
  /** `METHOD /template` as in the official document. */
  key: string;
  method: string;
  pattern: RegExp;
  auth: boolean;
  query?: readonly string[];
  body?: Decoder<unknown>;
  /** Static Sequence header of snapshot GETs and HEADs. */
  sequence?: number;
  handle(ctx: Ctx): Reply;
}

/** Sequence numbers the server answers, per snapshot. */
export const SEQ = {
  balances: 1001,
  openOrders: 2002,
  openConditionalOrders: 3003,
  openDeposits: 4004,
  executions: 5005,
  summaries: 6006,
  tickers: 7007,
  trades: 8008,
  candles: 9009,
  /** Order book sequences differ per depth (seed rule 1). */
  orderBook: { 1: 3209001, 25: 3209100, 500: S.ORDER_BOOK_SEQUENCE } as Record<string, number>,
};

export function createState(): ServerState {
  return {
    closedOrders: S.series(3, 'order', S.closedOrderJson),
    closedConditionalOrders: S.series(3, 'cond', (id, at) => S.conditionalOrderJson({ id, status: 'COMPLETED', closedAt: at })),
    closedDeposits: S.series(3, 'dep', (id, at) => S.depositJson({ id, status: 'COMPLETED', confirmations: 6, completedAt: at })),
    closedWithdrawals: S.series(3, 'wd', (id, at) => S.withdrawalJson({ id, status: 'COMPLETED', txId: S.TX_ID, completedAt: at })),
    executions: S.series(3, 'exec', S.executionJson),
    subaccounts: S.series(3, 'sub', S.subaccountJson),
    sentTransfers: S.series(3, 'sent', S.sentTransferJson),
    receivedTransfers: S.series(3, 'recv', S.receivedTransferJson),
  };
}

const PAGE = ['nextPageToken', 'previousPageToken', 'pageSize', 'startDate', 'endDate'] as const;
let counter = 0;
const newId = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
const NOW = '2021-06-14T01:55:00.5Z';

function err(status: number, code: string, detail?: string): Reply {
  return { status, body: detail ? { code, detail } : { code } };
}

/** 8-dp string of a wire decimal (string or number), or undefined. */
function fix8(v: unknown): string | undefined {
  return v === undefined ? undefined : dec(v as string).toFixed(8);
}

/** The seed's pagination over a newest-first dataset. */
function page(items: Record<string, unknown>[], q: Record<string, string>): Reply {
  const size = q.pageSize === undefined ? 100 : Number(q.pageSize);
  if (!Number.isInteger(size) || size < 1 || size > 200) return err(400, 'INVALID_PARAMETER', 'pageSize');
  if (q.nextPageToken !== undefined && q.previousPageToken !== undefined) return err(400, 'INVALID_PARAMETER', 'both tokens');
  for (const d of ['startDate', 'endDate']) {
    if (q[d] !== undefined && Number.isNaN(Date.parse(q[d]!))) return err(400, 'INVALID_PARAMETER', d);
  }
  const index = (token: string) => items.findIndex((x) => x.id === token);
  if (q.nextPageToken !== undefined) {
    const i = index(q.nextPageToken);
    return i < 0 ? err(400, 'INVALID_NEXT_PAGE_TOKEN') : { body: items.slice(i + 1, i + 1 + size) };
  }
  if (q.previousPageToken !== undefined) {
    const i = index(q.previousPageToken);
    return i < 0 ? err(400, 'INVALID_PREVIOUS_PAGE_TOKEN') : { body: items.slice(Math.max(0, i - size), i) };
  }
  return { body: items.slice(0, size) };
}

/** A decoder that also rejects keys outside `keys` (the client must not send fields the service does not know). */
function only<T>(decoder: Decoder<T>, keys: readonly string[]): Decoder<T> {
  return (v, path, where) => {
    const out = decoder(v, path, where);
    for (const k of Object.keys(v as object)) if (!keys.includes(k)) throw new Error(`${where}: unexpected field ${path}${k}`);
    return out;
  };
}

const NEW_ORDER_KEYS = ['marketSymbol', 'direction', 'type', 'quantity', 'ceiling', 'limit', 'timeInForce', 'clientOrderId', 'useAwards'];
const decodeBatch = arrayOf(
  object<{ resource: string; operation: string; payload: Record<string, unknown> }>(
    { resource: oneOf(['ORDER']), operation: oneOf(['POST', 'DELETE']), payload: (v) => v as Record<string, unknown> },
    {},
  ),
);

function route(
  method: string,
  template: string,
  opts: { auth?: boolean; query?: readonly string[]; body?: Decoder<unknown>; sequence?: number; pattern?: RegExp },
  handle: (ctx: Ctx) => Reply,
): Route {
  const pattern = opts.pattern ?? new RegExp(`^${template.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`);
  return { key: `${method} ${template}`, method, pattern, auth: opts.auth ?? true, handle, ...opts };
}

function orderFrom(b: Record<string, unknown>, over: Record<string, unknown> = {}): Record<string, unknown> {
  return S.orderJson({
    id: newId(),
    marketSymbol: b.marketSymbol,
    direction: b.direction,
    type: b.type,
    timeInForce: b.timeInForce,
    quantity: fix8(b.quantity),
    limit: fix8(b.limit),
    ceiling: fix8(b.ceiling),
    clientOrderId: b.clientOrderId,
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  });
}

const PUBLIC = { auth: false } as const;
const CANDLE_TYPE = '(?:(?<candleType>TRADE|MIDPOINT)/)?';
const INTERVAL = '(?<candleInterval>MINUTE_1|MINUTE_5|HOUR_1|DAY_1)';

/** Every route; specific paths come before the `{id}` paths they would otherwise match. */
export function createRoutes(): Route[] {
  return [
    // Account
    route('GET', '/account', {}, (c) => ({ body: { accountId: S.ACCOUNT_ID, ...(c.subaccountId ? { subaccountId: c.subaccountId } : {}) } })),
    route('GET', '/account/fees/trading', {}, () => ({ body: S.FEES })),
    route('GET', '/account/fees/trading/{marketSymbol}', {}, (c) => ({ body: { ...S.FEES[0], marketSymbol: c.params.marketSymbol } })),
    route('GET', '/account/volume', {}, () => ({ body: { updated: '2021-06-14T00:00:00Z', volume30days: '123456.78900000' } })),
    route('GET', '/account/permissions/markets', {}, () => ({ body: S.MARKET_POLICIES })),
    route('GET', '/account/permissions/markets/{marketSymbol}', {}, (c) => ({ body: { ...S.MARKET_POLICIES[0], symbol: c.params.marketSymbol } })),
    route('GET', '/account/permissions/currencies', {}, () => ({ body: S.CURRENCY_POLICIES })),
    // The official document answers a one-element array here; the seed a single object. Serve the array form.
    route('GET', '/account/permissions/currencies/{currencySymbol}', {}, (c) => ({ body: [{ ...S.CURRENCY_POLICIES[0], symbol: c.params.currencySymbol }] })),
    // Addresses
    route('GET', '/addresses', {}, () => ({ body: S.ADDRESSES })),
    route('POST', '/addresses', { body: only(object({ currencySymbol: str }, {}), ['currencySymbol']) }, (c) => ({
      status: 201,
      body: { status: 'REQUESTED', currencySymbol: (c.body as { currencySymbol: string }).currencySymbol },
    })),
    route('GET', '/addresses/{currencySymbol}', {}, (c) => ({ body: { ...S.ADDRESSES[0], currencySymbol: c.params.currencySymbol } })),
    // Balances
    route('GET', '/balances', { sequence: SEQ.balances }, () => ({ body: S.BALANCES })),
    route('HEAD', '/balances', { sequence: SEQ.balances }, () => ({})),
    route('GET', '/balances/{currencySymbol}', {}, (c) => ({ body: { ...S.BALANCES[0], currencySymbol: c.params.currencySymbol } })),
    // Batch
    route('POST', '/batch', { body: decodeBatch }, (c) => ({
      body: (c.body as { operation: string; payload: Record<string, unknown> }[]).map((op) => {
        if (op.operation === 'DELETE') return { status: 200, payload: S.closedOrderJson(String(op.payload.id), NOW) };
        try {
          only(decodeNewOrder, NEW_ORDER_KEYS)(op.payload, 'payload.', 'POST /v3/batch');
        } catch (e) {
          return { status: 400, payload: { code: 'BAD_REQUEST', detail: (e as Error).message } };
        }
        return { status: 201, payload: orderFrom(op.payload) };
      }),
    })),
    // Conditional orders
    route('GET', '/conditional-orders/closed', { query: ['marketSymbol', ...PAGE] }, (c) => page(c.state.closedConditionalOrders, c.query)),
    route('GET', '/conditional-orders/open', { query: ['marketSymbol'], sequence: SEQ.openConditionalOrders }, () => ({ body: [S.conditionalOrderJson()] })),
    route('HEAD', '/conditional-orders/open', { sequence: SEQ.openConditionalOrders }, () => ({})),
    route('GET', '/conditional-orders/{conditionalOrderId}', {}, (c) => ({ body: S.conditionalOrderJson({ id: c.params.conditionalOrderId }) })),
    route('DELETE', '/conditional-orders/{conditionalOrderId}', {}, (c) => ({
      body: S.conditionalOrderJson({ id: c.params.conditionalOrderId, status: 'CANCELLED', updatedAt: NOW, closedAt: NOW }),
    })),
    route('POST', '/conditional-orders', { body: decodeNewConditionalOrder }, (c) => {
      const b = c.body as Record<string, unknown>;
      const inner = b.orderToCreate as Record<string, unknown> | undefined;
      return {
        status: 201,
        body: {
          ...b,
          id: newId(),
          triggerPrice: fix8(b.triggerPrice),
          trailingStopPercent: fix8(b.trailingStopPercent),
          orderToCreate: inner && { ...inner, quantity: fix8(inner.quantity), limit: fix8(inner.limit), ceiling: fix8(inner.ceiling) },
          status: 'OPEN',
          createdAt: NOW,
        },
      };
    }),
    // Currencies
    route('GET', '/currencies', PUBLIC, () => ({ body: S.CURRENCIES })),
    route('GET', '/currencies/{symbol}', PUBLIC, (c) => {
      const cur = S.CURRENCIES.find((x) => x.symbol === c.params.symbol);
      return cur ? { body: cur } : err(404, 'CURRENCY_DOES_NOT_EXIST');
    }),
    // Deposits
    route('GET', '/deposits/open', { query: ['status', 'currencySymbol'], sequence: SEQ.openDeposits }, () => ({ body: [S.depositJson()] })),
    route('HEAD', '/deposits/open', { sequence: SEQ.openDeposits }, () => ({})),
    route('GET', '/deposits/closed', { query: ['status', 'currencySymbol', ...PAGE] }, (c) => page(c.state.closedDeposits, c.query)),
    route('GET', '/deposits/ByTxId/{txId}', {}, (c) => ({ body: [S.depositJson({ txId: c.params.txId })] })),
    route('GET', '/deposits/{depositId}', {}, (c) => ({ body: S.depositJson({ id: c.params.depositId }) })),
    // Executions
    route('GET', '/executions/last-id', { query: ['marketSymbol'], sequence: SEQ.executions }, (c) => ({ body: { lastId: c.state.executions[0]?.id } })),
    route('HEAD', '/executions/last-id', { sequence: SEQ.executions }, () => ({})),
    route('GET', '/executions/{executionId}', {}, (c) => ({ body: S.executionJson(c.params.executionId) })),
    route('GET', '/executions', { query: ['marketSymbol', ...PAGE] }, (c) => page(c.state.executions, c.query)),
    // Markets
    route('GET', '/markets', PUBLIC, () => ({ body: S.MARKETS })),
    route('GET', '/markets/summaries', { ...PUBLIC, sequence: SEQ.summaries }, () => ({ body: S.SUMMARIES })),
    route('HEAD', '/markets/summaries', { ...PUBLIC, sequence: SEQ.summaries }, () => ({})),
    route('GET', '/markets/tickers', { ...PUBLIC, sequence: SEQ.tickers }, () => ({ body: S.TICKERS })),
    route('HEAD', '/markets/tickers', { ...PUBLIC, sequence: SEQ.tickers }, () => ({})),
    route('GET', '/markets/{marketSymbol}/ticker', PUBLIC, (c) => ({ body: { ...S.TICKERS[0], symbol: c.params.marketSymbol } })),
    route('GET', '/markets/{marketSymbol}', PUBLIC, (c) => {
      const m = S.MARKETS.find((x) => x.symbol === c.params.marketSymbol);
      return m ? { body: m } : err(404, 'MARKET_DOES_NOT_EXIST');
    }),
    route('GET', '/markets/{marketSymbol}/summary', PUBLIC, (c) => ({ body: { ...S.SUMMARIES[0], symbol: c.params.marketSymbol } })),
    ...(['GET', 'HEAD'] as const).map((m) =>
      route(m, '/markets/{marketSymbol}/orderbook', { ...PUBLIC, query: ['depth'] }, (c) => {
        const seq = SEQ.orderBook[c.query.depth ?? '25'];
        if (seq === undefined) return err(400, 'INVALID_PARAMETER', 'depth');
        return { body: m === 'GET' ? S.ORDER_BOOK : undefined, headers: { Sequence: String(seq) } };
      }),
    ),
    route('GET', '/markets/{marketSymbol}/trades', { ...PUBLIC, sequence: SEQ.trades }, () => ({ body: S.TRADES })),
    route('HEAD', '/markets/{marketSymbol}/trade', { ...PUBLIC, sequence: SEQ.trades }, () => ({})),
    ...(['GET', 'HEAD'] as const).map((m) =>
      route(
        m,
        '/markets/{marketSymbol}/candles/{candleType}/{candleInterval}/recent',
        { ...PUBLIC, sequence: SEQ.candles, pattern: new RegExp(`^/markets/(?<marketSymbol>[^/]+)/candles/${CANDLE_TYPE}${INTERVAL}/recent$`) },
        () => ({ body: m === 'GET' ? S.CANDLES : undefined }),
      ),
    ),
    route(
      'GET',
      '/markets/{marketSymbol}/candles/{candleType}/{candleInterval}/historical/{year}/{month}/{day}',
      {
        ...PUBLIC,
        pattern: new RegExp(
          `^/markets/(?<marketSymbol>[^/]+)/candles/${CANDLE_TYPE}${INTERVAL}/historical/(?<year>\\d{4})(?:/(?<month>\\d{1,2}))?(?:/(?<day>\\d{1,2}))?$`,
        ),
      },
      (c) => {
        const need = { DAY_1: 1, HOUR_1: 2, MINUTE_5: 3, MINUTE_1: 3 }[c.params.candleInterval!]!;
        const have = [c.params.year, c.params.month, c.params.day].filter((p) => p !== undefined).length;
        return have === need ? { body: S.CANDLES } : err(400, 'INVALID_PARAMETER', `date parts for ${c.params.candleInterval}`);
      },
    ),
    // Orders
    route('GET', '/orders/closed', { query: ['marketSymbol', ...PAGE] }, (c) => page(c.state.closedOrders, c.query)),
    route('GET', '/orders/open', { query: ['marketSymbol'], sequence: SEQ.openOrders }, () => ({ body: [S.orderJson()] })),
    route('DELETE', '/orders/open', { query: ['marketSymbol'] }, () => ({
      body: [{ id: S.ORDER_ID, statusCode: 'SUCCESS', result: S.closedOrderJson(S.ORDER_ID, NOW) }],
    })),
    route('HEAD', '/orders/open', { sequence: SEQ.openOrders }, () => ({})),
    route('GET', '/orders/{orderId}', {}, (c) =>
      c.params.orderId === S.ORDER_ID || c.state.closedOrders.some((o) => o.id === c.params.orderId)
        ? { body: S.orderJson({ id: c.params.orderId }) }
        : err(404, 'NOT_FOUND'),
    ),
    route('DELETE', '/orders/{orderId}', {}, (c) => ({ body: S.closedOrderJson(c.params.orderId!, NOW) })),
    route('GET', '/orders/{orderId}/executions', {}, () => ({ body: [S.executionJson()] })),
    route('POST', '/orders', { body: only(decodeNewOrder, NEW_ORDER_KEYS) }, (c) => ({ status: 201, body: orderFrom(c.body as Record<string, unknown>) })),
    // Ping
    route('GET', '/ping', PUBLIC, () => ({ body: { serverTime: 1623635700000 } })),
    // Subaccounts
    route('GET', '/subaccounts', { query: ['nextPageToken', 'previousPageToken', 'pageSize'] }, (c) => page(c.state.subaccounts, c.query)),
    route('POST', '/subaccounts', { body: only(object({}, {}), []) }, () => ({ status: 201, body: S.subaccountJson(newId(), NOW) })),
    route('GET', '/subaccounts/{subaccountId}', {}, (c) => ({ body: S.subaccountJson(c.params.subaccountId) })),
    // Transfers
    route('GET', '/transfers/sent', { query: ['toSubaccountId', 'toMasterAccount', 'currencySymbol', ...PAGE] }, (c) => page(c.state.sentTransfers, c.query)),
    route('GET', '/transfers/received', { query: ['fromSubaccountId', 'fromMasterAccount', 'currencySymbol', ...PAGE] }, (c) =>
      page(c.state.receivedTransfers, c.query),
    ),
    route('GET', '/transfers/{transferId}', {}, (c) => ({ body: S.receivedTransferJson(c.params.transferId) })),
    route(
      'POST',
      '/transfers',
      {
        body: only(object({ currencySymbol: str, amount: decimal }, { toSubaccountId: id, toMasterAccount: bool, requestId: id }), [
          'currencySymbol', 'amount', 'toSubaccountId', 'toMasterAccount', 'requestId',
        ]),
      },
      (c) => {
        const b = c.body as Record<string, unknown>;
        return { status: 201, body: { ...b, id: newId(), amount: fix8(b.amount), executedAt: NOW } };
      },
    ),
    // Withdrawals
    route('GET', '/withdrawals/open', { query: ['status', 'currencySymbol'] }, () => ({ body: [S.withdrawalJson()] })),
    route('GET', '/withdrawals/closed', { query: ['status', 'currencySymbol', ...PAGE] }, (c) => page(c.state.closedWithdrawals, c.query)),
    route('GET', '/withdrawals/allowed-addresses', {}, () => ({ body: S.ALLOWED_ADDRESSES })),
    route('GET', '/withdrawals/ByTxId/{txId}', {}, (c) => ({ body: [S.withdrawalJson({ status: 'COMPLETED', txId: c.params.txId, completedAt: NOW })] })),
    route('GET', '/withdrawals/{withdrawalId}', {}, (c) => ({ body: S.withdrawalJson({ id: c.params.withdrawalId }) })),
    route('DELETE', '/withdrawals/{withdrawalId}', {}, (c) => ({ body: S.withdrawalJson({ id: c.params.withdrawalId, status: 'CANCELLED' }) })),
    route(
      'POST',
      '/withdrawals',
      {
        body: only(
          object({ currencySymbol: str, quantity: decimal }, { cryptoAddress: str, cryptoAddressTag: str, fundsTransferMethodId: id, clientWithdrawalId: id }),
          ['currencySymbol', 'quantity', 'cryptoAddress', 'cryptoAddressTag', 'fundsTransferMethodId', 'clientWithdrawalId'],
        ),
      },
      (c) => {
        const b = c.body as Record<string, unknown>;
        return { status: 201, body: S.withdrawalJson({ ...b, id: newId(), quantity: fix8(b.quantity), createdAt: NOW }) };
      },
    ),
  ];
}
