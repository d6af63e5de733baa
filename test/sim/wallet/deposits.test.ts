import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { SimEvent } from '../../../src/sim/events.js';
import { fundsFixture, refusal, START } from '../funds-fixture.js';

type DepositEvent = Extract<SimEvent, { kind: 'deposit' }>;
const depositEvents = (events: SimEvent[]) => events.filter((e): e is DepositEvent => e.kind === 'deposit');

describe('deposits', () => {
  it('completes and credits at once when the deposit has minConfirmations', () => {
    const { funds, ledger } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    const d = funds.creditDeposit(accountId, 'btc', dec('1.5'), { txId: 'tx1' });
    expect(d).toMatchObject({ currencySymbol: 'BTC', status: 'COMPLETED', confirmations: 2, txId: 'tx1', source: 'BLOCKCHAIN' });
    expect(d.quantity.toString()).toBe('1.5');
    expect(d.completedAt?.getTime()).toBe(START);
    expect(d.updatedAt.getTime()).toBe(START);
    expect('createdAt' in d).toBe(false);
    expect(ledger.get(accountId, 'BTC').available.toString()).toBe('1.5');
  });

  it('stays PENDING and uncredited until confirmed to minConfirmations', () => {
    const { funds, ledger, clock } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    const d = funds.creditDeposit(accountId, 'LTC', dec('3'), { pending: true });
    expect([d.status, d.confirmations]).toEqual(['PENDING', 0]);
    expect(ledger.get(accountId, 'LTC').total.isZero()).toBe(true);
    clock.set(START + 1000);
    expect(funds.confirmDeposit(accountId, d.id, 5)).toMatchObject({ status: 'PENDING', confirmations: 5 });
    expect(funds.deposit(accountId, d.id).updatedAt.getTime()).toBe(START + 1000);
    expect(ledger.get(accountId, 'LTC').total.isZero()).toBe(true);
    const done = funds.confirmDeposit(accountId, d.id, 6);
    expect(done).toMatchObject({ status: 'COMPLETED', confirmations: 6 });
    expect(ledger.get(accountId, 'LTC').total.toString()).toBe('3');
    // Confirming again is refused; the count cannot go backwards.
    expect(refusal(() => funds.confirmDeposit(accountId, d.id, 7)).status).toBe(409);
    const d2 = funds.creditDeposit(accountId, 'LTC', dec('1'), { confirmations: 3 });
    expect(refusal(() => funds.confirmDeposit(accountId, d2.id, 2)).code).toBe('BAD_REQUEST');
  });

  it('confirms one block per interval of the clock when asked to', async () => {
    const { funds, ledger, clock } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    const d = funds.creditDeposit(accountId, 'BTC', dec('0.1'), { pending: true, confirmationIntervalMs: 600_000 });
    await clock.advance(600_000);
    expect(funds.deposit(accountId, d.id)).toMatchObject({ status: 'PENDING', confirmations: 1 });
    await clock.advance(599_999);
    expect(funds.deposit(accountId, d.id).confirmations).toBe(1);
    await clock.advance(1);
    const done = funds.deposit(accountId, d.id);
    expect([done.status, done.confirmations]).toEqual(['COMPLETED', 2]);
    expect(done.completedAt?.getTime()).toBe(START + 1_200_000);
    expect(ledger.get(accountId, 'BTC').total.toString()).toBe('0.1');
    expect(clock.pendingTimers).toBe(0);
  });

  it('ends a PENDING deposit ORPHANED or INVALIDATED without credit', () => {
    const { funds, ledger } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    const d = funds.creditDeposit(accountId, 'ETH', dec('2'), { pending: true });
    expect(funds.rejectDeposit(accountId, d.id, 'ORPHANED').status).toBe('ORPHANED');
    expect(ledger.get(accountId, 'ETH').total.isZero()).toBe(true);
    expect(refusal(() => funds.rejectDeposit(accountId, d.id, 'INVALIDATED')).status).toBe(409);
  });

  it('refuses unknown currencies and non-positive or over-precise amounts', () => {
    const { funds } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    expect(refusal(() => funds.creditDeposit(accountId, 'NOPE', dec('1'))).code).toBe('CURRENCY_DOES_NOT_EXIST');
    expect(refusal(() => funds.creditDeposit(accountId, 'BTC', dec('0'))).code).toBe('BAD_REQUEST');
    expect(refusal(() => funds.creditDeposit(accountId, 'BTC', dec('0.000000001'))).code).toBe('BAD_REQUEST');
  });

  it('credits FIAT by wire transfer', () => {
    const { funds } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    expect(funds.creditDeposit(accountId, 'USD', dec('1000'))).toMatchObject({ status: 'COMPLETED', source: 'WIRE_TRANSFER' });
  });

  it('publishes a deposit event on arrival and every change, numbered per account, after the credit', () => {
    const { funds, events } = fundsFixture();
    const a = funds.accounts.createMasterAccount().accountId;
    const b = funds.accounts.createMasterAccount().accountId;
    const d = funds.creditDeposit(a, 'BTC', dec('1'), { pending: true });
    funds.creditDeposit(b, 'BTC', dec('1'));
    funds.confirmDeposit(a, d.id, 1);
    funds.confirmDeposit(a, d.id, 2);
    const ea = depositEvents(events).filter((e) => e.accountId === a);
    expect(ea.map((e) => [e.sequence, e.delta.status, e.delta.confirmations])).toEqual([
      [1, 'PENDING', 0],
      [2, 'PENDING', 1],
      [3, 'COMPLETED', 2],
    ]);
    expect(depositEvents(events).filter((e) => e.accountId === b).map((e) => e.sequence)).toEqual([1]);
    // The balance event of the credit precedes the COMPLETED deposit event.
    const iBalance = events.findIndex((e) => e.kind === 'balance' && e.accountId === a);
    const iCompleted = events.findIndex((e) => e.kind === 'deposit' && e.accountId === a && e.delta.status === 'COMPLETED');
    expect(iBalance).toBeGreaterThanOrEqual(0);
    expect(iBalance).toBeLessThan(iCompleted);
    expect(funds.openDeposits(a).sequence).toBe(3);
    expect(funds.depositsSequence(b)).toBe(1);
  });

  it('lists open deposits newest updatedAt first with status and currency filters', () => {
    const { funds, clock } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    const d1 = funds.creditDeposit(accountId, 'BTC', dec('1'), { pending: true });
    clock.set(START + 1000);
    const d2 = funds.creditDeposit(accountId, 'ETH', dec('1'), { pending: true });
    clock.set(START + 2000);
    funds.creditDeposit(accountId, 'BTC', dec('1')); // completed: not open
    funds.confirmDeposit(accountId, d1.id, 1); // d1 updated last
    const open = funds.openDeposits(accountId);
    expect(open.data.map((d) => d.id)).toEqual([d1.id, d2.id]);
    expect(funds.openDeposits(accountId, { status: 'PENDING', currencySymbol: 'eth' }).data.map((d) => d.id)).toEqual([d2.id]);
    expect(refusal(() => funds.openDeposits(accountId, { status: 'COMPLETED' })).code).toBe('BAD_REQUEST');
    expect(refusal(() => funds.openDeposits(accountId, { currencySymbol: 'NOPE' })).code).toBe('CURRENCY_DOES_NOT_EXIST');
  });

  it('answers at most the first 1000 open deposits', () => {
    const { funds } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    for (let i = 0; i < 1005; i++) funds.creditDeposit(accountId, 'BTC', dec('0.001'), { pending: true });
    expect(funds.openDeposits(accountId).data).toHaveLength(1000);
  });

  it('lists closed deposits by completedAt descending with filters, pagination and dates', () => {
    const { funds, clock } = fundsFixture();
    const { accountId } = funds.accounts.createMasterAccount();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.set(START + i * 60_000);
      ids.push(funds.creditDeposit(accountId, i % 2 ? 'ETH' : 'BTC', dec('1')).id);
    }
    clock.set(START + 10 * 60_000);
    const orphan = funds.creditDeposit(accountId, 'BTC', dec('1'), { pending: true });
    funds.rejectDeposit(accountId, orphan.id, 'ORPHANED');
    funds.creditDeposit(accountId, 'BTC', dec('1'), { pending: true }); // still open: never in the closed list
    const newestFirst = [orphan.id, ...[...ids].reverse()];
    expect(funds.closedDeposits(accountId).map((d) => d.id)).toEqual(newestFirst);
    expect(funds.closedDeposits(accountId, { status: 'COMPLETED' }).map((d) => d.id)).toEqual([...ids].reverse());
    expect(funds.closedDeposits(accountId, { status: 'ORPHANED' }).map((d) => d.id)).toEqual([orphan.id]);
    expect(funds.closedDeposits(accountId, { currencySymbol: 'ETH' }).map((d) => d.id)).toEqual([ids[3], ids[1]]);
    const p1 = funds.closedDeposits(accountId, { pageSize: 2 });
    const p2 = funds.closedDeposits(accountId, { pageSize: 2, nextPageToken: p1[1]!.id });
    expect(p2.map((d) => d.id)).toEqual(newestFirst.slice(2, 4));
    expect(funds.closedDeposits(accountId, { pageSize: 2, previousPageToken: p2[0]!.id })).toEqual(p1);
    const window = funds.closedDeposits(accountId, { startDate: new Date(START + 60_000), endDate: new Date(START + 180_000) });
    expect(window.map((d) => d.id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(refusal(() => funds.closedDeposits(accountId, { status: 'PENDING' })).code).toBe('BAD_REQUEST');
    expect(refusal(() => funds.closedDeposits(accountId, { nextPageToken: 'nope' })).code).toBe('INVALID_NEXT_PAGE_TOKEN');
  });

  it('finds deposits by txId and by id, only the account\'s own', () => {
    const { funds } = fundsFixture();
    const a = funds.accounts.createMasterAccount().accountId;
    const b = funds.accounts.createMasterAccount().accountId;
    const d1 = funds.creditDeposit(a, 'BTC', dec('1'), { txId: 'shared' });
    const d2 = funds.creditDeposit(a, 'ETH', dec('1'), { txId: 'shared' });
    funds.creditDeposit(b, 'BTC', dec('1'), { txId: 'shared' });
    expect(funds.depositsByTxId(a, 'shared').map((d) => d.id).sort()).toEqual([d1.id, d2.id].sort());
    expect(funds.depositsByTxId(a, 'other')).toEqual([]);
    expect(funds.deposit(a, d1.id.toUpperCase()).id).toBe(d1.id);
    const e = refusal(() => funds.deposit(b, d1.id));
    expect([e.status, e.code]).toEqual([404, 'NOT_FOUND']);
  });
});
