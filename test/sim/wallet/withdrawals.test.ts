import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { IDEMPOTENCY_WINDOW_MS } from '../../../src/sim/idempotency.js';
import { expectConserved, fundsFixture, refusal, START } from '../funds-fixture.js';

const CWID = '3f1a9c2e-0b7d-4e55-9f21-6a7c8d9e0f11';

function funded(amount = '1') {
  const fx = fundsFixture();
  const { accountId } = fx.funds.accounts.createMasterAccount();
  fx.funds.creditDeposit(accountId, 'BTC', dec(amount));
  return { ...fx, accountId };
}

describe('withdrawals: lifecycle in virtual time', () => {
  it('holds the quantity, steps REQUESTED -> AUTHORIZED -> PENDING -> COMPLETED, then debits it', async () => {
    const { funds, ledger, clock, config, accountId } = funded('1');
    const w = funds.createWithdrawal(accountId, { currencySymbol: 'btc', quantity: dec('0.4'), cryptoAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' });
    expect(w).toMatchObject({ currencySymbol: 'BTC', status: 'REQUESTED', cryptoAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', target: 'BLOCKCHAIN' });
    expect(w.txCost?.toString()).toBe('0.0003');
    expect(w.createdAt.getTime()).toBe(START);
    expect(w.txId).toBeUndefined();
    expect(w.completedAt).toBeUndefined();
    let b = ledger.get(accountId, 'BTC');
    expect([b.total.toString(), b.available.toString()]).toEqual(['1', '0.6']);

    const step = config.withdrawalStepMs;
    await clock.advance(step - 1);
    expect(funds.withdrawal(accountId, w.id).status).toBe('REQUESTED');
    await clock.advance(1);
    expect(funds.withdrawal(accountId, w.id).status).toBe('AUTHORIZED');
    await clock.advance(step);
    expect(funds.withdrawal(accountId, w.id).status).toBe('PENDING');
    expect(ledger.get(accountId, 'BTC').total.toString()).toBe('1');
    await clock.advance(step);
    const done = funds.withdrawal(accountId, w.id);
    expect(done.status).toBe('COMPLETED');
    expect(done.txId).toMatch(/^[0-9a-f]{64}$/);
    expect(done.completedAt?.getTime()).toBe(START + 3 * step);
    b = ledger.get(accountId, 'BTC');
    expect([b.total.toString(), b.available.toString(), b.held.toString()]).toEqual(['0.6', '0.6', '0']);
    expect(funds.withdrawalsByTxId(accountId, done.txId!).map((x) => x.id)).toEqual([w.id]);
    expect(clock.pendingTimers).toBe(0);
    expectConserved(ledger);
  });

  it('cancels in REQUESTED and AUTHORIZED, releasing the hold, and refuses from PENDING on', async () => {
    const { funds, ledger, clock, config, accountId } = funded('1');
    const addr = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
    const w1 = funds.createWithdrawal(accountId, { currencySymbol: 'BTC', quantity: dec('0.1'), cryptoAddress: addr });
    clock.set(START + 10);
    const c1 = funds.cancelWithdrawal(accountId, w1.id);
    expect(c1.status).toBe('CANCELLED');
    expect(c1.completedAt?.getTime()).toBe(START + 10);
    expect(ledger.get(accountId, 'BTC').available.toString()).toBe('1');
    await clock.advance(10 * config.withdrawalStepMs);
    expect(funds.withdrawal(accountId, w1.id).status).toBe('CANCELLED'); // the lifecycle stopped

    const w2 = funds.createWithdrawal(accountId, { currencySymbol: 'BTC', quantity: dec('0.1'), cryptoAddress: addr });
    await clock.advance(config.withdrawalStepMs);
    expect(funds.cancelWithdrawal(accountId, w2.id).status).toBe('CANCELLED');

    const w3 = funds.createWithdrawal(accountId, { currencySymbol: 'BTC', quantity: dec('0.1'), cryptoAddress: addr });
    await clock.advance(2 * config.withdrawalStepMs);
    const e = refusal(() => funds.cancelWithdrawal(accountId, w3.id));
    expect([e.status, e.code]).toEqual([409, 'WITHDRAWAL_NOT_CANCELLABLE']);
    expect(funds.withdrawal(accountId, w3.id).status).toBe('PENDING');
    await clock.advance(config.withdrawalStepMs);
    expect(refusal(() => funds.cancelWithdrawal(accountId, w3.id)).code).toBe('WITHDRAWAL_NOT_CANCELLABLE');
    expect(refusal(() => funds.cancelWithdrawal(accountId, w1.id)).code).toBe('WITHDRAWAL_NOT_CANCELLABLE');
    expect(ledger.get(accountId, 'BTC').total.toString()).toBe('0.9');
    expectConserved(ledger);
  });

  it('stops in ERROR_INVALID_ADDRESS for an unusable address, keeps the hold, and cancels from there', async () => {
    const { funds, ledger, clock, config, accountId } = funded('1');
    const w = funds.createWithdrawal(accountId, { currencySymbol: 'BTC', quantity: dec('0.5'), cryptoAddress: 'invalid-address' });
    await clock.advance(5 * config.withdrawalStepMs);
    expect(funds.withdrawal(accountId, w.id).status).toBe('ERROR_INVALID_ADDRESS');
    expect(ledger.get(accountId, 'BTC').available.toString()).toBe('0.5');
    expect(funds.openWithdrawals(accountId, { status: 'ERROR_INVALID_ADDRESS' }).map((x) => x.id)).toEqual([w.id]);
    expect(funds.cancelWithdrawal(accountId, w.id).status).toBe('CANCELLED');
    expect(ledger.get(accountId, 'BTC').available.toString()).toBe('1');
  });

  it('answers 404 NOT_FOUND for unknown or another account\'s withdrawal', () => {
    const { funds, accountId } = funded();
    const other = funds.accounts.createMasterAccount().accountId;
    const w = funds.createWithdrawal(accountId, { currencySymbol: 'BTC', quantity: dec('0.1'), cryptoAddress: '1abc' });
    for (const fn of [() => funds.withdrawal(other, w.id), () => funds.cancelWithdrawal(other, w.id), () => funds.withdrawal(accountId, 'nope')]) {
      const e = refusal(fn);
      expect([e.status, e.code]).toEqual([404, 'NOT_FOUND']);
    }
    expect(funds.withdrawal(accountId, w.id).status).toBe('REQUESTED');
  });
});

describe('withdrawals: validation', () => {
  it('refuses with the documented codes and changes nothing', () => {
    const { funds, ledger, catalog, accountId } = funded('1');
    const ok = { currencySymbol: 'BTC', quantity: dec('0.1'), cryptoAddress: '1abc' };
    const cases: Array<[unknown, number, string]> = [
      [{ ...ok, currencySymbol: 'NOPE' }, 404, 'CURRENCY_DOES_NOT_EXIST'],
      [{ ...ok, quantity: dec('0') }, 400, 'BAD_REQUEST'],
      [{ ...ok, quantity: dec('-1') }, 400, 'BAD_REQUEST'],
      [{ ...ok, quantity: dec('0.123456789') }, 400, 'BAD_REQUEST'],
      [{ ...ok, cryptoAddress: undefined }, 400, 'BAD_REQUEST'],
      [{ ...ok, cryptoAddress: '  ' }, 400, 'BAD_REQUEST'],
      // BTC txFee 0.0003: the quantity must exceed 0.0009.
      [{ ...ok, quantity: dec('0.0009') }, 400, 'WITHDRAWAL_TOO_SMALL'],
      [{ ...ok, quantity: dec('1.00000001') }, 409, 'INSUFFICIENT_FUNDS'],
      [{ ...ok, currencySymbol: 'USD', quantity: dec('10') }, 400, 'BAD_REQUEST'],
    ];
    for (const [n, status, code] of cases) {
      const e = refusal(() => funds.createWithdrawal(accountId, n as never));
      expect([e.status, e.code], JSON.stringify(n)).toEqual([status, code]);
    }
    expect(funds.createWithdrawal(accountId, { ...ok, quantity: dec('0.00090001') }).status).toBe('REQUESTED');
    catalog.setCurrencyStatus('BTC', 'OFFLINE');
    const off = refusal(() => funds.createWithdrawal(accountId, ok));
    expect([off.status, off.code]).toEqual([503, 'CURRENCY_OFFLINE']);
    catalog.setCurrencyStatus('BTC', 'ONLINE');
    funds.permissions.setCurrencyPolicy(accountId, 'BTC', { withdraw: { blockchain: false } });
    const denied = refusal(() => funds.createWithdrawal(accountId, ok));
    expect([denied.status, denied.code]).toEqual([403, 'NOT_ALLOWED']);
    expect(funds.openWithdrawals(accountId)).toHaveLength(1);
    expect(ledger.get(accountId, 'BTC').available.toString()).toBe('0.99909999');
  });

  it('withdraws FIAT by wire to a funds transfer method', () => {
    const { funds, accountId } = funded();
    funds.creditDeposit(accountId, 'USD', dec('100'));
    const w = funds.createWithdrawal(accountId, {
      currencySymbol: 'USD',
      quantity: dec('50'),
      fundsTransferMethodId: '11111111-2222-4333-8444-555555555555',
    });
    expect(w).toMatchObject({ status: 'REQUESTED', target: 'WIRE_TRANSFER', cryptoAddress: '', fundsTransferMethodId: '11111111-2222-4333-8444-555555555555' });
  });
});

describe('withdrawals: clientWithdrawalId idempotency', () => {
  it('refuses a repeated clientWithdrawalId for 24 hours with the existing id, then accepts it again', async () => {
    const { funds, ledger, clock, accountId } = funded('1');
    const n = { currencySymbol: 'BTC', quantity: dec('0.1'), cryptoAddress: '1abc', clientWithdrawalId: CWID };
    const w = funds.createWithdrawal(accountId, n);
    expect(w.clientWithdrawalId).toBe(CWID);
    const e = refusal(() => funds.createWithdrawal(accountId, { ...n, clientWithdrawalId: CWID.toUpperCase() }));
    expect([e.status, e.code]).toEqual([409, 'CLIENTWITHDRAWALID_ALREADY_EXISTS']);
    expect(e.data).toEqual({ existingWithdrawalId: w.id });
    expect(ledger.get(accountId, 'BTC').available.toString()).toBe('0.9');
    // Another account may use the same key.
    const other = funds.accounts.createMasterAccount().accountId;
    funds.creditDeposit(other, 'BTC', dec('1'));
    expect(funds.createWithdrawal(other, n).status).toBe('REQUESTED');
    await clock.advance(IDEMPOTENCY_WINDOW_MS - 1);
    expect(refusal(() => funds.createWithdrawal(accountId, n)).code).toBe('CLIENTWITHDRAWALID_ALREADY_EXISTS');
    await clock.advance(1);
    const again = funds.createWithdrawal(accountId, n);
    expect(again.id).not.toBe(w.id);
    // The old withdrawal keeps its clientWithdrawalId.
    expect(funds.withdrawal(accountId, w.id).clientWithdrawalId).toBe(CWID);
  });

  it('does not consume the key when the withdrawal is refused', () => {
    const { funds, accountId } = funded('1');
    const n = { currencySymbol: 'BTC', quantity: dec('5'), cryptoAddress: '1abc', clientWithdrawalId: CWID };
    expect(refusal(() => funds.createWithdrawal(accountId, n)).code).toBe('INSUFFICIENT_FUNDS');
    expect(funds.createWithdrawal(accountId, { ...n, quantity: dec('0.5') }).status).toBe('REQUESTED');
  });
});

describe('withdrawals: allowed addresses', () => {
  it('lists added addresses PENDING until the waiting period ends, then ACTIVE', async () => {
    const { funds, clock, config, accountId } = funded();
    const a = funds.addAllowedAddress(accountId, 'xrp', 'rAddr', '42');
    expect(a).toEqual({
      currencySymbol: 'XRP',
      createdAt: new Date(START),
      status: 'PENDING',
      activeAt: new Date(START + config.allowedAddressWaitMs),
      cryptoAddress: 'rAddr',
      cryptoAddressTag: '42',
    });
    expect(funds.addAllowedAddress(accountId, 'XRP', 'rAddr', '42')).toEqual(a);
    await clock.advance(config.allowedAddressWaitMs - 1);
    expect(funds.allowedAddresses(accountId)[0]!.status).toBe('PENDING');
    await clock.advance(1);
    expect(funds.allowedAddresses(accountId)[0]!.status).toBe('ACTIVE');
    expect(funds.allowedAddresses(funds.accounts.createMasterAccount().accountId)).toEqual([]);
    expect(refusal(() => funds.addAllowedAddress(accountId, 'NOPE', 'x')).code).toBe('CURRENCY_DOES_NOT_EXIST');
  });

  it('ignores the list unless the account requires it', () => {
    const { funds, accountId } = funded();
    expect(funds.createWithdrawal(accountId, { currencySymbol: 'BTC', quantity: dec('0.1'), cryptoAddress: '1anywhere' }).status).toBe('REQUESTED');
  });

  it('when required, refuses absent and still-pending addresses with 409 WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS', async () => {
    const { funds, ledger, clock, config, accountId } = funded('1');
    funds.setRequireAllowedAddresses(accountId, true);
    const n = { currencySymbol: 'BTC', quantity: dec('0.1'), cryptoAddress: '1allowed' };
    const absent = refusal(() => funds.createWithdrawal(accountId, n));
    expect([absent.status, absent.code]).toEqual([409, 'WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS']);
    funds.addAllowedAddress(accountId, 'BTC', '1allowed');
    expect(refusal(() => funds.createWithdrawal(accountId, n)).code).toBe('WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS');
    // Allowed for another currency does not count.
    funds.addAllowedAddress(accountId, 'LTC', '1other');
    await clock.advance(config.allowedAddressWaitMs);
    expect(refusal(() => funds.createWithdrawal(accountId, { ...n, cryptoAddress: '1other' })).code).toBe('WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS');
    expect(ledger.get(accountId, 'BTC').available.toString()).toBe('1');
    expect(funds.createWithdrawal(accountId, n).status).toBe('REQUESTED');
  });

  it('matches tags: a tagged entry allows only its tag, an untagged entry any tag', async () => {
    const { funds, clock, config } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    funds.creditDeposit(accountId, 'XRP', dec('1000'));
    funds.setRequireAllowedAddresses(accountId, true);
    funds.addAllowedAddress(accountId, 'XRP', 'rTagged', '7');
    funds.addAllowedAddress(accountId, 'XRP', 'rOpen');
    await clock.advance(config.allowedAddressWaitMs);
    const n = { currencySymbol: 'XRP', quantity: dec('10') };
    expect(funds.createWithdrawal(accountId, { ...n, cryptoAddress: 'rTagged', cryptoAddressTag: '7' }).cryptoAddressTag).toBe('7');
    expect(refusal(() => funds.createWithdrawal(accountId, { ...n, cryptoAddress: 'rTagged', cryptoAddressTag: '8' })).code).toBe(
      'WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS',
    );
    expect(funds.createWithdrawal(accountId, { ...n, cryptoAddress: 'rOpen', cryptoAddressTag: '99' }).status).toBe('REQUESTED');
  });
});

describe('withdrawals: lists', () => {
  it('lists open ones newest first with filters, closed ones by completedAt with pagination and dates', async () => {
    const { funds, clock, config, accountId } = funded('10');
    funds.creditDeposit(accountId, 'ETH', dec('10'));
    const mk = (cur: string) => funds.createWithdrawal(accountId, { currencySymbol: cur, quantity: dec('1'), cryptoAddress: cur === 'ETH' ? '0xabc' : '1abc' });
    const w1 = mk('BTC');
    clock.set(START + 1000);
    const w2 = mk('ETH');
    clock.set(START + 2000);
    const w3 = mk('BTC');
    expect(funds.openWithdrawals(accountId).map((w) => w.id)).toEqual([w3.id, w2.id, w1.id]);
    expect(funds.openWithdrawals(accountId, { currencySymbol: 'eth' }).map((w) => w.id)).toEqual([w2.id]);
    expect(funds.openWithdrawals(accountId, { status: 'REQUESTED' })).toHaveLength(3);
    expect(funds.openWithdrawals(accountId, { status: 'PENDING' })).toHaveLength(0);
    expect(refusal(() => funds.openWithdrawals(accountId, { status: 'COMPLETED' })).code).toBe('BAD_REQUEST');

    clock.set(START + 5000);
    funds.cancelWithdrawal(accountId, w3.id); // completedAt START+5000
    // w1 and w2 complete at START + 2000 + 3 steps (both scheduled relative to their creation).
    await clock.advance(3 * config.withdrawalStepMs);
    const closed = funds.closedWithdrawals(accountId);
    expect(closed.map((w) => w.status)).toEqual(['COMPLETED', 'COMPLETED', 'CANCELLED']);
    expect(closed.map((w) => w.id)).toEqual([w2.id, w1.id, w3.id]);
    expect(funds.closedWithdrawals(accountId, { status: 'CANCELLED' }).map((w) => w.id)).toEqual([w3.id]);
    expect(funds.closedWithdrawals(accountId, { currencySymbol: 'BTC' }).map((w) => w.id)).toEqual([w1.id, w3.id]);
    expect(funds.closedWithdrawals(accountId, { pageSize: 1, nextPageToken: w2.id }).map((w) => w.id)).toEqual([w1.id]);
    expect(funds.closedWithdrawals(accountId, { pageSize: 1, previousPageToken: w1.id }).map((w) => w.id)).toEqual([w2.id]);
    expect(funds.closedWithdrawals(accountId, { endDate: new Date(START + 5000) }).map((w) => w.id)).toEqual([w3.id]);
    expect(refusal(() => funds.closedWithdrawals(accountId, { status: 'PENDING' })).code).toBe('BAD_REQUEST');
    expect(funds.openWithdrawals(accountId)).toEqual([]);
  });
});
