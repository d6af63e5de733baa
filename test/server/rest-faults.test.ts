/**
 * Faults and limits of the real server, set through the control API, as the project's REST client sees them:
 * delayed answers (virtual time), dropped connections (NetworkError, nothing applied), injected 5xx, 429 storms
 * (reads retried through the throttler succeed, placements fail THROTTLED), "accepted but response lost" (the
 * order exists; retrying its clientOrderId answers 409 with the existing id), and the per-key call limit with
 * Retry-After. The control API refuses a wrong token and is never faulted itself.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RestClient } from '../../src/bittrex/rest/client.js';
import { dec } from '../../src/core/decimal.js';
import { NetworkError } from '../../src/core/errors.js';
import type { NewOrder } from '../../src/model/order.js';
import { apiError, selfAdvancingClock, type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

const BUY: NewOrder = { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('20000') };

/** Let the event loop turn until `cond` holds (a condition, not a duration: no timing is asserted). */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; !cond(); i++) {
    if (i > 10_000) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('REST faults and limits end to end', () => {
  let fx: SimFixture;
  let me: TestAccount;
  /** The same key on a client whose throttler waits in self-advancing virtual time. */
  let patient: RestClient;

  const faults = async (settings: Record<string, unknown>) => {
    const r = await fx.control('POST', '/faults/rest', settings);
    expect(r.status, r.text).toBe(200);
  };

  beforeAll(async () => {
    fx = await startFixture();
    me = await fx.account({ USD: '100000' });
    patient = fx.client(me, { clock: selfAdvancingClock(fx.clock) });
  });
  afterEach(async () => {
    await faults({});
    expect((await fx.control('POST', '/rate-limit', { callsPerMinute: 0 })).status).toBe(200);
  });
  afterAll(async () => {
    await fx.close();
  });

  it('refuses the control API without the right token, and changes nothing', async () => {
    for (const token of [null, 'wrong', `${fx.sim.controlToken}x`]) {
      const r = await fx.control('POST', '/accounts', { balances: { BTC: '1000' } }, token);
      expect({ status: r.status, code: r.json.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
      expect((await fx.control('POST', '/faults/rest', { dropRate: 1 }, token)).status).toBe(401);
      expect((await fx.control('POST', '/clock/advance', { ms: 1000 }, token)).status).toBe(401);
    }
    expect(fx.sim.restFaults.get()).toEqual({});
    expect((await fx.control('GET', '/audit')).json.find((a: { currency: string }) => a.currency === 'BTC')).toBeUndefined();
    expect((await fx.control('POST', '/rate-limit', { callsPerMinute: -1 })).status).toBe(400);
    expect((await fx.control('POST', '/clock/advance', { ms: 'soon' })).status).toBe(400);
  });

  it('refuses control requests that would silently do nothing or something absurd', async () => {
    const audit = JSON.stringify((await fx.control('GET', '/audit')).json);
    const refused: Array<[string, string, unknown]> = [
      ['POST', '/deposits', { accountId: 'no-such-account', currencySymbol: 'BTC', quantity: '1' }],
      ['POST', '/deposits', { accountId: me.accountId, currencySymbol: 'BTC', quantity: '1e400' }],
      ['POST', '/deposits', { accountId: me.accountId, currencySymbol: 'BTC', quantity: '0.000000000000000000000000000001' }],
      ['POST', '/deposits', { accountId: me.accountId, currencySymbol: 'BTC', quantity: '-1' }],
      ['POST', '/accounts', { balances: { BTC: '1e400' } }],
      ['POST', '/accounts/no-such-account/allowed-addresses', { currencySymbol: 'BTC', cryptoAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' }],
      ['POST', '/faults/rest', { droprate: 1 }],
      ['POST', '/faults/rest', { dropRate: 'lots' }],
      ['POST', '/faults/rest', { errorRate: 2 }],
      ['POST', '/faults/rest', { delayMs: -5 }],
      ['POST', '/faults/rest', { errorStatus: 200, errorRate: 1 }],
    ];
    for (const [method, path, body] of refused) {
      const r = await fx.control(method, path, body);
      expect({ status: r.status, code: r.json.code }, `${path} ${JSON.stringify(body)}`).toEqual({ status: 400, code: 'BAD_REQUEST' });
    }
    expect(JSON.stringify((await fx.control('GET', '/audit')).json)).toBe(audit);
    expect(fx.sim.restFaults.get()).toEqual({});
    expect(await me.client.withdrawals.allowedAddresses()).toEqual([]);
  });

  it('answers late by the configured delay of virtual time', async () => {
    await faults({ delayMs: 5000, path: '/balances' });
    const timers = fx.clock.pendingTimers;
    let settled = false;
    const late = me.client.balances.list().finally(() => (settled = true));
    await until(() => fx.clock.pendingTimers > timers);
    // Other paths are not delayed, and the control API never is.
    expect((await me.client.ping.get()).serverTime).toBeGreaterThan(0);
    await fx.advance(4999);
    await me.client.ping.get();
    expect(settled).toBe(false);
    await fx.advance(1);
    const list = await late;
    expect(list.data.map((b) => b.currencySymbol)).toEqual(['USD']);
  });

  it('drops connections: the client sees a NetworkError and nothing was applied', async () => {
    await faults({ dropRate: 1, path: '/orders' });
    const err = await me.client.orders.create(BUY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).mayHaveReachedServer).toBe(true);
    await expect(me.client.orders.listOpen()).rejects.toBeInstanceOf(NetworkError);
    // The control API is never faulted: clearing works while everything under /orders drops.
    await faults({ dropRate: 1 });
    await expect(me.client.balances.list()).rejects.toBeInstanceOf(NetworkError);
    await faults({});
    expect((await me.client.orders.listOpen()).data).toEqual([]);
    expect((await me.client.balances.get('USD')).available.toString()).toBe('100000');
  });

  it('injects 5xx answers before processing', async () => {
    await faults({ errorRate: 1, path: '/orders' });
    await apiError(me.client.orders.create(BUY), 503, 'SERVICE_UNAVAILABLE');
    await faults({ errorRate: 1, errorStatus: 500 });
    await apiError(me.client.balances.list(), 500, 'INTERNAL_ERROR');
    await apiError(me.client.markets.get('BTC-USD'), 500, 'INTERNAL_ERROR');
    // A 501 carries a 501-style code (seed section 7: service not implemented).
    await faults({ errorRate: 1, errorStatus: 501 });
    await apiError(me.client.markets.get('BTC-USD'), 501, 'NOT_IMPLEMENTED');
    await faults({});
    expect((await me.client.orders.listOpen()).data).toEqual([]);
  });

  it('storms 429: reads are retried through the throttler and succeed, a placement fails THROTTLED', async () => {
    await faults({ throttleStorm: 3 });
    const list = await patient.balances.list();
    expect(list.data).toHaveLength(1);
    expect(fx.sim.restFaults.get().throttleStorm).toBe(0);
    expect(patient.throttler.stats().totals.throttled).toBe(3);

    await faults({ throttleStorm: 1 });
    const e = await apiError(patient.orders.create(BUY), 429, 'THROTTLED');
    expect(e.retryAfterMs).toBe(1000);
    expect((await patient.orders.listOpen()).data).toEqual([]);
  });

  it('loses the response of an accepted order: it exists, and retrying its clientOrderId answers 409 with its id', async () => {
    await faults({ loseResponses: 1, path: '/orders', method: 'POST' });
    const clientOrderId = randomUUID();
    const err = await me.client.orders.create({ ...BUY, clientOrderId }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).mayHaveReachedServer).toBe(true);

    // Reads are not affected (the fault names POST), and the order is there.
    const open = await me.client.orders.listOpen();
    expect(open.data).toHaveLength(1);
    const placed = open.data[0]!;
    expect(placed.clientOrderId).toBe(clientOrderId);
    expect((await me.client.balances.get('USD')).available.toString()).toBe(dec('100000').minus(dec('200').times('1.0035')).toString());

    const dup = await apiError(me.client.orders.create({ ...BUY, clientOrderId }), 409, 'CLIENTORDERID_ALREADY_EXISTS');
    expect(dup.data).toEqual({ existingOrderId: placed.id });
    expect((await me.client.orders.listOpen()).data.map((o) => o.id)).toEqual([placed.id]);
    await me.client.orders.cancel(placed.id);
  });

  it('loses the response of an accepted withdrawal and transfer: their idempotency keys answer 409 with the existing ids', async () => {
    const acct = await fx.account({ BTC: '2' });
    await faults({ loseResponses: 1, path: '/withdrawals', method: 'POST' });
    const clientWithdrawalId = randomUUID();
    const w = { currencySymbol: 'BTC', quantity: dec('0.5'), cryptoAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', clientWithdrawalId };
    await expect(acct.client.withdrawals.create(w)).rejects.toBeInstanceOf(NetworkError);
    const open = await acct.client.withdrawals.listOpen();
    expect(open.map((x) => x.clientWithdrawalId)).toEqual([clientWithdrawalId]);
    const e = await apiError(acct.client.withdrawals.create(w), 409, 'CLIENTWITHDRAWALID_ALREADY_EXISTS');
    expect(e.data).toEqual({ existingWithdrawalId: open[0]!.id });

    const sub = await acct.client.subaccounts.create();
    await faults({ loseResponses: 1, path: '/transfers', method: 'POST' });
    const t = { toSubaccountId: sub.id, currencySymbol: 'BTC', amount: dec('0.25'), requestId: randomUUID() };
    await expect(acct.client.transfers.create(t)).rejects.toBeInstanceOf(NetworkError);
    const sent = await acct.client.transfers.listSent();
    expect(sent.map((x) => x.requestId)).toEqual([t.requestId]);
    const e2 = await apiError(acct.client.transfers.create(t), 409, 'REQUESTID_ALREADY_EXISTS');
    expect(e2.data).toEqual({ existingTransferId: sent[0]!.id });
    expect((await acct.client.balances.get('BTC')).total.toString()).toBe('1.75');
  });

  it('limits calls per key and minute: 429 THROTTLED with Retry-After until the next minute', async () => {
    // Start at a known second of a fresh minute.
    await fx.advance(60_000 - (fx.clock.now() % 60_000) + 15_000);
    expect((await fx.control('POST', '/rate-limit', { callsPerMinute: 3 })).status).toBe(200);
    const other = await fx.account({ USD: '1' });
    for (let i = 0; i < 3; i++) expect((await fx.signed(me, 'GET', '/balances')).status).toBe(200);
    const over = await fx.signed(me, 'GET', '/balances');
    expect({ status: over.status, code: over.json.code, retryAfter: over.headers['retry-after'] }).toEqual({ status: 429, code: 'THROTTLED', retryAfter: '45' });
    const e = await apiError(me.client.orders.create(BUY), 429, 'THROTTLED');
    expect(e.retryAfterMs).toBe(45_000);
    // The key spelled in another case is the same key, with the same spent budget.
    expect((await fx.signed(me, 'GET', '/balances', { headers: { 'Api-Key': me.apiKey.toUpperCase() } })).status).toBe(429);
    // Another key has its own budget.
    expect((await fx.signed(other, 'GET', '/balances')).status).toBe(200);
    // A read through the throttler waits for the next minute and then gets through.
    const late = await patient.balances.list();
    expect(late.data).toHaveLength(1);
    expect(fx.clock.now() % 60_000).toBeLessThan(15_000);
    expect((await me.client.orders.listOpen()).data).toEqual([]);
  });
});
