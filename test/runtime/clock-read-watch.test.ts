/**
 * The rehearsal's watch on wall-clock reads (clock-read-watch.ts): while it runs, `Date` is still exactly Date
 * (`new Date(x)`, `Date.UTC`, `Date.parse`, `instanceof`, subclasses), a strategy's reads are recorded with what and
 * where, rexbot's own reads and a logger's are not, and every original is back when it stops — also when it could
 * not start, and when the rehearsal around it fails. This file is a strategy's code here: neither rexbot's nor a
 * library's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { map, of, timestamp } from 'rxjs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { loadBotConfig } from '../../src/runtime/bot-config.js';
import { watchClockReads, type ClockReadWatch } from '../../src/runtime/clock-read-watch.js';
import { dryRun } from '../../src/runtime/dry-run.js';
import { defineStrategy } from '../../src/strategy/define-strategy.js';
import { inScope } from '../helpers/in-strategy-scope.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { z } from 'zod';
import { createStrategyHarness } from '../helpers/strategy-harness.js';
import { repoPath } from '../helpers/shared.js';

const HERE = fileURLToPath(import.meta.url);
const originals = { Date, now: Date.now, constructor: Date.prototype.constructor, hrtime: process.hrtime, bigint: process.hrtime.bigint, perfNow: performance.now };

/** Whether every wall-clock function is the original again. */
function pristine(): boolean {
  return (
    globalThis.Date === originals.Date &&
    Date.now === originals.now &&
    Date.prototype.constructor === originals.Date &&
    process.hrtime === originals.hrtime &&
    process.hrtime.bigint === originals.bigint &&
    performance.now === originals.perfNow &&
    !Object.hasOwn(performance, 'now')
  );
}


let watch: ClockReadWatch | undefined;
afterEach(() => {
  watch?.stop();
  watch = undefined;
  expect(pristine()).toBe(true);
});

