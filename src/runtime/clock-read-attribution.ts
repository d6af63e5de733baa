/**
 * Whose read of the wall clock a call is, during `rexbot validate`'s rehearsal (clock-read-watch.ts): a strategy's
 * — its plugin's code asking for the time, or a library doing so on the plugin's direct behalf — or nobody's to
 * report (rexbot's own code, a library working for rexbot or for itself).
 *
 * The rule, walking the call's stack outward from the read:
 *
 * 1. Library frames (`node_modules`, Node's `node:` modules) act for whoever called them, so they are passed over
 *    to the first frame that is not a library's.
 * 2. That frame is the plugin's, or a file it imports (anything neither rexbot's nor a library's): the read is the
 *    strategy's — whose scope it runs in (strategy-scope.ts), else whose plugin file is on the stack (an `async`
 *    continuation runs in no scope). It is made by the plugin itself when no library frame came between, else by
 *    the library the plugin called (`dayjs()`, an RxJS `ReplaySubject` with a window) — except a logger's: pino
 *    reads the time to stamp a log line, and nothing the strategy decides comes from it.
 * 3. That frame is rexbot's: rexbot reads for itself (the system clock of a live run), or a library reads for rexbot
 *    (pino stamping the runner's "strategy started", which runs in the strategy's scope) — even when the plugin
 *    called that rexbot code: the strategy API hands out no wall-clock reader (`ctx.clock` is the bot's clock). One
 *    exception: rexbot's frames that hand control to a strategy — its setup and subscription (the runner), the
 *    values its context delivers, its clock's and its wall-clock timers' callbacks — with only RxJS between them and
 *    the read. Below such a frame run the operators the strategy built, and RxJS reads the wall clock there only
 *    where the strategy left an operator on its default scheduler or timestamp provider (`timestamp()`,
 *    `timeInterval()`, `debounceTime(ms)` without `ctx.scheduler`): a library on the plugin's direct behalf.
 *    rexbot's own pipelines never read it (their time-based operators run on the bot's clock), and a read under
 *    any other rexbot frame is rexbot's however deep in a strategy's scope it happens.
 * 4. No such frame (a stack cut at its 100 frames, or a library's own callback): a read in a strategy's scope with
 *    only RxJS on the stack is the strategy's pipeline (as in 3); anything else is a library's own. No frame at
 *    all (a promise calling `Date.now` itself: `then(Date.now)`) in a strategy's scope is the strategy's.
 *
 * The scope follows a strategy's work past `await` and `then` while the rehearsal watches (strategy-scope.ts), so
 * an RxJS read in an `async` continuation of a strategy's promise (`mergeMap(async ...)` then `timestamp()`), with
 * no plugin frame on the stack, is still the strategy's. A read in no scope and with no plugin file on the stack is
 * nobody's: the rehearsal's own bookkeeping, tsx loading a module, a library's callback.
 */
import { isOwn, libraryOf, PACKAGE_ROOT, type Frame } from './caller-frames.js';

/** Who made a strategy's read: its plugin's code, RxJS on its behalf, or another library the plugin called. */
export type ClockReadVia = 'plugin' | 'rxjs' | 'library';

/** A read that is a strategy's: whose, by whom, and where its plugin's code made it, when it did. */
export interface ClockReadAttribution {
  strategy: string;
  via: ClockReadVia;
  /** The library the plugin called, when `via` is 'library' (`dayjs`, `node` for Node's own modules). */
  library?: string | undefined;
  /** The frame of the plugin's code that made the read or called the library that did (`/x/mine.ts:6:40`). */
  at?: string | undefined;
}

/**
 * rexbot's files that hand control to a strategy's code (rule 3 of the module's TSDoc): the runner (`setup()` and
 * the subscription), the context (every value it delivers), the strategy's clock and the RxJS scheduler over it,
 * and the rehearsal's wrapper of a strategy's wall-clock timer callbacks.
 */
const HANDOVER = ['src/strategy/strategy-runner.', 'src/strategy/strategy-context.', 'src/strategy/guarded-clock.', 'src/strategy/clock-scheduler.', 'src/runtime/real-timer-watch.'].map(
  (f) => `${PACKAGE_ROOT}${f}`,
);
const isHandover = (file: string): boolean => HANDOVER.some((prefix) => file.startsWith(prefix));

/** Loggers: they read the time to stamp the lines they write, on their own behalf. */
const LOGGERS = new Set(['pino', 'pino-pretty', 'sonic-boom', 'thread-stream']);

/** Library frames between the read and F that are RxJS's only (Node's own modules aside). */
const onlyRxjs = (libs: readonly Frame[]): boolean => libs.every((f) => ['rxjs', 'node'].includes(libraryOf(f.file)!));

/**
 * Whose read a call with stack `frames` (innermost first, the watch's own left out) is, made while `scope` is the
 * current strategy (strategy-scope.ts); `plugins` maps each strategy plugin file to the strategy running it.
 * Undefined when it is no strategy's.
 *
 * @example
 * attributeClockRead([{ file: '/x/mine.ts', at: '/x/mine.ts:6:40' }], 'mine', new Map([['/x/mine.ts', 'mine']]));
 * // { strategy: 'mine', via: 'plugin', at: '/x/mine.ts:6:40' }
 */
export function attributeClockRead(frames: readonly Frame[], scope: string | undefined, plugins: ReadonlyMap<string, string>): ClockReadAttribution | undefined {
  const first = frames.findIndex((f) => libraryOf(f.file) === undefined);
  const libs = first < 0 ? frames : frames.slice(0, first);
  if (libs.some((f) => LOGGERS.has(libraryOf(f.file)!))) return undefined;
  // Nothing at all below the read: a promise called the function itself (`then(Date.now)`), in the scope carried
  // to it from where that `then` was called (strategy-scope.ts). Only a strategy's code hands the clock out so.
  if (frames.length === 0) return scope === undefined ? undefined : { strategy: scope, via: 'plugin' };
  const caller = first < 0 ? undefined : frames[first]!;
  if (caller === undefined || isOwn(caller.file)) {
    const handedOver = caller === undefined || isHandover(caller.file);
    if (scope === undefined || libs.length === 0 || !handedOver || !onlyRxjs(libs)) return undefined;
    return { strategy: scope, via: 'rxjs' };
  }
  const plugin = frames.find((f) => plugins.has(f.file));
  const strategy = scope ?? (plugin ? plugins.get(plugin.file) : undefined);
  if (strategy === undefined) return undefined;
  if (libs.length === 0) return { strategy, via: 'plugin', at: caller.at };
  // The library the plugin called: the outermost one before its frame.
  const library = libraryOf(libs[libs.length - 1]!.file)!;
  return library === 'rxjs' ? { strategy, via: 'rxjs', at: caller.at } : { strategy, via: 'library', library, at: caller.at };
}
