/**
 * object() decoders are compiled into straight-line code after a few uses (decode.ts). Here a compiled decoder and
 * a fresh one (still the field loop) must answer every input alike: the same result object (keys, order, values,
 * prototype) or the same error, including odd field names (quotes, `__proto__`, integer-like) and nested paths.
 */
import { describe, expect, it } from 'vitest';
import { bool, dec, type Decoder, id, int, object, str } from '../../src/model/decode.js';

type Odd = Record<string, unknown>;
const fields = () =>
  [
    { a: str, 'we"ird\\key': id, __proto__x: int } as Record<string, Decoder<unknown>>,
    { b: dec, '0': bool, __proto__: str, 'line\nbreak': int } as Record<string, Decoder<unknown>>,
  ] as const;
// An object literal's `__proto__: str` sets its prototype; define the field as an own key instead.
function make(): Decoder<Odd> {
  const [req, opt] = fields();
  const optional: Record<string, Decoder<unknown>> = {};
  for (const k of Object.keys(opt)) optional[k] = opt[k]!;
  Object.defineProperty(optional, '__proto__', { value: str, enumerable: true, writable: true, configurable: true });
  return object<Odd>(req as never, optional as never);
}

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function outcome(d: Decoder<Odd>, v: unknown, path: string): unknown {
  try {
    const out = d(v, path, 'TEST /x');
    return { proto: Object.getPrototypeOf(out) === Object.prototype ? 'Object' : String(Object.getPrototypeOf(out)), keys: Object.keys(out), json: JSON.stringify(out) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

describe('object() compiled vs walked', () => {
  it('gives the same results and errors on random inputs', () => {
    const warm = make();
    for (let i = 0; i < 40; i++) outcome(warm, { a: 'x', 'we"ird\\key': 'k', __proto__x: 1 }, '');
    const values = [undefined, null, 'str', '', '1.5', 7, 1.5, true, false, [], {}, [1], { x: 1 }, 'abc', '12', 'true'];
    const r = rng(3);
    for (let step = 0; step < 3000; step++) {
      let v: unknown;
      const kind = r();
      if (kind < 0.05) v = values[Math.floor(r() * values.length)];
      else {
        const o: Record<string, unknown> = {};
        for (const k of ['a', 'we"ird\\key', '__proto__x', 'b', '0', '__proto__', 'line\nbreak', 'extra']) {
          if (r() < 0.85) {
            const val = values[Math.floor(r() * values.length)];
            if (k === '__proto__') Object.defineProperty(o, k, { value: val, enumerable: true, writable: true, configurable: true });
            else o[k] = val;
          }
        }
        v = o;
      }
      const path = r() < 0.5 ? '' : 'items[3]';
      expect(outcome(warm, v, path), `step ${step}`).toEqual(outcome(make(), v, path));
    }
  });

  it('decodes a valid value into the same fields in the same order, fresh or warm', () => {
    const d = object<{ x: string; y?: number; z: boolean }>({ x: str, z: bool }, { y: int });
    const first = d({ z: true, y: '5', x: 'a' }, '', 'w');
    for (let i = 0; i < 40; i++) d({ x: 'a', z: false }, '', 'w');
    const warm = d({ z: true, y: '5', x: 'a' }, '', 'w');
    expect(Object.keys(warm)).toEqual(['x', 'z', 'y']);
    expect(warm).toEqual(first);
    expect(() => d({ x: 'a' }, 'p', 'w')).toThrow('w: p.z is missing');
  });
});
