/**
 * Wall-clock reads made by strategies during `rexbot validate`'s rehearsal. The rehearsal, like a backtest, runs on
 * virtual time; a strategy that learns the time from `Date.now()`, `new Date()`, `performance.now()` or
 * `process.hrtime` gets the machine's instead of the bot's: in a backtest that is after every recorded event (it
 * "knows" the future, or takes minutes of data for milliseconds), so it decides differently there than it does
 * live, and nothing fails to say so. `ctx.clock.now()` is the bot's time.
 *
 * While the watch runs, those functions are wrapped and each call is attributed (clock-read-attribution.ts says
 * whose read is a strategy's and why rexbot's and a library's own are not); every call still returns exactly what
 * the original returns. `new Date()` needs the global `Date` itself swapped, for a Proxy of it that notices a
 * construction without arguments (and `Date()` called as a function, which returns the time as a string) and passes
 * everything else through: `new Date(x)`, `Date.UTC`, `Date.parse`, `Date.prototype` and so `instanceof Date`
 * (also for dates made before the swap, or by Node), subclasses of `Date`, `Date.name` and `Date.length` are the
 * real Date's; `Date.prototype.constructor` points at the Proxy meanwhile, so `d.constructor === Date` holds too.
 * (It cannot name the real Date as well: a date made through the Proxy has the real `Date.prototype`, whose one
 * `constructor` is either; so a `Date` saved before the watch began is not its dates' constructor meanwhile.)
 * When the watch stops, every original is put back; wrappers captured meanwhile (`const now = Date.now`, `const D =
 * Date`) keep working and say nothing. A reference taken before the watch began is not seen: `rexbot validate`
 * starts the watch before it loads the plugins (rehearsal-watches.ts), so a plugin's top-level code, and what it
 * saves there, is watched.
 *
 * The cost stays with the rehearsal: nothing is wrapped in a backtest or a live run, and a read during the watch
 * costs a stack trace, which is how its caller is known.
 */
import { fileURLToPath } from 'node:url';
import { currentStrategy, trackStrategyScopes } from '../strategy/strategy-scope.js';
import { callerFrames } from './caller-frames.js';
import { attributeClockRead, type ClockReadVia } from './clock-read-attribution.js';

/** The wall-clock functions watched, as the warning names them. */
export type ClockReadApi = 'Date.now()' | 'new Date()' | 'Date()' | 'performance.now()' | 'process.hrtime()' | 'process.hrtime.bigint()';

/** The wall-clock reads one strategy made: how many, with what, and who made one of them where. */
export interface ClockReadUse {
  count: number;
  /** Each function it read the time with, once, in the order first used. */
  apis: ClockReadApi[];
  /**
   * Who made the read given as the example — the first with a frame of the plugin's code, else the first: the
   * plugin itself, RxJS on its default clock, or another library the plugin called.
   */
  via: ClockReadVia;
  /** That library, when `via` is 'library'. */
  library?: string | undefined;
  /** The frame of the plugin's code that made the example read (or called the library that did), when there is one. */
  at?: string | undefined;
}

/** A running watch; see {@link watchClockReads}. */
export interface ClockReadWatch {
  /** The wall-clock reads seen so far, by strategy name. */
  readonly uses: ReadonlyMap<string, ClockReadUse>;
  /** Put the original functions (and `Date`) back. Idempotent. */
  stop(): void;
}

/** This file: its frames (the wrappers) are not the caller's. */
const SELF = new Set([fileURLToPath(import.meta.url)]);

/**
 * Watch the wall-clock functions until `stop()`. `plugins` maps each strategy plugin file to the name of the
 * strategy that runs it, for reads made outside every scope. Start it before the strategies do: their contexts
 * deliver in their scopes only when subscribed while scopes are tracked (strategy-scope.ts).
 *
 * @example
 * const watch = watchClockReads(new Map([['/home/ann/bot/mine.ts', 'mine']]));
 * try { await rehearse(); } finally { watch.stop(); }
 * watch.uses.get('mine'); // { count: 3, apis: ['Date.now()'], via: 'plugin', at: '/home/ann/bot/mine.ts:12:5' }
 */
