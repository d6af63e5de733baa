/**
 * Property test: random fund flows (deposits pending and immediate, confirmations, rejections, withdrawals with
 * valid and invalid addresses, cancellations, transfers in both directions, time passing) driven by a seeded
 * PRNG. After every step every currency is conserved, no balance is negative, held never exceeds total, and the
 * held amount of each account equals what its open withdrawals reserve.
 */
import { describe, expect, it } from 'vitest';
import { type Decimal, ZERO, dec } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import type { SimEvent } from '../../src/sim/events.js';
import { expectConserved, fundsFixture } from './funds-fixture.js';

const CURRENCIES = ['BTC', 'ETH', 'XRP'] as const;
const OPEN = new Set(['REQUESTED', 'AUTHORIZED', 'PENDING', 'ERROR_INVALID_ADDRESS']);

describe.each([1, 7, 42, 2021])('funds conservation (seed %i)', (seed) => {
  it('conserves every currency through random flows', async () => {
    const { funds, ledger, clock, config, events } = fundsFixture();
    const rnd = mulberry32(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const amount = (max: number): Decimal => dec((Math.floor(rnd() * max * 1e4) + 1) / 1e4);

    const masters = [funds.accounts.createMasterAccount().accountId, funds.accounts.createMasterAccount().accountId];
    const subs = new Map<string, string[]>(masters.map((m) => [m, [funds.createSubaccount(m).id, funds.createSubaccount(m).id]]));
    const all = [...masters, ...[...subs.values()].flat()];
    const withdrawals: Array<{ account: string; id: string }> = [];
    const pendingDeposits: Array<{ account: string; id: string }> = [];
    let refused = 0;

    for (let step = 0; step < 250; step++) {
      const account = pick(all);
      const cur = pick(CURRENCIES);
      try {
        switch (Math.floor(rnd() * 8)) {
          case 0:
          case 1: {
            const pending = rnd() < 0.3;
            const d = funds.creditDeposit(account, cur, amount(50), { pending });
            if (d.status === 'PENDING') pendingDeposits.push({ account, id: d.id });
            break;
          }
          case 2: {
            const p = pendingDeposits.splice(Math.floor(rnd() * pendingDeposits.length), 1)[0];
            if (!p) break;
            if (rnd() < 0.8) funds.confirmDeposit(p.account, p.id, 1000);
            else funds.rejectDeposit(p.account, p.id, rnd() < 0.5 ? 'ORPHANED' : 'INVALIDATED');
            break;
          }
          case 3: {
            const w = funds.createWithdrawal(account, {
              currencySymbol: cur,
              quantity: amount(20).plus(dec(3 * Number(config.currencies.find((c) => c.symbol === cur)!.txFee))),
              cryptoAddress: rnd() < 0.2 ? 'invalid-destination' : 'dest-address',
            });
            withdrawals.push({ account, id: w.id });
            break;
          }
          case 4: {
            const w = pick(withdrawals.length ? withdrawals : [undefined]);
            if (w) funds.cancelWithdrawal(w.account, w.id);
            break;
          }
          case 5:
          case 6: {
            const master = funds.accounts.masterOf(account);
            if (master === undefined) {
              funds.createTransfer(account, { toSubaccountId: pick(subs.get(account)!), currencySymbol: cur, amount: amount(10) });
            } else {
              funds.createTransfer(account, { toMasterAccount: true, currencySymbol: cur, amount: amount(10) });
            }
            break;
          }
          default:
            await clock.advance(Math.floor(rnd() * 2 * config.withdrawalStepMs));
        }
      } catch (e) {
        // Refusals (INSUFFICIENT_FUNDS, WITHDRAWAL_NOT_CANCELLABLE, ...) are part of the flow; state must be intact.
        if (!(e instanceof Error) || e.name !== 'SimError') throw e;
        refused++;
      }

      expectConserved(ledger);
      for (const acc of all) {
        for (const c of CURRENCIES) {
          const b = ledger.get(acc, c);
          expect(b.total.isNegative() || b.held.isNegative() || b.held.gt(b.total)).toBe(false);
          let reserved = ZERO;
          for (const w of funds.openWithdrawals(acc, { currencySymbol: c })) if (OPEN.has(w.status)) reserved = reserved.plus(w.quantity);
          expect(b.held.toFixed()).toBe(reserved.toFixed());
        }
      }
    }
    // Drain: every withdrawal ends, holds go to zero, and the balance stream matches the ledger.
    await clock.advance(10 * config.withdrawalStepMs);
    for (const w of withdrawals) {
      if (funds.withdrawal(w.account, w.id).status === 'ERROR_INVALID_ADDRESS') funds.cancelWithdrawal(w.account, w.id);
    }
    expectConserved(ledger);
    expect(refused).toBeGreaterThan(0);
    expect(withdrawals.some((w) => funds.withdrawal(w.account, w.id).status === 'COMPLETED')).toBe(true);
    expect(all.some((a) => funds.sentTransfers(a).length > 0)).toBe(true);
    const lastDelta = new Map<string, Extract<SimEvent, { kind: 'balance' }>>();
    const seqs = new Map<string, number[]>();
    for (const e of events) {
      if (e.kind !== 'balance') continue;
      lastDelta.set(`${e.accountId}/${e.delta.currencySymbol}`, e);
      seqs.set(e.accountId, [...(seqs.get(e.accountId) ?? []), e.sequence]);
    }
    for (const [acc, s] of seqs) {
      expect(s).toEqual(Array.from({ length: s.length }, (_, i) => i + 1));
      expect(funds.balancesSequence(acc)).toBe(s.length);
    }
    for (const acc of all) {
      for (const c of CURRENCIES) {
        const b = ledger.get(acc, c);
        expect(b.held.isZero()).toBe(true);
        const ev = lastDelta.get(`${acc}/${c}`);
        expect(ev ? ev.delta.total.toFixed() : '0').toBe(b.total.toFixed());
      }
    }
  });
});
