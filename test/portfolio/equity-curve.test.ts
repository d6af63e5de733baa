import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { DAY_MS, EquityCurve, utcDay } from '../../src/portfolio/equity-curve.js';

const T0 = Date.parse('2021-06-14T00:00:00Z');

describe('EquityCurve', () => {
  it('keeps peak and max drawdown when old points are trimmed', () => {
    const curve = new EquityCurve(T0, 3);
    for (const [i, e] of ['10', '-5', '1', '2', '3'].entries()) curve.record(T0 + (i + 1) * 1000, dec(e));
    expect(curve.points().map((p) => p.equity.toString())).toEqual(['1', '2', '3']);
    expect(curve.peak.toString()).toBe('10');
    expect(curve.maxDrawdown.toString()).toBe('15');
    expect(curve.drawdown.toString()).toBe('7');
  });

  it('does not store a point equal to the previous one', () => {
    const curve = new EquityCurve(T0);
    curve.record(T0 + 1, dec('0'));
    curve.record(T0 + 2, dec('1'));
    const p = curve.record(T0 + 3, dec('1'));
    expect(p).toEqual({ at: T0 + 3, equity: dec('1') });
    expect(curve.points()).toHaveLength(2);
  });

  it('opens each UTC day at the last equity recorded before it', () => {
    const curve = new EquityCurve(T0 + 5000);
    expect(curve.dayOpen(T0 + 6000).toString()).toBe('0');
    curve.record(T0 + DAY_MS - 1, dec('4'));
    expect(curve.dayOpen(T0 + DAY_MS).toString()).toBe('4'); // asked before any point of the new day
    curve.record(T0 + DAY_MS + 10, dec('9'));
    curve.record(T0 + DAY_MS + 20, dec('2'));
    expect(curve.dayOpen(T0 + DAY_MS + 30).toString()).toBe('4');
    expect(utcDay(T0 + DAY_MS)).toBe(utcDay(T0) + 1);
  });

  it('carries on from a saved state exactly as if it had never stopped', () => {
    const run = new EquityCurve(T0);
    run.record(T0 + 1_000, dec('10'));
    run.record(T0 + DAY_MS + 1_000, dec('7'));
    const saved = run.state();
    // Same day: the day open and the peak are the saved ones; the next day opens at the last equity.
    const again = new EquityCurve(T0 + DAY_MS + 5_000);
    again.restore(saved);
    expect(again.dayOpen(T0 + DAY_MS + 6_000).toString()).toBe('10');
    again.record(T0 + DAY_MS + 6_000, dec('4'));
    expect(again.peak.toString()).toBe('10');
    expect(again.maxDrawdown.toString()).toBe('6');
    const later = new EquityCurve(T0 + 3 * DAY_MS);
    later.restore(saved);
    expect(later.dayOpen(T0 + 3 * DAY_MS).toString()).toBe('7');
    later.record(T0 + 3 * DAY_MS, dec('5'));
    expect(later.dayOpen(T0 + 3 * DAY_MS + 1).toString()).toBe('7');
  });

  it('rebases on an equity with no history: day open and peak', () => {
    const curve = new EquityCurve(T0);
    curve.rebase(T0 + 10, dec('-300'));
    expect(curve.dayOpen(T0 + 20).toString()).toBe('-300');
    expect(curve.peak.toString()).toBe('-300');
    expect(curve.drawdown.toString()).toBe('0');
  });

  it('trims to the same last points as dropping the oldest at every record, whenever the points are read', () => {
    // The reference: the bounded list with the oldest point removed as soon as it is one too many.
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const maxPoints of [2, 3, 5, 16]) {
      const curve = new EquityCurve(T0, maxPoints);
      const reference: string[] = ['0'];
      let last = '0';
      for (let i = 1; i <= 400; i++) {
        // Repeats are not stored, so some records add nothing: the trimming must count only what is stored.
        const equity = rand() < 0.3 ? last : String(Math.floor(rand() * 20) - 10);
        curve.record(T0 + i, dec(equity));
        if (equity !== last) {
          reference.push(equity);
          if (reference.length > Math.max(2, maxPoints)) reference.shift();
        }
        last = equity;
        expect(curve.last.equity.toString()).toBe(equity);
        if (rand() < 0.2) expect(curve.points().map((p) => p.equity.toString())).toEqual(reference);
      }
      expect(curve.points().map((p) => p.equity.toString())).toEqual(reference);
    }
  });
});
