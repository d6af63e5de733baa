import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { RiskVerdict } from '../../src/model/intent.js';
import { DAY_MS } from '../../src/portfolio/equity-curve.js';
import { submitRateCheck } from '../../src/risk/checks/submit-rate.js';
import { type RiskCheck, RiskEngine, type TradingStateChange } from '../../src/risk/risk-engine.js';
import { createMetrics } from '../../src/telemetry/metrics.js';
import { config, fixture, lvl, order, T0 } from './fixture.js';

const codesOf = (v: RiskVerdict): string[] => (v.approved ? [] : v.reasons.map((r) => r.code));

/** Move the BTC-USD book so its mid is `mid` (one unit each side of it). */
function setMid(fx: ReturnType<typeof fixture>, mid: number): void {
  fx.book('BTC-USD', [lvl('5', String(mid - 1))], [lvl('5', String(mid + 1))]);
}

describe('RiskEngine verdicts', () => {
  it('approves a valid order, rounded per the config', () => {
    const fx = fixture();
    const engine = new RiskEngine(config(), fx.ctx);
    const v = engine.evaluate(order({ limit: dec('30000.12345'), quantity: dec('0.0100000001') }));
    expect(v.approved).toBe(true);
    if (v.approved) {
      expect(v.order.limit?.toString()).toBe('30000.123');
      expect(v.order.quantity?.toString()).toBe('0.01');
    }
    engine.close();
  });

  it('collects every reason, not just the first', () => {
    const fx = fixture();
    fx.notLive.add('BTC-USD');
    fx.openOrders.count = 3;
    fx.balances.set('USD', dec('10'));
    const engine = new RiskEngine(
      config({ maxOpenOrders: 3, allowedMarkets: ['ETH-BTC'], precisionPolicy: 'deny', maxNotional: { default: dec('100'), markets: {} } }),
      fx.ctx,
    );
    const v = engine.evaluate(order({ limit: dec('40000.0001'), quantity: dec('0.01') }));
    expect(codesOf(v)).toEqual([
      'STREAM_NOT_LIVE',
      'MARKET_NOT_PERMITTED',
      'RATE_PRECISION',
      'PRICE_BAND',
      'MAX_NOTIONAL',
      'INSUFFICIENT_BALANCE',
      'MAX_OPEN_ORDERS',
    ]);
    engine.close();
  });

  it('later checks see the rounded order', () => {
    const fx = fixture();
    const engine = new RiskEngine(config({ minTradeSizePolicy: 'round', maxNotional: { default: dec('2'), markets: {} } }), fx.ctx);
    // 0.00001 BTC is rounded up to 0.0001 BTC (3 USD), which breaks the 2 USD notional limit.
    expect(codesOf(engine.evaluate(order({ quantity: dec('0.00001') })))).toEqual(['DUST', 'MAX_NOTIONAL']);
    engine.close();
  });

  it('counts denials per reason in metrics and stats', async () => {
    const fx = fixture();
    const metrics = createMetrics();
    const engine = new RiskEngine(config({ maxOpenOrders: 1 }), fx.ctx, metrics);
    fx.openOrders.count = 1;
    engine.evaluate(order({ limit: dec('40000') }));
    engine.evaluate(order());
    fx.openOrders.count = 0;
    engine.evaluate(order());
    const text = await metrics.text();
    expect(text).toContain('rexbot_risk_denials_total{reason="MAX_OPEN_ORDERS"} 2');
    expect(text).toContain('rexbot_risk_denials_total{reason="PRICE_BAND"} 1');
    expect(text).toContain('rexbot_risk_evaluations_total{verdict="approved"} 1');
    expect(text).toContain('rexbot_risk_evaluations_total{verdict="denied"} 2');
    expect(engine.stats()).toEqual({ evaluated: 3, approved: 1, denied: 2, denialsByReason: { MAX_OPEN_ORDERS: 2, PRICE_BAND: 1 } });
    engine.close();
    // A second engine on the same registry shares the series instead of failing to register them.
    const again = new RiskEngine(config(), fx.ctx, metrics);
    again.close();
  });

  it('limits the submit rate over a rolling window of the clock', async () => {
    const fx = fixture();
    const engine = new RiskEngine(config({ submitRate: { maxOrders: 2, windowMs: 1000 } }), fx.ctx);
    expect(engine.evaluate(order()).approved).toBe(true);
    await fx.clock.advance(500);
    expect(engine.evaluate(order()).approved).toBe(true);
    expect(codesOf(engine.evaluate(order()))).toEqual(['SUBMIT_RATE']);
    await fx.clock.advance(500); // the first approval leaves the window
    expect(engine.evaluate(order()).approved).toBe(true);
    expect(codesOf(engine.evaluate(order()))).toEqual(['SUBMIT_RATE']);
    engine.close();
  });

  it('over the submit rate, denies SUBMIT_RATE alone without running the other checks; below it, every reason', async () => {
    const fx = fixture();
    let runs = 0;
    let says: { code: string; message: string }[] = [];
    const probe: RiskCheck = { name: 'dust', check: () => (runs++, says) };
    const rate = config({ submitRate: { maxOrders: 1, windowMs: 1000 } });
    const engine = new RiskEngine(rate, fx.ctx, undefined, { checks: [probe, submitRateCheck] });
    expect(engine.evaluate(order()).approved).toBe(true); // the window (of one) is full now
    says = [{ code: 'DUST', message: 'too small' }];
    expect(codesOf(engine.evaluate(order()))).toEqual(['SUBMIT_RATE']);
    expect(runs).toBe(1);
    await fx.clock.advance(1000); // the approval left the window: every check runs again
    expect(codesOf(engine.evaluate(order()))).toEqual(['DUST']);
    expect(runs).toBe(2);
    expect(engine.stats()).toEqual({ evaluated: 3, approved: 1, denied: 2, denialsByReason: { SUBMIT_RATE: 1, DUST: 1 } });
    engine.close();
    // Without the submit-rate check there is no brake to gate on.
    const off = new RiskEngine(config({ submitRate: { maxOrders: 0, windowMs: 1000 }, disabledChecks: ['submit-rate'] }), fx.ctx, undefined, { checks: [probe, submitRateCheck] });
    expect(codesOf(off.evaluate(order()))).toEqual(['DUST']);
    off.close();
  });

  it('over the submit rate while HALTED, still says TRADING_HALTED first (the gate is for an ACTIVE engine)', () => {
    const fx = fixture();
    const engine = new RiskEngine(config({ submitRate: { maxOrders: 1, windowMs: 1000 } }), fx.ctx);
    expect(engine.evaluate(order()).approved).toBe(true); // the window (of one) is full now
    engine.halt('operator');
    expect(codesOf(engine.evaluate(order()))).toEqual(['TRADING_HALTED', 'SUBMIT_RATE']);
    engine.resume();
    expect(codesOf(engine.evaluate(order()))).toEqual(['SUBMIT_RATE']);
    engine.close();
  });

  it('says when the submit-rate window admits n more orders (the order manager retries a refused ladder then)', async () => {
    const fx = fixture();
    const t0 = fx.clock.now();
    const engine = new RiskEngine(config({ submitRate: { maxOrders: 3, windowMs: 1000 } }), fx.ctx);
    expect(engine.submitSlotAt()).toBeUndefined();
    for (const dt of [0, 100, 100]) {
      await fx.clock.advance(dt);
      expect(engine.evaluate(order()).approved).toBe(true);
    }
    // Approvals at t0, t0+100, t0+200: one more fits when the first leaves, two when the second does; more than
    // the window holds is answered as the whole window.
    expect(engine.submitSlotAt()).toBe(t0 + 1000);
    expect(engine.submitSlotAt(2)).toBe(t0 + 1100);
    expect(engine.submitSlotAt(3)).toBe(t0 + 1200);
    expect(engine.submitSlotAt(9)).toBe(t0 + 1200);
    await fx.clock.advance(800); // t0 + 1000: the first has left
    expect(engine.submitSlotAt()).toBeUndefined();
    expect(engine.submitSlotAt(2)).toBe(t0 + 1100);
    engine.close();
  });

  it('turns a throwing check into a RISK_CHECK_ERROR denial, and skips disabled checks', () => {
    const fx = fixture();
    const boom = { name: 'dust' as const, check: () => { throw new Error('boom'); } };
    const engine = new RiskEngine(config(), fx.ctx, undefined, { checks: [boom] });
    expect(engine.evaluate(order())).toEqual({ approved: false, reasons: [{ code: 'RISK_CHECK_ERROR', message: 'dust: boom' }] });
    engine.close();
    const off = new RiskEngine(config({ disabledChecks: ['dust'] }), fx.ctx, undefined, { checks: [boom] });
    expect(off.evaluate(order()).approved).toBe(true);
    off.close();
  });
});

