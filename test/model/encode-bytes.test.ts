/**
 * toWireJsonBytes writes an answer's UTF-8 bytes straight into a reused buffer; it must give exactly the bytes of
 * toWireJson's text (the general path) for every value: model objects, odd ones, random ones, huge ones, and
 * values whose toJSON encodes again while the buffer is in use.
 */
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import { WireNumber } from '../../src/core/wire-number.js';
import { toWireJson, toWireJsonBytes, type DecimalStyle } from '../../src/model/encode.js';

function same(value: unknown, style: DecimalStyle): void {
  const text = toWireJson(value, style) as string | undefined;
  const bytes = toWireJsonBytes(value, style);
  if (text === undefined) expect(bytes).toBeUndefined();
  else expect(bytes?.toString('hex')).toBe(Buffer.from(text, 'utf8').toString('hex'));
}

class Custom {
  a = 1;
  b = dec('2.5');
  skip = undefined;
}

const fixed: unknown[] = [
  null, undefined, true, 0, -0, 1.5, 1e21, Number.NaN, '', 'plain', 'é', dec('-0.00000001'), new Date(0), [], {},
  [undefined, () => 1, Symbol('s'), null, dec('1')],
  { id: 'x', quantity: dec('0.001'), limit: dec('30010'), createdAt: new Date(1), closedAt: undefined, fn: () => 1, nested: { deep: [dec('1.23456789'), { d: new Date(2) }] } },
  Object.assign(Object.create(null) as object, { a: 1, b: dec('2') }),
  new Custom(),
  { n: new WireNumber('1.0000000000000001'), m: new Map([['a', 1]]) },
  { toJSON: () => ({ replaced: 'é' }) },
  { a: 1, gone: { toJSON: () => undefined }, b: [{ toJSON: () => undefined }, 2], last: { toJSON: () => undefined } },
  { toJSON: () => undefined },
  { 'lone \ud800 high': 'lone \udc00 low', pair: '\ud83d\ude00', del: '\u007f\u2028', 'tab\tkey': '\u001f', 'clé': 'naïve 日本' },
  ((at: Date) => ({ createdAt: at, updatedAt: at, closedAt: at }))(new Date(5)),
];

const CHARS = ['a', 'Z', '0', '-', ' ', '"', '\\', '\n', '\u0000', '\u001f', '\u007f', 'é', 'ÿ', 'Ā', '日', '\u2028', '\ud83d\ude00', '\ud800', '\udfff'];

function randomString(rnd: () => number): string {
  const n = Math.floor(rnd() * 12);
  let s = '';
  // Mostly ASCII identifiers, as on the wire; sometimes anything.
  const pool = rnd() < 0.7 ? CHARS.slice(0, 5) : CHARS;
  for (let i = 0; i < n; i++) s += pool[Math.floor(rnd() * pool.length)]!;
  return s;
}

function randomValue(rnd: () => number, depth: number): unknown {
  const r = rnd();
  if (depth > 3 || r < 0.45) {
    switch (Math.floor(rnd() * 10)) {
      case 0: return randomString(rnd);
      case 1: return Math.floor(rnd() * 1e6) / (rnd() < 0.5 ? 1 : 1000) * (rnd() < 0.3 ? -1 : 1);
      case 2: return dec(`${rnd() < 0.3 ? '-' : ''}${Math.floor(rnd() * 1e9)}.${Math.floor(rnd() * 1e12)}`);
      case 3: return new Date(Math.floor(rnd() * 4e12) - 1e12);
      case 4: return rnd() < 0.5;
      case 5: return null;
      case 6: return undefined;
      case 7: return rnd() < 0.5 ? () => 1 : Symbol('s');
      case 8: {
        // Decided here: toJSON runs once per encoding, and both encodings must see the same value.
        const replaced = rnd() < 0.3 ? undefined : randomString(rnd);
        return { toJSON: () => replaced };
      }
      default: return dec(String(Math.floor(rnd() * 1e4)));
    }
  }
  if (r < 0.65) return Array.from({ length: Math.floor(rnd() * 5) }, () => randomValue(rnd, depth + 1));
  const o: Record<string, unknown> = rnd() < 0.1 ? (Object.create(null) as Record<string, unknown>) : {};
  const n = Math.floor(rnd() * 7);
  for (let i = 0; i < n; i++) o[rnd() < 0.8 ? `k${Math.floor(rnd() * 20)}` : randomString(rnd)] = randomValue(rnd, depth + 1);
  return rnd() < 0.05 ? new Map(Object.entries(o)) : o;
}

describe('toWireJsonBytes', () => {
  it.each(fixed.map((v, i) => [i, v]))('value #%i gives the bytes of toWireJson in both styles', (_i, v) => {
    for (const style of ['fixed8', 'plain'] as const) same(v, style);
  });

  it('gives the bytes of toWireJson for random values', () => {
    const rnd = mulberry32(42);
    for (let i = 0; i < 3000; i++) {
      const v = randomValue(rnd, 0);
      same(v, i & 1 ? 'plain' : 'fixed8');
    }
  });

  it('gives the bytes of toWireJson for answers larger than its buffer, and again after them', () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => ({ id: `id-${i}`, rate: dec(`${i}.5`), at: new Date(i * 1000), note: i % 7 ? 'x' : 'é日\ud83d\ude00' }));
    same(rows, 'fixed8');
    same({ small: dec('1') }, 'fixed8');
  });

  it('stays right when a toJSON encodes again while an answer is being written', () => {
    const inner = { toJSON: () => toWireJsonBytes({ q: dec('2') })!.toString() };
    same({ a: 1, inner, b: [inner, 'after'] }, 'fixed8');
  });

  it('throws where toWireJson throws, and is usable afterwards', () => {
    expect(() => toWireJsonBytes({ a: 1, b: 1n })).toThrow(TypeError);
    expect(() => toWireJsonBytes({ at: new Date(Number.NaN) })).toThrow(RangeError);
    same({ ok: true }, 'fixed8');
  });
});
