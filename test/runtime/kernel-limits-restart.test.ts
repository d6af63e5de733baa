/**
 * Limits survive a restart (issue 14, item 1): a kernel restarted on the journal of an earlier run carries the
 * day-open equity, the drawdown peak and a halt on exactly as if the process had never stopped. The journal's
 * positions come back with their whole realized PnL; without the limits the last run journaled, that PnL would
 * count as today's (or as a fall from a peak of zero).
 *
 * Each run is a real Kernel over the in-process simulator gateway on a VirtualClock, with its journal on disk in
 * a temp dir; the PnL of earlier trading is written as the checkpoint a compaction leaves (realized PnL, flat).
 * Nobody takes the market maker's quotes (no noise takers), so no run changes the PnL by itself.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { createSimGateway } from '../../src/gateway/sim-gateway.js';
import { encodeRecord } from '../../src/orders/journal-records.js';
import { defaultRiskConfig, type RiskConfig } from '../../src/risk/risk-config.js';
import { Kernel } from '../../src/runtime/kernel.js';
import { createMarketDriver } from '../../src/sim/driver/market-driver.js';
import { createSimEngine } from '../../src/sim/engine.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { createMetrics } from '../../src/telemetry/metrics.js';
import { repoPath } from '../helpers/shared.js';
import { startOnVirtualClock } from '../helpers/start-on-virtual-clock.js';

const logger = createLogger({ level: 'silent' });
const DAY1 = Date.parse('2024-03-01T00:00:00Z');
const HOUR = 3_600_000;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function journalDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rexbot-limits-'));
  dirs.push(d);
  return d;
}

/** Append what a compaction leaves after trading that realized `pnl` USD on BTC-USD and ended flat. */
function writeRealized(path: string, at: number, pnl: string): void {
  const positions = [{ strategy: 'mm', marketSymbol: 'BTC-USD', quantity: dec('0'), lots: [], cost: dec('0'), trading: dec(pnl), commission: dec('0'), lastRate: dec('60000') }];
  appendFileSync(path, `${encodeRecord({ t: 'checkpoint', at, positions })}\n`);
}

interface Run {
  kernel: Kernel;
  clock: VirtualClock;
  advance(ms: number): Promise<void>;
  stop(): Promise<void>;
}

/** A kernel on `journalPath` started at `start`, quoting BTC-USD where nobody trades with it. */
async function run(journalPath: string, start: number, risk: Partial<RiskConfig>): Promise<Run> {
  const clock = new VirtualClock(start);
  const engine = createSimEngine({ clock });
  const driver = createMarketDriver(engine, clock, { kind: 'synthetic', seed: 7, markets: ['BTC-USD'], takers: { ratePerMinute: 0 } });
  const account = engine.createParticipant({ USD: dec('1000000'), BTC: dec('10') });
  const gateway = createSimGateway(engine, account);
  driver.start();
  const kernel = await Kernel.create({
    gateway,
    clock,
    logger,
    metrics: createMetrics(),
    strategies: [{ name: 'mm', use: 'market-maker', markets: ['BTC-USD'], params: {} }],
    risk: { ...defaultRiskConfig(), ...risk },
    journalPath,
    depth: 25,
    baseDir: repoPath(),
    onStrategyFailure: 'cancel',
  });
  await startOnVirtualClock(kernel, clock);
  return {
    kernel,
    clock,
    async advance(ms) {
      for (let t = 0; t < ms; t += 1_000) await clock.advance(1_000);
    },
    async stop() {
      await kernel.stop({ cancelOpenOrders: true });
      driver.stop();
      await gateway.close();
      engine.dispose();
    },
  };
}

const LIMITS = { dailyLossLimit: dec('250'), maxDrawdown: dec('900') };

describe('limits across a restart', () => {
  it('yesterday\'s loss is not today\'s: -300 yesterday, a restart today with no trade stays ACTIVE', async () => {
    const path = join(journalDir(), 'bot.jsonl');
    writeRealized(path, DAY1 + 20 * HOUR, '-300');
    const r = await run(path, DAY1 + 24 * HOUR + 9 * HOUR, LIMITS);
    await r.advance(5_000);
    expect(r.kernel.portfolio.realizedPnl().toFixed()).toBe('-300');
    expect(r.kernel.risk.state).toBe('ACTIVE');
    await r.stop();
  });

  it('the day opens where the last run left it: +1000 yesterday, -400 today restarts REDUCING', async () => {
    const path = join(journalDir(), 'bot.jsonl');
    writeRealized(path, DAY1 + 10 * HOUR, '1000');
    const day1 = await run(path, DAY1 + 12 * HOUR, LIMITS);
    await day1.advance(5_000);
    expect(day1.kernel.risk.state).toBe('ACTIVE');
    await day1.stop();
    // The next morning, a run that lost nothing; then trading lost 400 and the bot restarts the same day.
    const morning = await run(path, DAY1 + 24 * HOUR + 8 * HOUR, LIMITS);
    await morning.advance(5_000);
    expect(morning.kernel.risk.state).toBe('ACTIVE');
    await morning.stop();
    writeRealized(path, DAY1 + 24 * HOUR + 9 * HOUR, '600');
    const later = await run(path, DAY1 + 24 * HOUR + 10 * HOUR, LIMITS);
    await later.advance(5_000);
    expect(later.kernel.risk.state).toBe('REDUCING');
    expect(later.kernel.risk.stateReason).toContain('daily loss limit reached: 400');
    // Drawdown from the 1000 peak is 400, under its 900 limit: no halt.
    await later.stop();
  });

  it('the drawdown peak survives: +1000, then down to 50 over two days and restarts, HALTS at 950 from the peak', async () => {
    const path = join(journalDir(), 'bot.jsonl');
    writeRealized(path, DAY1 + 10 * HOUR, '1000');
    const first = await run(path, DAY1 + 12 * HOUR, LIMITS);
    await first.advance(5_000);
    await first.stop();
    writeRealized(path, DAY1 + 13 * HOUR, '50');
    const next = await run(path, DAY1 + 48 * HOUR, LIMITS);
    await next.advance(5_000);
    expect(next.kernel.risk.state).toBe('HALTED');
    expect(next.kernel.risk.stateReason).toContain('from peak 1000');
    await next.stop();
  });

  it('a halt waits for a person across a restart', async () => {
    const path = join(journalDir(), 'bot.jsonl');
    const first = await run(path, DAY1 + 12 * HOUR, LIMITS);
    first.kernel.risk.halt('operator: checking the exchange');
    await first.advance(2_000);
    await first.stop();
    expect(readFileSync(path, 'utf8')).toContain('"t":"limits"');
    const next = await run(path, DAY1 + 30 * HOUR, LIMITS);
    await next.advance(2_000);
    expect(next.kernel.risk.state).toBe('HALTED');
    expect(next.kernel.risk.stateReason).toBe('operator: checking the exchange');
    next.kernel.risk.resume('checked');
    expect(next.kernel.risk.state).toBe('ACTIVE');
    await next.stop();
  });
});
