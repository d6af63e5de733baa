/**
 * REST client overhead and wire-decimal parsing.
 *
 * - `rest-client`: requests/s of `client.ping.get()` against a trivial local node:http server with 32 requests in
 *   flight, and, in the same run, bare undici request loops at the same concurrency (the baseline). The ratio is
 *   what the client's throttler, request building, error mapping and decoding cost; the target is >= 0.8.
 * - `decimal-parse`: ms to turn one real 500/500-level order book snapshot body (test/fixtures) into exact
 *   decimals through `decodeOrderBook`, JSON.parse included.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { createRestClient } from '../../src/bittrex/rest/client.js';
import { createThrottler } from '../../src/bittrex/rest/throttler.js';
import { decodeOrderBook } from '../../src/model/market.js';
import { repoPath } from '../helpers/shared.js';
import { type Bench, opsPerSecondSync } from './harness.js';

const CONCURRENCY = 32;
const ROUND_MS = 400;
const ROUNDS = 5; // alternating rounds, ~2 s per side, so drift (GC, other load) hits every side alike

async function startPingServer(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/v3/ping') {
      const body = JSON.stringify({ serverTime: Math.floor(Date.now() / 1000) * 1000 });
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    } else {
      res.writeHead(404).end();
    }
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Runs `CONCURRENCY` loops of `once` for `ms` and returns how many completed. */
async function saturate(once: () => Promise<unknown>, ms: number): Promise<number> {
  const end = performance.now() + ms;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      await once();
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return done;
}

async function restClientBench() {
  const { server, base } = await startPingServer();
  const agentA = new Agent({ keepAliveTimeout: 30_000 });
  const agentB = new Agent({ keepAliveTimeout: 30_000 });
  const url = `${base}/v3/ping`;
  const client = createRestClient({ baseUrl: `${base}/v3`, throttler: createThrottler({ callsPerMinute: 1_000_000_000 }) });
  // Two bare forms: undici's top-level request(url) and Dispatcher.request({ origin, path }) (what the client
  // uses). The baseline is the faster of the two, so the ratio never flatters the client.
  const sides: Record<string, { once: () => Promise<unknown>; count: number; ms: number }> = {
    bareUrl: { once: async () => (await request(url, { dispatcher: agentA })).body.json(), count: 0, ms: 0 },
    bareDispatcher: {
      once: async () => JSON.parse(await (await agentB.request({ origin: base, path: '/v3/ping', method: 'GET' })).body.text()),
      count: 0,
      ms: 0,
    },
    client: { once: () => client.ping.get(), count: 0, ms: 0 },
  };
  try {
    for (const side of Object.values(sides)) await saturate(side.once, 200); // warm-up: connections, JIT
    for (let i = 0; i < ROUNDS; i++) {
      for (const side of Object.values(sides)) {
        const t = performance.now();
        side.count += await saturate(side.once, ROUND_MS);
        side.ms += performance.now() - t;
      }
    }
    const rate = (k: string) => (sides[k]!.count * 1000) / sides[k]!.ms;
    const baseline = Math.max(rate('bareUrl'), rate('bareDispatcher'));
    const value = rate('client');
    return [
      {
        bench: 'rest-client-requests',
        value,
        unit: 'requests/s',
        baseline,
        ratio: value / baseline,
        note:
          `client.ping.get() vs bare undici (best of request(url) ${Math.round(rate('bareUrl'))}/s and ` +
          `Dispatcher.request ${Math.round(rate('bareDispatcher'))}/s), ${CONCURRENCY} in flight; target ratio >= 0.8`,
      },
    ];
  } finally {
    await client.close();
    await agentA.close();
    await agentB.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

function decimalParseBench() {
  const snapshot = JSON.parse(readFileSync(repoPath('test/fixtures/orderbook-btc-eur-500.json'), 'utf8')) as { bid: unknown[]; ask: unknown[] };
  // The body exactly as GET /v3/markets/BTC-EUR/orderbook?depth=500 answered it.
  const body = JSON.stringify({ bid: snapshot.bid, ask: snapshot.ask });
  const where = 'GET /v3/markets/BTC-EUR/orderbook';
  const book = decodeOrderBook(JSON.parse(body), '', where);
  if (book.bid.length !== 500 || book.ask.length !== 500) throw new Error('fixture is not a 500/500-level book');
  const full = opsPerSecondSync(() => decodeOrderBook(JSON.parse(body), '', where), { minMs: 1000, batch: 5 });
  const jsonOnly = opsPerSecondSync(() => JSON.parse(body), { minMs: 500, batch: 5 });
  return [
    { bench: 'decimal-parse', value: 1000 / full, unit: 'ms/snapshot', note: 'JSON.parse + decodeOrderBook: 1,000 levels, 2,000 decimal strings -> Decimal' },
    { bench: 'decimal-parse-json-only', value: 1000 / jsonOnly, unit: 'ms/snapshot', note: 'JSON.parse alone, for scale' },
  ];
}

export const benches: Bench[] = [
  { name: 'rest-client', run: restClientBench },
  { name: 'decimal-parse', run: async () => decimalParseBench() },
];