describe('RiskEngine trading state', () => {
  it('halt() stops risk-increasing orders, lets reducing ones through, and resume() restores', () => {
    const fx = fixture();
    fx.fill('BUY', '0.5', '30000');
    const engine = new RiskEngine(config(), fx.ctx);
    const states: string[] = [];
    engine.state$.subscribe((s) => states.push(`${s.state}:${s.reason}`));
    engine.halt('operator');
    expect(engine.state).toBe('HALTED');
    expect(codesOf(engine.evaluate(order()))).toEqual(['TRADING_HALTED']);
    expect(engine.evaluate(order({ direction: 'SELL', quantity: dec('0.2'), reducesPosition: true })).approved).toBe(true);
    engine.resume();
    expect(engine.evaluate(order()).approved).toBe(true);
    expect(states).toEqual(['ACTIVE:started', 'HALTED:operator', 'ACTIVE:resumed']);
    engine.close();
  });

  it('daily loss -> REDUCING on the clock interval (no orders needed), lifted at the next UTC day', async () => {
    const fx = fixture();
    fx.fill('BUY', '1', '30000');
    const engine = new RiskEngine(config({ dailyLossLimit: dec('500'), evaluationIntervalMs: 60_000 }), fx.ctx);
    const seen: TradingStateChange[] = [];
    engine.state$.subscribe((s) => seen.push(s));
    setMid(fx, 29600); // -400
    await fx.clock.advance(60_000);
    expect(engine.state).toBe('ACTIVE');
    setMid(fx, 29500); // -500: the limit is reached
    await fx.clock.advance(60_000);
    expect(engine.state).toBe('REDUCING');
    expect(seen.at(-1)).toMatchObject({ state: 'REDUCING', at: T0 + 120_000 });
    expect(seen.at(-1)?.reason).toContain('daily loss limit');
    expect(codesOf(engine.evaluate(order()))).toEqual(['TRADING_REDUCING']);
    expect(engine.evaluate(order({ direction: 'SELL', quantity: dec('0.5'), limit: dec('29500'), reducesPosition: true })).approved).toBe(true);
    // Next UTC day: the loss belongs to yesterday.
    const midnight = Math.ceil(T0 / DAY_MS) * DAY_MS;
    await fx.clock.advanceTo(midnight + 60_000);
    expect(engine.state).toBe('ACTIVE');
    expect(seen.at(-1)?.reason).toContain('new UTC day');
    // A fresh loss of the limit within the new day trips it again.
    setMid(fx, 29000);
    expect(codesOf(engine.evaluate(order({ limit: dec('29000') })))).toEqual(['TRADING_REDUCING']);
    engine.close();
  });

  it('daily loss -> HALTED when configured; the halt outlives the day until resume()', async () => {
    const fx = fixture();
    fx.fill('BUY', '1', '30000');
    const engine = new RiskEngine(config({ dailyLossLimit: dec('500'), onDailyLoss: 'HALTED', evaluationIntervalMs: 60_000 }), fx.ctx);
    setMid(fx, 29400);
    await fx.clock.advance(60_000);
    expect(engine.state).toBe('HALTED');
    await fx.clock.advance(DAY_MS);
    expect(engine.state).toBe('HALTED');
    engine.resume();
    // Losses so far are accepted: the same prices do not trip it again...
    await fx.clock.advance(60_000);
    expect(engine.state).toBe('ACTIVE');
    // ...another 500 from the resume does.
    setMid(fx, 28900);
    engine.refresh();
    expect(engine.state).toBe('HALTED');
    engine.close();
  });

  it('max drawdown from the equity peak -> HALTED, a REDUCING state escalates', async () => {
    const fx = fixture();
    fx.fill('BUY', '1', '30000');
    const engine = new RiskEngine(config({ maxDrawdown: dec('1000'), dailyLossLimit: dec('100') }), fx.ctx);
    setMid(fx, 31000); // peak +1000
    engine.refresh();
    expect(engine.state).toBe('ACTIVE');
    setMid(fx, 30500); // -500 from peak, but +500 on the day
    engine.refresh();
    expect(engine.state).toBe('ACTIVE');
    setMid(fx, 29900); // -1100 from peak; daily -100
    engine.refresh();
    expect(engine.state).toBe('HALTED');
    expect(engine.stateReason).toContain('max drawdown');
    // A daily-loss REDUCING never loosens a HALT.
    setMid(fx, 29800);
    engine.refresh();
    expect(engine.state).toBe('HALTED');
    expect(codesOf(engine.evaluate(order({ limit: dec('29800') })))).toEqual(['TRADING_HALTED']);
    expect(fx.portfolio.maxDrawdown().toString()).toBe('1200');
    engine.close();
  });

  it('together(): the evaluations of one plan re-evaluate the limits once, the next plan again', () => {
    const fx = fixture();
    fx.fill('BUY', '1', '30000');
    const engine = new RiskEngine(config({ maxDrawdown: dec('1000') }), fx.ctx);
    setMid(fx, 31000); // peak +1000
    engine.refresh();
    let marks = 0;
    const markToMarket = fx.portfolio.markToMarket.bind(fx.portfolio);
    fx.portfolio.markToMarket = (m) => (marks++, markToMarket(m));
    const verdicts = engine.together(() => [1, 2, 3].map(() => engine.evaluate(order({ limit: dec('30000') }))));
    expect(verdicts.map((v) => v.approved)).toEqual([true, true, true]);
    expect(marks).toBe(1);
    // Nested: still one refresh for the outer plan.
    engine.together(() => engine.together(() => engine.evaluate(order({ limit: dec('30000') }))));
    expect(marks).toBe(2);
    // The market moves between plans (an event, never inside one): the next plan's first evaluation sees it.
    setMid(fx, 29900); // -1100 from the peak
    const next = engine.together(() => [engine.evaluate(order({ limit: dec('29900') })), engine.evaluate(order({ limit: dec('29900') }))]);
    expect(engine.state).toBe('HALTED');
    expect(next.map(codesOf)).toEqual([['TRADING_HALTED'], ['TRADING_HALTED']]);
    // Outside together(), every evaluation refreshes, as before.
    engine.evaluate(order({ limit: dec('29900') }));
    engine.evaluate(order({ limit: dec('29900') }));
    expect(marks).toBe(5);
    engine.close();
  });

  it('close() stops the interval and completes state$', () => {
    const fx = fixture();
    const engine = new RiskEngine(config(), fx.ctx);
    let completed = false;
    engine.state$.subscribe({ complete: () => (completed = true) });
    expect(fx.clock.pendingTimers).toBe(1);
    engine.close();
    expect(fx.clock.pendingTimers).toBe(0);
    expect(completed).toBe(true);
  });
});
