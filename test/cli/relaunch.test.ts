/**
 * `rexbot backtest` runs in a relaunched process with the backtest's V8 flags (src/cli/relaunch.mjs): which
 * command lines relaunch; a real backtest runs with the flags and a user's own flag wins; and the launcher
 * behaves as the run itself would to a caller: same exit code, signals passed on, and no run left behind when the
 * launcher is killed outright.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { BACKTEST_NODE_FLAGS, relaunchFlags } from '../../src/cli/relaunch.mjs';
import { repoPath } from '../helpers/shared.js';

const dir = mkdtempSync(join(tmpdir(), 'rexbot-relaunch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Probe {
  pid: number;
  execArgv: string[];
}
const readProbe = (file: string): Probe => JSON.parse(readFileSync(file, 'utf8')) as Probe;
/** Whether `pid` still runs: a zombie (dead, not yet reaped, as under a container's PID 1 that reaps nothing) does not. */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return !existsSync('/proc/self/stat');
  }
};
const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

describe('which command lines relaunch', () => {
  it('a backtest or a local sweep, once, unless the user chose the flag, debugs, asks for help or queues the sweep', () => {
    expect(relaunchFlags(['backtest', 'c.yaml'], [], {})).toEqual(BACKTEST_NODE_FLAGS);
    expect(relaunchFlags(['backtest', 'c.yaml', '--sweep', 'spread=1,2'], ['--import', 'x'], {})).toEqual(BACKTEST_NODE_FLAGS);
    expect(relaunchFlags(['run', 'c.yaml'], [], {})).toBeUndefined();
    expect(relaunchFlags(['worker', '--redis', 'redis://127.0.0.1'], [], {})).toBeUndefined();
    expect(relaunchFlags(['backtest', 'c.yaml'], [], { REXBOT_RELAUNCHED: '1' })).toBeUndefined();
    expect(relaunchFlags(['backtest', 'c.yaml'], ['--max-semi-space-size=8'], {})).toBeUndefined();
    expect(relaunchFlags(['backtest', 'c.yaml'], [], { NODE_OPTIONS: '--no-warnings --max-semi-space-size=64' })).toBeUndefined();
    expect(relaunchFlags(['backtest', 'c.yaml'], ['--inspect-brk'], {})).toBeUndefined();
    expect(relaunchFlags(['backtest', '--help'], [], {})).toBeUndefined();
    expect(relaunchFlags(['backtest', 'c.yaml', '--sweep', 'a=1', '--queue', 'redis://127.0.0.1'], [], {})).toBeUndefined();
    expect(relaunchFlags(['backtest', 'c.yaml', '--queue=redis://127.0.0.1'], [], {})).toBeUndefined();
  });
});

describe('rexbot backtest in its relaunched process', () => {
  const config = (name: string) => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(
      file,
      `venue:
  kind: backtest
  data: [{ format: rexbot, path: ${JSON.stringify(repoPath('backtest', 'data', 'synthetic-btc-usd.jsonl.gz'))} }]
  balances: { USD: 1000, BTC: 1 }
strategies:
  - { name: probe, use: ${JSON.stringify(repoPath('test', 'fixtures', 'strategies', 'process-probe.ts'))}, markets: [BTC-USD], params: { file: ${JSON.stringify(join(dir, `${name}.json`))} } }
`,
    );
    return file;
  };
  const backtest = (nodeFlags: string[], name: string) =>
    promisify(execFile)(process.execPath, [...nodeFlags, repoPath('src/cli/bin.mjs'), 'backtest', config(name), '--out', join(dir, name)], {
      cwd: repoPath(),
      timeout: 120_000,
    });

  it('runs with the backtest flags and writes its report', { timeout: 120_000 }, async () => {
    const { stdout } = await backtest([], 'flags');
    expect(stdout).toContain(`report: ${join(dir, 'flags', 'report.html')}`);
    const probe = readProbe(join(dir, 'flags.json'));
    expect(probe.execArgv).toEqual(expect.arrayContaining([...BACKTEST_NODE_FLAGS]));
  });

  it("keeps the user's own semi-space flag and runs in the same process", { timeout: 120_000 }, async () => {
    await backtest(['--max-semi-space-size=8'], 'own');
    const probe = readProbe(join(dir, 'own.json'));
    expect(probe.execArgv).toContain('--max-semi-space-size=8');
    expect(probe.execArgv).not.toContain(BACKTEST_NODE_FLAGS[0]);
  });
});

describe('the launcher', () => {
  const hold = repoPath('test', 'fixtures', 'relaunch', 'hold.mjs');
  /** Start hold.mjs and wait until its relaunched process has written the probe. */
  const start = async (name: string, ...rest: string[]) => {
    const probeFile = join(dir, `${name}.json`);
    const launcher = spawn(process.execPath, [hold, probeFile, ...rest], { stdio: 'ignore' });
    const end = exited(launcher);
    await vi.waitFor(() => expect(existsSync(probeFile)).toBe(true), { timeout: 30_000, interval: 20 });
    await vi.waitFor(() => expect(() => readProbe(probeFile)).not.toThrow(), { timeout: 30_000, interval: 20 });
    return { launcher, end, probe: readProbe(probeFile) };
  };

  it('exits with the exit code of the run', { timeout: 60_000 }, async () => {
    const { launcher, end, probe } = await start('code', 'exit3');
    expect(probe.pid).not.toBe(launcher.pid);
    expect(probe.execArgv).toContain('--max-semi-space-size=32');
    expect(await end).toEqual({ code: 3, signal: null });
  });

  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    it(`passes ${sig} on to the run and ends by it`, { timeout: 60_000 }, async () => {
      const { launcher, end, probe } = await start(sig);
      launcher.kill(sig);
      expect(await end).toEqual({ code: null, signal: sig });
      await vi.waitFor(() => expect(alive(probe.pid)).toBe(false), { timeout: 30_000, interval: 20 });
      expect(readFileSync(join(dir, `${sig}.json.signals`), 'utf8')).toBe(`${sig}\n`);
    });
  }

  it('leaves no run behind when it is killed outright: the run stops itself', { timeout: 60_000 }, async () => {
    const { launcher, end, probe } = await start('kill');
    launcher.kill('SIGKILL');
    expect(await end).toEqual({ code: null, signal: 'SIGKILL' });
    await vi.waitFor(() => expect(alive(probe.pid)).toBe(false), { timeout: 30_000, interval: 20 });
    expect(readFileSync(join(dir, 'kill.json.signals'), 'utf8')).toBe('SIGTERM\n');
  });
});
