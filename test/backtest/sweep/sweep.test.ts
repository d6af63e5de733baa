import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSweep, sweepJobs } from '../../../backtest/sweep/run-sweep.js';
import { parseSweepArg, sweepGrid } from '../../../backtest/sweep/sweep-grid.js';
import { metricText, rankResults, sweepTable } from '../../../backtest/sweep/sweep-rank.js';
import { runBacktest } from '../../../backtest/run-backtest.js';
import { runSweepJob, type SweepResult } from '../../../backtest/sweep/sweep-job.js';
import { failingBacktestYaml } from '../../helpers/failing-backtest-config.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('sweep grid', () => {
  it('parses values as YAML scalars', () => {
    expect(parseSweepArg('spread=0.001,0.002')).toEqual({ key: 'spread', values: [0.001, 0.002] });
    expect(parseSweepArg('venue.fillModel.queue=pessimistic,optimistic').values).toEqual(['pessimistic', 'optimistic']);
    expect(parseSweepArg('flag=true,"0.5"').values).toEqual([true, '0.5']);
  });

  it('refuses malformed arguments, saying which', () => {
    expect(() => parseSweepArg('spread')).toThrow(/--sweep spread: expected key=v1,v2/);
    expect(() => parseSweepArg('spread=1,,2')).toThrow(/empty value/);
    expect(() => parseSweepArg('a b=1')).toThrow(/not a parameter name/);
    expect(() => sweepGrid([parseSweepArg('a=1'), parseSweepArg('a=2')])).toThrow(/given twice/);
  });

  it('is the cartesian product, first axis slowest, one folder per job', () => {
    const axes = [parseSweepArg('spread=0.001,0.002'), parseSweepArg('levels=2,3')];
    expect(sweepGrid(axes)).toEqual([
      { spread: 0.001, levels: 2 },
      { spread: 0.001, levels: 3 },
      { spread: 0.002, levels: 2 },
      { spread: 0.002, levels: 3 },
    ]);
    const jobs = sweepJobs('config/x.yaml', axes, '/tmp/out');
    expect(jobs.map((j) => j.outDir)).toEqual(['/tmp/out/1-spread=0.001,levels=2', '/tmp/out/2-spread=0.001,levels=3', '/tmp/out/3-spread=0.002,levels=2', '/tmp/out/4-spread=0.002,levels=3']);
    // plain data: survives JSON as is (a distributed queue can carry it)
    expect(JSON.parse(JSON.stringify(jobs))).toEqual(jobs);
  });
});

describe('ranking', () => {
  const ok = (index: number, netPnl: string, sharpe: number | null) =>
    ({ index, params: { i: index }, ok: true, outDir: '', html: `/r/${index}`, events: 1, wallMs: 1, metrics: { netPnl, sharpe, maxDrawdown: { fraction: 0.1 }, trades: 1 } }) as unknown as SweepResult;
  const failed: SweepResult = { index: 9, params: { i: 9 }, ok: false, error: 'boom' };

  it('best first, no value after, failures last', () => {
    const r = rankResults([failed, ok(0, '1', null), ok(1, '5', 2), ok(2, '3', 3)], 'sharpe');
    expect(r.map((x) => x.index)).toEqual([2, 1, 0, 9]);
    expect(rankResults([ok(0, '1', null), ok(1, '5', 2)], 'netPnl').map((x) => x.index)).toEqual([1, 0]);
    expect(() => rankResults([], 'nope')).toThrow(/--metric nope: unknown; one of netPnl/);
    expect(sweepTable(r, 'sharpe')).toContain('FAILED: boom');
  });

  it('by net PnL vs holding: what the parameters earned beyond the starting balances; unknown ranks after', () => {
    const vs = (index: number, netPnlVsHold: string | null) => {
      const r = ok(index, '0', null) as SweepResult & { ok: true };
      return { ...r, metrics: { ...r.metrics, netPnlVsHold } } as SweepResult;
    };
    const r = rankResults([vs(0, '-5'), vs(1, null), vs(2, '3')], 'netPnlVsHold');
    expect(r.map((x) => x.index)).toEqual([2, 0, 1]);
    expect(metricText(r[0]!, 'netPnlVsHold')).toBe('3');
    expect(metricText(r[2]!, 'netPnlVsHold')).toBe('–');
  });
});

describe('a sweep on worker threads', () => {
  it('runs every job, ranks them, writes each report and an index; a bad job fails alone', async () => {
    const out = await mkdtemp(join(tmpdir(), 'rexbot-sweep-'));
    dirs.push(out);
    const seen: number[] = [];
    const { ranked, index } = await runSweep({
      configPath: 'config/none.yaml',
      axes: [parseSweepArg('spread=0.001,-1,0.004'), parseSweepArg('levels=2,3')],
      outDir: out,
      metric: 'netPnl',
      threads: 2,
      handler: new URL('./fixture-handler.ts', import.meta.url),
      onResult: (_r, done) => seen.push(done),
    });
    expect(seen.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ranked.map((r) => [r.params.spread, r.ok])).toEqual([
      [0.004, true],
      [0.004, true],
      [0.001, true],
      [0.001, true],
      [-1, false],
      [-1, false],
    ]);
    const bad = ranked[4]!;
    expect(!bad.ok && bad.error).toBe('params.spread: must be ≥ 0, got -1');
    for (const r of ranked) if (r.ok) expect(existsSync(join(r.outDir, 'report.json')) && existsSync(r.html)).toBe(true);
    const best = ranked[0]!;
    expect(best.ok && best.metrics.netPnl).toBe('17.72000000');
    const page = await readFile(index, 'utf8');
    expect(page).toContain('href="5-spread=0.004,levels=2/report.html"');
    expect(page).toContain('failed: params.spread: must be ≥ 0, got -1');
    const json = JSON.parse(await readFile(join(out, 'index.json'), 'utf8')) as { results: Array<{ html?: string }> };
    expect(json.results[0]!.html).toBe('5-spread=0.004,levels=2/report.html');
    const report = JSON.parse(await readFile(join(out, '5-spread=0.004,levels=2', 'report.json'), 'utf8')) as { params: unknown };
    expect(report.params).toEqual({ spread: 0.004, levels: 2 });
  });

  it('a job whose strategy failed is a failed row, with the failure (its report is still written)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'rexbot-sweep-'));
    dirs.push(out);
    const config = join(out, 'bt.yaml');
    await writeFile(config, failingBacktestYaml());
    const r = await runSweepJob({ index: 0, configPath: config, params: { 'venue.seed': 2 }, outDir: join(out, 'run') }, runBacktest);
    expect(r).toMatchObject({ ok: false, error: "strategy 'broken' failed during setup: setup exploded: no pricing model configured" });
    expect(existsSync(join(out, 'run', 'report.json'))).toBe(true);
  });
});
