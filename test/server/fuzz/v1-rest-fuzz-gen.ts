/**
 * Request generator of the v1.1 REST fuzzer (test/server/v1-rest-fuzz.test.ts): valid v1.1 GETs, then one to
 * three mutations of the path, method, query (missing, absurd, huge, repeated, deeply nested, badly encoded
 * values) or the apikey/nonce/apisign authentication. Generation depends only on the seed.
 */
import { chance, hex, int, pick, type Rand, uuid } from './fuzz-rand.js';

/** One v1.1 request. `query` is raw (sent and signed exactly as it is); apikey/nonce are added when `signed`. */
export interface V1FuzzRequest {
  method: string;
  path: string;
  query: string;
  signed: boolean;
  /** Applied after signing: a new query suffix (breaks the signature), a removed/replaced apisign, … */
  postSign: { appendQuery?: string; apisign?: string | null; upperSign?: boolean; omit?: 'apikey' | 'nonce' };
  /** Sign with this key instead of the fuzz account's (it will not match). */
  foreignKey?: string;
  mutations: string[];
}

/** What the generator may refer to. */
export interface V1FuzzWorld {
  keeperOrderIds: readonly string[];
  keeperApiKey: string;
}

interface Template {
  path: string;
  params: [string, string][];
  signed: boolean;
}

const ABSURD = (r: Rand): string =>
  pick(r, [
    '', 'abc', '-1', '0', '0.0', '1e400', '1E-8', 'NaN', 'Infinity', '0x10', ' 1', '1,5', '1.', '.5', '١٢', '%00', '%zz',
    '9'.repeat(int(r, 21, 400)), `0.${'0'.repeat(30)}1`, '99999999999999999999.999999999999999999', 'null', 'true',
    '[]', '{}', '"', "'; DROP TABLE orders; --", 'x'.repeat(int(r, 100, 6000)), '\u0000', 'é', '🚀',
  ]);

const MARKETS = ['USD-BTC', 'usd-btc', 'BTC-ETH', 'USD-ETH', 'BTC-USD', 'USD-NOPE', 'BTCUSD', 'USD--BTC', 'USD-BTC-X', 'USDT-BTC'];

function templates(r: Rand, w: V1FuzzWorld): Template[] {
  const id = () => (w.keeperOrderIds.length > 0 && chance(r, 0.4) ? pick(r, w.keeperOrderIds) : uuid(r));
  const market = () => pick(r, MARKETS);
  const qty = () => pick(r, ['0.001', '0.01', '0.00000001', '1000', '5']);
  const rate = () => pick(r, ['15000', '20000.5', '29990', '31000', '0.00000001', '100000']);
  const t = (path: string, signed: boolean, params: [string, string][] = []): Template => ({ path, params, signed });
  return [
    t('/public/getmarkets', false), t('/public/getcurrencies', false), t('/public/getticker', false, [['market', market()]]),
    t('/public/getmarketsummaries', false), t('/public/getmarketsummary', false, [['market', market()]]),
    t('/public/getorderbook', false, [['market', market()], ['type', pick(r, ['both', 'buy', 'sell', 'BOTH'])]]),
    t('/public/getmarkethistory', false, [['market', market()]]),
    t('/market/buylimit', true, [['market', market()], ['quantity', qty()], ['rate', rate()]]),
    t('/market/selllimit', true, [['market', market()], ['quantity', qty()], ['rate', rate()], ['timeInForce', pick(r, ['GTC', 'IOC', 'ioc'])]]),
    t('/market/cancel', true, [['uuid', id()]]), t('/market/getopenorders', true, chance(r, 0.5) ? [['market', market()]] : []),
    t('/account/getbalances', true), t('/account/getbalance', true, [['currency', pick(r, ['BTC', 'usd', 'NOPE', 'ETH'])]]),
    t('/account/getdepositaddress', true, [['currency', pick(r, ['BTC', 'ETH', 'USD', 'NOPE'])]]),
    t('/account/withdraw', true, [['currency', pick(r, ['BTC', 'USD'])], ['quantity', pick(r, ['0.01', '5', '100000'])], ['address', '1BoatSLRHtKNngkdXEeobR76b53LETtpyT']]),
    t('/account/getorder', true, [['uuid', id()]]), t('/account/getorderhistory', true, chance(r, 0.5) ? [['market', market()]] : []),
    t('/account/getwithdrawalhistory', true, chance(r, 0.5) ? [['currency', 'BTC']] : []),
    t('/account/getdeposithistory', true, chance(r, 0.5) ? [['currency', 'USD']] : []),
  ];
}

