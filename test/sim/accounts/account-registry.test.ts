import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { AccountRegistry } from '../../../src/sim/accounts/account-registry.js';
import { START, refusal } from '../sim-fixture.js';

function setup() {
  const clock = new VirtualClock(START);
  const reg = new AccountRegistry(clock);
  return { clock, reg };
}

describe('AccountRegistry: accounts and sub-accounts', () => {
  it('opens master accounts with random or given ids', () => {
    const { reg } = setup();
    const a = reg.createMasterAccount();
    expect(a.accountId).toMatch(/^[0-9a-f-]{36}$/);
    expect(reg.createMasterAccount({ accountId: 'ABCDEF00-0000-4000-8000-000000000001' }).accountId).toBe(
      'abcdef00-0000-4000-8000-000000000001',
    );
    expect(reg.has(a.accountId)).toBe(true);
    expect(reg.isSubaccount(a.accountId)).toBe(false);
  });

  it('creates sub-accounts of a master and lists them newest first', async () => {
    const { clock, reg } = setup();
    const { accountId } = reg.createMasterAccount();
    const s1 = reg.createSubaccount(accountId);
    await clock.advance(1000);
    const s2 = reg.createSubaccount(accountId);
    const s3 = reg.createSubaccount(accountId); // same createdAt as s2: creation order breaks the tie
    expect(s1.createdAt.toISOString()).toBe('2021-06-14T00:00:00.000Z');
    expect(reg.subaccountsOf(accountId).map((s) => s.id)).toEqual([s3.id, s2.id, s1.id]);
    expect(reg.masterOf(s1.id)).toBe(accountId);
    expect(reg.isSubaccount(s1.id)).toBe(true);
  });

  it('refuses a sub-account of a sub-account with SUBACCOUNT_OF_SUBACCOUNT_NOT_ALLOWED', () => {
    const { reg } = setup();
    const { accountId } = reg.createMasterAccount();
    const sub = reg.createSubaccount(accountId);
    const e = refusal(() => reg.createSubaccount(sub.id));
    expect([e.status, e.code]).toEqual([403, 'SUBACCOUNT_OF_SUBACCOUNT_NOT_ALLOWED']);
    expect(reg.subaccountsOf(sub.id)).toEqual([]);
  });

  it('pages GET /subaccounts and reads one sub-account of the caller only', () => {
    const { reg } = setup();
    const m1 = reg.createMasterAccount().accountId;
    const m2 = reg.createMasterAccount().accountId;
    const subs = Array.from({ length: 5 }, () => reg.createSubaccount(m1)).reverse();
    const other = reg.createSubaccount(m2);
    const p1 = reg.listSubaccounts(m1, { pageSize: 2 });
    expect(p1.map((s) => s.id)).toEqual([subs[0]!.id, subs[1]!.id]);
    const p2 = reg.listSubaccounts(m1, { pageSize: 2, nextPageToken: p1[1]!.id });
    expect(p2.map((s) => s.id)).toEqual([subs[2]!.id, subs[3]!.id]);
    expect(reg.listSubaccounts(m1, { pageSize: 2, previousPageToken: p2[0]!.id })).toEqual(p1);
    expect(reg.getSubaccount(m1, subs[4]!.id).id).toBe(subs[4]!.id);
    const e = refusal(() => reg.getSubaccount(m1, other.id));
    expect([e.status, e.code]).toEqual([404, 'SUBACCOUNT_NOT_FOUND']);
    expect(refusal(() => reg.listSubaccounts(m1, { nextPageToken: other.id })).code).toBe('INVALID_NEXT_PAGE_TOKEN');
  });

  it('answers GET /account with accountId for a master and subaccountId for a sub-account', () => {
    const { reg } = setup();
    const { accountId } = reg.createMasterAccount();
    const sub = reg.createSubaccount(accountId);
    expect(reg.accountInfo(accountId)).toEqual({ accountId });
    expect(reg.accountInfo(sub.id)).toEqual({ subaccountId: sub.id });
  });
});

