import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { SimEvent } from '../../src/sim/events.js';
import { FEE_ACCOUNT_ID } from '../../src/sim/ledger.js';
import { fundsFixture, refusal, START } from './funds-fixture.js';

type BalanceEvent = Extract<SimEvent, { kind: 'balance' }>;
const balanceEvents = (events: SimEvent[], accountId?: string) =>
  events.filter((e): e is BalanceEvent => e.kind === 'balance' && (accountId === undefined || e.accountId === accountId));

describe('balances', () => {
  it('lists one Balance per currency with a non-zero total or an address, sorted', async () => {
    const { funds, clock, config, ledger } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    expect(funds.balances(accountId)).toEqual({ data: [], sequence: 0 });
    funds.creditDeposit(accountId, 'ETH', dec('2'));
    clock.set(START + 500);
    funds.requestAddress(accountId, 'LTC');
    funds.creditDeposit(accountId, 'BTC', dec('1'));
    const { data } = funds.balances(accountId);
    expect(data.map((b) => [b.currencySymbol, b.total.toString(), b.available.toString()])).toEqual([
      ['BTC', '1', '1'],
      ['ETH', '2', '2'],
      ['LTC', '0', '0'],
    ]);
    expect(data[1]!.updatedAt.getTime()).toBe(START);
    expect(data[0]!.updatedAt.getTime()).toBe(START + 500);
    // A balance that went back to zero leaves the list unless there is an address.
    funds.createWithdrawal(accountId, { currencySymbol: 'ETH', quantity: dec('2'), cryptoAddress: '0xabc' });
    await clock.advance(3 * config.withdrawalStepMs);
    expect(ledger.get(accountId, 'ETH').total.isZero()).toBe(true);
    expect(funds.balances(accountId).data.map((b) => b.currencySymbol)).toEqual(['BTC', 'LTC']);
  });

  it('shows held amounts as total minus available', () => {
    const { funds } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    funds.creditDeposit(accountId, 'BTC', dec('1'));
    funds.createWithdrawal(accountId, { currencySymbol: 'BTC', quantity: dec('0.25'), cryptoAddress: '1abc' });
    const b = funds.balance(accountId, 'BTC');
    expect([b.total.toString(), b.available.toString()]).toEqual(['1', '0.75']);
  });

  it('answers any listed currency (zero when never held) and 404 for unknown ones', async () => {
    const { funds, clock } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    await clock.advance(1234);
    const b = funds.balance(accountId, 'ada');
    expect(b.currencySymbol).toBe('ADA');
    expect([b.total.toString(), b.available.toString()]).toEqual(['0', '0']);
    expect(b.updatedAt.getTime()).toBe(START + 1234);
    const e = refusal(() => funds.balance(accountId, 'NOPE'));
    expect([e.status, e.code]).toEqual([404, 'CURRENCY_DOES_NOT_EXIST']);
  });

  it('publishes a balance event per ledger change, with contiguous sequences per account', async () => {
    const { funds, events, clock, config, ledger } = fundsFixture();
    const master = funds.accounts.createMasterAccount().accountId;
    const sub = funds.createSubaccount(master).id;
    const other = funds.accounts.createMasterAccount().accountId;
    funds.creditDeposit(master, 'BTC', dec('5')); // master 1
    funds.creditDeposit(other, 'BTC', dec('1')); // other 1
    funds.createTransfer(master, { toSubaccountId: sub, currencySymbol: 'BTC', amount: dec('2') }); // master 2, sub 1
    const w = funds.createWithdrawal(sub, { currencySymbol: 'BTC', quantity: dec('1'), cryptoAddress: '1abc' }); // sub 2 (hold)
    funds.cancelWithdrawal(sub, w.id); // sub 3 (release)
    funds.createWithdrawal(master, { currencySymbol: 'BTC', quantity: dec('1'), cryptoAddress: '1abc' }); // master 3
    await clock.advance(3 * config.withdrawalStepMs); // master 4 (debit)
    for (const [acc, n] of [[master, 4], [sub, 3], [other, 1]] as const) {
      const seqs = balanceEvents(events, acc).map((e) => e.sequence);
      expect(seqs).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(funds.balancesSequence(acc)).toBe(n);
      expect(funds.balances(acc).sequence).toBe(n);
    }
    // Each delta is the full balance after the change.
    const last = balanceEvents(events, master).at(-1)!;
    expect([last.delta.currencySymbol, last.delta.total.toString(), last.delta.available.toString()]).toEqual(['BTC', '2', '2']);
    const subDeltas = balanceEvents(events, sub).map((e) => e.delta.available.toString());
    expect(subDeltas).toEqual(['2', '1', '2']);
    // The snapshot at a sequence equals the last delta's state.
    expect(funds.balance(master, 'BTC').total.toString()).toBe(last.delta.total.toString());
    // The fee account's changes are never published.
    ledger.credit(FEE_ACCOUNT_ID, 'BTC', dec('1'));
    expect(balanceEvents(events, FEE_ACCOUNT_ID)).toEqual([]);
  });

  it('publishes changes made by anyone through the ledger (the trading side included)', () => {
    const { funds, events, ledger } = fundsFixture();
    const a = funds.accounts.createMasterAccount().accountId;
    const b = funds.accounts.createMasterAccount().accountId;
    funds.creditDeposit(a, 'USD', dec('100'));
    ledger.hold(a, 'USD', dec('10'));
    ledger.move(a, b, 'USD', dec('10'), { fromHeld: true });
    expect(balanceEvents(events, a).map((e) => [e.sequence, e.delta.total.toString(), e.delta.available.toString()])).toEqual([
      [1, '100', '100'],
      [2, '100', '90'],
      [3, '90', '90'],
    ]);
    expect(balanceEvents(events, b).map((e) => e.delta.total.toString())).toEqual(['10']);
  });

  it('stops publishing after dispose', () => {
    const { funds, events, ledger } = fundsFixture();
    const a = funds.accounts.createMasterAccount().accountId;
    funds.dispose();
    ledger.credit(a, 'BTC', dec('1'));
    expect(balanceEvents(events)).toEqual([]);
  });
});
