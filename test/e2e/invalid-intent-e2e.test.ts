/**
 * An invalid intent from a plain JavaScript plugin (issue 9 item 4), end to end against the simulator server:
 * `direction: 'BYU'` is denied INVALID_INTENT at the boundary, before risk, naming the strategy and the field. It
 * is never journaled, never sent, never "ambiguous", never LOST; the same strategy's valid order trades.
 */
import { describe, expect, it } from 'vitest';
import { engineOpenOrders, journaledIds, readJournal, useE2E, waitFor } from './e2e-harness.js';

const start = useE2E();

describe('an invalid intent', () => {
  it('is denied INVALID_INTENT naming the strategy and the field, and nothing is sent for it', async () => {
    const t = await start({
      simYaml: `
demo: { balances: { USD: "100000", BTC: "2" } }
driver: { kind: synthetic, seed: 7, markets: [BTC-USD], tickMs: 200, takers: { ratePerMinute: 0 } }
`,
      strategies: [{ name: 'js', use: '../fixtures/strategies/byu-direction.mjs', markets: ['BTC-USD'] }],
    });
    await waitFor(() => expect(t.events.some((e) => e.type === 'accepted' && e.intentKey === 'fine'), JSON.stringify(t.events)).toBe(true));
    await t.kernel.orders.drain();

    const typo = t.events.filter((e) => e.intentKey === 'typo');
    expect(typo).toEqual([
      {
        type: 'denied',
        strategy: 'js',
        intentKey: 'typo',
        reasons: [{ code: 'INVALID_INTENT', message: `strategy 'js': intent.order.direction must be one of BUY|SELL, got "BYU"` }],
        at: expect.any(Number),
      },
    ]);
    // The one order on the exchange is the valid one, and the journal knows only it.
    const open = engineOpenOrders(t);
    expect(open.map((o) => o.direction)).toEqual(['BUY']);
    expect([...journaledIds(readJournal(t))]).toEqual([open[0]!.clientOrderId]);
    expect(t.kernel.risk.stats().denialsByReason).not.toHaveProperty('INVALID_INTENT');
  });
});
