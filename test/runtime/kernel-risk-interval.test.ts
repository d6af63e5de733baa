/**
 * One periodic re-evaluation of the risk limits in a running kernel: the LimitsKeeper refreshes the risk engine at
 * every check, at the engine's own interval, so the engine's own timer stops once the keeper runs (a second timer
 * only repeated the same evaluation, a second time every interval). The limits must still be judged on time
 * alone: a drawdown with no order evaluated still halts trading at the next interval.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { createSimGateway } from '../../src/gateway/sim-gateway.js';
import { defaultRiskConfig } from '../../src/risk/risk-config.js';
import { Kernel } from '../../src/runtime/kernel.js';
import { createSimEngine } from '../../src/sim/engine.js';
import { createMarketDriver } from '../../src/sim/driver/market-driver.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { createMetrics } from '../../src/telemetry/metrics.js';
import { repoPath } from '../helpers/shared.js';
import { startOnVirtualClock } from '../helpers/start-on-virtual-clock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function startKernel(evaluationIntervalMs: number) {
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-risk-interval-'));
  dirs.push(dir);
  const clock = new VirtualClock(Date.parse('2024-03-01T12:00:00Z'));
  const engine = createSimEngine({ clock });
  const driver = createMarketDriver(engine, clock, { kind: 'synthetic', seed: 3, markets: ['BTC-USD'], takers: { ratePerMinute: 0 } });
  const gateway = createSimGateway(engine, engine.createParticipant({ USD: dec('1000000'), BTC: dec('10') }));
  driver.start();
  const kernel = await Kernel.create({
    gateway,
    clock,
    logger: createLogger({ level: 'silent' }),
    metrics: createMetrics(),
    // No strategy: nothing is evaluated, so only the timers refresh the engine.
    strategies: [],
    risk: { ...defaultRiskConfig(), evaluationIntervalMs, maxDrawdown: dec('100') },
    journalPath: join(dir, 'bot.jsonl'),
    depth: 25,
    baseDir: repoPath(),
    onStrategyFailure: 'cancel',
  });
  const refresh = vi.spyOn(kernel.risk, 'refresh');
  await startOnVirtualClock(kernel, clock);
  return {
    kernel,
    clock,
    refresh,
    async stop() {
      await kernel.stop({ cancelOpenOrders: true });
      driver.stop();
      await gateway.close();
      engine.dispose();
    },
  };
}

describe('the risk engine in a running kernel', () => {
  it.each([1_000, 250])('is refreshed once per interval (%i ms), by the limits keeper alone', async (interval) => {
    const k = await startKernel(interval);
    k.refresh.mockClear();
    for (let i = 0; i < 20; i++) await k.clock.advance(interval);
    expect(k.refresh).toHaveBeenCalledTimes(20);
    await k.stop();
  });

  it('still judges the limits on time alone: a drawdown with no order halts at the next interval', async () => {
    const k = await startKernel(1_000);
    await k.clock.advance(1_000);
    expect(k.kernel.risk.state).toBe('ACTIVE');
    // Equity falls by 150 (over the 100 limit) with no evaluation: a fill's loss, as the portfolio sees it.
    k.kernel.portfolio.onFill({ type: 'fill', strategy: 'x', intentKey: 'k', clientOrderId: 'c', orderId: 'o', executionId: 'e', marketSymbol: 'BTC-USD', direction: 'BUY', quantity: dec('0.0001'), rate: dec('1'), commission: dec('150'), isTaker: false, at: k.clock.now() });
    await k.clock.advance(999);
    await k.clock.advance(1);
    expect(k.kernel.risk.state).toBe('HALTED');
    await k.stop();
  });
});
