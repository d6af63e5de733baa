import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { type Decimal, dec } from '../../src/core/decimal.js';
import { DAY_MS } from '../../src/portfolio/equity-curve.js';
import { type FillEvent, Portfolio } from '../../src/portfolio/portfolio.js';
import { fillEvent } from '../helpers/fill-event.js';

const T0 = Date.parse('2021-06-14T00:00:00Z');
let seq = 0;

/** A fill event; ids are unique unless given. */
function fill(
  direction: 'BUY' | 'SELL',
  quantity: string,
  rate: string,
  opts: { strategy?: string; market?: string; commission?: string; executionId?: string; orderId?: string } = {},
): FillEvent {
  return fillEvent(++seq, { direction, quantity, rate, ...opts, isTaker: true, at: T0 });
}

const s = (d: Decimal | undefined): string | undefined => d?.toString();
const marksOf = (m: Record<string, string>) => (market: string) => (m[market] === undefined ? undefined : dec(m[market]!));

describe('Portfolio positions and realized PnL (FIFO)', () => {
  it('builds a long position and averages its entry', () => {
    const p = new Portfolio({ clock: new VirtualClock(T0) });
    p.onFill(fill('BUY', '1', '100'));
    p.onFill(fill('BUY', '3', '120'));
    expect(s(p.position('BTC-USD'))).toBe('4');
    expect(s(p.avgEntryPrice('BTC-USD', 's1'))).toBe('115'); // (100 + 360) / 4
    expect(s(p.realizedPnl())).toBe('0');
    expect(p.quoteCurrency).toBe('USD');
  });

  it('closes the oldest lots first on a partial close', () => {
    const p = new Portfolio({ clock: new VirtualClock(T0) });
    p.onFill(fill('BUY', '1', '100'));
    p.onFill(fill('BUY', '1', '200'));
    p.onFill(fill('SELL', '1.5', '150'));
    // 1 @100 closed at 150: +50; 0.5 @200 closed at 150: -25.
    expect(s(p.realizedPnl())).toBe('25');
    expect(s(p.position('BTC-USD'))).toBe('0.5');
    expect(s(p.avgEntryPrice('BTC-USD', 's1'))).toBe('200');
    // Remaining 0.5 @200 marked at 180: -10.
    expect(s(p.unrealizedPnl(marksOf({ 'BTC-USD': '180' })))).toBe('-10');
  });

  it('flips long to short: the rest of the fill opens a short at the fill rate', () => {
    const p = new Portfolio({ clock: new VirtualClock(T0) });
    p.onFill(fill('BUY', '2', '100', { commission: '0.5' }));
    p.onFill(fill('SELL', '3', '110', { commission: '0.75' }));
    expect(s(p.position('BTC-USD'))).toBe('-1');
    expect(s(p.avgEntryPrice('BTC-USD', 's1'))).toBe('110');
    // 2 × (110 - 100) - 1.25 commission
    expect(s(p.realizedPnl())).toBe('18.75');
    expect(s(p.commission())).toBe('1.25');
    // Short 1 @110 marked at 90: +20; at 130: -20.
    expect(s(p.unrealizedPnl(marksOf({ 'BTC-USD': '90' })))).toBe('20');
    expect(s(p.unrealizedPnl(marksOf({ 'BTC-USD': '130' })))).toBe('-20');
    // Cover the short at 105 and go long 1 @105.
    p.onFill(fill('BUY', '2', '105'));
    expect(s(p.realizedPnl())).toBe('23.75'); // + (110 - 105)
    expect(s(p.position('BTC-USD'))).toBe('1');
    expect(s(p.avgEntryPrice('BTC-USD', 's1'))).toBe('105');
  });

  it('keeps short positions: sells open, buys close', () => {
    const p = new Portfolio({ clock: new VirtualClock(T0) });
    p.onFill(fill('SELL', '0.3', '50000'));
    p.onFill(fill('SELL', '0.1', '51000'));
    p.onFill(fill('BUY', '0.35', '49000'));
    // 0.3 × (50000 - 49000) + 0.05 × (51000 - 49000) = 300 + 100
    expect(s(p.realizedPnl())).toBe('400');
    expect(s(p.position('BTC-USD'))).toBe('-0.05');
    expect(p.avgEntryPrice('BTC-USD', 's1')?.toString()).toBe('51000');
  });

  it('is exact with 8-decimal wire amounts (no binary rounding)', () => {
    const p = new Portfolio({ clock: new VirtualClock(T0) });
    for (let i = 0; i < 10; i++) p.onFill(fill('BUY', '0.1', '0.00000003', { market: 'DOGE-BTC', commission: '0.00000001' }));
    p.onFill(fill('SELL', '1', '0.00000004', { market: 'DOGE-BTC' }));
    expect(s(p.position('DOGE-BTC'))).toBe('0');
    // gain 1 × (0.00000004 − 0.00000003) = 0.00000001, commission 10 × 0.00000001
    expect(s(p.realizedPnl())).toBe('-0.00000009');
    expect(s(p.commission())).toBe('0.0000001');
  });

  it('keeps strategies apart and sums them when asked for all', () => {
    const p = new Portfolio({ clock: new VirtualClock(T0) });
    p.onFill(fill('BUY', '1', '100', { strategy: 'a' }));
    p.onFill(fill('SELL', '0.4', '100', { strategy: 'b' }));
    p.onFill(fill('SELL', '1', '110', { strategy: 'a' }));
    expect(s(p.position('BTC-USD', 'a'))).toBe('0');
    expect(s(p.position('BTC-USD', 'b'))).toBe('-0.4');
    expect(s(p.position('BTC-USD'))).toBe('-0.4');
    expect(s(p.realizedPnl('a'))).toBe('10');
    expect(s(p.realizedPnl('b'))).toBe('0');
    expect(p.strategies().sort()).toEqual(['a', 'b']);
    expect(p.positions('b').map((v) => [v.marketSymbol, v.quantity.toString()])).toEqual([['BTC-USD', '-0.4']]);
  });

  it('ignores a replayed fill (same order and execution id)', () => {
    const p = new Portfolio({ clock: new VirtualClock(T0) });
    const f = fill('BUY', '1', '100');
    const seen: string[] = [];
    p.changes$.subscribe((e) => seen.push(e.executionId));
    p.onFill(f);
    p.onFill({ ...f });
    expect(s(p.position('BTC-USD'))).toBe('1');
    expect(seen).toEqual([f.executionId]);
  });

  it('rejects impossible fills', () => {
    const p = new Portfolio({ clock: new VirtualClock(T0) });
    expect(() => p.onFill(fill('BUY', '0', '100'))).toThrow(RangeError);
    expect(() => p.onFill(fill('BUY', '1', '-1'))).toThrow(RangeError);
    expect(() => p.onFill(fill('BUY', '1', '1', { commission: '-0.1' }))).toThrow(RangeError);
    expect(s(p.position('BTC-USD'))).toBe('0');
  });
});

