/**
 * The wire JSON parser (src/core/wire-json.ts): what JSON.parse accepts it accepts alike, except nesting past the
 * bound, duplicate keys, and numbers a double cannot hold, which keep their text.
 */
import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import { parseWireJson, previewJson, WIRE_JSON_MAX_DEPTH, WireJsonError, WireNumber } from '../../src/core/wire-json.js';

describe('parseWireJson', () => {
  it('parses what JSON.parse parses, to the same values', () => {
    const texts = [
      '{"marketSymbol":"BTC-USD","direction":"BUY","quantity":"0.001","limit":15000,"useAwards":false,"x":null}',
      '[1,-2,3.5,1e2,1E-7,0,-0.25,"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00",[],{},[[{}]]]',
      ' \n\t{ "a" : [ 1 , 2 ] } \r\n',
      '"just a string"', '12345678901234', 'true', 'false', 'null', '-1623635618775',
    ];
    for (const t of texts) expect(parseWireJson(t), t).toEqual(JSON.parse(t));
  });

  it('reads random strings and keys as JSON.parse does, escapes and control characters included', () => {
    // Strings go through a one-pass fast path unless they hold a backslash or a control character; keys are also
    // swapped for remembered copies of their text (bounded): both must give exactly JSON.parse's values, and a raw
    // control character must still be refused where it is.
    const rand = mulberry32(77);
    // JSON texts of string pieces: plain characters, every escape, and non-ASCII characters as they are.
    const pieces = ['a', 'Z', ' ', '-', '\\"', '\\\\', '/', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', 'é', '😀', '\\u0041', '\\u00e9', '\\ud83d\\ude00', '\\u0000'];
    const piece = () => pieces[Math.floor(rand() * pieces.length)]!;
    const text = (n: number) => Array.from({ length: Math.floor(rand() * n) }, piece).join('');
    for (let i = 0; i < 3000; i++) {
      const keys = new Set<string>();
      const fields: string[] = [];
      const count = Math.floor(rand() * 5);
      for (let k = 0; k < count; k++) {
        // Some keys from a few names (remembered ones), some new each time (past the bound of remembered keys).
        const key = rand() < 0.5 ? ['type', 'limit', '__proto__', 'x\\"y'][Math.floor(rand() * 4)]! : `k${i}_${k}${text(4)}`;
        const plain = JSON.parse(`"${key}"`) as string;
        if (keys.has(plain)) continue;
        keys.add(plain);
        fields.push(`"${key}":"${text(12)}"`);
      }
      const json = `{${fields.join(',')}}`;
      expect(parseWireJson(json), json).toEqual(JSON.parse(json));
      if (fields.length > 0) {
        const broken = json.replace(/:"/, ':"\u0001'); // a raw control character, not an escape
        expect(() => parseWireJson(broken), broken).toThrow(WireJsonError);
      }
    }
  });

  it('refuses what JSON.parse refuses, with a position', () => {
    for (const t of ['', '{', '}', '[1,]', '{"a":1,}', "{'a':1}", 'NaN', '01', '1.', '.5', '-', '1e', '{"a" 1}', '[1 2]', 'nul', '"\u0001"', '"\\x"', '"\\u12"', '{} {}', '"open']) {
      expect(() => JSON.parse(t), t).toThrow();
      expect(() => parseWireJson(t), t).toThrow(WireJsonError);
    }
    expect(() => parseWireJson('[1,]')).toThrow(/at position 3/);
  });

  it('bounds nesting: the bound itself parses, one more level is refused, 6,000 and 200,000 levels do not overflow', () => {
    const nest = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(() => parseWireJson(nest(WIRE_JSON_MAX_DEPTH))).not.toThrow();
    expect(() => parseWireJson(nest(WIRE_JSON_MAX_DEPTH + 1))).toThrow(/nesting deeper than 32 levels/);
    expect(() => parseWireJson(nest(6_000))).toThrow(WireJsonError);
    expect(() => parseWireJson(`${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}`)).toThrow(WireJsonError);
    expect(() => parseWireJson(nest(5), { maxDepth: 4 })).toThrow(/deeper than 4/);
  });

  it('refuses duplicate keys, naming the key and where it is', () => {
    expect(() => parseWireJson('{"direction":"BUY","quantity":"1","direction":"SELL"}')).toThrow(/duplicate key 'direction' at position 34/);
    expect(() => parseWireJson('{"a":1,"a":1}')).toThrow(/duplicate key 'a'/);
    expect(() => parseWireJson('{"a":{"b":1},"c":{"b":2}}')).not.toThrow();
    // The same key after escapes is the same key.
    expect(() => parseWireJson('{"a":1,"\\u0061":2}')).toThrow(/duplicate key 'a'/);
  });

  it('keeps numbers a double cannot hold as their text; the rest are plain numbers', () => {
    const v = parseWireJson('[1.0000000000000001,1000.0000000000000000001,1e400,-1e400,9007199254740993,1e-400,0.1,1.10,123456789012345,1e21,5e-324]') as unknown[];
    expect(v.slice(0, 6).map((x) => (x instanceof WireNumber ? x.text : x))).toEqual(['1.0000000000000001', '1000.0000000000000000001', '1e400', '-1e400', '9007199254740993', '1e-400']);
    expect(v.slice(6)).toEqual([0.1, 1.1, 123456789012345, 1e21, 5e-324]);
    expect(parseDecimal(v[0])?.toFixed()).toBe('1.0000000000000001');
    expect(parseDecimal(v[1])?.decimalPlaces()).toBe(19);
    expect(parseDecimal(v[2])?.toString()).toBe('1e+400');
  });

  it('gives "__proto__" as an own property and never touches a prototype', () => {
    const o = parseWireJson('{"__proto__":{"admin":true},"a":1}') as Record<string, unknown>;
    expect(Object.keys(o)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect((o as { admin?: unknown }).admin).toBeUndefined();
  });

  it('reads a long string and a huge number text whole', () => {
    const long = 'x'.repeat(200_000);
    expect(parseWireJson(JSON.stringify({ s: long }))).toEqual({ s: long });
    expect((parseWireJson('9'.repeat(5_000)) as WireNumber).text).toHaveLength(5_000);
  });
});

describe('previewJson', () => {
  it('never throws, cuts long text, shows a kept number as written', () => {
    let deep: unknown = [];
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(previewJson(deep)).toBe('[an array]');
    expect(previewJson('x'.repeat(500))).toHaveLength(100);
    expect(previewJson(new WireNumber('1e400'))).toBe('1e400');
    expect(previewJson(undefined)).toBe('undefined');
  });
});
