/**
 * The bench harness (test/bench/run.ts) on fixture benches: each bench of a run has a process of its own, so none
 * sees what another left behind (in one process, sim-soak's heap halved book-apply's figure); `--only` selects as
 * documented; a failing bench fails the run with its error.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/shared.js';

/** `npm run bench -- ...args` over the fixture benches of `dir`: exit status, JSON lines, stderr. */
function bench(dir: 'ok' | 'failing', ...args: string[]): { status: number | null; lines: Record<string, unknown>[]; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', repoPath('test', 'bench', 'run.ts'), ...args], {
    cwd: repoPath(),
    encoding: 'utf8',
    env: { ...process.env, BENCH_DIR: repoPath('test', 'fixtures', 'bench-harness', dir) },
  });
  const lines = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: r.status, lines, stderr: r.stderr };
}

describe('npm run bench', () => {
  it('runs each bench in a process of its own: none sees what the one before it left', () => {
    const r = bench('ok');
    expect(r.status).toBe(0);
    expect(r.lines).toEqual([
      { bench: 'leaves-state', value: 1, unit: 'marks' },
      // In one process this read 1: leaves-state ran just before it.
      { bench: 'reads-state', value: 0, unit: 'marks' },
      { bench: 'reads-state-baseline', value: 4, unit: 'x', baseline: 2, ratio: 2 },
    ]);
  });

  it('selects by exact name, by name prefix and by figure name', () => {
    expect(bench('ok', '--only', 'leaves-state').lines.map((l) => l.bench)).toEqual(['leaves-state']);
    // No bench is named `reads`: the benches named reads… run, with all their figures.
    expect(bench('ok', '--only', 'reads').lines.map((l) => l.bench)).toEqual(['reads-state', 'reads-state-baseline']);
    // A figure's name: its bench runs and prints that figure alone.
    expect(bench('ok', '--only', 'reads-state-baseline').lines).toEqual([{ bench: 'reads-state-baseline', value: 4, unit: 'x', baseline: 2, ratio: 2 }]);
    const none = bench('ok', '--only', 'nothing-like-this');
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('nothing matches --only nothing-like-this; known: leaves-state, reads-state');
  });

  it('fails the run with the error of a bench that throws', () => {
    const r = bench('failing');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('bench throws failed: Error: bench fixture failure');
    expect(r.lines).toEqual([]);
  });
});
