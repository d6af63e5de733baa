/**
 * HALTED end to end: a market maker quoting against the simulator server; the operator halts trading; every
 * risk-increasing placement the strategy asks for from then on is denied with TRADING_HALTED, and no new order
 * reaches the exchange (cancels still do: pulling quotes only reduces risk). Resuming lets it quote again.
 */
import { describe, expect, it } from 'vitest';
import type { OrderEvent } from '../../src/orders/order-events.js';
import { engineClosedOrders, engineOpenOrders, stopWithoutCancelling, useE2E, waitFor } from './e2e-harness.js';


const start = useE2E();

type Denied = Extract<OrderEvent, { type: 'denied' }>;

describe('risk HALTED', () => {
  it('denies the strategy\'s new risk-increasing orders with TRADING_HALTED, and none reaches the engine', async () => {
    const t = await start({
      // The bot must stay flat, so that every placement it wants would increase its risk: no noise takers, and
      // quotes 1 % from the mid where the makers (10 bps) cannot reach them however late the bot requotes. (With
      // quotes inside the makers, a maker requoting through a stale quote of a bot on a loaded machine filled it.)
      simYaml: `
demo: { balances: { USD: "100000", BTC: "2" } }
driver:
  kind: synthetic
  seed: 31
  markets: [BTC-USD]
  tickMs: 200
  # The mid moves every tick (so the strategy asks for a new ladder every tick while halted), ~2 bps a tick.
  volatilityPerSqrtSecond: 0.0005
  makers: { halfSpreadBps: 10, requoteThresholdBps: 0 }
  takers: { ratePerMinute: 0 }
`,
      strategies: [{ name: 'mm', use: 'market-maker', markets: ['BTC-USD'], params: { spread: '0.02', levels: 2, size: '0.002', throttleMs: 200 } }],
    });
    await waitFor(() => expect(engineOpenOrders(t)).toHaveLength(4));
    expect(t.kernel.portfolio.position('BTC-USD').isZero()).toBe(true);

    // Halt once nothing is in flight, so every order the engine holds now was sent before the halt.
    await t.kernel.orders.drain();
    t.kernel.risk.halt('test');
    expect(t.kernel.risk.state).toBe('HALTED');
    expect(t.kernel.health()).toMatchObject({ healthy: false, trading: 'HALTED' });
    const submittedBefore = new Set(t.events.flatMap((e) => (e.type === 'submitted' ? [e.clientOrderId] : [])));
    const eventsBefore = t.events.length;

    // The market keeps moving, the strategy keeps asking for new ladders, and risk denies each new quote.
    await waitFor(() => {
      const denied = t.events.slice(eventsBefore).filter((e): e is Denied => e.type === 'denied');
      expect(denied.length).toBeGreaterThanOrEqual(4);
    });
    const after = t.events.slice(eventsBefore);
    const denied = after.filter((e): e is Denied => e.type === 'denied');
    for (const d of denied) {
      expect(d.strategy).toBe('mm');
      expect(d.intentKey).toBe('mm:BTC-USD');
      expect(d.reasons.map((r) => r.code)).toContain('TRADING_HALTED');
    }
    // Nothing new was sent or placed: no submission after the halt, no acceptance of anything sent after it ...
    expect(after.filter((e) => e.type === 'submitted')).toEqual([]);
    expect(after.filter((e) => e.type === 'accepted' && !submittedBefore.has(e.clientOrderId))).toEqual([]);
    // ... and every order the engine has for the account (open or closed) was submitted before the halt.
    await t.kernel.orders.drain();
    const onEngine = [...engineOpenOrders(t), ...engineClosedOrders(t)];
    expect(onEngine.length).toBeGreaterThanOrEqual(4);
    expect(onEngine.filter((o) => !submittedBefore.has(o.clientOrderId ?? ''))).toEqual([]);
    // The denials are counted in metrics, by reason.
    const metrics = await t.metrics.text();
    expect(metrics).toMatch(/rexbot_\w*denial\w*\{[^}]*TRADING_HALTED[^}]*\} [1-9]/);

    // Resumed, the strategy quotes again.
    t.kernel.risk.resume();
    const resumedAt = t.events.length;
    await waitFor(() => expect(t.events.slice(resumedAt).some((e) => e.type === 'accepted')).toBe(true));

    await stopWithoutCancelling(t, ['BTC-USD'], waitFor);
  });
});
