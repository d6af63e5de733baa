/**
 * toWireJsonBytes writes decimals straight from their words into bytes; it must give exactly the bytes of
 * toWireJson's text (formatFixed, the general path) and of decimal.js's toFixed, for random decimals of every shape:
 * zero, signs, tiny and huge exponents, many words, more decimals than 8 (rounded by decimal.js).
 */
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import { toWireJson, toWireJsonBytes } from '../../src/model/encode.js';

function randomDecimalText(rnd: () => number): string {
  const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(rnd() * 10))).join('');
  const sign = rnd() < 0.3 ? '-' : '';
  switch (Math.floor(rnd() * 6)) {
    case 0: return `${sign}${digits(1 + Math.floor(rnd() * 12))}`;
    case 1: return `${sign}${digits(1 + Math.floor(rnd() * 8))}.${digits(1 + Math.floor(rnd() * 12))}`;
    case 2: return `${sign}0.${'0'.repeat(Math.floor(rnd() * 12))}${digits(1 + Math.floor(rnd() * 6))}`;
    case 3: return `${sign}${digits(1 + Math.floor(rnd() * 70))}.${digits(Math.floor(rnd() * 30)) || '0'}`;
    case 4: return `${sign}${digits(1 + Math.floor(rnd() * 3))}e${Math.floor(rnd() * 100) - 50}`;
    default: return `${sign}${['0', '0.0', '1', '10', '1000000', '10000000', '9999999.99999999', '0.00000001', '123.4560000'][Math.floor(rnd() * 9)]}`;
  }
}

describe('toWireJsonBytes writes decimals as formatFixed does', () => {
  it('matches toWireJson and toFixed on random decimals, fixed8 and plain', () => {
    const rnd = mulberry32(20261127);
    for (let i = 0; i < 20_000; i++) {
      const text = randomDecimalText(rnd);
      const d = dec(text);
      for (const style of ['fixed8', 'plain'] as const) {
        const bytes = toWireJsonBytes({ v: d, w: [d] }, style)!.toString('utf8');
        expect(bytes, `${text} ${style}`).toBe(toWireJson({ v: d, w: [d] }, style));
        const fixed = style === 'fixed8' ? d.toFixed(8) : d.toFixed();
        expect(bytes, `${text} ${style}`).toBe(`{"v":"${fixed}","w":["${fixed}"]}`);
      }
    }
  });

  it('writes the amounts of an order answer', () => {
    const o = { quantity: dec('0.001'), limit: dec('30010'), fillQuantity: dec('0'), commission: dec('-0'), proceeds: dec('30.01') };
    expect(toWireJsonBytes(o, 'fixed8')!.toString()).toBe(
      '{"quantity":"0.00100000","limit":"30010.00000000","fillQuantity":"0.00000000","commission":"0.00000000","proceeds":"30.01000000"}',
    );
  });
});
