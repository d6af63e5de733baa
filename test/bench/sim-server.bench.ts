/**
 * 'sim-orders-roundtrip': signed POST /orders round trips per second through the simulator's real server over
 * loopback, with the project's REST client (request building, HMAC signing, throttler, JSON decoding into exact
 * decimals) on one side and the full server pipeline (routing, body parsing, signature verification, call limit,
 * engine placement with matching and settlement, event fan-out to the hub bridge, wire encoding) on the other.
 *
 * A funded account alternates IMMEDIATE_OR_CANCEL buys and sells of 0.001 BTC crossing a participant's deep
 * resting quotes, so every order trades (executions, trades, candles, balance events) and the book never grows.
 * The client's throttler gets a huge budget so it never holds a call back; the server's call limit is off.
 * - `sim-orders-roundtrip`: one order in flight at a time (latency-bound), ~2 s, in rounds alternating with unsigned
 *   GET /ping round trips through the same client and server (the baseline; ratio = order cost vs a bare request);
 * - `sim-orders-roundtrip.c8`: eight in flight (throughput), ~1 s.
 */
import { createRestClient } from '../../src/bittrex/rest/client.js';
import { createThrottler } from '../../src/bittrex/rest/throttler.js';
import { systemClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import type { NewOrder } from '../../src/model/order.js';
import { createFundedAccount } from '../../src/server/control/control-api.js';
import { startSimServer } from '../../src/server/sim-server.js';
import { createSimEngine } from '../../src/sim/engine.js';
import type { Bench, Figure } from './harness.js';

const MARKET = 'BTC-USD';
const CONCURRENCY = 8;
/** Warm-up: this many calls at least (about where an order's cost stops falling), capped in time for slow machines. */
const WARM_CALLS = 3000;
const WARM_MAX_MS = 6000;

async function warm(fn: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  for (let i = 0; (i < WARM_CALLS || performance.now() - t0 < 300) && performance.now() - t0 < WARM_MAX_MS; i++) await fn();
}

async function roundtripBench(): Promise<Figure[]> {
  const engine = createSimEngine({ clock: systemClock });
  const sim = await startSimServer({ engine });
  const lp = engine.createParticipant({ BTC: dec('1000000'), USD: dec('1000000000000') });
  for (const [direction, limit] of [['SELL', '30010'], ['BUY', '29990']] as const) {
    engine.placeOrder(lp, { marketSymbol: MARKET, direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('500000'), limit: dec(limit) });
  }
  const acct = createFundedAccount(engine, { balances: { USD: '10000000000', BTC: '100000' } });
  const client = createRestClient({
    baseUrl: sim.restUrl,
    credentials: { apiKey: acct.apiKey, apiSecret: acct.apiSecret },
    throttler: createThrottler({ callsPerMinute: 1_000_000_000 }),
  });
  const orders: NewOrder[] = [
    { marketSymbol: MARKET, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.001'), limit: dec('30010') },
    { marketSymbol: MARKET, direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.001'), limit: dec('29990') },
  ];
  let n = 0;
  let unfilled = 0;
  const once = async () => {
    const o = await client.orders.create(orders[n++ & 1]!);
    if (!o.fillQuantity.eq(o.quantity!)) unfilled++;
  };
  try {
    // Alternating rounds against an unsigned GET /ping on the same server (the baseline: one bare round trip
    // through the same client and server), so load from other processes hits both sides alike.
    const ping = () => client.ping.get();
    // Warm both paths to steady state before measuring. A time-only warm-up (300 ms) left the order path (engine,
    // signing, body parsing: far more code than a ping) still being optimised while ping was long warm: per-order
    // cost kept falling for the first few thousand orders, so the figure measured JIT warm-up as much as orders,
    // and more so on a busy machine, where 300 ms holds fewer orders.
    await warm(once);
    await warm(ping);
    let orderOps = 0;
    let orderMs = 0;
    let pingOps = 0;
    let pingMs = 0;
    for (let round = 0; round < 4; round++) {
      for (const [fn, ms, add] of [
        [once, 500, (k: number, t: number) => ((orderOps += k), (orderMs += t))],
        [ping, 250, (k: number, t: number) => ((pingOps += k), (pingMs += t))],
      ] as const) {
        const t0 = performance.now();
        let k = 0;
        while (performance.now() - t0 < ms) {
          await fn();
          k++;
        }
        add(k, performance.now() - t0);
      }
    }
    const sequential = (orderOps * 1000) / orderMs;
    const baseline = (pingOps * 1000) / pingMs;
    let concurrent = 0;
    {
      const t0 = performance.now();
      let done = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (performance.now() - t0 < 1000) {
            await once();
            done++;
          }
        }),
      );
      concurrent = (done * 1000) / (performance.now() - t0);
    }
    // A bench that stopped trading would measure something else: fail loudly instead.
    if (unfilled > 0) throw new Error(`${unfilled} orders did not fill completely`);
    const bad = engine.ledger.audit().filter((a) => !a.discrepancy.isZero());
    if (bad.length) throw new Error(`ledger discrepancy in ${bad.map((a) => a.currency).join(', ')}`);
    return [
      {
        bench: 'sim-orders-roundtrip',
        value: sequential,
        unit: 'orders/s',
        baseline,
        ratio: sequential / baseline,
        note: `signed POST /orders over loopback, one in flight (baseline: GET /ping round trips), ${n} orders in all`,
      },
      { bench: 'sim-orders-roundtrip.c8', value: concurrent, unit: 'orders/s', note: `${CONCURRENCY} in flight` },
    ];
  } finally {
    await client.close();
    await sim.close();
    engine.dispose();
  }
}

export const benches: Bench[] = [{ name: 'sim-orders-roundtrip', run: roundtripBench }];
