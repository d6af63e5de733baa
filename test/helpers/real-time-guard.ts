/**
 * A watch on real time: while it is installed, every call of the wall clock or of a real timer — `setTimeout`,
 * `setInterval`, `setImmediate`, `Date.now`, `new Date()` / `Date()` without arguments, `performance.now`,
 * `process.hrtime` — is recorded when its stack passes through this repository's `src/` or `strategies/`.
 * Calls that vitest or a library makes on its own behalf (no repository frame on the stack) are not ours and are
 * let through unrecorded. Every call still goes to the real function: the guard observes, it changes nothing.
 *
 * Use it around code that must run on an injected Clock only (ARCHITECTURE principle 1: time is a port), then
 * assert `guard.calls` is empty; each entry names the API and the first repository frame, so a failure says
 * where the offending call is.
 *
 * @example
 * const guard = guardRealTime();
 * try { await runInVirtualTime(); } finally { guard.restore(); }
 * expect(guard.calls).toEqual([]);
 */
import { repoPath } from './shared.js';

/** One real-time call made from repository code. */
export interface RealTimeCall {
  api: string;
  /** The first stack frame inside src/ or strategies/. */
  at: string;
}

/** An installed guard. */
export interface RealTimeGuard {
  readonly calls: RealTimeCall[];
  /** Put every real function back (idempotent). */
  restore(): void;
}

/** Install the guard on the global objects. Always {@link RealTimeGuard.restore} it (try/finally). */
export function guardRealTime(opts: { alsoWatch?: readonly string[] } = {}): RealTimeGuard {
  // `alsoWatch`: more repository folders (e.g. `backtest/venue`) whose calls count as the repository's.
  const roots = [repoPath('src') + '/', repoPath('strategies') + '/', ...(opts.alsoWatch ?? []).map((d) => repoPath(...d.split('/')) + '/')];
  const calls: RealTimeCall[] = [];
  const restores: Array<() => void> = [];
  const limit = Error.stackTraceLimit;
  // Deep enough to reach repository frames under RxJS operator chains.
  Error.stackTraceLimit = 200;
  restores.push(() => (Error.stackTraceLimit = limit));

  const check = (api: string): void => {
    const stack = new Error().stack ?? '';
    const frame = stack.split('\n').find((line) => roots.some((r) => line.includes(r)));
    if (frame !== undefined) calls.push({ api, at: frame.trim() });
  };
  /** Replace `obj[key]` (a function) with a recording wrapper. */
  const wrap = <T extends object>(obj: T, key: keyof T & string, api: string): Record<string, unknown> => {
    const original = obj[key] as unknown as (...a: unknown[]) => unknown;
    const descriptor = Object.getOwnPropertyDescriptor(obj, key);
    const wrapper = function (this: unknown, ...args: unknown[]): unknown {
      check(api);
      return Reflect.apply(original, this, args);
    };
    Object.defineProperty(obj, key, { value: wrapper, writable: true, configurable: true, enumerable: descriptor?.enumerable ?? false });
    restores.push(() => {
      if (descriptor) Object.defineProperty(obj, key, descriptor);
      else delete (obj as Record<string, unknown>)[key];
    });
    return wrapper as unknown as Record<string, unknown>;
  };

  wrap(globalThis, 'setTimeout', 'setTimeout');
  wrap(globalThis, 'setInterval', 'setInterval');
  wrap(globalThis, 'setImmediate', 'setImmediate');
  wrap(Date, 'now', 'Date.now');
  wrap(performance, 'now', 'performance.now');
  wrap(process.hrtime, 'bigint', 'process.hrtime.bigint');
  const bigint = process.hrtime.bigint;
  wrap(process, 'hrtime', 'process.hrtime').bigint = bigint;

  // `new Date()` and `Date()` read the wall clock; `new Date(x)` does not. A Proxy keeps `instanceof Date`,
  // `Date.UTC`, `Date.parse` and the prototype exactly as they were.
  const RealDate = globalThis.Date;
  globalThis.Date = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      if (args.length === 0) check('new Date()');
      return Reflect.construct(target, args, newTarget === globalThis.Date ? target : newTarget) as object;
    },
    apply(target, thisArg, args) {
      check('Date()');
      return Reflect.apply(target, thisArg, args) as unknown;
    },
  });
  restores.push(() => (globalThis.Date = RealDate));

  let restored = false;
  return {
    calls,
    restore() {
      if (restored) return;
      restored = true;
      for (const r of restores.reverse()) r();
    },
  };
}
