/**
 * Request generator of the REST fuzzer (test/server/rest-fuzz.test.ts): valid v3 requests, then one to three
 * mutations of their method, path, query, body or Api-* headers. Generation depends only on the seed (never on
 * what the server answered), so a seed printed in a failure replays the very same requests.
 */
import { chance, hex, int, pick, type Rand, uuid } from './fuzz-rand.js';

/** One request to send. `path` and `query` go on the wire exactly as they are (and are what gets signed). */
export interface FuzzRequest {
  method: string;
  /** Raw path, `/v3/...` unless a mutation replaced the prefix. */
  path: string;
  /** Raw query without `?`; '' for none. */
  query: string;
  body: string | Buffer | undefined;
  /** Sign the request as sent with the fuzz account's key (as src/bittrex/rest/auth does), or send no Api-* headers. */
  signed: boolean;
  subaccountId: string | undefined;
  /** Header edits applied after signing: a value replaces, null removes. */
  headerEdits: Record<string, string | null>;
  /** Content-Type sent with a body; null for none. */
  contentType: string | null;
  mutations: string[];
}

/** What the generator may refer to: ids that exist (another account's orders), and that account's identity. */
export interface FuzzWorld {
  /** Order ids and clientOrderIds of the keeper account (never the fuzz account's own). */
  keeperOrderIds: readonly string[];
  keeperClientOrderIds: readonly string[];
  keeperAccountId: string;
  keeperApiKey: string;
  /** A clientOrderId the fuzz account reuses, so repeats meet CLIENTORDERID_ALREADY_EXISTS. */
  fuzzClientOrderId: string;
  /** The fuzz account's own sub-account (a valid Api-Subaccount-Id). */
  fuzzSubaccountId: string;
}

interface Template {
  method: string;
  path: string;
  query?: string;
  body?: unknown;
  signed: boolean;
}

const ORDER = { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: '0.001', limit: '15000' };
const CONDITIONAL = {
  marketSymbol: 'BTC-USD',
  operand: 'GTE',
  triggerPrice: '90000',
  orderToCreate: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: '0.001', limit: '16000' },
};

