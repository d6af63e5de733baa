/**
 * Assertions for randomized tests that check hundreds of thousands of cases. Vitest's `expect(..).toBe(..)` costs
 * tens of µs a call (a chai assertion object, its proxy, the message), so a loop of 100k iterations with a few
 * expects each spent most of a minute of CI on a slow host in `expect` itself. These compare in plain code first
 * and call `expect` only for a case that differs, which then fails exactly as it did before (same matcher, same
 * message). The message may be a function, so the text of a case that passes is never built.
 */
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

/** What a failing case says: a string, or a function that builds it only when the case fails. */
export type What = string | (() => string) | undefined;

/** The text of `what` (built now, for a case that failed). */
export const whatText = (what: What): string | undefined => (typeof what === 'function' ? what() : what);

/**
 * `expect(got, what).toBe(want)`, with `Object.is` tried first.
 *
 * @example
 * sameAs(scan(text), Number(text), () => `scan of ${text}`);
 */
export function sameAs<T>(got: T, want: T, what?: What): void {
  if (Object.is(got, want)) return;
  expect(got, whatText(what)).toBe(want);
}

/**
 * `expect(got, what).toEqual(want)`, with node's strict deep equality tried first: whatever it finds equal,
 * `toEqual` finds equal too (it is the looser of the two), and anything else goes to `toEqual` to decide.
 *
 * @example
 * equalTo(view.levels(), model.levels(), () => `after step ${i}`);
 */
export function equalTo<T>(got: T, want: T, what?: What): void {
  if (isDeepStrictEqual(got, want)) return;
  expect(got, whatText(what)).toEqual(want);
}

/**
 * `expect(ok, what).toBe(true)` for a condition computed in plain code.
 *
 * @example
 * holds(a.lt(b) === (cmp < 0), () => `${a} lt ${b}`);
 */
export function holds(ok: boolean, what?: What): void {
  if (ok) return;
  expect(ok, whatText(what)).toBe(true);
}
