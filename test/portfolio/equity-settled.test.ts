/**
 * EquityCurve.record skips the peak and drawdown comparisons for the equity object it folded last (marks are
 * mostly the same valuation again), and Position.realizedPnl keeps its difference for the values it was made
 * from. Both checked against the plain computation over seeded random runs that repeat objects, record equal
 * values as new objects, restore and rebase the curve, and fill and restore positions.
 */
import { describe, expect, it } from 'vitest';
import { type Decimal, dec, ZERO } from '../../src/core/decimal.js';
import { type EquityCurveState, DAY_MS, EquityCurve, utcDay } from '../../src/portfolio/equity-curve.js';
import { Position } from '../../src/portfolio/position.js';
import { Prng } from '../sync/prng.js';

const T0 = Date.parse('2021-06-14T20:00:00Z');

/** The curve's bookkeeping as record() did it before the fast path: every comparison at every record. */
class ReferenceCurve {
  peak: Decimal = ZERO;
  maxDrawdown: Decimal = ZERO;
  day: number;
  dayOpen: Decimal = ZERO;
  last: { at: number; equity: Decimal };
  constructor(start: number) {
    this.day = utcDay(start);
    this.last = { at: start, equity: ZERO };
  }
  record(at: number, equity: Decimal): void {
    const day = utcDay(at);
    if (day !== this.day) {
      this.dayOpen = this.last.equity;
      this.day = day;
    }
    if (equity.gt(this.peak)) this.peak = equity;
    const dd = this.peak.minus(equity);
    if (dd.gt(this.maxDrawdown)) this.maxDrawdown = dd;
    if (!this.last.equity.eq(equity)) this.last = { at: Math.max(at, this.last.at), equity };
  }
  restore(s: EquityCurveState): void {
    this.last = { at: s.at, equity: s.equity };
    this.peak = s.peak;
    this.maxDrawdown = s.maxDrawdown;
    this.day = s.day;
    this.dayOpen = s.dayOpen;
  }
  rebase(at: number, equity: Decimal): void {
    this.last = { at, equity };
    this.peak = equity;
    this.maxDrawdown = ZERO;
    this.day = utcDay(at);
    this.dayOpen = equity;
  }
}

describe('EquityCurve: the last folded equity again', () => {
  for (const seed of [1, 2, 3, 42]) {
    it(`keeps the same peak, drawdowns, day open and points as comparing every time, seed ${seed}`, () => {
      const rng = new Prng(seed);
      const curve = new EquityCurve(T0, 50);
      const ref = new ReferenceCurve(T0);
      const pool: Decimal[] = [dec('0'), dec('5'), dec('-3')];
      let at = T0;
      for (let i = 0; i < 3000; i++) {
        at += rng.chance(0.01) ? DAY_MS / 3 : rng.int(5000);
        const r = rng.int(100);
        if (r < 2) {
          // A saved state, often of the very equity object recorded last, sometimes above its peak (restore does
          // not judge it): recording that object next must be judged against the restored peak and drawdown.
          const equity = rng.chance(0.5) ? curve.last.equity : rng.pick(pool);
          const s: EquityCurveState = { at, equity, peak: dec(rng.int(10) - 5), maxDrawdown: dec(rng.int(4)), day: utcDay(at), dayOpen: rng.pick(pool) };
          curve.restore(s);
          ref.restore(s);
        } else if (r < 4) {
          const e = rng.chance(0.5) ? curve.last.equity : rng.pick(pool);
          curve.rebase(at, e);
          ref.rebase(at, e);
        } else {
          // Mostly an object already recorded (often the very last one), else a new value or an equal new object.
          let e: Decimal;
          const k = rng.int(10);
          if (k < 5) e = curve.last.equity;
          else if (k < 7) e = rng.pick(pool);
          else if (k < 8) e = dec(rng.pick(pool).toFixed());
          else {
            e = dec(rng.int(40) - 20);
            pool.push(e);
          }
          const point = curve.record(at, e);
          ref.record(at, e);
          expect(point.equity).toBe(e);
        }
        expect(curve.peak.toFixed()).toBe(ref.peak.toFixed());
        expect(curve.maxDrawdown.toFixed()).toBe(ref.maxDrawdown.toFixed());
        expect(curve.drawdown.toFixed()).toBe(ref.peak.minus(ref.last.equity).toFixed());
        expect(curve.dayOpen(at).toFixed()).toBe((utcDay(at) === ref.day ? ref.dayOpen : ref.last.equity).toFixed());
        expect(curve.last.equity.toFixed()).toBe(ref.last.equity.toFixed());
        expect(curve.last.at).toBe(ref.last.at);
      }
    });
  }
});

describe('Position.realizedPnl', () => {
  it('is closed-lot PnL minus commission after every fill and restore, read once or many times', () => {
    const rng = new Prng(5);
    let p = new Position('s', 'BTC-USD', 'USD');
    for (let i = 0; i < 2000; i++) {
      if (rng.chance(0.02)) p = Position.restore(p.snapshot(), 'USD');
      else p.apply(rng.chance(0.5) ? 'BUY' : 'SELL', dec((1 + rng.int(50)) / 100), dec(100 + rng.int(20)), dec(rng.int(3) / 100));
      const s = p.snapshot();
      for (let n = rng.int(3); n >= 0; n--) expect(p.realizedPnl.toFixed()).toBe(s.trading.minus(s.commission).toFixed());
    }
  });
});
