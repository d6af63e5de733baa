/**
 * A full disk under a running bot (issue 9 item 3), end to end against the simulator server: a market maker
 * quotes; the disk fills mid-record; the journal refuses the orders it cannot record, trading goes HALTED with
 * the reason, /health says unhealthy with the journal's error, and rexbot_journal_errors_total counts. No order
 * reaches the exchange without its record. Space comes back, a person resumes, quoting goes on — and the journal
 * reads back whole: no torn record, every order on the exchange journaled.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseJournal } from '../../src/orders/journal.js';
import { FullDisk } from '../helpers/full-disk.js';
import { engineClosedOrders, engineOpenOrders, journaledIds, readJournal, stopWithoutCancelling, useE2E, waitFor } from './e2e-harness.js';

const start = useE2E();

describe('journal on a full disk, end to end', () => {
  it('halts trading with the reason, reports unhealthy and counts the errors; the journal stays whole', async () => {
    const disk = new FullDisk();
    const t = await start({
      simYaml: `
demo: { balances: { USD: "100000", BTC: "2" } }
driver:
  kind: synthetic
  seed: 31
  markets: [BTC-USD]
  tickMs: 200
  volatilityPerSqrtSecond: 0.003
  makers: { halfSpreadBps: 10, requoteThresholdBps: 0 }
  takers: { ratePerMinute: 0 }
`,
      strategies: [{ name: 'mm', use: 'market-maker', markets: ['BTC-USD'], params: { spread: '0.0004', levels: 2, size: '0.002', throttleMs: 200 } }],
      journalFs: disk,
    });
    await waitFor(() => expect(engineOpenOrders(t)).toHaveLength(4));
    await t.kernel.orders.drain();

    // The disk fills part-way through the next record.
    disk.room = 25;
    await waitFor(() => expect(t.kernel.risk.state).toBe('HALTED'));
    expect(t.kernel.risk.stateReason).toMatch(/^journal cannot be written: .*ENOSPC/);
    expect(t.kernel.health()).toMatchObject({ healthy: false, trading: 'HALTED', journal: { writable: false, error: expect.stringMatching(/ENOSPC/) } });
    expect(await t.metrics.text()).toMatch(/^rexbot_journal_errors_total [1-9]/m);

    // Space comes back; a person resumes; the strategy quotes again.
    disk.room = undefined;
    t.kernel.risk.resume('disk freed');
    const resumedAt = t.events.length;
    await waitFor(() => expect(t.events.slice(resumedAt).some((e) => e.type === 'accepted')).toBe(true));
    expect(t.kernel.journal.writable).toBe(true);

    // Every order the exchange has was journaled, and the journal reads back whole.
    await t.kernel.orders.drain();
    const journaled = journaledIds(readJournal(t));
    const onEngine = [...engineOpenOrders(t), ...engineClosedOrders(t)];
    expect(onEngine.filter((o) => !journaled.has(o.clientOrderId ?? ''))).toEqual([]);
    await stopWithoutCancelling(t, ['BTC-USD'], waitFor);
    const parsed = parseJournal(t.kernel.journal.path, readFileSync(t.kernel.journal.path, 'utf8'));
    expect(parsed.warnings).toEqual([]);
  });
});
