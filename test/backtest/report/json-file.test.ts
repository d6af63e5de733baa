/**
 * report.json written piece by piece gives exactly stringifyReport's bytes, for random values of every JSON shape
 * and for a real report, and never holds more than about a chunk of text at once.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportJsonChunks, writeReportJson } from '../../../backtest/report/json-file.js';
import { buildReport, stringifyReport } from '../../../backtest/report/report-json.js';
import { writeReport } from '../../../backtest/report/write-report.js';
import { Prng } from '../../sync/prng.js';
import { workedExample } from './fixture.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const STRINGS = ['', 'a', 'BTC-USD', 'line\nbreak', 'quote " and \\ slash', 'tab\there', '\u2028\u2029', 'é€😀', '\u0000\u001f'];
const KEYS = ['a', 'b', 'z', 'A', '10', '9', '0', '-1', '1.5', 'key with space', 'ünï', '__proto_', 'constructor'];
const NUMBERS = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 123456.789, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity];

function randomValue(rng: Prng, depth: number): unknown {
  const kind = rng.int(depth > 4 ? 6 : 9);
  switch (kind) {
    case 0:
      return NUMBERS[rng.int(NUMBERS.length)];
    case 1:
      return STRINGS[rng.int(STRINGS.length)];
    case 2:
      return rng.chance(0.5);
    case 3:
      return null;
    case 4:
      return undefined;
    case 5:
      return rng.chance(0.5) ? new Date(rng.int(1e12)) : () => 1;
    case 6:
      return Array.from({ length: rng.int(5) }, () => randomValue(rng, depth + 1));
    case 7:
      // Long enough to be written in batches (more than 64 elements, some past a batch of 512), at every depth.
      return Array.from({ length: depth < 3 && rng.chance(0.5) ? 60 + rng.int(rng.chance(0.1) ? 1200 : 120) : rng.int(5) }, () => randomValue(rng, depth + 2));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = rng.int(6); i > 0; i--) o[KEYS[rng.int(KEYS.length)]!] = randomValue(rng, depth + 1);
      return o;
    }
  }
}

describe('report.json written piece by piece', () => {
  it('is stringifyReport byte for byte, for random values of every shape', () => {
    const rng = new Prng(7);
    const failures: string[] = [];
    for (let k = 0; k < 1500; k++) {
      const v = { root: randomValue(rng, 0), list: randomValue(rng, 3) };
      if ([...reportJsonChunks(v)].join('') !== stringifyReport(v)) failures.push(stringifyReport(v));
    }
    expect(failures.slice(0, 3)).toEqual([]);
  });

  it('writes a real report as stringifyReport does', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rexbot-json-file-'));
    dirs.push(dir);
    const report = buildReport(workedExample());
    await writeReportJson(join(dir, 'report.json'), report);
    expect(await readFile(join(dir, 'report.json'), 'utf8')).toBe(stringifyReport(report));
  });

  it('replaces a report only once the new one is complete: a failed write leaves the old one, and says which file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rexbot-json-file-'));
    dirs.push(dir);
    await writeReport(workedExample(), dir);
    expect((await readdir(dir)).sort()).toEqual(['report.html', 'report.json']);
    await writeFile(join(dir, 'report.json'), 'the previous report\n');
    // The temporary file's place is taken by a directory: the write fails as a full disk would, part-way.
    await mkdir(join(dir, `report.json.${process.pid}.tmp`));
    await expect(writeReport(workedExample(), dir)).rejects.toThrow(`could not write ${join(dir, 'report.json')}: EISDIR`);
    expect(await readFile(join(dir, 'report.json'), 'utf8')).toBe('the previous report\n');
  });

  it('hands the text over in bounded chunks, however long the lists', () => {
    const orders = Array.from({ length: 40_000 }, (_, i) => ({ clientOrderId: `c${i}`, limit: '30000.00000000', quantity: '0.01000000', createdAt: i }));
    const value = { orders, fills: orders.slice(0, 10_000) };
    const chunks = [...reportJsonChunks(value)];
    expect(chunks.length).toBeGreaterThan(3);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(2 * (1 << 20));
    expect(chunks.join('')).toBe(stringifyReport(value));
  });
});