describe('AccountRegistry: API keys and acting accounts', () => {
  it('issues 32-hex keys and secrets with scopes, or the given ones', () => {
    const { reg } = setup();
    const { accountId } = reg.createMasterAccount();
    const k = reg.createApiKey(accountId, ['view', 'trade']);
    expect(k.apiKey).toMatch(/^[0-9a-f]{32}$/);
    expect(k.apiSecret).toMatch(/^[0-9a-f]{32}$/);
    expect(reg.findKey(k.apiKey)).toEqual({ apiKey: k.apiKey, accountId, secret: k.apiSecret, scopes: ['view', 'trade'] });
    const fixed = reg.createApiKey(accountId, ['withdraw'], { apiKey: 'KEY1', apiSecret: 'SECRET1' });
    expect(fixed).toEqual({ apiKey: 'KEY1', apiSecret: 'SECRET1' });
    expect(reg.findKey('key1')?.secret).toBe('SECRET1');
    expect(reg.keyHasScope('KEY1', 'withdraw')).toBe(true);
    expect(reg.keyHasScope('KEY1', 'trade')).toBe(false);
    expect(reg.findKey('nope')).toBeUndefined();
  });

  it('refuses empty or unknown scopes and duplicate keys', () => {
    const { reg } = setup();
    const { accountId } = reg.createMasterAccount();
    expect(() => reg.createApiKey(accountId, [])).toThrow();
    expect(() => reg.createApiKey(accountId, ['admin' as never])).toThrow();
    reg.createApiKey(accountId, ['view'], { apiKey: 'k' });
    expect(() => reg.createApiKey(accountId, ['view'], { apiKey: 'K' })).toThrow();
  });

  it('resolves the key account, or an owned sub-account named by Api-Subaccount-Id', () => {
    const { reg } = setup();
    const { accountId } = reg.createMasterAccount();
    const sub = reg.createSubaccount(accountId);
    const { apiKey } = reg.createApiKey(accountId, ['view']);
    expect(reg.resolveActor(apiKey)).toBe(accountId);
    expect(reg.resolveActor(apiKey, '')).toBe(accountId);
    expect(reg.resolveActor(apiKey, sub.id.toUpperCase())).toBe(sub.id);
  });

  it('answers 401 APIKEY_INVALID for an unknown key', () => {
    const { reg } = setup();
    const e = refusal(() => reg.resolveActor('nope'));
    expect([e.status, e.code]).toEqual([401, 'APIKEY_INVALID']);
  });

  it('answers 403 FORBIDDEN alike for an unknown sub-account, another master\'s, a master id, or a sub-account key', () => {
    const { reg } = setup();
    const m1 = reg.createMasterAccount().accountId;
    const m2 = reg.createMasterAccount().accountId;
    const own = reg.createSubaccount(m1);
    const foreign = reg.createSubaccount(m2);
    const { apiKey } = reg.createApiKey(m1, ['view']);
    const subKey = reg.createApiKey(own.id, ['view']).apiKey;
    for (const [key, subId] of [
      [apiKey, foreign.id],
      [apiKey, '00000000-0000-4000-8000-000000000000'],
      [apiKey, m2],
      [subKey, own.id],
    ] as const) {
      const e = refusal(() => reg.resolveActor(key, subId));
      expect([e.status, e.code]).toEqual([403, 'FORBIDDEN']);
    }
    // A sub-account's own key acts for the sub-account itself.
    expect(reg.resolveActor(subKey)).toBe(own.id);
  });

  it('keeps the allowed-address requirement off by default and settable per account', () => {
    const { reg } = setup();
    const { accountId } = reg.createMasterAccount();
    expect(reg.requiresAllowedAddresses(accountId)).toBe(false);
    reg.setRequireAllowedAddresses(accountId, true);
    expect(reg.requiresAllowedAddresses(accountId)).toBe(true);
  });
});
