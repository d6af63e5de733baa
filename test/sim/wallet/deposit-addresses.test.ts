import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { fundsFixture, refusal } from '../funds-fixture.js';

describe('deposit addresses', () => {
  it('answers REQUESTED at once and PROVISIONED with an address after the provisioning delay', async () => {
    const { funds, clock, config } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    const a = funds.requestAddress(accountId, 'btc');
    expect(a).toEqual({ status: 'REQUESTED', currencySymbol: 'BTC' });
    await clock.advance(config.addressProvisionDelayMs - 1);
    expect(funds.address(accountId, 'BTC').status).toBe('REQUESTED');
    expect(funds.address(accountId, 'BTC').cryptoAddress).toBeUndefined();
    await clock.advance(1);
    const p = funds.address(accountId, 'BTC');
    expect(p.status).toBe('PROVISIONED');
    expect(p.cryptoAddress).toMatch(/^1[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(p.cryptoAddressTag).toBeUndefined();
  });

  it('gives ETH-family currencies 0x addresses and tagged currencies a shared address with a per-account tag', async () => {
    const { funds, clock, config } = fundsFixture();
    const a = funds.accounts.createMasterAccount().accountId;
    const b = funds.accounts.createMasterAccount().accountId;
    funds.requestAddress(a, 'ETH');
    funds.requestAddress(a, 'XRP');
    funds.requestAddress(b, 'XRP');
    await clock.advance(config.addressProvisionDelayMs);
    expect(funds.address(a, 'ETH').cryptoAddress).toMatch(/^0x[0-9a-f]{40}$/);
    const xa = funds.address(a, 'XRP');
    const xb = funds.address(b, 'XRP');
    expect(xa.cryptoAddress).toBe(xb.cryptoAddress);
    expect(xa.cryptoAddressTag).toMatch(/^\d+$/);
    expect(xa.cryptoAddressTag).not.toBe(xb.cryptoAddressTag);
  });

  it('refuses a second address for a currency, requested or provisioned, with 409 CRYPTO_ADDRESS_ALREADY_EXISTS', async () => {
    const { funds, clock, config } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    funds.requestAddress(accountId, 'BTC');
    const e1 = refusal(() => funds.requestAddress(accountId, 'BTC'));
    expect([e1.status, e1.code]).toEqual([409, 'CRYPTO_ADDRESS_ALREADY_EXISTS']);
    await clock.advance(config.addressProvisionDelayMs);
    expect(refusal(() => funds.requestAddress(accountId, 'btc')).code).toBe('CRYPTO_ADDRESS_ALREADY_EXISTS');
    expect(funds.addresses(accountId)).toHaveLength(1);
  });

  it('refuses unknown (404), offline (503) and non-blockchain (403) currencies without recording anything', () => {
    const { funds, catalog } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    const e = refusal(() => funds.requestAddress(accountId, 'NOPE'));
    expect([e.status, e.code]).toEqual([404, 'CURRENCY_DOES_NOT_EXIST']);
    catalog.setCurrencyStatus('LTC', 'OFFLINE');
    const off = refusal(() => funds.requestAddress(accountId, 'LTC'));
    expect([off.status, off.code]).toEqual([503, 'CURRENCY_OFFLINE']);
    const fiat = refusal(() => funds.requestAddress(accountId, 'USD'));
    expect([fiat.status, fiat.code]).toEqual([403, 'NOT_ALLOWED']);
    funds.permissions.setCurrencyPolicy(accountId, 'ADA', { deposit: { blockchain: false } });
    expect(refusal(() => funds.requestAddress(accountId, 'ADA')).code).toBe('NOT_ALLOWED');
    expect(funds.addresses(accountId)).toEqual([]);
  });

  it('lists addresses by currency and answers 404 for a currency without one', () => {
    const { funds } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    funds.requestAddress(accountId, 'LTC');
    funds.requestAddress(accountId, 'BTC');
    expect(funds.addresses(accountId).map((a) => a.currencySymbol)).toEqual(['BTC', 'LTC']);
    const e = refusal(() => funds.address(accountId, 'ETH'));
    expect([e.status, e.code]).toEqual([404, 'NOT_FOUND']);
    expect(refusal(() => funds.address(accountId, 'NOPE')).code).toBe('CURRENCY_DOES_NOT_EXIST');
    // Addresses are per account.
    expect(funds.addresses(funds.accounts.createMasterAccount().accountId)).toEqual([]);
  });

  it('deposits arrive at the provisioned address (with its tag)', async () => {
    const { funds, clock, config } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    funds.requestAddress(accountId, 'XRP');
    await clock.advance(config.addressProvisionDelayMs);
    const addr = funds.address(accountId, 'XRP');
    const d = funds.creditDeposit(accountId, 'XRP', dec('100'));
    expect([d.cryptoAddress, d.cryptoAddressTag]).toEqual([addr.cryptoAddress, addr.cryptoAddressTag]);
  });
});
