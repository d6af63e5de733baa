/**
 * `rexbot backtest` as a real process on the shipped example (config/backtest.yaml over
 * backtest/data/synthetic-btc-usd.jsonl.gz): a run with --band writes both report files and says where;
 * the same run twice gives the same report.json bytes; a sweep runs its grid on worker threads with a bad
 * value failing alone; bad command lines exit 2 with the reason; Ctrl-C ends a run at once and leaves nothing
 * in the temp folder; skipped data is a warning on stderr.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { writeSyntheticRecording } from '../bench/backtest/write-recording.js';
import { parseBacktestArgs } from '../../src/cli/backtest-command.js';
import { repoPath } from '../helpers/shared.js';
import { failingBacktestYaml } from '../helpers/failing-backtest-config.js';

const run = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [repoPath('src/cli/bin.mjs'), 'backtest', ...args], { cwd: repoPath(), timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
};

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
const tmp = async () => {
  const d = await mkdtemp(join(tmpdir(), 'rexbot-backtest-cli-'));
  dirs.push(d);
  return d;
};

describe('rexbot backtest', () => {
  it('runs the shipped example with --band: summary, report.json and report.html, and where they are', { timeout: 120_000 }, async () => {
    const out = await tmp();
    const r = await run(['config/backtest.yaml', '--band', '--out', out]);
    expect(r.stderr).not.toContain('rexbot backtest:');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`report: ${join(out, 'report.html')}`);
    expect(r.stdout).toMatch(/net PnL/);
    expect(r.stdout).toMatch(/pessimistic/);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { kind: string; events: number; band: Array<{ queueModel: string }>; queueModel: string };
    expect(report.kind).toBe('backtest');
    expect(report.events).toBe(11066);
    expect(report.band.map((b) => b.queueModel)).toEqual(['power', 'pessimistic', 'optimistic']);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    // not a terminal: plain progress lines, no bar redraws
    expect(r.stderr).toMatch(/^backtest: 100\.0 % · 11,066 events · [\d,]+ events\/s · ETA/m);

    const again = await tmp();
    expect((await run(['config/backtest.yaml', '--band', '--out', again])).code).toBe(0);
    expect((await readFile(join(again, 'report.json'))).equals(await readFile(join(out, 'report.json')))).toBe(true);
  });

  it('sweeps a grid on worker threads; a bad value fails in the table and the rest go on', { timeout: 120_000 }, async () => {
    const out = await tmp();
    const r = await run(['config/backtest.yaml', '--sweep', 'spread=0.0001,0.0003', '--sweep', 'size=0.002,abc', '--metric', 'netPnl', '--jobs', '2', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('sweep of 4 runs on 2 worker threads');
    expect(r.stdout).toContain(`index: ${join(out, 'index.html')}`);
    expect(r.stdout.match(/FAILED: .*params\.size/g)).toHaveLength(2);
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8')) as { results: Array<{ ok: boolean; html?: string }> };
    expect(index.results.map((x) => x.ok)).toEqual([true, true, false, false]);
    for (const x of index.results.filter((y) => y.ok)) expect(existsSync(join(out, x.html!))).toBe(true);
  });

  it('Ctrl-C ends a run in progress at once (exit 130, saying so) and leaves nothing in the temp folder', { timeout: 120_000 }, async () => {
    const dir = await tmp();
    const temp = join(dir, 'tmp');
    await mkdir(temp);
    // Several 1 MB reads of data: the run has events left to read when the strategy lets it go on.
    const data = join(dir, 'events.jsonl');
    await writeSyntheticRecording(data, 30_000);
    const marker = join(dir, 'started');
    const release = join(dir, 'release');
    const config = join(dir, 'bt.yaml');
    await writeFile(config, `bot: { name: interrupted }
venue:
  kind: backtest
  data: [{ format: rexbot, path: ${JSON.stringify(data)} }]
  balances: { USD: 100000, BTC: 1 }
strategies:
  - name: held
    use: ${JSON.stringify(repoPath('test', 'fixtures', 'strategies', 'holds-first-event.ts'))}
    markets: [BTC-USD]
    params: { marker: ${JSON.stringify(marker)}, release: ${JSON.stringify(release)} }
`);
    const child = spawn(process.execPath, [repoPath('src/cli/bin.mjs'), 'backtest', config, '--out', join(dir, 'out')], {
      cwd: repoPath(),
      env: { ...process.env, TMPDIR: temp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    // The run is in progress: its strategy has seen a book and holds it there.
    await vi.waitFor(() => expect(existsSync(marker)).toBe(true), { timeout: 90_000, interval: 50 });
    expect(readdirSync(temp).some((f) => f.startsWith('rexbot-backtest-'))).toBe(true);
    child.kill('SIGINT');
    writeFileSync(release, '');
    expect(await exited).toBe(130);
    expect(stderr).toContain('rexbot backtest: interrupted (SIGINT); the run in progress wrote no report');
    expect(readdirSync(temp).filter((f) => f.startsWith('rexbot-backtest-'))).toEqual([]);
    expect(existsSync(join(dir, 'out', 'report.json'))).toBe(false);
  });

  it('ranks a sweep by net PnL unless told otherwise (Sharpe needs 30 h of data, which short runs lack)', () => {
    expect(parseBacktestArgs(['config/backtest.yaml', '--sweep', 'spread=1,2']).metric).toBe('netPnl');
    expect(parseBacktestArgs(['config/backtest.yaml', '--sweep', 'spread=1,2', '--metric', 'sharpe']).metric).toBe('sharpe');
  });

  it('says what is wrong with a command line, exit 2; --help exits 0', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--sweep key=v,...');
    for (const [args, msg] of [
      [[], 'give the config file'],
      [['config/backtest.yaml', '--sweep', 'spread'], '--sweep spread: expected key=v1,v2'],
      [['config/backtest.yaml', '--sweep', 'sprad=1,2'], 'no strategy takes a param "sprad" (strategies: mm (market-maker)); did you mean "spread"?'],
      [['config/backtest.yaml', '--sweep', 'spread=1', '--metric', 'luck'], '--metric luck: unknown'],
      [['config/backtest.yaml', '--jobs', '0'], '--jobs must be a whole number'],
      [['config/backtest.yaml', '--out', 'README.md'], '--out README.md: is a file, not a folder'],
    ] as const) {
      const r = await run([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(msg);
    }
  });

  it('a strategy that failed: the report is written, the failure said on stderr, exit 1', { timeout: 120_000 }, async () => {
    const dir = await tmp();
    const config = join(dir, 'bt.yaml');
    await writeFile(config, failingBacktestYaml());
    const r = await run([config, '--out', join(dir, 'out')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("rexbot backtest: strategy 'broken' failed during setup: setup exploded");
    expect(existsSync(join(dir, 'out', 'report.json'))).toBe(true);
  });

  it('data skipped under onBadLine: skip is a warning on stderr naming file:line, the report written, exit 0', { timeout: 120_000 }, async () => {
    const dir = await tmp();
    const data = join(dir, 'events.jsonl');
    await writeSyntheticRecording(data, 2_000);
    const lines = (await readFile(data, 'utf8')).split('\n');
    lines[99] = 'not json'; // line 100
    await writeFile(data, lines.join('\n'));
    const config = join(dir, 'bt.yaml');
    await writeFile(config, `venue:
  kind: backtest
  data: [{ format: rexbot, path: events.jsonl, onBadLine: skip }]
  balances: { USD: 100000, BTC: 1 }
strategies: [{ name: mm, use: market-maker, markets: [BTC-USD] }]
`);
    const r = await run([config, '--out', join(dir, 'out')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`rexbot backtest: warning: ${data}: 1 bad line skipped (onBadLine: skip): ${data}:100: `);
    expect(existsSync(join(dir, 'out', 'report.json'))).toBe(true);
  });

  it('a YAML syntax error in a backtest config is said as file:line:col YAML syntax, alone or in a sweep', async () => {
    const dir = await tmp();
    const config = join(dir, 'bt.yaml');
    await writeFile(config, 'venue:\n  kind: backtest\n  data: [{ format: rexbot, path: events.jsonl }\nstrategies: []\n');
    for (const extra of [[], ['--sweep', 'venue.latency.orderEntry=1,2']]) {
      const r = await run([config, '--out', join(dir, 'out'), ...extra]);
      expect(r.code, extra.join(' ')).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`${config.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:1 YAML syntax: Flow sequence`));
      expect(r.stderr).not.toContain('<root>');
    }
  });

  it('a config that does not run exits 1 with the reason and where', async () => {
    const r = await run(['config/paper.yaml', '--out', await tmp()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/venue\.kind.*backtest/);
  });
});
