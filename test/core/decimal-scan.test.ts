import { describe, expect, it } from 'vitest';
import { Decimal, LONG, parsePlainDecimal, plainOfParts, scanned, scanPlain, SCANNED } from '../../src/core/decimal.js';
import { digitRun, scanEnd, scannedLong, scanPlainAt } from '../../src/core/decimal-scan.js';
import { equalTo, sameAs } from '../helpers/cheap-expect.js';
import { Prng } from '../sync/prng.js';

const viewOf = (b: Buffer): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
/** decimal.js's documented representation of a value, as text. */
const parts = (d: Decimal | undefined): string => {
  const x = d as unknown as { s: number; e: number; d: number[] | null } | undefined;
  return x === undefined ? 'undefined' : JSON.stringify([x.s, x.e, x.d]);
};

/** Where the plain form `-?\d+(\.\d+)?` starting at `i` ends (the longest match), or -1. */
function plainEnd(text: string, i: number): number {
  const m = /^-?\d+(?:\.\d+)?/.exec(text.slice(i));
  return m ? i + m[0].length : -1;
}

describe('scanPlainAt (plain decimals read from bytes where they start)', () => {
  it('ends where the plain form ends and reads what scanPlain and parsePlainDecimal read there', () => {
    const rng = new Prng(31);
    const alphabet = ['0', '0', '1', '5', '9', '.', '-', '"', 'e', ' ', 'x', ',', '\u00e9'];
    const failures: string[] = [];
    let long = 0;
    let short = 0;
    for (let k = 0; k < 100_000; k++) {
      // Mostly values (leading and trailing zeros, up to ~24 digits, sometimes long), followed by anything.
      let text = '';
      if (rng.chance(0.8)) {
        const digits = (n: number) => Array.from({ length: n }, () => (rng.chance(0.3) ? '0' : String(rng.int(10)))).join('');
        text = `${rng.chance(0.2) ? '-' : ''}${digits(1 + rng.int(rng.chance(0.2) ? 20 : 8))}${rng.chance(0.6) ? `.${digits(1 + rng.int(rng.chance(0.2) ? 20 : 9))}` : ''}`;
      }
      for (let n = rng.int(4); n > 0; n--) text += rng.pick(alphabet);
      const before = rng.pick(['', '"', 'x1', '1']);
      const bytes = Buffer.from(before + text);
      const start = Buffer.byteLength(before);
      // The end given is the text's end, or earlier (a value cut short must end there).
      const end = rng.chance(0.8) ? bytes.length : start + rng.int(bytes.length - start + 1);
      const ascii = bytes.toString('latin1', 0, end);
      const want = plainEnd(ascii, start);
      const got = scanPlainAt(bytes, start, end);
      if (got !== want) {
        failures.push(`${JSON.stringify(ascii)} @${start}: end ${got}, want ${want}`);
        continue;
      }
      if (got < 0) continue;
      sameAs(scanEnd.at, got, () => `${JSON.stringify(ascii)} @${start}: scanEnd.at`);
      const code = scanPlain(ascii, start, got);
      const gotParts = scannedLong() ? parts(parsePlainDecimal(ascii, start, got)) : parts(plainOfParts(scanned.sign, scanned.e, scanned.v, scanned.n));
      if (scannedLong()) long++;
      else short++;
      // Long exactly when scanPlain says so; the value is the constructor's.
      if (scannedLong() !== (code === LONG) || (code !== SCANNED && code !== LONG)) failures.push(`${ascii}: long ${scannedLong()}, scanPlain ${code}`);
      if (gotParts !== parts(new Decimal(ascii.slice(start, got)))) failures.push(`${ascii.slice(start, got)}: ${gotParts}`);
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(long).toBeGreaterThan(1000);
    expect(short).toBeGreaterThan(30_000);
  });

  it('refuses what does not start with a digit (after an optional minus)', () => {
    for (const text of ['', '-', '.5', '-.5', '+1', 'x1', '"1"', '--1']) {
      const b = Buffer.from(text);
      expect(scanPlainAt(b, 0, b.length), text).toBe(-1);
    }
  });
});

describe('digitRun (digits four at a time)', () => {
  it('reads runs of digits of any length, wherever they start and stop, as Number reads them', () => {
    const rng = new Prng(32);
    const stops = ['', ',', '"', '/', ':', 'a', '\u00ff', ' ', '\n', '-', '.'];
    for (let k = 0; k < 50_000; k++) {
      const digits = Array.from({ length: rng.int(16) }, () => String(rng.int(10))).join('');
      const lead = 'x'.repeat(rng.int(5));
      const stop = rng.pick(stops);
      const text = `${lead}${digits}${stop}${stop !== '' && rng.chance(0.5) ? '123' : ''}`;
      const bytes = Buffer.from(text, 'latin1');
      const v = digits.length <= 12 && rng.chance(0.2) ? rng.int(100) : 0;
      const got = digitRun(bytes, viewOf(bytes), lead.length, bytes.length, v);
      const wantEnd = lead.length + digits.length;
      // The digits after a stop are not read: `123` after a stop never joins. The text in both arrays names a case
      // that fails; equalTo calls `expect` only then (50k calls of it took most of the time).
      equalTo([text, scanEnd.at, got], [text, wantEnd, digits.length === 0 ? v : v * 10 ** digits.length + Number(digits)]);
    }
  });
});
