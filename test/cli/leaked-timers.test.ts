/**
 * A strategy plugin that starts a wall-clock `setInterval` of its own and never clears it (leaks-interval.ts: the
 * market maker plus that mistake) must not keep a finished command alive: `rexbot backtest` wrote its report and
 * then hung on the plugin's timer until killed, and `rexbot run` logged 'stopped' after an orderly shutdown and
 * hung until a second signal (which then exited 130). Through the real binaries: each command does its work, then
 * exits by itself with its code, saying what held it open and which config's plugins to look at. On the worker
 * threads of a sweep (local, or a `rexbot worker` taking queued jobs), a job's leftover timer is cleared before the
 * thread's next job instead of piling up there with the run it holds, and the worker still stops on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parseJournal } from '../../src/orders/journal.js';
import { JournalState } from '../../src/orders/journal-state.js';
import { startWorker, sweepTestRedis } from '../backtest/sweep/queue-helpers.js';
import { killAllChildren, startBotProcess } from '../crash/crash-processes.js';
import { deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { repoPath } from '../helpers/shared.js';

const LEAKY = repoPath('test', 'fixtures', 'strategies', 'leaks-interval.ts');
/** How long a finished command may take to end: far more than it needs, far less than a hang. */
const EXIT_BOUND_MS = 60_000;

const redisForTests = await sweepTestRedis();
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  await killAllChildren();
  await redisForTests.stop();
});

const tmp = async () => {
  const d = await mkdtemp(join(tmpdir(), 'rexbot-leaked-timers-'));
  cleanups.push(() => rm(d, { recursive: true, force: true }));
  return d;
};

/** A command of ours, running. */
interface Cli {
  stdout(): string;
  stderr(): string;
  /** Its exit code, once it exits by itself; SIGKILLed and a failure if it has not within EXIT_BOUND_MS. */
  exitCode(): Promise<number | null>;
}