function templates(r: Rand, w: FuzzWorld): Template[] {
  const anyId = (): string => (w.keeperOrderIds.length > 0 && chance(r, 0.5) ? pick(r, w.keeperOrderIds) : uuid(r));
  const clientOrderId = w.keeperClientOrderIds.length > 0 && chance(r, 0.3) ? pick(r, w.keeperClientOrderIds) : uuid(r);
  const pub = (path: string, query?: string, method = 'GET'): Template => ({ method, path, signed: false, ...(query ? { query } : {}) });
  const sig = (method: string, path: string, body?: unknown, query?: string): Template => ({
    method, path, signed: true, ...(body !== undefined ? { body } : {}), ...(query ? { query } : {}),
  });
  return [
    pub('/ping'), pub('/currencies'), pub('/currencies/BTC'), pub('/markets'), pub('/markets/summaries'),
    pub('/markets/summaries', undefined, 'HEAD'), pub('/markets/tickers'), pub('/markets/BTC-USD'),
    pub('/markets/BTC-USD/ticker'), pub('/markets/ETH-USD/summary'), pub('/markets/BTC-USD/orderbook', 'depth=25'),
    pub('/markets/BTC-USD/orderbook', 'depth=500', 'HEAD'), pub('/markets/BTC-USD/trades'),
    pub('/markets/BTC-USD/trade', undefined, 'HEAD'), pub('/markets/BTC-USD/candles/TRADE/MINUTE_1/recent'),
    pub('/markets/ETH-BTC/candles/HOUR_1/recent'), pub('/markets/BTC-USD/candles/MIDPOINT/DAY_1/historical/2021/6/1'),
    sig('GET', '/account'), sig('GET', '/account/volume'), sig('GET', '/account/fees/trading/BTC-USD'),
    sig('GET', '/account/permissions/markets'), sig('GET', '/account/permissions/currencies/BTC'),
    sig('GET', '/balances'), sig('HEAD', '/balances'), sig('GET', '/balances/USD'), sig('GET', '/addresses'),
    sig('POST', '/addresses', { currencySymbol: pick(r, ['LTC', 'ETH', 'BTC']) }), sig('GET', '/addresses/BTC'),
    sig('GET', '/deposits/open', undefined, 'status=PENDING'), sig('GET', '/deposits/closed', undefined, 'pageSize=10'),
    sig('GET', '/deposits/ByTxId/abc'), sig('GET', `/deposits/${uuid(r)}`),
    sig('GET', '/withdrawals/open'), sig('GET', '/withdrawals/closed', undefined, 'currencySymbol=USD&pageSize=5'),
    sig('GET', '/withdrawals/allowed-addresses'), sig('DELETE', `/withdrawals/${uuid(r)}`),
    sig('POST', '/withdrawals', { currencySymbol: 'USD', quantity: '10', cryptoAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' }),
    sig('GET', '/subaccounts', undefined, 'pageSize=3'), sig('POST', '/subaccounts', {}), sig('GET', `/subaccounts/${uuid(r)}`),
    sig('GET', '/transfers/sent', undefined, 'toMasterAccount=false'), sig('GET', '/transfers/received'),
    sig('POST', '/transfers', { toSubaccountId: w.fuzzSubaccountId, currencySymbol: 'USD', amount: '1', requestId: uuid(r) }),
    sig('GET', '/orders/open', undefined, 'marketSymbol=BTC-USD'), sig('HEAD', '/orders/open'),
    sig('DELETE', '/orders/open', undefined, 'marketSymbol=ETH-USD'), sig('GET', '/orders/closed', undefined, 'pageSize=5'),
    sig('GET', `/orders/${anyId()}`), sig('DELETE', `/orders/${anyId()}`), sig('GET', `/orders/${anyId()}/executions`),
    sig('POST', '/orders', { ...ORDER, clientOrderId }), sig('POST', '/orders', { ...ORDER, clientOrderId: w.fuzzClientOrderId }), sig('POST', '/orders', { ...ORDER, marketSymbol: 'ETH-USD', limit: '100' }),
    sig('POST', '/batch', [
      { resource: 'ORDER', operation: 'POST', payload: { ...ORDER, limit: '14000' } },
      { resource: 'ORDER', operation: 'DELETE', payload: { id: anyId() } },
    ]),
    sig('GET', '/executions', undefined, 'marketSymbol=BTC-USD'), sig('GET', '/executions/last-id'),
    sig('GET', `/executions/${uuid(r)}`), sig('GET', '/conditional-orders/open'),
    sig('GET', '/conditional-orders/closed', undefined, 'pageSize=2'), sig('GET', `/conditional-orders/${uuid(r)}`),
    sig('DELETE', `/conditional-orders/${uuid(r)}`), sig('POST', '/conditional-orders', CONDITIONAL),
  ];
}

const WEIRD_SEGMENTS = [
  '..', '.', '%2e%2e', '%2F', '%', '%E0%A4%A', '%00', '%ZZ', '__proto__', 'constructor', 'toString', 'hasOwnProperty',
  '%F0%9F%92%A9', 'btc-usd', 'BTC-usd', 'NOPE-USD', 'USD-BTC', '-', '', 'null', 'undefined', '0', '-1', '1e400',
  "'%20OR%201=1", '%3Cscript%3E', '..%2F..%2Fcontrol',
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'PROPFIND', 'FOO', 'get'];
const QUERY_BITS = [
  'pageSize=abc', 'pageSize=-1', 'pageSize=0', 'pageSize=201', 'pageSize=1e400', 'pageSize=99999999999', 'pageSize=1.5',
  'pageSize=1&pageSize=2', 'depth=7', 'depth=abc', 'depth=-25', 'depth=25&depth=500', 'foo=bar', '__proto__=1',
  'marketSymbol=%ZZ', 'marketSymbol=NOPE-USD', 'marketSymbol=', 'startDate=yesterday', 'endDate=2021-13-45T99:00:00Z',
  'startDate=2021-06-14T00:00:00Z&endDate=2021-06-13T00:00:00Z', 'nextPageToken=x', 'previousPageToken=y&nextPageToken=z',
  'toMasterAccount=maybe', 'fromMasterAccount=1', 'status=LOST', 'currencySymbol=%00', '&&==&', '=', '%', 'a=%E0%A4%A',
];
const WEIRD_VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, -0.5, 1e308, 1e-30, '', 'x', [], {}, [1, 2], { a: { b: 1 } }, '1'.repeat(400),
  '0x10', 'NaN', 'Infinity', '-1', '1e400', '1e-30', ' 1', '1,5', '０.１', '\u0000', 'BTC-USD', 'buy', 'LIMIT',
];
/** Raw JSON number texts JSON.stringify cannot produce; substituted for the marker after stringifying. */
const RAW_NUMBERS = [
  '1e400', '-1e400', '1'.repeat(400), '0.' + '0'.repeat(400) + '1', '-0', '1E+2', '1.0000000000000001',
  '1000.0000000000000000001', '9'.repeat(5_000), '1e-400', '123456789012345678901234567890',
];
/** Values that break a recursive walk or a naive buffer: 6,000 nested arrays or objects, a 100k-char string. */
const HOSTILE_RAW = [`${'['.repeat(6_000)}${']'.repeat(6_000)}`, `${'{"a":'.repeat(6_000)}1${'}'.repeat(6_000)}`, JSON.stringify('x'.repeat(100_000))];
const BROKEN_BODIES = ['{', '}', '[', '{"a":}', "{'a':1}", 'NaN', '{"quantity": NaN}', '{} {}', 'nul', '"unterminated', '\u0000\u0001', '{"a":1,}'];

function mutateBodyValue(r: Rand, value: unknown, m: string[]): string {
  const RAW = '"__RAW__"';
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const target = Array.isArray(value) ? (value.length > 0 ? value[int(r, 0, value.length - 1)] : value) : value;
  const rec = (typeof target === 'object' && target !== null && !Array.isArray(target) ? target : value) as Record<string, unknown>;
  const inner = (rec.payload && typeof rec.payload === 'object' && chance(r, 0.7) ? rec.payload : rec.orderToCreate && chance(r, 0.3) ? rec.orderToCreate : rec) as Record<string, unknown>;
  const keys = Object.keys(inner);
  const key = keys.length > 0 ? pick(r, keys) : 'x';
  let raw: string | undefined;
  switch (int(r, 0, 6)) {
    case 6:
      raw = pick(r, HOSTILE_RAW);
      inner[key] = '__RAW__';
      m.push(`body.${key}=${raw.length > 100_000 ? 'a 100k-char string' : `${raw.slice(0, 12)}... nested 6000 deep`}`);
      break;
    case 0:
      inner[key] = pick(r, WEIRD_VALUES);
      m.push(`body.${key}=${JSON.stringify(inner[key])?.slice(0, 40)}`);
      break;
    case 1:
      raw = pick(r, RAW_NUMBERS);
      inner[key] = '__RAW__';
      m.push(`body.${key}=${raw.slice(0, 40)}`);
      break;
    case 2:
      // Numbers instead of decimal strings (real clients send withdrawal quantities so): accepted or refused, never a 500.
      for (const k of keys) if (typeof inner[k] === 'string' && /^\d+(\.\d+)?$/.test(inner[k] as string)) inner[k] = Number(inner[k]);
      m.push('body decimals as numbers');
      break;
    case 3:
      delete inner[key];
      m.push(`body.${key} removed`);
      break;
    case 4: {
      const extra = pick(r, ['quantiy', 'admin', 'constructor', 'accountId', 'id', 'status', 'fillQuantity']);
      inner[extra] = pick(r, WEIRD_VALUES);
      m.push(`body extra field ${extra}`);
      break;
    }
    default:
      m.push('body __proto__ field');
      return JSON.stringify(value).replace(/^\{/, '{"__proto__":{"admin":true},');
  }
  const text = JSON.stringify(value);
  return raw === undefined ? text : text.replace(RAW, raw);
}

function mutateBody(r: Rand, req: FuzzRequest, value: unknown): void {
  const m = req.mutations;
  const text = typeof req.body === 'string' ? req.body : JSON.stringify(value ?? {});
  switch (int(r, 0, 9)) {
    case 0:
      req.body = text.slice(0, int(r, 0, Math.max(0, text.length - 1)));
      m.push(`body truncated to ${req.body.length}`);
      return;
    case 1:
      req.body = pick(r, BROKEN_BODIES);
      m.push(`body ${JSON.stringify(req.body)}`);
      return;
    case 2: {
      const depth = pick(r, [100, 5_000, 60_000]);
      req.body = `${'['.repeat(depth)}${text}${']'.repeat(depth)}`;
      m.push(`body nested ${depth} deep`);
      return;
    }
    case 3: {
      const at = int(r, 0, text.length);
      req.body = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x80]), Buffer.from(text.slice(at))]);
      m.push(`body non-UTF-8 bytes at ${at}`);
      return;
    }
    case 4:
      req.body = '';
      m.push('body empty');
      return;
    case 5: {
      const size = pick(r, [200_000, 262_100, 300_000, 1_100_000]);
      req.body = JSON.stringify({ pad: 'x'.repeat(size) });
      m.push(`body ${req.body.length} bytes`);
      return;
    }
    case 6:
      req.body = pick(r, ['null', '"order"', '1e308', 'true', '[]', '[[]]', '{}']);
      m.push(`body ${req.body}`);
      return;
    default:
      req.body = mutateBodyValue(r, structuredClone(value ?? {}), m);
  }
}

