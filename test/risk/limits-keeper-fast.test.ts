/**
 * LimitsKeeper compares what a restart needs by the identity of the values it read last time when it can (the
 * fast path) instead of writing them out as JSON at every check. Driven with random states — the same objects
 * again, equal values in new objects, changed values, nested objects — it must write exactly when the plain
 * JSON comparison it replaces would.
 */
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { dec, type Decimal } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import type { EquityCurveState } from '../../src/portfolio/equity-curve.js';
import type { Portfolio } from '../../src/portfolio/portfolio.js';
import { LimitsKeeper } from '../../src/risk/limits-keeper.js';
import { sameAs } from '../helpers/cheap-expect.js';
import type { RiskEngine, RiskLimitState } from '../../src/risk/risk-engine.js';

/** The check as it was: the key and the equity text written out every time. */
class ReferenceKeeper {
  #lastKey: string | undefined;
  #lastEquity: string | undefined;
  #lastWrite = Number.NEGATIVE_INFINITY;
  constructor(
    private readonly read: () => { now: number; curve: EquityCurveState; limits: RiskLimitState },
    private readonly equityEveryMs: number,
  ) {}
  check(force = false): boolean {
    const { now, curve, limits } = this.read();
    const { at: _at, equity, ...kept } = curve;
    const key = JSON.stringify({ kept, limits });
    const equityText = equity.toFixed();
    const changed = key !== this.#lastKey;
    const stale = equityText !== this.#lastEquity && now - this.#lastWrite >= this.equityEveryMs;
    if (!force && !changed && !stale) return false;
    this.#lastKey = key;
    this.#lastEquity = equityText;
    this.#lastWrite = now;
    return true;
  }
}

describe('LimitsKeeper fast comparison', () => {
  for (const seed of [3, 5, 8, 13]) {
    it(`writes exactly when the JSON comparison would (randomized, seed ${seed})`, () => {
      const rnd = mulberry32(seed);
      const pickDec = (): Decimal => dec(['0', '1.5', '2', '-3.25', '100'][Math.floor(rnd() * 5)]!);
      // Same value, new object (and sometimes written with trailing zeros).
      const copy = (d: Decimal): Decimal => dec(rnd() < 0.5 ? d.toFixed() : d.toFixed(4));
      let now = 0;
      let curve: EquityCurveState = { at: 0, equity: dec('0'), peak: dec('0'), maxDrawdown: dec('0'), day: 1, dayOpen: dec('0') };
      let limits: RiskLimitState = { peak: dec('0'), day: 1, resumeBase: undefined, state: 'ACTIVE', cause: undefined, reason: 'started' };
      const clock = { now: () => now, setInterval: () => ({ cancel() {} }) } as unknown as Clock;
      const portfolio = { equityState: () => curve } as unknown as Portfolio;
      const risk = { refresh() {}, limitState: () => limits } as unknown as RiskEngine;
      const written: number[] = [];
      const keeper = new LimitsKeeper({ clock, portfolio, risk, checkEveryMs: 1000, equityEveryMs: 5000, write: (s) => written.push(s.at) });
      const reference = new ReferenceKeeper(() => ({ now, curve, limits }), 5000);
      for (let step = 0; step < 3000; step++) {
        now += Math.floor(rnd() * 1500);
        const r = rnd();
        if (r < 0.4) {
          // nothing changed: the same objects
        } else if (r < 0.5) curve = { ...curve, at: now, equity: rnd() < 0.5 ? copy(curve.equity) : pickDec() };
        else if (r < 0.6) curve = { ...curve, peak: copy(curve.peak), dayOpen: copy(curve.dayOpen), maxDrawdown: copy(curve.maxDrawdown) };
        else if (r < 0.68) curve = { ...curve, peak: pickDec() };
        else if (r < 0.72) curve = { ...curve, day: curve.day + (rnd() < 0.5 ? 1 : 0) };
        else if (r < 0.78) limits = { ...limits, peak: rnd() < 0.5 ? copy(limits.peak) : pickDec() };
        else if (r < 0.83) limits = { ...limits, resumeBase: rnd() < 0.5 ? undefined : { day: curve.day, equity: pickDec() } };
        else if (r < 0.86 && limits.resumeBase) limits.resumeBase.equity = pickDec(); // changed inside the same object
        else if (r < 0.9) limits = { ...limits, state: rnd() < 0.5 ? 'ACTIVE' : 'HALTED', reason: rnd() < 0.5 ? 'started' : 'halted by "ops"' };
        else if (r < 0.93) limits = { ...limits, cause: rnd() < 0.5 ? undefined : 'manual' };
        else if (r < 0.95) limits = { reason: limits.reason, peak: limits.peak, day: limits.day, state: limits.state }; // keys in another order
        const force = rnd() < 0.02;
        // sameAs calls `expect` only for a step that differs: 3000 calls of it were most of this test's time.
        sameAs(keeper.check(force), reference.check(force), () => `step ${step}`);
      }
      expect(written.length).toBeGreaterThan(100);
    });
  }
});
