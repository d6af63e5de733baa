import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Decimal, parseDecimal, parsePlainDecimal } from '../../src/core/decimal.js';
import { Prng } from '../sync/prng.js';

/** decimal.js's documented representation of a value. */
const parts = (d: Decimal): { s: number; e: number; d: number[] | null } => {
  const x = d as unknown as { s: number; e: number; d: number[] | null };
  return { s: x.s, e: x.e, d: x.d };
};

describe('parseDecimal', () => {
  it('builds plain wire strings exactly as the decimal.js constructor does (digits, exponent, sign)', () => {
    const rng = new Prng(11);
    const digits = (n: number, zeros: number): string => Array.from({ length: n }, () => (rng.chance(zeros) ? '0' : String(rng.int(10)))).join('');
    const failures: string[] = [];
    for (let k = 0; k < 50_000; k++) {
      const int = digits(1 + rng.int(24), rng.next());
      const text = `${rng.chance(0.2) ? '-' : ''}${int}${rng.chance(0.7) ? `.${digits(1 + rng.int(24), rng.next())}` : ''}`;
      const got = parseDecimal(text);
      const want = new Decimal(text);
      if (got === undefined || JSON.stringify(parts(got)) !== JSON.stringify(parts(want))) failures.push(text);
    }
    expect(failures).toEqual([]);
    for (const text of ['0', '-0.00000000', '30001.12300000', '0.00000001', '12345678901234567890.123456789', '9999999.0000000']) {
      expect(parts(parseDecimal(text)!), text).toEqual(parts(new Decimal(text)));
    }
  });

  it('builds values of up to 15 significant digits (read in one pass) exactly as the constructor does', () => {
    const rng = new Prng(12);
    const failures: string[] = [];
    for (let k = 0; k < 100_000; k++) {
      // Leading zeros, up to 15 significant digits with zeros among them, trailing zeros, the point anywhere.
      const sig = Array.from({ length: 1 + rng.int(15) }, (_, i) => String(i === 0 ? 1 + rng.int(9) : rng.chance(0.3) ? 0 : rng.int(10))).join('');
      const all = '0'.repeat(rng.int(10)) + sig + '0'.repeat(rng.int(10));
      const dot = rng.int(all.length + 1);
      const body = dot === 0 || dot === all.length ? all : `${all.slice(0, dot)}.${all.slice(dot)}`;
      const text = `${rng.chance(0.2) ? '-' : ''}${body}`;
      const got = parsePlainDecimal(`"${text}"`, 1, text.length + 1);
      const want = new Decimal(text);
      if (got === undefined || JSON.stringify(parts(got)) !== JSON.stringify(parts(want))) failures.push(text);
    }
    expect(failures).toEqual([]);
  });

  it('fills the words array with small integers, as the constructor does (not doubles, which slow decimal.js)', () => {
    // The elements kind is only visible to V8's natives syntax: a child process checks it, after warm-up so that
    // the optimised code is checked too.
    const dir = mkdtempSync(join(tmpdir(), 'rexbot-decimal-'));
    try {
      const script = join(dir, 'kind.mjs');
      writeFileSync(
        script,
        `import { Decimal, parsePlainDecimal } from ${JSON.stringify(pathToFileURL(join(process.cwd(), 'src/core/decimal.ts')).href)};
const smi = new Function('a', 'return %HasSmiElements(a)');
const double = new Function('a', 'return %HasDoubleElements(a)');
const texts = ['30009', '0.2347', '1.2062', '0', '-0.5', '123456789.12345', '0.00000001', '99999999999999', '12345678901234567890.5'];
const seen = [];
for (let r = 0; r < 30000; r++) for (const t of texts) { const d = parsePlainDecimal(t, 0, t.length); if (r % 10000 === 0) seen.push([t, smi(d.d), double(d.d)]); }
const c = new Decimal('0.2347');
seen.push(['constructor', smi(c.d), double(c.d)]);
process.stdout.write(JSON.stringify(seen));`,
      );
      const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', script], { encoding: 'utf8' });
      const seen = JSON.parse(out) as [string, boolean, boolean][];
      expect(seen.length).toBe(28);
      expect(seen.filter(([, smi, double]) => !smi || double)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('still reads every other decimal form and rejects non-decimals', () => {
    for (const [text, value] of [['+1.5', '1.5'], ['.5', '0.5'], ['1.', '1'], ['1e-8', '1e-8'], ['-2.5E3', '-2500']] as const) {
      expect(parseDecimal(text)?.eq(new Decimal(value)), text).toBe(true);
    }
    for (const bad of ['', '-', '.', '1..2', '1.2.3', '--1', '1-', ' 1', '1 ', 'abc', 'NaN', 'Infinity', '0x10', '1,5']) {
      expect(parseDecimal(bad), bad).toBeUndefined();
    }
  });

  it('gives values that behave like any other Decimal', () => {
    const a = parseDecimal('30001.12300000')!;
    expect(a.plus(parseDecimal('0.00000001')!).toString()).toBe('30001.12300001');
    expect(a.eq(new Decimal('30001.123'))).toBe(true);
    expect(parseDecimal('-0.00000000')!.isNegative()).toBe(new Decimal('-0').isNegative());
  });

  it('gives values equal to constructed ones as objects too (same own properties, prototype and constructor)', () => {
    for (const text of ['0', '-0.00000000', '30001.12300000', '0.00000001', '12345678901234567890.123456789']) {
      const got = parseDecimal(text)!;
      const want = new Decimal(text);
      expect(got, text).toStrictEqual(want);
      expect(Object.keys(got), text).toEqual(Object.keys(want));
      expect(Object.getPrototypeOf(got)).toBe(Object.getPrototypeOf(want));
      expect(got.constructor).toBe(Decimal);
      expect(got instanceof Decimal && Decimal.isDecimal(got)).toBe(true);
    }
  });
});