function mutatePath(r: Rand, req: FuzzRequest): void {
  const segs = req.path.split('/').slice(1);
  const m = req.mutations;
  switch (int(r, 0, 7)) {
    case 0:
    case 1: {
      const i = int(r, 1, Math.max(1, segs.length - 1));
      segs[i] = pick(r, WEIRD_SEGMENTS);
      m.push(`path segment ${i}=${segs[i]}`);
      break;
    }
    case 2: {
      const len = pick(r, [300, 3_000, 12_000, 20_000]);
      const i = int(r, 1, Math.max(1, segs.length - 1));
      segs[i] = pick(r, ['x', '%41', 'é'.replace('é', '%C3%A9')]).repeat(Math.ceil(len / 3));
      m.push(`path segment ${i} ${segs[i]!.length} chars`);
      break;
    }
    case 3:
      segs.splice(int(r, 1, segs.length), 0, pick(r, ['extra', '..', uuid(r), '']));
      m.push('path segment inserted');
      break;
    case 4:
      if (segs.length > 1) segs.splice(int(r, 1, segs.length - 1), 1);
      m.push('path segment removed');
      break;
    case 5:
      segs[0] = pick(r, ['v2', 'V3', 'v3x', 'v1.1', '', 'v3/..', 'signalrx']);
      m.push(`path prefix ${segs[0]}`);
      break;
    case 6:
      req.path = `${req.path}${pick(r, ['/', '//', '/.', '%20', '#frag'])}`;
      m.push('path suffix');
      return;
    default:
      req.path = pick(r, ['/v3', '/v3/', '/v3/nope', '/v3/orders/open/extra/more', '/v3//orders', '/v3/%2e%2e/control/audit', '/v3/markets/../../control/audit']);
      m.push(`path ${req.path}`);
      return;
  }
  req.path = `/${segs.join('/')}`;
}

