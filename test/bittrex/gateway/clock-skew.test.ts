/**
 * A bot whose machine clock is 10 minutes behind the venue's (a VM after suspend, no NTP), against the real
 * simulator server on the system clock: the first signed request is refused with 401 INVALID_TIMESTAMP, the client
 * measures the venue's clock with GET /ping, warns once and sends the request again on the venue's time; later
 * requests need no retry, a placement made under the skew places exactly one order, and the gateway's hub signs
 * Authenticate with the same corrected time.
 */
import { randomUUID } from 'node:crypto';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBittrexGateway } from '../../../src/bittrex/gateway.js';
import { createRestClient, type RestClient } from '../../../src/bittrex/rest/client.js';
import { createThrottler } from '../../../src/bittrex/rest/throttler.js';
import { type Clock, systemClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { ApiError } from '../../../src/core/errors.js';
import { createFundedAccount } from '../../../src/server/control/control-api.js';
import { startSimServer, type SimServer } from '../../../src/server/sim-server.js';
import { createSimEngine, type SimEngine } from '../../../src/sim/engine.js';

const TEN_MINUTES = 10 * 60_000;

/** The system clock's timers, with `now()` `behindMs` behind (changeable while the test runs). */
function skewedClock(behindMs: number): Clock & { behindMs: number } {
  return {
    behindMs,
    now() {
      return Date.now() - this.behindMs;
    },
    setTimeout: (fn, ms) => systemClock.setTimeout(fn, ms),
    setInterval: (fn, ms) => systemClock.setInterval(fn, ms),
    sleep: (ms) => systemClock.sleep(ms),
  };
}

/** A logger recording every request (debug) and warning. */
function recordingLogger(onWarn?: (msg: string) => void) {
  const requests: { method: string; path: string; status: number }[] = [];
  const warnings: string[] = [];
  return {
    requests,
    warnings,
    pings: () => requests.filter((r) => r.path === '/v3/ping').length,
    refused: () => requests.filter((r) => r.status === 401).length,
    debug(obj: Record<string, unknown>) {
      if (typeof obj.status === 'number') requests.push({ method: String(obj.method), path: String(obj.path), status: obj.status });
    },
    info() {},
    warn(_obj: object, msg?: string) {
      warnings.push(msg ?? '');
      onWarn?.(msg ?? '');
    },
  };
}

const BEHIND = /this machine's clock is (\d+) s behind the venue's; signing with the venue's time/;

let engine: SimEngine;
let sim: SimServer;
let me: { accountId: string; apiKey: string; apiSecret: string };
const clients: RestClient[] = [];

function client(clock: Clock, logger: ReturnType<typeof recordingLogger>): RestClient {
  const c = createRestClient({
    baseUrl: sim.restUrl,
    credentials: { apiKey: me.apiKey, apiSecret: me.apiSecret },
    clock,
    logger,
    throttler: createThrottler({ callsPerMinute: 100_000 }),
  });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  engine = createSimEngine({ clock: systemClock });
  sim = await startSimServer({ engine });
  me = createFundedAccount(engine, { balances: { USD: '100000', BTC: '2' } });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sim.close();
  engine.dispose();
});

describe('a REST client whose clock is 10 minutes behind the venue', () => {
  it('is corrected once by GET /ping, warns once, and later requests need no retry', async () => {
    const log = recordingLogger();
    const c = client(skewedClock(TEN_MINUTES), log);

    const balances = await c.balances.list();
    expect(balances.data.map((b) => b.currencySymbol)).toContain('USD');
    expect(log.refused()).toBe(1);
    expect(log.pings()).toBe(1);
    expect(log.warnings.filter((w) => BEHIND.test(w))).toHaveLength(1);
    const seconds = Number(BEHIND.exec(log.warnings.find((w) => BEHIND.test(w))!)![1]);
    expect(seconds).toBeGreaterThanOrEqual(598);
    expect(seconds).toBeLessThanOrEqual(602);

    await c.balances.list();
    await c.orders.listOpen();
    await Promise.all([c.balances.list(), c.balances.list(), c.orders.listOpen()]);
    expect(log.refused()).toBe(1);
    expect(log.pings()).toBe(1);
    expect(log.warnings.filter((w) => BEHIND.test(w))).toHaveLength(1);
  });

  it('places exactly one order when the placement itself is the refused request', async () => {
    const log = recordingLogger();
    const c = client(skewedClock(TEN_MINUTES), log);
    const clientOrderId = randomUUID();

    const placed = await c.orders.create({
      marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED',
      quantity: dec('0.01'), limit: dec('20000'), clientOrderId,
    });
    expect(placed).toMatchObject({ status: 'OPEN', clientOrderId });
    expect(log.requests.filter((r) => r.method === 'POST' && r.status === 401)).toHaveLength(1);
    expect(log.pings()).toBe(1);
    const open = engine.openOrders(me.accountId).data.filter((o) => o.clientOrderId === clientOrderId);
    expect(open).toHaveLength(1);
    expect(open[0]!.id).toBe(placed.id);
  });

  it('a refusal after correcting says the clock is off and by how much', async () => {
    // The clock falls another 10 minutes behind right after the measurement: the retry is refused too.
    const clock = skewedClock(TEN_MINUTES);
    const log = recordingLogger((msg) => {
      if (BEHIND.test(msg)) clock.behindMs += TEN_MINUTES;
    });
    const c = client(clock, log);

    const err = await c.balances.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('INVALID_TIMESTAMP');
    expect((err as ApiError).message).toMatch(/refused Api-Timestamp again .*this machine's clock is 60\d s behind the venue's/);
    expect(log.refused()).toBe(2);
    expect(log.pings()).toBe(1);
  });
});

/** A gateway to the simulator whose clock is 10 minutes behind it, logging to `log`. */
function skewedGateway(log: ReturnType<typeof recordingLogger>) {
  return createBittrexGateway({
    restUrl: sim.restUrl, hubUrl: sim.hubUrl, transport: 'classic',
    credentials: { apiKey: me.apiKey, apiSecret: me.apiSecret },
    clock: skewedClock(TEN_MINUTES), logger: log,
    throttler: createThrottler({ callsPerMinute: 100_000 }),
  });
}

describe('a gateway whose clock is 10 minutes behind the venue', () => {
  it('signs the hub Authenticate with the time a REST refusal measured', async () => {
    const log = recordingLogger();
    const gateway = skewedGateway(log);
    try {
      await gateway.balances();
      expect(log.pings()).toBe(1);
      await gateway.streams.subscribe(['balance']);
      expect((await firstValueFrom(gateway.hub.status$)).state).toBe('authenticated');
      // The hub needed no second measurement: it signed with the REST client's correction.
      expect(log.pings()).toBe(1);
      expect(log.warnings.filter((w) => BEHIND.test(w))).toHaveLength(1);
    } finally {
      await gateway.close();
    }
  });

  it('measures the venue clock when the hub is refused first', async () => {
    const log = recordingLogger();
    const gateway = skewedGateway(log);
    try {
      await gateway.streams.subscribe(['order']);
      expect((await firstValueFrom(gateway.hub.status$)).state).toBe('authenticated');
      expect(log.pings()).toBe(1);
      expect(log.warnings.filter((w) => BEHIND.test(w))).toHaveLength(1);
      // ... and REST then signs with that correction from the start.
      await gateway.balances();
      expect(log.refused()).toBe(0);
      expect(log.pings()).toBe(1);
    } finally {
      await gateway.close();
    }
  });
});
