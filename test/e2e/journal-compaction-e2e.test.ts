/**
 * The journal compacts itself while a bot trades: the example market maker against the simulator server with a
 * tiny compaction threshold. The journal keeps compacting, trading goes on, and afterwards the compacted journal
 * alone (what a restart reads) holds the positions the exchange's fills add up to.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { dec, ZERO } from '../../src/core/decimal.js';
import { parseJournal } from '../../src/orders/journal.js';
import { JournalState } from '../../src/orders/journal-state.js';
import type { OrderEvent } from '../../src/orders/order-events.js';
import { engineOpenOrders, netFilled, stopWithoutCancelling, useE2E, waitFor as waitForHarness } from './e2e-harness.js';

const waitFor = (fn: () => void | Promise<void>) => waitForHarness(fn, 20_000);

const start = useE2E();

const fills = (events: readonly OrderEvent[]) => events.filter((e) => e.type === 'fill');

describe('journal compaction while a bot runs', () => {
  it('the market maker\'s journal compacts by size; the compacted journal restores the positions the exchange shows', async () => {
    const t = await start({
      simYaml: `
demo: { balances: { USD: "100000", BTC: "2" } }
driver:
  kind: synthetic
  seed: 11
  markets: [BTC-USD]
  tickMs: 200
  makers: { halfSpreadBps: 10 }
  takers: { ratePerMinute: 60, clustering: 0 }
`,
      strategies: [{ name: 'mm', use: 'market-maker', markets: ['BTC-USD'], params: { spread: '0.0004', levels: 2, levelSpacing: '0.0005', size: '0.002', throttleMs: 100 } }],
      journalCompactBytes: 4096,
    });
    const journal = t.kernel.journal;
    const compact = vi.spyOn(journal, 'compact');
    const taker = t.participant();
    // Trade against the bot's quotes until it has fills and the journal has compacted a few times.
    await waitFor(() => {
      const open = engineOpenOrders(t);
      const bid = open.filter((o) => o.direction === 'BUY').sort((a, b) => b.limit!.cmp(a.limit!))[0];
      if (bid && fills(t.events).length < 3) {
        taker.place({ marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.002'), limit: bid.limit! });
      }
      expect(fills(t.events).length).toBeGreaterThanOrEqual(3);
      expect(compact.mock.calls.length).toBeGreaterThanOrEqual(3);
    });
    // Each compaction happened at or over the threshold and shrank the file.
    for (const r of compact.mock.results) {
      expect(r.type).toBe('return');
      const { before, after } = r.value as { before: { bytes: number }; after: { bytes: number } };
      expect(before.bytes).toBeGreaterThanOrEqual(4096);
      expect(after.bytes).toBeLessThan(before.bytes);
    }

    // Stores, journal (with its history) and portfolio agree with the engine.
    await stopWithoutCancelling(t, ['BTC-USD'], waitFor);
    const compacted = JournalState.from(parseJournal(journal.path, readFileSync(journal.path, 'utf8')).records);
    const restored = compacted.positions().reduce((sum, p) => sum.plus(p.quantity), ZERO);
    expect(restored.toFixed()).toBe(netFilled(t, 'BTC-USD').toFixed());
    expect(restored.toFixed()).toBe(t.kernel.portfolio.position('BTC-USD', 'mm').toFixed());
    // Every order still open on the exchange is in the compacted journal, acknowledged under its id.
    for (const o of engineOpenOrders(t)) expect(compacted.orders.get(o.clientOrderId!)?.orderId).toBe(o.id);
  });
});
