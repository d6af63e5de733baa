/**
 * The venue JSON reader (src/core/venue-json.ts): JSON.parse for bodies whose numbers a double holds, the exact
 * wire parser for the others. Whatever way a text goes, the value must be the exact parser's: no number that a
 * double cannot hold may take the fast way.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/prng.js';
import { parseVenueJson, WireJsonError } from '../../src/core/venue-json.js';
import { parseWireJson, WireNumber } from '../../src/core/wire-json.js';

describe('parseVenueJson', () => {
  it('keeps the text of every number a double cannot hold, wherever and however it is written', () => {
    const rand = mulberry32(2026);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(rand() * 10))).join('');
    // Number texts around the 15/16/17-digit border, with leading zeros, exponents that underflow or overflow.
    const number = (): string => {
      const int = pick(['0', '1', '9', digits(1 + Math.floor(rand() * 20)).replace(/^0+(?=\d)/, '')]);
      const frac = rand() < 0.6 ? `.${digits(1 + Math.floor(rand() * 20))}` : '';
      const exp = rand() < 0.25 ? `${pick(['e', 'E'])}${pick(['', '+', '-'])}${pick(['0', '5', '22', '308', '309', '324', '400'])}` : '';
      return `${rand() < 0.3 ? '-' : ''}${int}${frac}${exp}`;
    };
    const ws = () => pick(['', '', ' ', '\n  ', '\t', '\r\n']);
    let exact = 0;
    for (let i = 0; i < 5000; i++) {
      const n = number();
      const text = pick([
        `${ws()}${n}${ws()}`,
        `{"quantity":${ws()}${n}}`,
        `[${ws()}"1.5",${ws()}${n}]`,
        `{"a":"x:1234","b":[1,${ws()}${n}${ws()}]}`,
      ]);
      const want = parseWireJson(text);
      expect(parseVenueJson(text), text).toEqual(want);
      if (JSON.stringify(want).includes('"')) exact++;
    }
    // Both kinds were drawn many times: numbers a double holds, and numbers kept as WireNumber text.
    expect(exact).toBeGreaterThan(1000);
    expect(exact).toBeLessThan(4500);
  });

  it('reads ordinary bodies as JSON.parse does, a digit-like string included', () => {
    const texts = [
      '{"serverTime":1623635700000}',
      '{"bid":[{"quantity":"0.12345678901234567890","rate":"32601.41900000"}],"ask":[]}',
      '{"id":"3e4b1e2c-0000-4000-8000-000000000001","note":"a:1234567890123456789e5"}',
    ];
    for (const t of texts) expect(parseVenueJson(t), t).toEqual(JSON.parse(t));
    expect(parseVenueJson('{"total":1e-400}')).toEqual({ total: new WireNumber('1e-400') });
  });

  it('refuses text that is not JSON either way', () => {
    expect(() => parseVenueJson('{"a":')).toThrow(SyntaxError);
    expect(() => parseVenueJson('{"a":1e5,')).toThrow(WireJsonError);
  });
});
