/**
 * toWireJson writes text directly (no intermediate copy); it must be exactly JSON.stringify(toWire(value)) for
 * every value, model objects and odd ones alike.
 */
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { WireNumber } from '../../src/core/wire-number.js';
import { toWire, toWireJson } from '../../src/model/encode.js';

class Custom {
  a = 1;
  b = dec('2.5');
  skip = undefined;
}

const values: unknown[] = [
  null, undefined, true, false, 0, -0, 1.5, 1e21, -1e-7, Number.NaN, Number.POSITIVE_INFINITY, '', 'plain', 'quote " and \\ and \n and \u0001 and é',
  dec('0'), dec('-0.00000001'), dec('123456789.123456789'), dec('1e-12'), dec('30010'),
  new Date(0), new Date('2026-11-27T04:53:06.404Z'),
  [], [undefined, () => 1, Symbol('s'), null, dec('1')],
  {},
  { id: 'x', quantity: dec('0.001'), limit: dec('30010'), createdAt: new Date(1), closedAt: undefined, fn: () => 1, sym: Symbol('s'), nested: { deep: [dec('1.23456789'), { d: new Date(2) }] } },
  Object.assign(Object.create(null) as object, { a: 1, b: dec('2') }),
  new Custom(),
  { n: new WireNumber('1.0000000000000001'), m: new Map([['a', 1]]) },
  { toJSON: () => ({ replaced: true }) },
  // A toJSON giving undefined: the field is left out (its key too), and in an array it is written null.
  { a: 1, gone: { toJSON: () => undefined }, b: [{ toJSON: () => undefined }, 2], last: { toJSON: () => undefined } },
  { toJSON: () => undefined },
  [{ toJSON: () => undefined }],
  { '__proto__key': 1, 'odd"key': 2, '': 3 },
  // Strings and keys JSON.stringify escapes: lone and paired surrogates, DEL and U+2028 (not escaped), controls.
  { 'lone \ud800 high': 'lone \udc00 low', pair: '\ud83d\ude00', del: '\u007f\u2028', 'tab\tkey': '\u001f' },
  // One Date object written three times, as an order's createdAt, updatedAt and closedAt.
  ((at: Date) => ({ createdAt: at, updatedAt: at, closedAt: at }))(new Date(5)),
];

describe('toWireJson', () => {
  it.each(values.map((v, i) => [i, v]))('value #%i is written as JSON.stringify(toWire(value)) in both styles', (_i, v) => {
    for (const style of ['fixed8', 'plain'] as const) expect(toWireJson(v, style)).toBe(JSON.stringify(toWire(v, style)));
  });

  it('throws where JSON.stringify(toWire(value)) throws', () => {
    expect(() => toWireJson({ a: 1n })).toThrow(TypeError);
    expect(() => toWireJson({ at: new Date(Number.NaN) })).toThrow(RangeError);
  });

  it('writes distinct Dates of one time alike, and asks a Date with its own toISOString every time', () => {
    expect(toWireJson({ a: new Date(7), b: new Date(7), c: new Date(8), d: new Date(7) })).toBe(JSON.stringify(toWire({ a: new Date(7), b: new Date(7), c: new Date(8), d: new Date(7) })));
    const odd = Object.assign(new Date(7), { toISOString: () => 'odd' });
    expect(toWireJson({ a: new Date(7), odd, b: new Date(7) })).toBe('{"a":"1970-01-01T00:00:00.007Z","odd":"odd","b":"1970-01-01T00:00:00.007Z"}');
  });

  it('writes a Date changed in place (setTime) as its new time, not a remembered text', () => {
    const at = new Date(1000);
    expect(toWireJson({ at })).toBe('{"at":"1970-01-01T00:00:01.000Z"}');
    at.setTime(2000);
    expect(toWireJson({ at })).toBe('{"at":"1970-01-01T00:00:02.000Z"}');
  });
});