/** Start `rexbot <args>`. */
function cli(args: string[]): Cli {
  const child: ChildProcess = spawn(process.execPath, [repoPath('src/cli/bin.mjs'), ...args], { cwd: repoPath(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { stdout: () => stdout, stderr: () => stderr, exitCode: () => exitedWithin(exited, `rexbot ${args[0]}`, () => `${stdout}${stderr}`) };
}

/** `exited`, or a failure saying the process still ran EXIT_BOUND_MS later. */
async function exitedWithin<T>(exited: Promise<T>, what: string, said: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} had not exited ${EXIT_BOUND_MS / 1000} s after its work was done; it said:\n${said()}`)), EXIT_BOUND_MS);
  });
  try {
    return await Promise.race([exited, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** The warning a command's process gives when a handle held it open past its end. */
const heldOpen = (command: string, code: number, config: string) =>
  `rexbot ${command}: warning: finished, but 1 s later the process was still held open by 1 timer (a setInterval or setTimeout never cleared); ` +
  `exiting with code ${code} anyway. Most likely a strategy plugin of ${config} started it: a strategy times itself with ctx.every, ctx.clock or ctx.scheduler, ` +
  `which stop with the run, not with the global setInterval/setTimeout; rexbot validate ${config} names a strategy that starts wall-clock timers`;

/** A backtest config over the first minute of the shipped synthetic data, its one strategy the leaky plugin. */
async function backtestConfig(dir: string, probe?: string): Promise<string> {
  const config = join(dir, 'bt.yaml');
  const params = `{ spread: 0.0004, levels: 1, size: 0.002${probe ? `, probe: ${JSON.stringify(probe)}` : ''} }`;
  await writeFile(
    config,
    `bot: { name: leaky }
venue:
  kind: backtest
  data: [{ format: rexbot, path: ${JSON.stringify(repoPath('backtest', 'data', 'synthetic-btc-usd.jsonl.gz'))} }]
  to: 2024-01-15T12:01:00Z
  balances: { USD: 100000, BTC: 1 }
strategies:
  - { name: leaky, use: ${JSON.stringify(LEAKY)}, markets: [BTC-USD], params: ${params} }
`,
  );
  return config;
}

/** The leftover-timer warning of a sweep's run. */
const leftOne = 'its strategies left 1 wall-clock timer running after the run (a setInterval or setTimeout never cleared; cleared before the thread\'s next job)';

describe('a strategy plugin that leaves a setInterval running', { timeout: 180_000 }, () => {
  it('rexbot backtest writes its report, then exits 0 by itself, naming the config whose plugins to check', async () => {
    const dir = await tmp();
    const config = await backtestConfig(dir);
    const out = join(dir, 'out');
    const run = cli(['backtest', config, '--out', out]);
    await vi.waitFor(() => expect(existsSync(join(out, 'report.html'))).toBe(true), { timeout: 90_000, interval: 50 });
    expect(await run.exitCode()).toBe(0);
    // Nothing cut short: the whole report and the whole summary.
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { kind: string; metrics: { total: { trades: number } } };
    expect(report.kind).toBe('backtest');
    expect(report.metrics.total.trades).toBeGreaterThan(0);
    expect(run.stdout()).toContain(`report: ${join(out, 'report.html')}\n`);
    expect(run.stderr()).toContain(`${heldOpen('backtest', 0, config)}\n`);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('rexbot run (paper) stopped by %s after it traded: orderly shutdown, then exit 0 by itself', async (signal) => {
    const dir = await tmp();
    const config = join(dir, 'paper.yaml');
    await writeFile(
      config,
      `bot: { name: leaky-paper }
venue: { kind: paper, simulator: ${JSON.stringify(repoPath('config', 'sim.yaml'))} }
strategies:
  - { name: leaky, use: ${JSON.stringify(LEAKY)}, markets: [BTC-USD], params: { spread: 0.0004, levels: 1, size: 0.002, throttleMs: 200 } }
journal: { dir: ${JSON.stringify(dir)} }
shutdown: { cancelOpenOrders: true }
ops: { enabled: false }
log: { level: info, format: json }
`,
    );
    const bot = startBotProcess(config, {});
    await bot.waitForLine((l) => l.strategy === 'leaky' && typeof l.placed === 'number' && l.placed > 0, 'an order placed by the strategy', 90_000);
    bot.kill(signal);
    await bot.waitForLine((l) => l.msg === 'stopped', "the 'stopped' line", 60_000);
    const exit = await exitedWithin(bot.exited, 'rexbot run', () => bot.tail());
    expect(exit, bot.tail()).toEqual({ code: 0, signal: null });
    expect(bot.lines.some((l) => l.msg === heldOpen('run', 0, config))).toBe(true);
    // The journal was closed whole before the process ended: no torn line, every order finished.
    const journals = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
    expect(journals).toHaveLength(1);
    const parsed = parseJournal(join(dir, journals[0]!), readFileSync(join(dir, journals[0]!), 'utf8'));
    expect(parsed.warnings).toEqual([]);
    const state = JournalState.from(parsed.records);
    expect(state.orders.size).toBeGreaterThan(0);
    expect(state.unresolved()).toEqual([]);
  });

  it('a sweep on one worker thread: each job starts with no timer of the one before, each leftover said; exit 0', async () => {
    const dir = await tmp();
    const probe = join(dir, 'probe');
    const config = await backtestConfig(dir, probe);
    const out = join(dir, 'sweep');
    const run = cli(['backtest', config, '--sweep', 'spread=0.0004,0.001,0.002', '--jobs', '1', '--out', out]);
    expect(await run.exitCode(), run.stderr()).toBe(0);
    expect(run.stdout()).toContain(`index: ${join(out, 'index.html')}`);
    // What each job found on the thread when its strategy started: nothing of the jobs before it.
    expect(await readFile(probe, 'utf8')).toBe('0\n0\n0\n');
    for (const spread of ['0.0004', '0.001', '0.002']) {
      expect(run.stderr()).toContain(`rexbot backtest: warning: run {"spread":${spread}}: ${leftOne}: a strategy times itself with ctx.every, ctx.clock or ctx.scheduler, which stop with the run; rexbot validate ${config} names the strategy\n`);
    }
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8')) as { results: Array<{ ok: boolean; leftTimers?: number }> };
    expect(index.results.map((r) => [r.ok, r.leftTimers])).toEqual([[true, 1], [true, 1], [true, 1]]);
  });

  describe.skipIf(!redisForTests.url)(redisForTests.url ? 'on rexbot worker' : redisForTests.why, () => {
    it('queued jobs: none inherits the timer of the one before, the worker says so, and stops on SIGTERM with exit 0', async () => {
      const redis = redisForTests.url!;
      const prefix = uniquePrefix('leaked-timers').replace(/:$/, '');
      cleanups.push(() => deleteKeys(prefix, redis));
      const dir = await tmp();
      const probe = join(dir, 'probe');
      const config = await backtestConfig(dir, probe);
      const worker = await startWorker(redis, ['--queue', 'leaky', '--prefix', prefix, '--concurrency', '1', '--root', repoPath(), '--root', dir]);
      cleanups.push(() => worker.kill('SIGKILL'));
      const sweep = cli(['backtest', config, '--sweep', 'spread=0.0004,0.001', '--queue', redis, '--queue-name', 'leaky', '--queue-prefix', prefix, '--out', join(dir, 'sweep')]);
      expect(await sweep.exitCode(), sweep.stderr()).toBe(0);
      expect(await readFile(probe, 'utf8')).toBe('0\n0\n');
      expect(worker.log().match(/^rexbot worker \S+: job \S+ warning: its strategies left 1 wall-clock timer running after the run/gm)).toHaveLength(2);
      expect(sweep.stderr().match(/^rexbot backtest: warning: run \{"spread":[\d.]+\}: its strategies left 1 wall-clock timer/gm)).toHaveLength(2);
      expect(await exitedWithin(worker.kill('SIGTERM'), 'rexbot worker', () => worker.log())).toBe(0);
      expect(worker.log()).toMatch(/: stopped\n$/);
    });
  });
});
