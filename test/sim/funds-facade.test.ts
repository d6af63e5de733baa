import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { fundsFixture, refusal } from './funds-fixture.js';

describe('Funds facade: acting accounts end to end', () => {
  it('authenticates a key, acts for an owned sub-account, and answers GET /account for each', () => {
    const { funds } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    const { apiKey } = funds.accounts.createApiKey(accountId, ['view', 'trade', 'withdraw']);
    const actor = funds.accounts.resolveActor(apiKey);
    expect(funds.account(actor)).toEqual({ accountId });
    const sub = funds.createSubaccount(actor);
    const subActor = funds.accounts.resolveActor(apiKey, sub.id);
    expect(funds.account(subActor)).toEqual({ subaccountId: sub.id });
    // Acting as the sub-account, creating a sub-account is refused.
    expect(refusal(() => funds.createSubaccount(subActor)).code).toBe('SUBACCOUNT_OF_SUBACCOUNT_NOT_ALLOWED');
    expect(funds.subaccounts(actor).map((s) => s.id)).toEqual([sub.id]);
    expect(funds.subaccount(actor, sub.id)).toEqual(sub);
    expect(funds.subaccounts(subActor)).toEqual([]);
  });

  it('keeps a sub-account\'s funds, addresses and history apart from its master\'s', () => {
    const { funds } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    const sub = funds.createSubaccount(accountId).id;
    funds.creditDeposit(sub, 'BTC', dec('1'));
    funds.requestAddress(sub, 'ETH');
    expect(funds.balances(accountId).data).toEqual([]);
    expect(funds.addresses(accountId)).toEqual([]);
    expect(funds.closedDeposits(accountId)).toEqual([]);
    expect(funds.balances(sub).data.map((b) => b.currencySymbol)).toEqual(['BTC', 'ETH']);
  });

  it('answers volume, trading fees and permissions through the facade', () => {
    const { funds, catalog } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    funds.recordVolume(accountId, dec('250'), 'USD');
    funds.recordVolume(accountId, dec('10'), 'USDT');
    expect(funds.accountVolume(accountId).volume30days.toString()).toBe('260');
    funds.setUsdRateSource((c) => (c === 'USD' ? dec('1') : undefined));
    funds.recordVolume(accountId, dec('10'), 'USDT');
    expect(funds.accountVolume(accountId).volume30days.toString()).toBe('260');
    expect(funds.tradingFees(accountId)).toHaveLength(catalog.markets().length);
    expect(funds.tradingFee(accountId, 'BTC-USD').takerRate.toString()).toBe('0.0035');
    expect(funds.marketPolicies(accountId).every((p) => p.buy && p.sell && p.view)).toBe(true);
    funds.permissions.setMarketPolicy(accountId, 'BTC-USD', { view: false });
    expect(funds.marketPolicy(accountId, 'BTC-USD').view).toBe(false);
    expect(funds.currencyPolicies(accountId)).toHaveLength(catalog.currencies().length);
    expect(funds.currencyPolicy(accountId, 'XRP').deposit.blockchain).toBe(true);
  });
});
