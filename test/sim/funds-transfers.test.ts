import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { IDEMPOTENCY_WINDOW_MS } from '../../src/sim/idempotency.js';
import { expectConserved, fundsFixture, refusal, START } from './funds-fixture.js';

const RID = '0f9e8d7c-6b5a-4c3d-8e2f-1a2b3c4d5e6f';

function partners() {
  const fx = fundsFixture();
  const master = fx.funds.accounts.createMasterAccount().accountId;
  const sub1 = fx.funds.createSubaccount(master).id;
  const sub2 = fx.funds.createSubaccount(master).id;
  fx.funds.creditDeposit(master, 'BTC', dec('10'));
  return { ...fx, master, sub1, sub2 };
}

describe('transfers: moving money', () => {
  it('moves from the master to a sub-account and back, from available balances', () => {
    const { funds, ledger, master, sub1 } = partners();
    const down = funds.createTransfer(master, { toSubaccountId: sub1, currencySymbol: 'btc', amount: dec('3'), requestId: RID });
    expect(down).toMatchObject({ toSubaccountId: sub1, toMasterAccount: false, requestId: RID, currencySymbol: 'BTC' });
    expect(down.amount.toString()).toBe('3');
    expect(down.executedAt.getTime()).toBe(START);
    expect(ledger.get(master, 'BTC').total.toString()).toBe('7');
    expect(ledger.get(sub1, 'BTC').available.toString()).toBe('3');
    const up = funds.createTransfer(sub1, { toMasterAccount: true, currencySymbol: 'BTC', amount: dec('1.25') });
    expect(up).toMatchObject({ toMasterAccount: true });
    expect(up.toSubaccountId).toBeUndefined();
    expect(ledger.get(master, 'BTC').total.toString()).toBe('8.25');
    expect(ledger.get(sub1, 'BTC').total.toString()).toBe('1.75');
    expectConserved(ledger);
  });

  it('refuses a transfer beyond the available balance (held funds do not count)', () => {
    const { funds, ledger, master, sub1 } = partners();
    funds.createWithdrawal(master, { currencySymbol: 'BTC', quantity: dec('9'), cryptoAddress: '1abc' });
    const e = refusal(() => funds.createTransfer(master, { toSubaccountId: sub1, currencySymbol: 'BTC', amount: dec('1.5') }));
    expect([e.status, e.code]).toEqual([409, 'INSUFFICIENT_FUNDS']);
    expect(ledger.get(sub1, 'BTC').total.isZero()).toBe(true);
    expect(funds.sentTransfers(master)).toEqual([]);
  });

  it('enforces partners: master <-> its own sub-accounts only', () => {
    const { funds, master, sub1, sub2 } = partners();
    const otherMaster = funds.accounts.createMasterAccount().accountId;
    const foreignSub = funds.createSubaccount(otherMaster).id;
    funds.createTransfer(master, { toSubaccountId: sub1, currencySymbol: 'BTC', amount: dec('1') });
    const cases: Array<[string, object, number, string]> = [
      [master, { toSubaccountId: foreignSub }, 404, 'SUBACCOUNT_NOT_FOUND'],
      [master, { toSubaccountId: otherMaster }, 404, 'SUBACCOUNT_NOT_FOUND'],
      [master, { toSubaccountId: '00000000-0000-4000-8000-000000000000' }, 404, 'SUBACCOUNT_NOT_FOUND'],
      [master, { toMasterAccount: true }, 400, 'BAD_REQUEST'],
      [master, {}, 400, 'BAD_REQUEST'],
      [master, { toSubaccountId: sub1, toMasterAccount: true }, 400, 'BAD_REQUEST'],
      [sub1, { toSubaccountId: sub2 }, 403, 'NOT_ALLOWED'],
      [sub1, { toSubaccountId: sub1 }, 403, 'NOT_ALLOWED'],
      [master, { toSubaccountId: sub1, amount: dec('0') }, 400, 'BAD_REQUEST'],
      [master, { toSubaccountId: sub1, amount: dec('0.000000001') }, 400, 'BAD_REQUEST'],
      [master, { toSubaccountId: sub1, currencySymbol: 'NOPE' }, 404, 'CURRENCY_DOES_NOT_EXIST'],
    ];
    for (const [actor, body, status, code] of cases) {
      const e = refusal(() => funds.createTransfer(actor, { currencySymbol: 'BTC', amount: dec('0.1'), ...body }));
      expect([e.status, e.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect(funds.sentTransfers(master)).toHaveLength(1);
    expect(funds.sentTransfers(sub1)).toEqual([]);
  });

  it('refuses a repeated requestId for 24 hours with the existing transfer id, per account', async () => {
    const { funds, ledger, clock, master, sub1 } = partners();
    const n = { toSubaccountId: sub1, currencySymbol: 'BTC', amount: dec('1'), requestId: RID };
    const t = funds.createTransfer(master, n);
    const e = refusal(() => funds.createTransfer(master, n));
    expect([e.status, e.code]).toEqual([409, 'REQUESTID_ALREADY_EXISTS']);
    expect(e.data).toEqual({ existingTransferId: t.id });
    expect(ledger.get(sub1, 'BTC').total.toString()).toBe('1');
    // The sub-account has its own key space.
    funds.createTransfer(sub1, { toMasterAccount: true, currencySymbol: 'BTC', amount: dec('0.5'), requestId: RID });
    await clock.advance(IDEMPOTENCY_WINDOW_MS);
    expect(funds.createTransfer(master, n).id).not.toBe(t.id);
    expect(ledger.get(sub1, 'BTC').total.toString()).toBe('1.5');
  });
});

describe('transfers: reading', () => {
  function history() {
    const fx = partners();
    const { funds, clock, master, sub1, sub2 } = fx;
    fx.funds.creditDeposit(master, 'ETH', dec('10'));
    const t: string[] = [];
    const at = (ms: number) => clock.set(START + ms);
    at(1000); t.push(funds.createTransfer(master, { toSubaccountId: sub1, currencySymbol: 'BTC', amount: dec('2') }).id);
    at(2000); t.push(funds.createTransfer(master, { toSubaccountId: sub2, currencySymbol: 'ETH', amount: dec('2') }).id);
    at(3000); t.push(funds.createTransfer(sub1, { toMasterAccount: true, currencySymbol: 'BTC', amount: dec('1') }).id);
    at(4000); t.push(funds.createTransfer(master, { toSubaccountId: sub1, currencySymbol: 'BTC', amount: dec('1') }).id);
    at(5000); t.push(funds.createTransfer(sub2, { toMasterAccount: true, currencySymbol: 'ETH', amount: dec('1') }).id);
    return { ...fx, t };
  }

  it('lists sent transfers newest first with filters, pagination and dates', () => {
    const { funds, master, sub1, sub2, t } = history();
    expect(funds.sentTransfers(master).map((x) => x.id)).toEqual([t[3], t[1], t[0]]);
    expect(funds.sentTransfers(master, { toSubaccountId: sub1.toUpperCase() }).map((x) => x.id)).toEqual([t[3], t[0]]);
    expect(funds.sentTransfers(master, { currencySymbol: 'ETH' }).map((x) => x.id)).toEqual([t[1]]);
    expect(funds.sentTransfers(master, { toMasterAccount: true })).toEqual([]);
    expect(funds.sentTransfers(sub2, { toMasterAccount: true }).map((x) => x.id)).toEqual([t[4]]);
    expect(funds.sentTransfers(master, { pageSize: 1, nextPageToken: t[3] }).map((x) => x.id)).toEqual([t[1]]);
    expect(funds.sentTransfers(master, { pageSize: 5, previousPageToken: t[0] }).map((x) => x.id)).toEqual([t[3], t[1]]);
    expect(funds.sentTransfers(master, { startDate: new Date(START + 2000), endDate: new Date(START + 3000) }).map((x) => x.id)).toEqual([t[1]]);
    expect(refusal(() => funds.sentTransfers(master, { previousPageToken: t[2] })).code).toBe('INVALID_PREVIOUS_PAGE_TOKEN');
    expect(refusal(() => funds.sentTransfers(master, { pageSize: 0 })).code).toBe('BAD_REQUEST');
  });

  it('lists received transfers with the sender side and filters', () => {
    const { funds, master, sub1, sub2, t } = history();
    const got = funds.receivedTransfers(master);
    expect(got.map((x) => x.id)).toEqual([t[4], t[2]]);
    expect(got[0]).toMatchObject({ fromSubaccountId: sub2, fromMasterAccount: false, currencySymbol: 'ETH' });
    expect(funds.receivedTransfers(master, { fromSubaccountId: sub1 }).map((x) => x.id)).toEqual([t[2]]);
    expect(funds.receivedTransfers(master, { fromMasterAccount: true })).toEqual([]);
    const subGot = funds.receivedTransfers(sub1);
    expect(subGot.map((x) => x.id)).toEqual([t[3], t[0]]);
    expect(subGot[0]).toMatchObject({ fromMasterAccount: true });
    expect(subGot[0]!.fromSubaccountId).toBeUndefined();
    expect(funds.receivedTransfers(sub1, { fromMasterAccount: true, currencySymbol: 'BTC', pageSize: 1 }).map((x) => x.id)).toEqual([t[3]]);
  });

  it('reads one transfer from either side, 404 for anyone else', () => {
    const { funds, master, sub1, sub2, t } = history();
    expect(funds.transfer(master, t[0]!)).toMatchObject({ id: t[0], toSubaccountId: sub1 });
    expect(funds.transfer(sub1, t[0]!)).toMatchObject({ id: t[0], fromMasterAccount: true });
    const e = refusal(() => funds.transfer(sub2, t[0]!));
    expect([e.status, e.code]).toEqual([404, 'NOT_FOUND']);
  });
});
