import { map, NEVER, of, Subject, throwError, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VirtualClock } from '../../src/core/clock.js';
import { dec, ZERO } from '../../src/core/decimal.js';
import type { Intent } from '../../src/model/intent.js';
import { AccountStore } from '../../src/store/account-store.js';
import { MarketStore } from '../../src/store/market-store.js';
import { defineStrategy, type StrategyDefinition } from '../../src/strategy/define-strategy.js';
import { createStrategyContext, type StrategyContext } from '../../src/strategy/strategy-context.js';
import { InvalidIntentError, StrategyFailure } from '../../src/strategy/strategy-errors.js';
import { runStrategy, type StrategyIntent } from '../../src/strategy/strategy-runner.js';
import { createLogger } from '../../src/telemetry/logger.js';

const M = 'BTC-USD';
const noParams = z.strictObject({});

function world() {
  const clock = new VirtualClock(0);
  const marketStore = new MarketStore();
  const account = new AccountStore();
  const events = new Subject<never>();
  const logLines: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (l: string) => void logLines.push(l) } });
  const ctxFor = (name: string): StrategyContext<Record<string, never>> =>
    createStrategyContext({
      name,
      params: {},
      clock,
      logger,
      markets: [M],
      marketStore,
      account,
      portfolio: { position: () => ZERO },
      orderEvents$: events,
    });
  const setBid = (rate: string) =>
    marketStore.resetBook(M, 25, { bid: [{ rate: dec(rate), quantity: dec(1) }], ask: [{ rate: dec(rate).plus(1), quantity: dec(1) }] });
  return { clock, marketStore, ctxFor, setBid, logLines };
}

const place = (key: string): Intent => ({
  kind: 'place',
  key,
  order: { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec(1), limit: dec(100) },
});

/** A strategy emitting one place intent per book update. */
const follower = defineStrategy({
  name: 'follower',
  params: noParams,
  setup: (ctx) => ctx.book$(M).pipe(map((b) => place(`bid-${b.bestBid()!.rate.toString()}`))),
});

function start(def: StrategyDefinition, ctx: StrategyContext<never>) {
  const intents: StrategyIntent[] = [];
  const failures: StrategyFailure[] = [];
  const run = runStrategy(def, ctx, (i) => intents.push(i), (f) => failures.push(f));
  return { run, intents, failures };
}

