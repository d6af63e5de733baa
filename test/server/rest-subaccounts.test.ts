/**
 * Sub-accounts, transfers and acting for a sub-account (Api-Subaccount-Id) through the real server with the
 * project's REST client: create/list/read sub-accounts page by page, move funds both ways with requestId
 * idempotency, list sent and received transfers, and trade, read and withdraw as the sub-account — while a
 * sub-account of another master answers 403.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestClient } from '../../src/bittrex/rest/client.js';
import { dec } from '../../src/core/decimal.js';
import type { Subaccount } from '../../src/model/subaccount.js';
import { apiError, type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

describe('REST sub-accounts and transfers end to end', () => {
  let fx: SimFixture;
  let master: TestAccount;
  let other: TestAccount;
  let sub: Subaccount;
  /** The master's key acting for `sub` by default. */
  let asSub: RestClient;

  beforeAll(async () => {
    fx = await startFixture();
    master = await fx.account({ USD: '10000', BTC: '1' });
    other = await fx.account({ USD: '10000' });
  });
  afterAll(async () => {
    await fx.close();
  });

  it('creates, lists page by page and reads sub-accounts', async () => {
    expect(await master.client.subaccounts.list()).toEqual([]);
    const made: Subaccount[] = [];
    for (let i = 0; i < 5; i++) {
      await fx.advance(1000);
      made.push(await master.client.subaccounts.create());
    }
    sub = made[0]!;
    asSub = fx.client({ apiKey: master.apiKey, apiSecret: master.apiSecret }, { subaccountId: sub.id });
    expect(sub.createdAt.getTime()).toBe(made[1]!.createdAt.getTime() - 1000);
    const newestFirst = made.map((s) => s.id).reverse();
    expect((await master.client.subaccounts.list()).map((s) => s.id)).toEqual(newestFirst);
    const walked: string[] = [];
    for await (const s of master.client.subaccounts.iterate({}, { pageSize: 2 })) walked.push(s.id);
    expect(walked).toEqual(newestFirst);
    expect(await master.client.subaccounts.get(sub.id)).toEqual(sub);
    await apiError(other.client.subaccounts.get(sub.id), 404, 'SUBACCOUNT_NOT_FOUND');
    expect(await other.client.subaccounts.list()).toEqual([]);
  });

  it('moves funds master -> sub and back, with requestId idempotency, and lists both sides', async () => {
    const requestId = randomUUID();
    const sent = await master.client.transfers.create({ toSubaccountId: sub.id, currencySymbol: 'USD', amount: dec('2500'), requestId });
    expect(sent).toMatchObject({ toSubaccountId: sub.id, currencySymbol: 'USD', requestId });
    expect(sent.amount.toString()).toBe('2500');
    const dup = await apiError(master.client.transfers.create({ toSubaccountId: sub.id, currencySymbol: 'USD', amount: dec('1'), requestId }), 409, 'REQUESTID_ALREADY_EXISTS');
    expect(dup.data).toEqual({ existingTransferId: sent.id });
    await apiError(master.client.transfers.create({ toSubaccountId: sub.id, currencySymbol: 'USD', amount: dec('99999') }), 409, 'INSUFFICIENT_FUNDS');
    const foreign = await other.client.subaccounts.create();
    await apiError(master.client.transfers.create({ toSubaccountId: foreign.id, currencySymbol: 'USD', amount: dec('1') }), 404, 'SUBACCOUNT_NOT_FOUND');

    expect((await master.client.balances.get('USD')).total.toString()).toBe('7500');
    expect((await asSub.balances.get('USD')).total.toString()).toBe('2500');

    await fx.advance(1000);
    const back = await asSub.transfers.create({ toMasterAccount: true, currencySymbol: 'USD', amount: dec('500') });
    expect(back.toMasterAccount).toBe(true);
    await fx.advance(1000);
    const btc = await master.client.transfers.create({ toSubaccountId: sub.id, currencySymbol: 'BTC', amount: dec('0.25') });

    expect((await master.client.transfers.listSent()).map((t) => t.id)).toEqual([btc.id, sent.id]);
    expect((await master.client.transfers.listSent({ currencySymbol: 'BTC' })).map((t) => t.id)).toEqual([btc.id]);
    const walked: string[] = [];
    for await (const t of master.client.transfers.iterateSent({ toSubaccountId: sub.id }, { pageSize: 1 })) walked.push(t.id);
    expect(walked).toEqual([btc.id, sent.id]);

    const received = await asSub.transfers.listReceived();
    expect(received.map((t) => [t.id, t.fromMasterAccount])).toEqual([[btc.id, true], [sent.id, true]]);
    expect((await asSub.transfers.listSent()).map((t) => t.id)).toEqual([back.id]);
    const masterGot = await master.client.transfers.listReceived({ fromSubaccountId: sub.id });
    expect(masterGot.map((t) => t.id)).toEqual([back.id]);
    expect((await master.client.transfers.get(sent.id)).id).toBe(sent.id);
    expect((await asSub.transfers.get(sent.id)).id).toBe(sent.id);
    await apiError(other.client.transfers.get(sent.id), 404, 'NOT_FOUND');

    expect((await master.client.balances.get('USD')).total.toString()).toBe('8000');
    expect((await asSub.balances.list()).data.map((b) => [b.currencySymbol, b.total.toString()])).toEqual([['BTC', '0.25'], ['USD', '2000']]);
  });

  it('acts for the sub-account with Api-Subaccount-Id: account, orders, executions, withdrawals', async () => {
    expect(await asSub.account.get()).toEqual({ subaccountId: sub.id });
    // Per-call override back to the master.
    expect(await asSub.account.get({ subaccountId: null })).toEqual({ accountId: master.accountId });
    expect(await master.client.account.get({ subaccountId: sub.id })).toEqual({ subaccountId: sub.id });

    const o = await asSub.orders.create({ marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.05'), limit: dec('30000') });
    expect((await asSub.orders.listOpen()).data.map((x) => x.id)).toEqual([o.id]);
    expect((await master.client.orders.listOpen()).data).toEqual([]);
    await apiError(master.client.orders.get(o.id), 404, 'NOT_FOUND');
    await other.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.05'), limit: dec('30000') });
    const execs = await asSub.executions.list();
    expect(execs.map((x) => x.orderId)).toEqual([o.id]);
    expect(await master.client.executions.list()).toEqual([]);
    expect((await asSub.balances.get('USD')).total.toString()).toBe(dec(2000).plus(1500).minus('5.25').toString());

    const w = await asSub.withdrawals.create({ currencySymbol: 'BTC', quantity: dec('0.1'), cryptoAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' });
    expect((await asSub.withdrawals.listOpen()).map((x) => x.id)).toEqual([w.id]);
    expect(await master.client.withdrawals.listOpen()).toEqual([]);
    await asSub.withdrawals.cancel(w.id);
  });

  it('refuses a sub-account the key does not manage with 403, and changes nothing', async () => {
    const foreign = await other.client.subaccounts.create();
    const before = await master.client.balances.list();
    await apiError(master.client.balances.list({ subaccountId: foreign.id }), 403, 'FORBIDDEN');
    await apiError(master.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('20000') }, { subaccountId: foreign.id }), 403, 'FORBIDDEN');
    await apiError(master.client.transfers.create({ toMasterAccount: true, currencySymbol: 'USD', amount: dec('1') }, { subaccountId: foreign.id }), 403, 'FORBIDDEN');
    // A sub-account id of nobody at all is refused alike.
    await apiError(master.client.account.get({ subaccountId: randomUUID() }), 403, 'FORBIDDEN');
    expect(await master.client.balances.list()).toEqual(before);
    expect((await other.client.balances.get('USD', { subaccountId: foreign.id })).total.toString()).toBe('0');
    // A sub-account cannot have sub-accounts.
    await apiError(asSub.subaccounts.create(), 403, 'SUBACCOUNT_OF_SUBACCOUNT_NOT_ALLOWED');
  });
});
