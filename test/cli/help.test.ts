/** `rexbot help` and unknown commands, through the real binary: what a newcomer types first. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/shared.js';

const run = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [repoPath('src/cli/bin.mjs'), ...args], { cwd: repoPath() });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
};

describe('rexbot help', () => {
  it('lists every command with what it does, and where to start', async () => {
    const r = await run(['help']);
    expect(r.code).toBe(0);
    for (const [name, words] of [['run', 'YAML config'], ['sim', 'simulator'], ['validate', 'without trading'], ['schema', 'JSON Schema'], ['record', 'record hub streams'], ['backtest', 'recorded data'], ['version', 'version']]) {
      expect(r.stdout).toMatch(new RegExp(`^  ${name} +.*${words}`, 'm'));
    }
    expect(r.stdout).toContain('rexbot run config/paper.yaml');
  });

  it("backtest --help on --queue: a worker sees the paths as they are or maps them with its --map, as rexbot worker says", async () => {
    const backtest = await run(['backtest', '--help']);
    expect(backtest.code).toBe(0);
    const queue = backtest.stdout.slice(backtest.stdout.indexOf('--queue URL'), backtest.stdout.indexOf("--queue-name NAME  the workers'"));
    expect(queue.replace(/\s+/g, ' ')).toContain('a worker sees them at the same paths, or is told where it sees them (rexbot worker --map FROM=TO)');
    expect(queue).not.toMatch(/any machine that sees/);
    // What the worker really maps: the config and the output folder; data relative to the config follows it.
    const worker = await run(['worker', '--help']);
    expect(worker.stdout).toMatch(/^ {2}--map FROM=TO +the coordinator's path FROM is TO here/m);
    expect(queue.replace(/\s+/g, ' ')).toContain('data named relative to the config follows it');
  });

  it('refuses an unknown command with exit 2, naming it, and shows the list', async () => {
    const r = await run(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
    expect(r.stderr).toMatch(/^  run +/m);
  });
});