describe('runStrategy', () => {
  it('delivers intents stamped with the strategy name and clock time', async () => {
    const w = world();
    const a = start(follower, w.ctxFor('follower-1') as never);
    expect(a.run.status).toBe('running');
    await w.clock.advance(1_500);
    w.setBid('100');
    expect(a.intents).toEqual([{ strategy: 'follower-1', intent: place('bid-100'), at: 1_500 }]);
    expect(a.run.intentCount).toBe(1);
    expect(w.logLines.some((l) => l.includes('"strategy":"follower-1"') && l.includes('strategy started'))).toBe(true);
  });

  it('isolates a strategy whose operator throws: it stops, the other goes on', () => {
    const w = world();
    const fragile = defineStrategy({
      name: 'fragile',
      params: noParams,
      setup: (ctx) =>
        ctx.book$(M).pipe(
          map((b) => {
            if (b.bestBid()!.rate.gt(100)) throw new Error('cannot handle prices above 100');
            return place(`fragile-${b.bestBid()!.rate.toString()}`);
          }),
        ),
    });
    const good = start(follower, w.ctxFor('follower') as never);
    const bad = start(fragile, w.ctxFor('fragile') as never);
    w.setBid('99');
    w.setBid('101'); // the fragile strategy throws while the store publishes
    w.setBid('102');
    w.setBid('98');
    expect(good.intents.map((i) => i.intent.key)).toEqual(['bid-99', 'bid-101', 'bid-102', 'bid-98']);
    expect(bad.intents.map((i) => i.intent.key)).toEqual(['fragile-99']);
    expect(bad.run.status).toBe('failed');
    expect(good.run.status).toBe('running');
    expect(bad.failures).toHaveLength(1);
    const f = bad.failures[0]!;
    expect(f).toBeInstanceOf(StrategyFailure);
    expect(f).toMatchObject({ strategy: 'fragile', phase: 'run', code: 'STRATEGY_FAILED' });
    expect((f.cause as Error).message).toBe('cannot handle prices above 100');
    expect(f.message).toBe("strategy 'fragile' failed during run: cannot handle prices above 100");
    expect(bad.run.failure).toBe(f);
    expect(w.logLines.some((l) => l.includes('"strategy":"fragile"') && l.includes('"level":50'))).toBe(true);
  });

  it('reports a throw inside setup as phase setup, and subscribes to nothing', () => {
    const w = world();
    let subscribed = false;
    const broken = defineStrategy({
      name: 'broken-setup',
      params: noParams,
      setup: (ctx) => {
        ctx.book$(M).subscribe(() => (subscribed = true)); // a side subscription, closed on failure
        throw new RangeError('no markets I like');
      },
    });
    const r = start(broken, w.ctxFor('broken-setup') as never);
    w.setBid('100');
    expect(r.run.status).toBe('failed');
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({ phase: 'setup', message: "strategy 'broken-setup' failed during setup: RangeError: no markets I like" });
    expect(subscribed).toBe(false);
  });

  it('rejects a setup that does not return an Observable', () => {
    const w = world();
    const def = defineStrategy({ name: 'promise', params: noParams, setup: (() => Promise.resolve([])) as never });
    const r = start(def, w.ctxFor('promise') as never);
    expect(r.failures[0]).toMatchObject({ phase: 'setup' });
    expect(r.failures[0]!.message).toContain('setup must return an Observable<Intent>, got a Promise');
  });

  it('an async setup that rejects is refused without leaving its rejection unhandled (that would end the process)', async () => {
    const w = world();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const def = defineStrategy({ name: 'async-setup', params: noParams, setup: (async () => { throw new Error('setup went wrong'); }) as never });
      const r = start(def, w.ctxFor('async-setup') as never);
      expect(r.failures[0]).toMatchObject({ phase: 'setup' });
      expect(r.failures[0]!.message).toContain('setup cannot be async');
      // Node reports an unhandled rejection after the microtasks of the turn: wait a macrotask.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('reports an erroring observable once, as phase run', () => {
    const w = world();
    const def = defineStrategy({ name: 'erroring', params: noParams, setup: () => throwError(() => new Error('feed lost')) });
    const r = start(def, w.ctxFor('erroring') as never);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({ phase: 'run', strategy: 'erroring' });
    expect(r.run.status).toBe('failed');
  });

  it('fails a strategy whose own timer callback throws, and cancels its other timers', async () => {
    const w = world();
    const ticks: number[] = [];
    const def = defineStrategy({
      name: 'timer-bug',
      params: noParams,
      setup: (ctx) => {
        ctx.clock.setInterval(() => ticks.push(ctx.clock.now()), 100);
        ctx.clock.setTimeout(() => {
          throw new Error('timer bug');
        }, 250);
        return NEVER;
      },
    });
    const other = start(follower, w.ctxFor('follower') as never);
    const r = start(def, w.ctxFor('timer-bug') as never);
    await w.clock.advance(1_000); // would throw out of advance() if the error escaped
    expect(ticks).toEqual([100, 200]);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({ phase: 'run', message: "strategy 'timer-bug' failed during run: timer bug" });
    w.setBid('100');
    expect(other.intents).toHaveLength(1);
  });

  it('fails a strategy that emits something that is not an intent', () => {
    const w = world();
    const cases: [unknown, string][] = [
      [{ kind: 'buy', key: 'k' }, `emitted an intent of unknown kind "buy"`],
      [{ kind: 'place' }, `emitted a 'place' intent without a key`],
      [42, 'emitted number instead of an intent'],
    ];
    for (const [value, message] of cases) {
      const def = defineStrategy({ name: 'sloppy', params: noParams, setup: () => of(place('first'), value as Intent, place('never')) });
      const r = start(def, w.ctxFor('sloppy') as never);
      expect(r.intents.map((i) => i.intent.key)).toEqual(['first']);
      expect(r.failures).toHaveLength(1);
      expect(r.failures[0]!.cause).toBeInstanceOf(InvalidIntentError);
      expect(r.failures[0]!.message).toContain(message);
    }
  });

  it('fails the strategy, not the process, when the sink throws on its intent', () => {
    const w = world();
    const failures: StrategyFailure[] = [];
    const run = runStrategy(follower, w.ctxFor('follower') as never, () => {
      throw new TypeError('unsupported intent');
    }, (f) => failures.push(f));
    w.setBid('100');
    w.setBid('101');
    expect(run.status).toBe('failed');
    expect(failures).toHaveLength(1);
    expect(run.intentCount).toBe(0);
  });

  it('survives an onFailure handler that throws', () => {
    const w = world();
    const def = defineStrategy({ name: 'x', params: noParams, setup: () => throwError(() => new Error('e')) });
    const run = runStrategy(def, w.ctxFor('x') as never, () => {}, () => {
      throw new Error('handler bug');
    });
    expect(run.status).toBe('failed');
    expect(w.logLines.some((l) => l.includes('onFailure handler threw'))).toBe(true);
  });

  it('stop() ends intents, timers and context subscriptions; status$ reports the transitions', async () => {
    const w = world();
    const seen: string[] = [];
    const def = defineStrategy({
      name: 'stoppable',
      params: noParams,
      setup: (ctx): Observable<Intent> => {
        ctx.every(100).subscribe((n) => seen.push(`tick ${n}`));
        return ctx.book$(M).pipe(map((b) => place(b.bestBid()!.rate.toString())));
      },
    });
    const r = start(def, w.ctxFor('stoppable') as never);
    const statuses: string[] = [];
    r.run.status$.subscribe({ next: (s) => statuses.push(s), complete: () => statuses.push('complete') });
    w.setBid('100');
    await w.clock.advance(100);
    r.run.stop();
    r.run.stop(); // idempotent
    w.setBid('101');
    await w.clock.advance(1_000);
    expect(r.intents.map((i) => i.intent.key)).toEqual(['100']);
    expect(seen).toEqual(['tick 0']);
    expect(w.clock.pendingTimers).toBe(0);
    expect(r.run.status).toBe('stopped');
    expect(r.failures).toEqual([]);
    expect(statuses).toEqual(['running', 'stopped', 'complete']);
    const late: string[] = [];
    r.run.status$.subscribe((s) => late.push(s));
    expect(late).toEqual(['stopped']);
  });

  it('an observable that completes leaves the strategy stopped, not failed', () => {
    const w = world();
    const def = defineStrategy({ name: 'once', params: noParams, setup: () => of(place('only')) });
    const r = start(def, w.ctxFor('once') as never);
    expect(r.intents).toHaveLength(1);
    expect(r.run.status).toBe('stopped');
    expect(r.failures).toEqual([]);
  });
});