describe('Portfolio equity, drawdown and daily PnL', () => {
  it('values open positions at marks, falling back to the last fill rate', () => {
    const p = new Portfolio({ clock: new VirtualClock(T0) });
    p.onFill(fill('BUY', '2', '100', { commission: '1' }));
    expect(s(p.equity(marksOf({ 'BTC-USD': '110' })))).toBe('19'); // -1 + 2 × 10
    expect(s(p.equity(marksOf({})))).toBe('-1'); // marked at its fill rate
  });

  it('converts other quote currencies through the marks', () => {
    const p = new Portfolio({ clock: new VirtualClock(T0), quoteCurrency: 'USD' });
    p.onFill(fill('BUY', '10', '0.05', { market: 'ETH-BTC' }));
    // 10 ETH bought at 0.05 BTC, marked at 0.06: +0.1 BTC; BTC at 30000 USD -> 3000 USD.
    expect(s(p.unrealizedPnl(marksOf({ 'ETH-BTC': '0.06', 'BTC-USD': '30000' })))).toBe('3000');
    // Through the inverse market USD-BTC (0.0001 BTC per USD): 0.1 / 0.0001.
    expect(s(p.equity(marksOf({ 'ETH-BTC': '0.06', 'USD-BTC': '0.0001' })))).toBe('1000');
    // No link to USD now: valued at the last rate seen (the inverse mark above), and said to be stale.
    expect(p.valueEquity(marksOf({ 'ETH-BTC': '0.06' }))).toEqual({ equity: dec('1000'), stale: ['BTC'], unvalued: [] });
    // Never any rate: left out, and said to be unvalued.
    const fresh = new Portfolio({ clock: new VirtualClock(T0), quoteCurrency: 'USD' });
    fresh.onFill(fill('BUY', '10', '0.05', { market: 'ETH-BTC' }));
    expect(fresh.valueEquity(marksOf({ 'ETH-BTC': '0.06' }))).toEqual({ equity: dec('0'), stale: [], unvalued: ['BTC'] });
    expect(s(p.realizedPnl(undefined, 'BTC'))).toBe('0');
  });

  it('tracks the peak and the max drawdown over marked points', async () => {
    const clock = new VirtualClock(T0);
    const p = new Portfolio({ clock, quoteCurrency: 'USD' });
    p.onFill(fill('BUY', '1', '100'));
    const at = (mid: string) => p.markToMarket(marksOf({ 'BTC-USD': mid })).equity.toString();
    expect(at('120')).toBe('20');
    await clock.advance(1000);
    expect(at('90')).toBe('-10');
    expect(s(p.drawdown())).toBe('30');
    await clock.advance(1000);
    expect(at('130')).toBe('30');
    expect(s(p.drawdown())).toBe('0');
    await clock.advance(1000);
    expect(at('115')).toBe('15');
    expect(s(p.maxDrawdown())).toBe('30');
    expect(s(p.drawdown())).toBe('15');
    expect(p.equityCurve().map((q) => q.equity.toString())).toEqual(['0', '20', '-10', '30', '15']);
  });

  it('measures daily PnL from the equity at the UTC day open', async () => {
    const clock = new VirtualClock(T0 + 10 * 3_600_000); // 10:00 UTC
    const p = new Portfolio({ clock, quoteCurrency: 'USD' });
    p.onFill(fill('BUY', '1', '100', { commission: '0.2' }));
    const marks = (mid: string) => marksOf({ 'BTC-USD': mid });
    // The day the portfolio started in opens at zero.
    expect(s(p.dailyPnl(marks('105')))).toBe('4.8');
    p.markToMarket(marks('110')); // 9.8
    await clock.advanceTo(T0 + DAY_MS - 1);
    p.markToMarket(marks('108')); // 7.8, last point of the day
    await clock.advanceTo(T0 + DAY_MS + 3_600_000);
    // Next day, before any mark: opens at 7.8.
    expect(s(p.dailyPnl(marks('100')))).toBe('-8');
    p.markToMarket(marks('101'));
    p.onFill(fill('SELL', '1', '101'));
    expect(s(p.dailyPnl(marks('999')))).toBe('-7'); // flat: equity 0.8 - 7.8
    expect(s(p.realizedPnl())).toBe('0.8');
  });
});
