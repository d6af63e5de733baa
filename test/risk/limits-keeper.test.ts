/**
 * LimitsKeeper: journals the limit state at start, at once when something a restart needs changes (day, day open,
 * peaks, restriction), the last equity alone at most every `equityEveryMs`, and once more on close; and
 * restoreLimitState carries a saved state on exactly (see test/runtime/kernel-limits-restart.test.ts for the
 * kernel over a real journal).
 */
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { LimitsKeeper, type LimitsSnapshot, restoreLimitState } from '../../src/risk/limits-keeper.js';
import { RiskEngine } from '../../src/risk/risk-engine.js';
import { config, fixture, lvl } from './fixture.js';

const setMid = (fx: ReturnType<typeof fixture>, mid: number) => fx.book('BTC-USD', [lvl('5', String(mid - 1))], [lvl('5', String(mid + 1))]);

describe('LimitsKeeper', () => {
  it('writes at start, on a new peak at once, a falling equity at most every equityEveryMs, and on close', async () => {
    const fx = fixture();
    fx.fill('BUY', '1', '30000');
    const engine = new RiskEngine(config({ maxDrawdown: dec('5000') }), fx.ctx);
    const written: LimitsSnapshot[] = [];
    const keeper = new LimitsKeeper({ clock: fx.clock, portfolio: fx.portfolio, risk: engine, checkEveryMs: 1_000, equityEveryMs: 10_000, write: (s) => written.push(s) });
    keeper.start();
    expect(written).toHaveLength(1);
    setMid(fx, 30100); // new peak: written at the next check
    await fx.clock.advance(1_000);
    expect(written.map((w) => w.risk.peak.toFixed())).toEqual(['0', '100']);
    setMid(fx, 30050); // a deeper maximum drawdown: written at once
    await fx.clock.advance(1_000);
    expect(written.map((w) => w.curve.maxDrawdown.toFixed())).toEqual(['0', '0', '50']);
    setMid(fx, 30070); // only the last equity changed: written once 10 s have passed since the last write
    await fx.clock.advance(5_000);
    expect(written).toHaveLength(3);
    await fx.clock.advance(5_000);
    expect(written).toHaveLength(4);
    expect(written[3]!.curve.equity.toFixed()).toBe('70');
    engine.halt('operator');
    await fx.clock.advance(1_000);
    expect(written[4]!.risk).toMatchObject({ state: 'HALTED', cause: 'manual', reason: 'operator' });
    keeper.close();
    expect(written).toHaveLength(6);
    engine.close();

    // A fresh portfolio and engine with the same position carry on from the last snapshot.
    const again = fixture();
    again.fill('BUY', '1', '30000');
    setMid(again, 30050);
    const restored = new RiskEngine(config({ maxDrawdown: dec('5000') }), again.ctx);
    restoreLimitState(written[5], again.portfolio, restored, () => undefined);
    expect(restored.state).toBe('HALTED');
    expect(restored.limitState().peak.toFixed()).toBe('100');
    expect(again.portfolio.equityState().peak.toFixed()).toBe('100');
    restored.close();
  });
});
