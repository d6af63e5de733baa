/**
 * Whose read of the wall clock a stack is (clock-read-attribution.ts), rule by rule, on stacks written out: the
 * plugin's own, a library's the plugin called, RxJS's in the pipeline the strategy built and rexbot feeds — and not
 * rexbot's own, a library's working for rexbot, a logger's, or anything's outside every strategy.
 */
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/runtime/caller-frames.js';
import { attributeClockRead } from '../../src/runtime/clock-read-attribution.js';

/** Frames, innermost first, from `file:line:col` positions. */
const stack = (...ats: string[]) => ats.map((at) => ({ file: at.replace(/:\d+:\d+$/, ''), at }));
const own = (path: string) => `${PACKAGE_ROOT}${path}:10:5`;
const lib = (path: string) => `/home/ann/bot/node_modules/${path}:10:5`;
const PLUGIN = '/home/ann/bot/mine.ts';
const plugins = new Map([[PLUGIN, 'mine']]);

describe('attributeClockRead', () => {
  it("is the plugin's own read when its frame made it, in its scope or, outside every scope, with its file on the stack", () => {
    expect(attributeClockRead(stack(`${PLUGIN}:6:40`, own('src/strategy/strategy-context.ts')), 'mine', plugins)).toEqual({ strategy: 'mine', via: 'plugin', at: `${PLUGIN}:6:40` });
    // A file the plugin imports: the plugin's code too; the scope says whose.
    expect(attributeClockRead(stack('/home/ann/bot/lib/util.ts:3:9', `${PLUGIN}:6:40`), 'b', plugins)).toEqual({ strategy: 'b', via: 'plugin', at: '/home/ann/bot/lib/util.ts:3:9' });
    expect(attributeClockRead(stack(`${PLUGIN}:9:1`, 'node:internal/process/task_queues:95:5'), undefined, plugins)).toEqual({ strategy: 'mine', via: 'plugin', at: `${PLUGIN}:9:1` });
  });

  it("is the strategy's when a promise called the clock itself (`then(Date.now)`) in the scope carried to it, nobody's outside every scope", () => {
    expect(attributeClockRead([], 'mine', plugins)).toEqual({ strategy: 'mine', via: 'plugin' });
    expect(attributeClockRead([], undefined, plugins)).toBeUndefined();
  });

  it('is a library on the plugin\'s behalf when the plugin called it (RxJS included), but not a logger stamping its line', () => {
    expect(attributeClockRead(stack(lib('dayjs/dayjs.min.js'), lib('dayjs/dayjs.min.js'), `${PLUGIN}:6:12`), 'mine', plugins)).toEqual({ strategy: 'mine', via: 'library', library: 'dayjs', at: `${PLUGIN}:6:12` });
    expect(attributeClockRead(stack(lib('@js-joda/core/dist/js-joda.js'), `${PLUGIN}:6:12`), 'mine', plugins)).toMatchObject({ via: 'library', library: '@js-joda/core' });
    expect(attributeClockRead(stack(lib('rxjs/dist/cjs/internal/ReplaySubject.js'), `${PLUGIN}:7:3`), 'mine', plugins)).toEqual({ strategy: 'mine', via: 'rxjs', at: `${PLUGIN}:7:3` });
    expect(attributeClockRead(stack(lib('pino/lib/time.js'), lib('pino/lib/proto.js'), `${PLUGIN}:8:3`), 'mine', plugins)).toBeUndefined();
  });

  it("is RxJS on the strategy's behalf under the frame that hands rexbot's values, clock or timers to the strategy", () => {
    const rx = [lib('rxjs/dist/cjs/internal/scheduler/dateTimestampProvider.js'), lib('rxjs/dist/cjs/internal/operators/timestamp.js'), lib('rxjs/dist/cjs/internal/Subscriber.js')];
    for (const handover of ['src/strategy/strategy-context.ts', 'src/strategy/strategy-runner.ts', 'src/strategy/clock-scheduler.ts', 'src/runtime/real-timer-watch.ts']) {
      expect(attributeClockRead(stack(...rx, own(handover), own('src/store/market-store.ts')), 'mine', plugins)).toEqual({ strategy: 'mine', via: 'rxjs' });
    }
    // A stack cut before any of rexbot's frames: RxJS alone, in the scope.
    expect(attributeClockRead(stack(...rx), 'mine', plugins)).toEqual({ strategy: 'mine', via: 'rxjs' });
  });

  it("is rexbot's own read, or a library's for rexbot, under any other rexbot frame, however deep in a strategy's scope", () => {
    const inPlugin = [own('src/orders/order-manager.ts'), own('src/strategy/strategy-runner.ts'), `${PLUGIN}:6:40`];
    expect(attributeClockRead(stack(own('src/core/clock.ts'), `${PLUGIN}:6:40`), 'mine', plugins)).toBeUndefined();
    expect(attributeClockRead(stack(lib('rxjs/dist/cjs/internal/operators/timestamp.js'), ...inPlugin), 'mine', plugins)).toBeUndefined();
    expect(attributeClockRead(stack(lib('prom-client/lib/histogram.js'), ...inPlugin), 'mine', plugins)).toBeUndefined();
    // The runner logging "strategy started" in the strategy's scope: pino under a handing-over frame is still rexbot's.
    expect(attributeClockRead(stack(lib('pino/lib/proto.js'), own('src/strategy/strategy-runner.ts'), `${PLUGIN}:6:40`), 'mine', plugins)).toBeUndefined();
    // A handing-over frame's own read.
    expect(attributeClockRead(stack(own('src/strategy/strategy-context.ts')), 'mine', plugins)).toBeUndefined();
  });

  it('is nobody\'s outside every strategy\'s scope without a plugin frame', () => {
    expect(attributeClockRead(stack(lib('rxjs/dist/cjs/internal/operators/timestamp.js'), 'node:internal/process/task_queues:95:5'), undefined, plugins)).toBeUndefined();
    expect(attributeClockRead(stack('/home/ann/bot/other.ts:1:1'), undefined, plugins)).toBeUndefined();
    expect(attributeClockRead(stack(lib('tsx/dist/loader.mjs')), undefined, plugins)).toBeUndefined();
  });
});
