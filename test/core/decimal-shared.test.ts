import { describe, expect, it } from 'vitest';
import { Decimal, parsePlainDecimal } from '../../src/core/decimal.js';
import { parseSharedDecimal } from '../../src/core/shared-decimal.js';
import { Prng } from '../sync/prng.js';

/** decimal.js's documented representation of a value, as text. */
const parts = (d: Decimal | undefined): string => {
  const x = d as unknown as { s: number; e: number; d: number[] | null } | undefined;
  return x === undefined ? 'undefined' : JSON.stringify([x.s, x.e, x.d]);
};

describe('parseSharedDecimal', () => {
  it('gives the value the constructor gives, sharing a Decimal only between texts of the same value', () => {
    const rng = new Prng(21);
    // A few values seen over and over (a recording's rates and sizes), with their other spellings (signs, zeros,
    // exponents one digit apart), among many seen once or twice, enough to collide in and evict from the table.
    const common = ['30009', '30009.0', '030009', '-30009', '3000.9', '300.09', '0', '-0', '0.000', '-0.00', '1.2062', '1.20620', '12062', '0.12062', '-1.2062', '0.00000001', '123456789012345', '1234567890123456789'];
    const failures: string[] = [];
    const byValue = new Map<string, Decimal>();
    let shared = 0;
    for (let k = 0; k < 200_000; k++) {
      let text: string;
      if (rng.chance(0.5)) text = common[rng.int(common.length)]!;
      else {
        const int = String(rng.int(rng.chance(0.5) ? 100 : 100_000_000));
        text = `${rng.chance(0.1) ? '-' : ''}${int}${rng.chance(0.7) ? `.${String(rng.int(100_000)).padStart(rng.int(8), '0')}` : ''}`;
      }
      const got = parseSharedDecimal(`"${text}"`, 1, text.length + 1);
      const want = new Decimal(text);
      if (parts(got) !== parts(want)) failures.push(text);
      // Shared with an earlier text only when that one has the same value (same parts).
      const key = parts(want);
      const before = byValue.get(key);
      if (before === got) shared++;
      for (const [k2, d] of byValue) if (d === got && k2 !== key) failures.push(`${text} shares with ${k2}`);
      byValue.set(key, got!);
      if (byValue.size > 64) byValue.delete(byValue.keys().next().value!);
    }
    expect(failures).toEqual([]);
    expect(shared).toBeGreaterThan(50_000);
  });

  it('answers what parsePlainDecimal answers for every other form (not plain: undefined; long: not shared)', () => {
    for (const text of ['', '-', '.5', '1.', '1e5', '+1', '1..2', 'abc', '1 ', '--1']) {
      expect(parseSharedDecimal(text, 0, text.length), text).toBeUndefined();
      expect(parsePlainDecimal(text, 0, text.length), text).toBeUndefined();
    }
    const long = '12345678901234567890.123456789';
    const a = parseSharedDecimal(long, 0, long.length)!;
    expect(parts(a)).toBe(parts(new Decimal(long)));
    expect(parseSharedDecimal(long, 0, long.length)).not.toBe(a);
    const b = parseSharedDecimal('x30009.50y', 1, 9)!;
    expect(b).toBe(parseSharedDecimal('30009.5', 0, 7));
    expect(b).toStrictEqual(new Decimal('30009.5'));
  });
});
