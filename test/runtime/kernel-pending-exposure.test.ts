/**
 * Pending orders count, end to end (issue 14, item 4): a Kernel quoting a 3-level ladder of 0.01 BTC per side with
 * `maxPosition` 0.025 against the in-process simulator, in virtual time. Each quote alone fits the limit; together
 * three bids could take the position to 0.03. The risk engine counts every bid still resting or in flight
 * (OrderManager.pendingOrders), so the exchange never holds more open bids (nor asks) than the limit allows, and
 * the third level is denied MAX_POSITION. Nobody takes the quotes, so the position stays flat.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { dec, ZERO } from '../../src/core/decimal.js';
import { createSimGateway } from '../../src/gateway/sim-gateway.js';
import type { OrderEvent } from '../../src/orders/order-events.js';
import { defaultRiskConfig } from '../../src/risk/risk-config.js';
import { Kernel } from '../../src/runtime/kernel.js';
import { createMarketDriver } from '../../src/sim/driver/market-driver.js';
import { createSimEngine } from '../../src/sim/engine.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { createMetrics } from '../../src/telemetry/metrics.js';
import { repoPath } from '../helpers/shared.js';
import { startOnVirtualClock } from '../helpers/start-on-virtual-clock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('max position with resting and in-flight orders', () => {
  it('never has more open bids or asks on the exchange than the position limit allows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rexbot-pending-'));
    dirs.push(dir);
    const clock = new VirtualClock(Date.parse('2024-03-01T00:00:00Z'));
    const engine = createSimEngine({ clock });
    const driver = createMarketDriver(engine, clock, { kind: 'synthetic', seed: 11, markets: ['BTC-USD'], takers: { ratePerMinute: 0 } });
    const account = engine.createParticipant({ USD: dec('1000000'), BTC: dec('10') });
    const gateway = createSimGateway(engine, account);
    driver.start();
    const kernel = await Kernel.create({
      gateway,
      clock,
      logger: createLogger({ level: 'silent' }),
      metrics: createMetrics(),
      strategies: [{ name: 'mm', use: 'market-maker', markets: ['BTC-USD'], params: { levels: 3, size: '0.01', throttleMs: 500 } }],
      risk: { ...defaultRiskConfig(), maxPosition: { default: dec('0.025'), markets: {} } },
      journalPath: join(dir, 'journal.jsonl'),
      depth: 25,
      baseDir: repoPath(),
      onStrategyFailure: 'cancel',
    });
    const events: OrderEvent[] = [];
    kernel.orders.events$.subscribe((e) => events.push(e));
    await startOnVirtualClock(kernel, clock);

    let most = { bids: ZERO, asks: ZERO };
    for (let t = 0; t < 60; t++) {
      await clock.advance(1_000);
      const open = engine.trading.reads.openOrders(account).data;
      const sum = (d: 'BUY' | 'SELL') => open.filter((o) => o.direction === d).reduce((s, o) => s.plus(o.quantity!.minus(o.fillQuantity)), ZERO);
      const bids = sum('BUY');
      const asks = sum('SELL');
      if (bids.gt(most.bids)) most = { ...most, bids };
      if (asks.gt(most.asks)) most = { ...most, asks };
    }
    expect(kernel.portfolio.position('BTC-USD').isZero()).toBe(true);
    expect(most.bids.toFixed()).toBe('0.02');
    expect(most.asks.toFixed()).toBe('0.02');
    const denied = events.filter((e): e is Extract<OrderEvent, { type: 'denied' }> => e.type === 'denied');
    expect(denied.some((d) => d.reasons.some((r) => r.code === 'MAX_POSITION'))).toBe(true);

    await kernel.stop({ cancelOpenOrders: true });
    driver.stop();
    await gateway.close();
    engine.dispose();
  });
});
