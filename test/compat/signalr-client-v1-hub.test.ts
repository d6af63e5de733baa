/**
 * `signalr-client` 0.0.17 — the classic SignalR client node-bittrex-api 0.8.3 pinned for its websocket API — used
 * against the simulator's v1.1 hub exactly as node-bittrex-api and the bots of the time used it, unchanged except
 * the URL: hub `c2`, `client.on('c2', 'uE', …)`, `client.call('c2', 'SubscribeToExchangeDeltas', market)`,
 * payloads inflated with node's zlib (inflateRaw of the base64) and JSON.parse, then the signed-challenge
 * authentication and the uO callback.
 *
 * WIRE notes, where this client and the official document disagree, and what the simulator does:
 * - The client lower-cases hub and method names before looking up handlers (`mesg.H.toLowerCase()`), so the
 *   server's `"H":"C2"` (what the 2021 captures show) reaches `on('c2', …)`; the simulator sends `C2` as the
 *   original did.
 * - The client numbers calls from 1 and parses replies with `+parsed.I`: the simulator answers ids as strings
 *   (`"I":"1"`), as the classic server did, which that parse accepts.
 * - The client never calls /start before its first invocation returns on some paths; the simulator serves
 *   invocations as soon as the socket is open (WIRE.md, "Hub").
 * - node-bittrex-api 0.8.3 itself cannot be pointed here unchanged for its websocket part: before connecting it
 *   fetches https://bittrex.com/ through cloudscraper (no option turns that off), and it defaults to the pre-2018
 *   hub name `CoreHub` (option `websockets_hubs`). So its hub client is driven here the way node-bittrex-api drives
 *   it; node-bittrex-api's REST part is tested unchanged elsewhere (test/compat/).
 * - bittrex-signalr-client 1.1.10, the other v1.1 hub client of the time, hard-codes `https://bittrex.com/signalr`
 *   (`BASE_PATH` in lib/connection.js, no option), so no URL can point it elsewhere. Its negotiate sends
 *   `transport=serverSentEvents` before connecting over WebSockets; the simulator's negotiate ignores `transport`,
 *   as the classic server did (it only matters on /connect).
 * - The document types QuerySummaryState's result as `{Nonce, Fills:[…summaries]}`; on the wire it is `{N, s:[…]}`
 *   (`s` = Summaries in the document's own key table). The simulator sends `s`, which is what clients read.
 */
import { createRequire } from 'node:module';
import { inflateRawSync } from 'node:zlib';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { startFixture, type SimFixture, type TestAccount } from '../server/sim-fixture.js';

interface SignalRClient {
  serviceHandlers: Record<string, unknown>;
  on(hub: string, method: string, cb: (...args: unknown[]) => void): void;
  call(hub: string, method: string, ...args: unknown[]): { done(cb: (err: unknown, result: unknown) => void, timeoutMs?: number): void };
  end(): void;
}
const signalR = createRequire(import.meta.url)('signalr-client') as { client: new (url: string, hubs: string[]) => SignalRClient };

let fx: SimFixture;
let maker: TestAccount;
const clients: SignalRClient[] = [];
const disconnected: Promise<void>[] = [];

beforeAll(async () => {
  fx = await startFixture();
  maker = await fx.account({ USD: '1000000', BTC: '100' });
});
afterAll(async () => {
  // Each client's own close handshake first, so none sees the server vanish and starts retrying.
  for (const c of clients) c.end();
  await Promise.all(disconnected);
  // The client then POSTs /abort on its own schedule and console.logs it if the server is gone by then.
  const quiet = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  await fx.close();
  await new Promise((r) => setImmediate(r));
  quiet.mockRestore();
});

/** A connected client (the `connected` service handler fired). */
async function connect(): Promise<SignalRClient> {
  const client = new signalR.client(fx.sim.hubUrl, ['c2']);
  clients.push(client);
  let gone!: () => void;
  disconnected.push(new Promise<void>((r) => (gone = r)));
  await new Promise<void>((resolve, reject) => {
    client.serviceHandlers = {
      disconnected: () => gone(),
      connected: () => resolve(),
      connectFailed: (e: unknown) => reject(new Error(String(e))),
      onerror: (e: unknown) => reject(new Error(String(e))),
      // When the test server goes away at the end, do not retry (returning true cancels the client's retry).
      connectionLost: () => undefined,
      reconnecting: () => true,
    };
  });
  return client;
}

function call(client: SignalRClient, method: string, ...args: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => client.call('c2', method, ...args).done((err, result) => (err ? reject(new Error(String(err))) : resolve(result)), 10_000));
}

/** What node-bittrex-api did with a payload: base64 → zlib.inflateRaw → JSON.parse. */
const inflate = (payload: unknown) => JSON.parse(inflateRawSync(Buffer.from(payload as string, 'base64')).toString('utf8')) as Record<string, any>;

describe('signalr-client 0.0.17 (node-bittrex-api\'s hub client) against the simulator\'s v1.1 hub', () => {
  it('subscribes to exchange deltas, queries the state and follows the book by nonce', async () => {
    fx.engine.placeOrder(maker.accountId, { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('20000') });
    const client = await connect();
    const deltas: Record<string, any>[] = [];
    client.on('c2', 'uE', (payload) => deltas.push(inflate(payload)));
    expect(await call(client, 'SubscribeToExchangeDeltas', 'USD-BTC')).toBe(true);
    const state = inflate(await call(client, 'QueryExchangeState', 'USD-BTC'));
    expect(state.M).toBe('USD-BTC');
    expect(state.Z.map((l: { R: number }) => l.R)).toContain(20000);

    fx.engine.placeOrder(maker.accountId, { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.25'), limit: dec('20100') });
    await vi.waitFor(() => expect(deltas).toHaveLength(1));
    expect(deltas[0]).toMatchObject({ M: 'USD-BTC', N: state.N + 1, Z: [{ TY: 0, R: 20100, Q: 0.25 }], S: [], f: [] });
  });

  it('authenticates with GetAuthContext and the signed challenge, then receives uO', async () => {
    const client = await connect();
    const orders: Record<string, any>[] = [];
    client.on('c2', 'uO', (payload) => orders.push(inflate(payload)));
    const challenge = await call(client, 'GetAuthContext', maker.apiKey);
    expect(typeof challenge).toBe('string');
    const signed = createHmac('sha512', maker.apiSecret).update(challenge as string).digest('hex');
    expect(await call(client, 'Authenticate', maker.apiKey, signed)).toBe(true);
    const o = fx.engine.placeOrder(maker.accountId, { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('40000') });
    await vi.waitFor(() => expect(orders.some((m) => m.o?.OU === o.id)).toBe(true));
    expect(orders.find((m) => m.o?.OU === o.id)).toMatchObject({ w: maker.accountId, TY: 0, o: { E: 'USD-BTC', OT: 'LIMIT_SELL', Q: 0.1, q: 0.1, X: 40000, i: true } });
  });

  it('gets every market in QuerySummaryState', async () => {
    const client = await connect();
    const summary = inflate(await call(client, 'QuerySummaryState'));
    expect(summary.s.map((s: { M: string }) => s.M)).toContain('USD-BTC');
  });
});
