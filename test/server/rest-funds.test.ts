/**
 * Account and wallet endpoints through the real server with the project's REST client: account, volume, fees
 * and permissions; balances with HEAD; deposit addresses (REQUESTED, then PROVISIONED after the provision delay);
 * deposits credited through the control API (open with Sequence, closed page by page, by id, by txId);
 * withdrawals through their whole lifecycle and cancelled; allowed addresses on both paths.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { Deposit } from '../../src/model/wallet.js';
import { apiError, type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

const BTC_ADDR = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';

describe('REST account and wallet end to end', () => {
  let fx: SimFixture;
  let me: TestAccount;

  beforeAll(async () => {
    fx = await startFixture();
    me = await fx.account({ USD: '50000', BTC: '2', ETH: '10' });
  });
  afterAll(async () => {
    await fx.close();
  });

  it('reads the account, its volume, fees and permissions', async () => {
    expect(await me.client.account.get()).toEqual({ accountId: me.accountId });
    expect((await me.client.account.volume()).volume30days.isZero()).toBe(true);

    const maker = await fx.account({ BTC: '1' });
    await maker.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('30000') });
    await me.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'MARKET', timeInForce: 'FILL_OR_KILL', quantity: dec('0.1') });
    const vol = await me.client.account.volume();
    expect(vol.volume30days.toString()).toBe('3000');
    expect(vol.updated.getTime()).toBe(fx.clock.now());

    const fees = await me.client.account.tradingFees();
    expect(fees.map((f) => f.marketSymbol)).toContain('ETH-BTC');
    const fee = await me.client.account.tradingFee('BTC-USD');
    expect({ maker: fee.makerRate.toString(), taker: fee.takerRate.toString() }).toEqual({ maker: '0.0035', taker: '0.0035' });
    await apiError(me.client.account.tradingFee('NOPE-USD'), 404, 'MARKET_DOES_NOT_EXIST');

    const mkts = await me.client.account.marketPermissions();
    expect(mkts.find((p) => p.symbol === 'BTC-USD')).toEqual({ symbol: 'BTC-USD', view: true, buy: true, sell: true });
    expect(await me.client.account.marketPermission('ETH-BTC')).toMatchObject({ symbol: 'ETH-BTC', buy: true });
    const curs = await me.client.account.currencyPermissions();
    expect(curs.map((p) => p.symbol)).toEqual(expect.arrayContaining(['BTC', 'USD', 'XRP']));
    const btc = await me.client.account.currencyPermission('BTC');
    expect(btc).toMatchObject({ symbol: 'BTC', view: true, deposit: { blockchain: true }, withdraw: { blockchain: true } });
  });

  it('lists balances with the Sequence of HEAD, and reads any currency', async () => {
    const list = await me.client.balances.list();
    const byCur = Object.fromEntries(list.data.map((b) => [b.currencySymbol, b]));
    expect(Object.keys(byCur).sort()).toEqual(['BTC', 'ETH', 'USD']);
    expect(byCur.BTC!.total.toString()).toBe('2.1');
    expect(byCur.ETH!.available.toString()).toBe('10');
    expect(await me.client.balances.sequence()).toBe(list.sequence);
    const ada = await me.client.balances.get('ADA');
    expect({ total: ada.total.toString(), available: ada.available.toString() }).toEqual({ total: '0', available: '0' });
    await apiError(me.client.balances.get('NOPE'), 404, 'CURRENCY_DOES_NOT_EXIST');
    // A resting order holds funds: available drops, total stays, the sequence moves.
    const o = await me.client.orders.create({ marketSymbol: 'ETH-BTC', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('4'), limit: dec('0.07') });
    const eth = await me.client.balances.get('ETH');
    expect({ total: eth.total.toString(), available: eth.available.toString() }).toEqual({ total: '10', available: '6' });
    expect(await me.client.balances.sequence()).toBeGreaterThan(list.sequence);
    await me.client.orders.cancel(o.id);
  });

  it('requests deposit addresses, which become PROVISIONED after the provision delay', async () => {
    expect(await me.client.addresses.list()).toEqual([]);
    const req = await me.client.addresses.create('BTC');
    expect(req).toEqual({ status: 'REQUESTED', currencySymbol: 'BTC' });
    const xrp = await me.client.addresses.create('XRP');
    expect(xrp.status).toBe('REQUESTED');
    expect(await me.client.addresses.get('BTC')).toEqual(req);
    await apiError(me.client.addresses.create('BTC'), 409, 'CRYPTO_ADDRESS_ALREADY_EXISTS');
    await apiError(me.client.addresses.create('USD'), 403, 'NOT_ALLOWED');
    await apiError(me.client.addresses.get('LTC'), 404, 'NOT_FOUND');

    await fx.advance(fx.engine.config.addressProvisionDelayMs);
    const btc = await me.client.addresses.get('BTC');
    expect(btc.status).toBe('PROVISIONED');
    expect(btc.cryptoAddress).toMatch(/^\w{20,}$/);
    const tagged = await me.client.addresses.get('XRP');
    expect(tagged).toMatchObject({ status: 'PROVISIONED', currencySymbol: 'XRP' });
    expect(tagged.cryptoAddressTag).toBeTruthy();
    expect((await me.client.addresses.list()).map((a) => a.status)).toEqual(['PROVISIONED', 'PROVISIONED']);
    // A currency with an address but no balance is listed among balances.
    expect((await me.client.balances.list()).data.map((b) => b.currencySymbol)).toContain('XRP');
  });

  it('lists deposits credited through the control API: open with Sequence, closed page by page, by id and by txId', async () => {
    const acct = await fx.account({ USD: '1', BTC: '1', ETH: '1' });
    const seq0 = await acct.client.deposits.openSequence();
    const pendingTx = `0x${'ab'.repeat(32)}`;
    const pending = await fx.control('POST', '/deposits', { accountId: acct.accountId, currencySymbol: 'ETH', quantity: '2.5', pending: true, txId: pendingTx });
    expect(pending.status, pending.text).toBe(200);
    const open = await acct.client.deposits.listOpen();
    expect(open.data).toHaveLength(1);
    expect(open.data[0]).toMatchObject({ id: pending.json.id, status: 'PENDING', currencySymbol: 'ETH', txId: pendingTx, confirmations: 0 });
    expect(open.sequence).toBeGreaterThan(seq0);
    expect(await acct.client.deposits.openSequence()).toBe(open.sequence);
    expect((await acct.client.deposits.listOpen({ currencySymbol: 'BTC' })).data).toEqual([]);
    expect((await acct.client.balances.get('ETH')).total.toString()).toBe('1');

    for (let i = 0; i < 3; i++) {
      await fx.advance(1000);
      const r = await fx.control('POST', '/deposits', { accountId: acct.accountId, currencySymbol: 'BTC', quantity: `0.${i + 1}`, txId: `tx-btc-${i}` });
      expect(r.status).toBe(200);
    }
    const closed = await acct.client.deposits.listClosed();
    expect(closed).toHaveLength(6);
    expect(closed.slice(0, 3).map((d) => d.txId)).toEqual(['tx-btc-2', 'tx-btc-1', 'tx-btc-0']);
    expect(closed.every((d) => d.status === 'COMPLETED' && d.completedAt instanceof Date)).toBe(true);
    const walked: Deposit[] = [];
    for await (const d of acct.client.deposits.iterateClosed({}, { pageSize: 4 })) walked.push(d);
    expect(walked.map((d) => d.id)).toEqual(closed.map((d) => d.id));
    expect((await acct.client.deposits.listClosed({ currencySymbol: 'BTC' })).map((d) => d.quantity.toString())).toEqual(['0.3', '0.2', '0.1', '1']);

    expect(await acct.client.deposits.get(closed[0]!.id)).toEqual(closed[0]);
    expect((await acct.client.deposits.byTxId('tx-btc-1')).map((d) => d.id)).toEqual([closed[1]!.id]);
    expect((await acct.client.deposits.byTxId(pendingTx)).map((d) => d.status)).toEqual(['PENDING']);
    expect(await acct.client.deposits.byTxId('no-such-tx')).toEqual([]);
    await apiError(me.client.deposits.get(closed[0]!.id), 404, 'NOT_FOUND');
    expect((await acct.client.balances.get('BTC')).total.toString()).toBe('1.6');
  });

  it('takes a withdrawal through REQUESTED, AUTHORIZED, PENDING to COMPLETED, and cancels another', async () => {
    const acct = await fx.account({ BTC: '3' });
    const cid = randomUUID();
    const w = await acct.client.withdrawals.create({ currencySymbol: 'BTC', quantity: dec('1.5'), cryptoAddress: BTC_ADDR, clientWithdrawalId: cid });
    expect(w).toMatchObject({ currencySymbol: 'BTC', status: 'REQUESTED', cryptoAddress: BTC_ADDR, clientWithdrawalId: cid });
    expect(w.txCost!.toString()).toBe('0.0003');
    const held = await acct.client.balances.get('BTC');
    expect({ total: held.total.toString(), available: held.available.toString() }).toEqual({ total: '3', available: '1.5' });
    const dup = await apiError(acct.client.withdrawals.create({ currencySymbol: 'BTC', quantity: dec('0.1'), cryptoAddress: BTC_ADDR, clientWithdrawalId: cid }), 409, 'CLIENTWITHDRAWALID_ALREADY_EXISTS');
    expect(dup.data).toEqual({ existingWithdrawalId: w.id });
    await apiError(acct.client.withdrawals.create({ currencySymbol: 'BTC', quantity: dec('2'), cryptoAddress: BTC_ADDR }), 409, 'INSUFFICIENT_FUNDS');
    await apiError(acct.client.withdrawals.create({ currencySymbol: 'BTC', quantity: dec('0.0005'), cryptoAddress: BTC_ADDR }), 400, 'WITHDRAWAL_TOO_SMALL');

    const step = fx.engine.config.withdrawalStepMs;
    const seen = [w.status];
    for (let i = 0; i < 3; i++) {
      await fx.advance(step);
      seen.push((await acct.client.withdrawals.get(w.id)).status);
    }
    expect(seen).toEqual(['REQUESTED', 'AUTHORIZED', 'PENDING', 'COMPLETED']);
    const done = await acct.client.withdrawals.get(w.id);
    expect(done.txId).toBeTruthy();
    expect(done.completedAt!.getTime()).toBe(fx.clock.now());
    expect((await acct.client.balances.get('BTC')).total.toString()).toBe('1.5');
    expect((await acct.client.withdrawals.byTxId(done.txId!)).map((x) => x.id)).toEqual([w.id]);
    await apiError(acct.client.withdrawals.cancel(w.id), 409, 'WITHDRAWAL_NOT_CANCELLABLE');

    const w2 = await acct.client.withdrawals.create({ currencySymbol: 'BTC', quantity: dec('0.5'), cryptoAddress: BTC_ADDR });
    expect((await acct.client.withdrawals.listOpen()).map((x) => x.id)).toEqual([w2.id]);
    expect((await acct.client.withdrawals.listOpen({ status: 'AUTHORIZED' }))).toEqual([]);
    await fx.advance(1000);
    const c = await acct.client.withdrawals.cancel(w2.id);
    expect(c).toMatchObject({ id: w2.id, status: 'CANCELLED' });
    expect((await acct.client.balances.get('BTC')).available.toString()).toBe('1.5');
    expect(await acct.client.withdrawals.listOpen()).toEqual([]);
    const closed = await acct.client.withdrawals.listClosed();
    expect(closed.map((x) => [x.id, x.status])).toEqual([[w2.id, 'CANCELLED'], [w.id, 'COMPLETED']]);
    expect((await acct.client.withdrawals.listClosed({ status: 'COMPLETED' })).map((x) => x.id)).toEqual([w.id]);
    const walked: string[] = [];
    for await (const x of acct.client.withdrawals.iterateClosed({}, { pageSize: 1 })) walked.push(x.id);
    expect(walked).toEqual([w2.id, w.id]);
    await apiError(me.client.withdrawals.get(w.id), 404, 'NOT_FOUND');
  });

  it('stops a withdrawal to an unusable address in ERROR_INVALID_ADDRESS, which may still be cancelled', async () => {
    const acct = await fx.account({ LTC: '5' });
    const w = await acct.client.withdrawals.create({ currencySymbol: 'LTC', quantity: dec('1'), cryptoAddress: 'invalid-LTC-address' });
    await fx.advance(fx.engine.config.withdrawalStepMs);
    expect((await acct.client.withdrawals.get(w.id)).status).toBe('ERROR_INVALID_ADDRESS');
    expect((await acct.client.withdrawals.listOpen({ status: 'ERROR_INVALID_ADDRESS' })).map((x) => x.id)).toEqual([w.id]);
    expect((await acct.client.balances.get('LTC')).available.toString()).toBe('4');
    expect((await acct.client.withdrawals.cancel(w.id)).status).toBe('CANCELLED');
    expect((await acct.client.balances.get('LTC')).available.toString()).toBe('5');
  });

  it('lists allowed addresses on both paths; a PENDING one refuses withdrawals until it is ACTIVE', async () => {
    const acct = await fx.account({ BTC: '1' });
    expect(await acct.client.withdrawals.allowedAddresses()).toEqual([]);
    const added = await fx.control('POST', `/accounts/${acct.accountId}/allowed-addresses`, { currencySymbol: 'BTC', cryptoAddress: BTC_ADDR });
    expect(added.status, added.text).toBe(200);
    const list = await acct.client.withdrawals.allowedAddresses();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ currencySymbol: 'BTC', cryptoAddress: BTC_ADDR, status: 'PENDING' });
    const wait = fx.engine.config.allowedAddressWaitMs;
    expect(list[0]!.activeAt!.getTime()).toBe(fx.clock.now() + wait);
    const legacy = await fx.signed(acct, 'GET', '/withdrawals/whitelistAddresses');
    const current = await fx.signed(acct, 'GET', '/withdrawals/allowed-addresses');
    expect(legacy.status).toBe(200);
    expect(legacy.text).toBe(current.text);

    // The allowed-list requirement is an account setting, switched on through the control API.
    const on = await fx.control('POST', `/accounts/${acct.accountId}/require-allowed-addresses`, { on: true });
    expect(on.status, on.text).toBe(200);
    const w = { currencySymbol: 'BTC', quantity: dec('0.1'), cryptoAddress: BTC_ADDR };
    await apiError(acct.client.withdrawals.create(w), 409, 'WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS');
    await apiError(acct.client.withdrawals.create({ ...w, cryptoAddress: '1AnotherAddressXXXXXXXXXXXXXXXXXXX' }), 409, 'WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS');
    await fx.advance(wait);
    expect((await acct.client.withdrawals.allowedAddresses())[0]!.status).toBe('ACTIVE');
    expect((await acct.client.withdrawals.create(w)).status).toBe('REQUESTED');
  });
});