function mutateHeaders(r: Rand, req: FuzzRequest, w: FuzzWorld, now: number): void {
  const e = req.headerEdits;
  const m = req.mutations;
  const invalidates = (name: string, value: string | null): void => {
    e[name] = value;
    m.push(`${name}: ${value === null ? 'removed' : JSON.stringify(value.slice(0, 40))}`);
  };
  switch (int(r, 0, 6)) {
    case 0:
      return invalidates('Api-Key', pick(r, [null, '', hex(r, 32), w.keeperApiKey, 'key with spaces', '%00']));
    case 1:
      return invalidates('Api-Timestamp', pick(r, [null, '', 'abc', '-1', '1e12', ' 1', String(now - 600_000), String(now + 600_000), String(now + 1), '9'.repeat(30), String(now).concat('.5')]));
    case 2:
      return invalidates('Api-Content-Hash', pick(r, [null, '', hex(r, 128), 'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e', 'zz']));
    case 3:
      return invalidates('Api-Signature', pick(r, [null, '', hex(r, 128), hex(r, 127), 'g'.repeat(128), hex(r, 2000)]));
    case 4:
      // Upper-case hex is the same digest: still a valid request.
      e['Api-Signature'] = 'UPPER';
      m.push('Api-Signature upper-case');
      return;
    case 5:
      req.contentType = pick(r, [null, 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'a/b/c', 'multipart/form-data; boundary=x']);
      m.push(`Content-Type ${req.contentType}`);
      return;
    default:
      req.subaccountId = pick(r, [uuid(r), 'garbage', w.keeperAccountId, w.fuzzSubaccountId, '00000000-0000-0000-0000-000000000000']);
      m.push(`Api-Subaccount-Id ${req.subaccountId}`);
  }
}

/** One fuzzed request: a valid template with 1-3 mutations. */
export function fuzzRequest(r: Rand, w: FuzzWorld, now: number): FuzzRequest {
  const all = templates(r, w);
  // Creating requests (the ones that can damage state) get half of the draws.
  const t = chance(r, 0.5) ? pick(r, all.filter((x) => x.method === 'POST')) : pick(r, all);
  const req: FuzzRequest = {
    method: t.method,
    path: `/v3${t.path}`,
    query: t.query ?? '',
    body: t.body === undefined ? undefined : JSON.stringify(t.body),
    signed: t.signed ? chance(r, 0.9) : chance(r, 0.2),
    subaccountId: undefined,
    headerEdits: {},
    contentType: t.body === undefined ? null : 'application/json',
    mutations: [`${t.method} ${t.path}${t.query ? `?${t.query}` : ''}`],
  };
  const n = int(r, 1, 3);
  for (let i = 0; i < n; i++) {
    const what = r();
    if (what < 0.4) {
      if (req.body === undefined) req.contentType = 'application/json';
      mutateBody(r, req, t.body);
    } else if (what < 0.52) mutatePath(r, req);
    else if (what < 0.67) {
      const bit = chance(r, 0.1) ? `x=${'q'.repeat(int(r, 100, 6_000))}` : pick(r, QUERY_BITS);
      req.query = chance(r, 0.3) ? bit : [req.query, bit].filter(Boolean).join('&');
      req.mutations.push(`query ${req.query.slice(0, 60)}`);
    } else if (what < 0.9) mutateHeaders(r, req, w, now);
    else {
      req.method = pick(r, METHODS);
      req.mutations.push(`method ${req.method}`);
    }
  }
  return req;
}
