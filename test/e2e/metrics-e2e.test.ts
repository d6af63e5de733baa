/**
 * The bot's Prometheus metrics end to end: a market maker quoting against the simulator server gets filled, its
 * hub connection is dropped by the server, it reconnects and resyncs — and /metrics (the registry the ops server
 * serves) counts all of it: orders by outcome, fills, acknowledgement latency, positions and PnL, the reconnect and
 * the resyncs with their cause. Afterwards the bot's memory still agrees with the engine.
 */
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { engineOpenOrders, stopWithoutCancelling, useE2E, waitFor } from './e2e-harness.js';


const start = useE2E();

/** The value of one sample line of the Prometheus text (`name{labels} value`), or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^(\w+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = new Map((m[2] ?? '').split(',').filter(Boolean).map((kv) => kv.split('=') as [string, string]).map(([k, v]) => [k, JSON.parse(v) as string]));
    if (Object.entries(labels).every(([k, v]) => have.get(k) === v)) return Number(m[3]);
  }
  return undefined;
}

describe('metrics', () => {
  it('count orders, fills, ack latency, positions, the reconnect and the resyncs it caused', async () => {
    const t = await start({
      simYaml: `
demo: { balances: { USD: "100000", BTC: "2" } }
driver:
  kind: synthetic
  seed: 5
  markets: [BTC-USD]
  tickMs: 200
  makers: { halfSpreadBps: 10 }
  takers: { ratePerMinute: 0 }
`,
      strategies: [{ name: 'mm', use: 'market-maker', markets: ['BTC-USD'], params: { spread: '0.0004', levels: 1, size: '0.002', throttleMs: 200 } }],
    });
    await waitFor(() => expect(engineOpenOrders(t)).toHaveLength(2));

    // A taker of the test's own hits the bot's bid once.
    const taker = t.participant();
    const bid = engineOpenOrders(t).find((o) => o.direction === 'BUY')!;
    taker.place({ marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.002'), limit: bid.limit! });
    await waitFor(() => expect(t.kernel.portfolio.position('BTC-USD').toFixed()).toBe('0.002'));

    // The server drops every hub socket: the bot reconnects, and every stream resyncs from a new snapshot.
    t.sim.server.hub.closeAll();
    await waitFor(async () => {
      const text = await t.metrics.text();
      expect(sample(text, 'rexbot_stream_reconnects_total')).toBe(1);
      expect(sample(text, 'rexbot_stream_resyncs_total', { stream: 'orderbook_BTC-USD_25', reason: 'closed' })).toBeGreaterThanOrEqual(1);
      expect(t.kernel.live.allLive()).toBe(true);
    });

    const text = await t.metrics.text();
    expect(sample(text, 'rexbot_order_events_total', { type: 'accepted', strategy: 'mm' })).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'rexbot_fills_total', { strategy: 'mm', market: 'BTC-USD' })).toBe(1);
    expect(sample(text, 'rexbot_order_ack_seconds_count', { strategy: 'mm' })).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'rexbot_position', { strategy: 'mm', market: 'BTC-USD' })).toBe(0.002);
    expect(sample(text, 'rexbot_pnl', { strategy: 'mm', kind: 'realized' })).toBeLessThan(0); // the maker fee, nothing closed yet
    expect(sample(text, 'rexbot_trading_state')).toBe(0);

    await stopWithoutCancelling(t, ['BTC-USD'], waitFor);
  });
});