export function watchClockReads(plugins: ReadonlyMap<string, string>): ClockReadWatch {
  const uses = new Map<string, ClockReadUse>();
  const untrack = trackStrategyScopes();
  let active = true;
  // A read made while one is attributed (a stack trace's formatter reading the time) is the watch's own.
  let busy = false;

  const notice = (api: ClockReadApi): void => {
    if (!active || busy) return;
    busy = true;
    try {
      const who = attributeClockRead(callerFrames(SELF), currentStrategy(), plugins);
      if (who === undefined) return;
      const seen = uses.get(who.strategy);
      if (seen) {
        seen.count++;
        if (!seen.apis.includes(api)) seen.apis.push(api);
        // The example shown is the first read with a line of the plugin's to fix, when there is one.
        if (seen.at === undefined && who.at !== undefined) Object.assign(seen, { via: who.via, library: who.library, at: who.at });
      } else {
        uses.set(who.strategy, { count: 1, apis: [api], via: who.via, library: who.library, at: who.at });
      }
    } finally {
      busy = false;
    }
  };

  const RealDate = globalThis.Date;
  const restore: (() => void)[] = [];
  const installs = [
    () => swapDate(RealDate, notice),
    () =>
      patch(RealDate, 'now', (real) =>
        function now(): number {
          notice('Date.now()');
          return real();
        },
      ),
    () =>
      patch(globalThis.performance, 'now', (real) =>
        function now(this: typeof globalThis.performance): number {
          notice('performance.now()');
          return Reflect.apply(real, this, []) as number;
        },
      ),
    () => watchHrtime(notice),
  ];
  try {
    for (const install of installs) restore.push(install());
  } catch (err) {
    // All or nothing: a watch that could not start leaves no function of the process wrapped.
    for (const undo of restore.reverse()) undo();
    untrack();
    throw err;
  }

  return {
    uses,
    stop() {
      if (!active) return;
      active = false;
      for (const undo of restore.reverse()) undo();
      untrack();
    },
  };
}

/**
 * Set `target[key]` to `make(original)` as an own property with the original's attributes (found on `target` or
 * up its prototype chain); returns what puts the original back (or deletes the own property it did not have).
 */
function patch<T extends object, K extends keyof T & string>(target: T, key: K, make: (real: T[K]) => T[K]): () => void {
  const own = Object.getOwnPropertyDescriptor(target, key);
  let proto: object | null = target;
  let found = own;
  while (!found && (proto = Object.getPrototypeOf(proto)) !== null) found = Object.getOwnPropertyDescriptor(proto, key);
  if (!found || !('value' in found)) throw new TypeError(`${key} is not a method here`);
  Object.defineProperty(target, key, { ...found, value: make(found.value as T[K]) });
  return () => {
    if (own) Object.defineProperty(target, key, own);
    else Reflect.deleteProperty(target, key);
  };
}

/**
 * Swap the global `Date` for a Proxy noticing `new Date()` and `Date()`, as the module's TSDoc says; returns what
 * puts the real one back.
 */
function swapDate(RealDate: DateConstructor, notice: (api: ClockReadApi) => void): () => void {
  const watched: DateConstructor = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      // `new Date(undefined)` is an invalid date, not the time: only an empty argument list reads the clock.
      if (args.length === 0) notice('new Date()');
      return Reflect.construct(target, args, newTarget === watched ? target : newTarget) as object;
    },
    apply(target, self, args) {
      notice('Date()');
      return Reflect.apply(target, self, args) as string;
    },
  });
  const undoGlobal = patch(globalThis, 'Date', () => watched);
  const undoConstructor = patch(RealDate.prototype as Date & { constructor: DateConstructor }, 'constructor', () => watched);
  return () => {
    undoConstructor();
    undoGlobal();
  };
}

/** Wrap `process.hrtime` and its `bigint`; returns what puts the originals back. */
function watchHrtime(notice: (api: ClockReadApi) => void): () => void {
  return patch(process, 'hrtime', (real) => {
    const realBigint = real.bigint;
    const hrtime = function hrtime(time?: [number, number]): [number, number] {
      notice('process.hrtime()');
      return real(time);
    } as NodeJS.HRTime;
    Object.defineProperty(hrtime, 'bigint', {
      ...Object.getOwnPropertyDescriptor(real, 'bigint'),
      value: function hrtimeBigInt(): bigint {
        notice('process.hrtime.bigint()');
        return realBigint();
      },
    });
    return hrtime;
  });
}
