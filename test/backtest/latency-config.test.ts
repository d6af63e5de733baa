/**
 * Latency models (constant, seeded distributions, measured values from a file) and the backtest venue's config:
 * the same seed draws the same latencies, a bad measured-values file names file:line, and a bad venue in a bot
 * config is a ConfigError with file:line:col like every config error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLatency } from '../../backtest/venue/latency.js';
import { loadBotConfig } from '../../src/runtime/bot-config.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'rexbot-bt-latency-'));
  dirs.push(d);
  return d;
};
const draws = (l: { next(): number }, n = 5) => Array.from({ length: n }, () => l.next());

describe('backtest latency models', () => {
  it('constant, and seeded distributions: the same seed draws the same values, another seed others', () => {
    expect(draws(createLatency(7, '.', 'x'))).toEqual([7, 7, 7, 7, 7]);
    const a = draws(createLatency({ kind: 'lognormal', median: 5, sigma: 0.5, min: 1, seed: 3 }, '.', 'orderEntry'), 200);
    const b = draws(createLatency({ kind: 'lognormal', median: 5, sigma: 0.5, min: 1, seed: 3 }, '.', 'orderEntry'), 200);
    const c = draws(createLatency({ kind: 'lognormal', median: 5, sigma: 0.5, min: 1, seed: 4 }, '.', 'orderEntry'), 200);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    expect(Math.min(...a)).toBeGreaterThanOrEqual(1);
    const sorted = [...a].sort((x, y) => x - y);
    expect(sorted[100]!).toBeGreaterThan(3.5);
    expect(sorted[100]!).toBeLessThan(7);
    const u = draws(createLatency({ kind: 'uniform', min: 2, max: 4, seed: 1 }, '.', 'u'), 100);
    expect(u.every((x) => x >= 2 && x <= 4)).toBe(true);
    const n = draws(createLatency({ kind: 'normal', mean: 10, stdev: 50, min: 0, seed: 1 }, '.', 'n'), 100);
    expect(n.every((x) => x >= 0)).toBe(true);
  });

  it('measured values from a file, in file order or drawn; a bad value names file:line', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'lat.txt'), '# measured order-entry latencies, ms\n3.5, 4\n12\n\n5 # a slow one\n');
    expect(draws(createLatency({ kind: 'file', path: 'lat.txt', order: 'cycle', seed: 1 }, dir, 'x'), 6)).toEqual([3.5, 4, 12, 5, 3.5, 4]);
    const sampled = draws(createLatency({ kind: 'file', path: 'lat.txt', order: 'sample', seed: 1 }, dir, 'x'), 50);
    expect(sampled.every((x) => [3.5, 4, 12, 5].includes(x))).toBe(true);
    writeFileSync(join(dir, 'bad.txt'), '3\n4\nfast\n');
    expect(() => createLatency({ kind: 'file', path: 'bad.txt', order: 'cycle', seed: 1 }, dir, 'x')).toThrow(`${join(dir, 'bad.txt')}:3: latency 'fast' is not a number`);
  });
});

describe('backtest venue config', () => {
  it('parses a backtest venue with its defaults', () => {
    const dir = tmp();
    const file = join(dir, 'bt.yaml');
    writeFileSync(
      file,
      `venue:
  kind: backtest
  data: [{ format: rexbot, path: data.jsonl.gz }]
  from: 2021-06-14T01:53:00Z
  balances: { EUR: 1000 }
strategies: [{ name: mm, use: market-maker, markets: [BTC-EUR] }]
`,
    );
    const cfg = loadBotConfig(file);
    expect(cfg.venue).toMatchObject({
      kind: 'backtest',
      from: Date.parse('2021-06-14T01:53:00Z'),
      latency: { marketData: 0, orderEntry: 0, cancel: 0 },
      fillModel: { queue: 'power', exponent: 3, barLimitFill: 'trade-through' },
      data: [{ format: 'rexbot', path: 'data.jsonl.gz', onBadLine: 'fail' }],
    });
  });

  it('a window whose from is not before its to is refused, at to', () => {
    const dir = tmp();
    const file = join(dir, 'window.yaml');
    writeFileSync(
      file,
      `venue:
  kind: backtest
  data: [{ format: rexbot, path: x }]
  from: 2024-01-15T12:05:00Z
  to: 2024-01-15T12:01:00Z
strategies: [{ name: mm, use: market-maker, markets: [BTC-EUR] }]
`,
    );
    expect(() => loadBotConfig(file)).toThrow(/:5:\d+ venue\.to: from must be before to/);
  });

  it('a bad venue is a ConfigError naming file:line:col and the field', () => {
    const dir = tmp();
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      `venue:
  kind: backtest
  data: [{ format: rexbot, path: x }]
  latency:
    orderEntry: { kind: gamma, ms: 3 }
  fillModel: { queue: hopeful }
strategies: [{ name: mm, use: market-maker, markets: [BTC-EUR] }]
`,
    );
    expect(() => loadBotConfig(file)).toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:5:\\d+ venue\\.latency\\.orderEntry`));
    expect(() => loadBotConfig(file)).toThrow(/:6:\d+ venue\.fillModel\.queue/);
  });
});