const enc = (s: string) => encodeURIComponent(s);

/** A fuzzed v1.1 request for `seed`'s generator `r`. */
export function v1FuzzRequest(r: Rand, w: V1FuzzWorld): V1FuzzRequest {
  const tpl = pick(r, templates(r, w));
  let path = `/api/v1.1${tpl.path}`;
  let method = 'GET';
  let params: [string, string][] = tpl.params.map(([k, v]) => [k, enc(v)]);
  const req: V1FuzzRequest = { method, path, query: '', signed: tpl.signed, postSign: {}, mutations: [tpl.path] };
  const n = chance(r, 0.15) ? 0 : int(r, 1, 3);
  for (let i = 0; i < n; i++) {
    const kind = int(r, 0, 13);
    switch (kind) {
      case 0:
        if (params.length > 0) {
          const k = int(r, 0, params.length - 1);
          req.mutations.push(`drop ${params[k]![0]}`);
          params.splice(k, 1);
        }
        break;
      case 1:
      case 2:
        if (params.length > 0) {
          const k = int(r, 0, params.length - 1);
          const v = ABSURD(r);
          // Mostly encoded; sometimes raw, as clients that sign unencoded values send them.
          params[k] = [params[k]![0], chance(r, 0.8) ? enc(v) : v.replace(/[^\x21-\x7e]|[&#]/g, '')];
          req.mutations.push(`${params[k]![0]}=${JSON.stringify(v.slice(0, 20))}${v.length > 20 ? `…(${v.length})` : ''}`);
        }
        break;
      case 3:
        params.push([pick(r, ['market', 'quantity', 'rate', 'uuid', 'currency']), enc(ABSURD(r))]);
        req.mutations.push('repeat a parameter');
        break;
      case 4: {
        const depth = int(r, 2, 200);
        params.push([`market${'[a]'.repeat(depth)}`, 'USD-BTC']);
        req.mutations.push(`nested key depth ${depth}`);
        break;
      }
      case 5:
        params.push([hex(r, int(r, 1, 40)), enc(ABSURD(r))]);
        req.mutations.push('unknown parameter');
        break;
      case 6:
        path = chance(r, 0.5) ? path.toUpperCase().replace('/API/V1.1', '/api/v1.1') : `${path}${pick(r, ['/', '/x', 'x', '/../getbalances', '%2f'])}`;
        req.mutations.push(`path ${path}`);
        break;
      case 7:
        path = pick(r, ['/api/v1.1', '/api/v1.1/', '/api/v1.1/public', '/api/v1.1/market/buy', '/api/v1.0/public/getmarkets', '/api/v1.1/account/withdrawal']);
        req.mutations.push(`path ${path}`);
        break;
      case 8:
        method = pick(r, ['POST', 'DELETE', 'PUT', 'HEAD', 'OPTIONS', 'PATCH']);
        req.mutations.push(`method ${method}`);
        break;
      case 9:
        req.postSign.apisign = chance(r, 0.5) ? null : pick(r, ['', 'zz', hex(r, 128), 'x'.repeat(5000)]);
        req.mutations.push(`apisign ${req.postSign.apisign === null ? 'removed' : 'replaced'}`);
        break;
      case 10:
        req.postSign.appendQuery = `&${pick(r, ['market', 'quantity', 'x'])}=${enc(ABSURD(r))}`;
        req.mutations.push('query changed after signing');
        break;
      case 11:
        req.postSign.omit = pick(r, ['apikey', 'nonce'] as const);
        req.mutations.push(`omit ${req.postSign.omit}`);
        break;
      case 12:
        req.foreignKey = chance(r, 0.5) ? w.keeperApiKey : hex(r, 32);
        req.mutations.push('someone else\'s apikey');
        break;
      case 13:
        req.postSign.upperSign = true;
        req.mutations.push('apisign upper case (still valid)');
        break;
    }
  }
  req.method = method;
  req.path = path;
  req.query = params.map(([k, v]) => `${k}=${v}`).join('&');
  return req;
}
