/**
 * A run's progress: with an end time, the share of [from, to] reached; with none (the run ends with its data), the
 * share of the data files read, so the progress line shows a real percentage and ETA instead of 100 % from the
 * first event; and "?" where neither is known.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { progressLine } from '../../backtest/cli/progress.js';
import { runBacktest } from '../../backtest/run-backtest.js';
import type { BacktestProgress } from '../../backtest/run/backtest-session.js';
import { repoPath } from '../helpers/shared.js';
import { recordingLine } from '../bench/backtest/write-recording.js';
import { memoryReader, syntheticEvents } from './synthetic-events.js';

const T0 = Date.parse('2024-03-01T00:00:00Z');
const COUNT = 25_000;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A recording of COUNT synthetic events and a config over it (idle strategy), `window` added to its venue. */
function setUp(window = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-bt-progress-'));
  dirs.push(dir);
  let text = `${JSON.stringify({ format: 'rexbot-recording', version: 1, startedAt: T0, channels: [], source: { hub: 's', rest: 's', transport: 'classic' } })}\n`;
  const seq = { n: 0 };
  for (const e of syntheticEvents({ seed: 5, count: COUNT, start: T0 })) text += `${recordingLine(e, seq)}\n`;
  writeFileSync(join(dir, 'data.jsonl'), text);
  writeFileSync(
    join(dir, 'bt.yaml'),
    `venue:
  kind: backtest
  data: [{ format: rexbot, path: data.jsonl }]
  balances: { USD: 100000, BTC: 1 }
${window}
strategies:
  - { name: idle, use: ${JSON.stringify(repoPath('test', 'backtest', 'fixtures', 'idle-strategy.ts'))}, markets: [BTC-USD] }
`,
  );
  return join(dir, 'bt.yaml');
}

async function progressOf(opts: Parameters<typeof runBacktest>[0]): Promise<BacktestProgress[]> {
  const seen: BacktestProgress[] = [];
  await runBacktest({ ...opts, onProgress: (p) => seen.push(p) });
  return seen;
}

describe('backtest progress', () => {
  it('with no end time: the share of the data read, climbing to the whole of it', async () => {
    const seen = await progressOf({ configPath: setUp() });
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.every((p) => p.open === true && p.read !== undefined)).toBe(true);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.read!).toBeGreaterThanOrEqual(seen[i - 1]!.read!);
    expect(seen[0]!.read!).toBeLessThan(1);
    expect(seen.at(-1)!.read).toBe(1);
    expect(progressLine(seen[0]!, 1000)).toMatch(/^backtest: \d+\.\d % · 10,000 events · 10,000 events\/s · ETA \d/);
    expect(progressLine(seen[0]!, 1000)).not.toContain('100.0 %');
  });

  it('with an end time: the share of [from, to] reached, as before', async () => {
    const to = new Date(T0 + 60_000).toISOString();
    const seen = await progressOf({ configPath: setUp(`  to: ${to}`) });
    expect(seen.every((p) => p.open === undefined && p.to === T0 + 60_000)).toBe(true);
    expect(progressLine(seen.at(-1)!, 1000)).toContain('100.0 %');
  });

  it('with no end time and data that cannot tell how much is read: "?" rather than a made-up share', async () => {
    const seen = await progressOf({ configPath: setUp(), readers: [memoryReader(() => syntheticEvents({ seed: 5, count: COUNT, start: T0 }))] });
    expect(seen.every((p) => p.open === true && p.read === undefined)).toBe(true);
    expect(progressLine(seen[0]!, 1000)).toBe('backtest: ? % · 10,000 events · 10,000 events/s · ETA ?');
  });
});