const tmp = mkdtempSync(join(repoPath('test'), '.tmp-clock-read-watch-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('watchClockReads', () => {
  it('keeps Date exactly Date while it watches (dates made before too), and puts every original back on stop', () => {
    const before = new Date(5);
    watch = watchClockReads(new Map());
    expect(globalThis.Date).not.toBe(originals.Date);
    class Stamp extends Date {}
    const d = new Date(2024, 0, 1, 12, 30);
    expect([d.getFullYear(), d.getMonth(), d.getHours(), d.getMinutes()]).toEqual([2024, 0, 12, 30]);
    expect(new Date('2024-01-01T00:00:00Z').getTime()).toBe(originals.Date.UTC(2024, 0, 1));
    expect(new Date(before).getTime()).toBe(5);
    expect(Number.isNaN(new Date(undefined as never).getTime())).toBe(true);
    expect(Date.UTC(2024, 0, 1)).toBe(1_704_067_200_000);
    expect(Date.parse('2024-01-01T00:00:00Z')).toBe(1_704_067_200_000);
    expect([Date.name, Date.length, Date.prototype, Object.getOwnPropertyNames(Date).sort()]).toEqual([
      'Date',
      7,
      originals.Date.prototype,
      Object.getOwnPropertyNames(originals.Date).sort(),
    ]);
    expect([before instanceof Date, d instanceof originals.Date, d.constructor === Date, Object.prototype.toString.call(d)]).toEqual([true, true, true, '[object Date]']);
    const stamp = new Stamp(7);
    expect([stamp instanceof Stamp, stamp instanceof Date, stamp.getTime(), structuredClone(d).getTime()]).toEqual([true, true, 7, d.getTime()]);
    expect(typeof Date()).toBe('string');
    expect(Math.abs(Date.now() - originals.now()) < 60_000 && typeof process.hrtime.bigint() === 'bigint' && process.hrtime([0, 0]).length === 2).toBe(true);
    watch.stop();
    expect(pristine()).toBe(true);
    // A wrapper taken meanwhile keeps working, silently.
    expect(new Stamp(9).getTime()).toBe(9);
  });

  it("records a strategy's reads in its scope, with what and where; reads in no scope and with no plugin frame are nobody's", () => {
    watch = watchClockReads(new Map());
    void Date.now();
    inScope('s1', () => {
      void Date.now();
      void new Date();
      void Date();
      void new Date(0); // a date from a time: no read
      void performance.now();
      void process.hrtime();
      void process.hrtime.bigint();
    });
    expect(watch.uses).toEqual(
      new Map([['s1', { count: 6, apis: ['Date.now()', 'new Date()', 'Date()', 'performance.now()', 'process.hrtime()', 'process.hrtime.bigint()'], via: 'plugin', library: undefined, at: expect.stringMatching(new RegExp(`^${HERE}:\\d+:\\d+$`)) }]]),
    );
  });

  it("names the strategy whose plugin file is on the stack when no scope is (an async continuation)", async () => {
    watch = watchClockReads(new Map([[HERE, 'mine']]));
    await Promise.resolve();
    void Date.now();
    expect(watch.uses.get('mine')).toMatchObject({ count: 1, via: 'plugin' });
  });

  it("leaves rexbot's own reads and a logger's unrecorded, in a strategy's scope too", async () => {
    const sink = new Writable({ write: (_chunk, _enc, done) => done() });
    // A logger on the wall clock, as a live bot's: pino reads Date.now() for every line.
    const logger = createLogger({ level: 'info', destination: sink });
    watch = watchClockReads(new Map());
    inScope('s1', () => {
      void systemClock.now();
      logger.info('a line stamped with the wall clock');
    });
    // The runner logs "strategy started" in the strategy's scope, through pino.
    const h = await createStrategyHarness(defineStrategy({ name: 'quiet', params: z.strictObject({}), setup: () => of() }), { logger });
    h.stop();
    expect(watch.uses).toEqual(new Map());
  });

  it("records RxJS reading the wall clock for a strategy's pipeline that rexbot drives: at its subscription and on the values its context delivers", async () => {
    watch = watchClockReads(new Map());
    const atStart = await createStrategyHarness(defineStrategy({ name: 'at-start', params: z.strictObject({}), setup: () => of(1).pipe(timestamp(), map(() => ({ kind: 'cancelAll', key: 'k' }) as never)) }));
    const onTrades = await createStrategyHarness(
      defineStrategy({ name: 'on-trades', params: z.strictObject({}), setup: (ctx) => ctx.trades$('BTC-USD').pipe(timestamp(), map(() => ({ kind: 'cancelAll', key: 'k' }) as never)) }),
    );
    onTrades.addTrades('BTC-USD', [{ rate: '100' }, { rate: '101' }]);
    // On the context's scheduler, timestamp() reads the bot's clock: nothing to say.
    const good = await createStrategyHarness(
      defineStrategy({ name: 'good', params: z.strictObject({}), setup: (ctx) => ctx.trades$('BTC-USD').pipe(timestamp(ctx.scheduler), map(() => ({ kind: 'cancelAll', key: 'k' }) as never)) }),
      { marketStore: onTrades.market },
    );
    onTrades.addTrades('BTC-USD', [{ rate: '102' }]);
    for (const h of [atStart, onTrades, good]) h.stop();
    expect(good.emitted.length).toBe(1);
    expect(watch.uses).toEqual(
      new Map([
        ['at-start', { count: 1, apis: ['Date.now()'], via: 'rxjs', library: undefined, at: undefined }],
        ['on-trades', { count: 3, apis: ['Date.now()'], via: 'rxjs', library: undefined, at: undefined }],
      ]),
    );
  });

  it('starts all or nothing: when one function cannot be wrapped, none stays wrapped', () => {
    const descriptor = Object.getOwnPropertyDescriptor(process, 'hrtime')!;
    Object.defineProperty(process, 'hrtime', { get: () => descriptor.value, configurable: true });
    try {
      expect(() => watchClockReads(new Map())).toThrow('hrtime is not a method here');
      expect(globalThis.Date).toBe(originals.Date);
      expect([Date.now, performance.now, Object.hasOwn(performance, 'now')]).toEqual([originals.now, originals.perfNow, false]);
    } finally {
      Object.defineProperty(process, 'hrtime', descriptor);
    }
  });
});

describe('the rehearsal', { timeout: 60_000 }, () => {
  it('puts the wall clock back when it fails', async () => {
    writeFileSync(join(tmp, 'package.json'), '{"type": "module"}\n');
    writeFileSync(join(tmp, 'broken.ts'), "throw new Error('broken plugin');\n");
    writeFileSync(join(tmp, 'bot.yaml'), `strategies:\n  - { name: b, use: ${JSON.stringify(join(tmp, 'broken.ts'))}, markets: [BTC-USD] }\n`);
    await expect(dryRun(loadBotConfig(join(tmp, 'bot.yaml')))).rejects.toThrow('broken plugin');
    expect(pristine()).toBe(true);
  });
});
