/**
 * Sub-accounts and transfers are for partners only (seed; issue 14, item 9): a plain master account is refused
 * 403 FORBIDDEN on every sub-account and transfer endpoint, a partner (and its sub-accounts) may use them, and
 * `partnersOnly: false` opens them to every account (a demo).
 */
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { fundsFixture, refusal } from './funds-fixture.js';

describe('partners only', () => {
  it('refuses a plain account, lets a partner and its sub-accounts through', () => {
    const { funds } = fundsFixture({ partnersOnly: true });
    const plain = funds.accounts.createMasterAccount().accountId;
    const partner = funds.accounts.createMasterAccount({ partner: true }).accountId;
    funds.creditDeposit(plain, 'BTC', dec('1'));
    funds.creditDeposit(partner, 'BTC', dec('1'));
    for (const call of [
      () => funds.createSubaccount(plain),
      () => funds.subaccounts(plain),
      () => funds.createTransfer(plain, { toMasterAccount: true, currencySymbol: 'BTC', amount: dec('0.1') }),
      () => funds.sentTransfers(plain),
      () => funds.receivedTransfers(plain),
    ]) {
      const e = refusal(call);
      expect([e.status, e.code]).toEqual([403, 'FORBIDDEN']);
    }
    const sub = funds.createSubaccount(partner).id;
    expect(funds.createTransfer(partner, { toSubaccountId: sub, currencySymbol: 'BTC', amount: dec('0.4') }).amount.toFixed()).toBe('0.4');
    expect(funds.createTransfer(sub, { toMasterAccount: true, currencySymbol: 'BTC', amount: dec('0.1') }).amount.toFixed()).toBe('0.1');
    expect(funds.subaccounts(partner).map((s) => s.id)).toEqual([sub]);
    // The operator can make an account a partner later.
    funds.accounts.setPartner(plain, true);
    expect(funds.createSubaccount(plain).id).toBeTruthy();
  });

  it('partnersOnly: false opens sub-accounts and transfers to every account', () => {
    const { funds } = fundsFixture({ partnersOnly: false });
    const plain = funds.accounts.createMasterAccount().accountId;
    expect(funds.createSubaccount(plain).id).toBeTruthy();
  });
});
