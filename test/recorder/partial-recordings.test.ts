/**
 * A `--force` recorder killed (SIGKILL, a power loss) before its recording replaced the old file left its
 * `<file>.<hex>.partial` behind for good: one more per crash, and nothing said so (reproduced with `rexbot record
 * --force` against a stopped `rexbot sim`, killed while its start hung). Opening a recording on a file now removes the
 * partial files of that file whose writer's process is gone, and says which; a partial whose writer's pid is alive
 * is never touched (a second recorder on the same file must not lose its recording).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { partialRecordingPath, removeDeadPartials } from '../../src/recorder/partial-recordings.js';
import { openRecording, RecordingExistsError } from '../../src/recorder/recording-writer.js';
import { repoPath } from '../helpers/shared.js';

const header = { format: 'rexbot-recording', version: 1 } as never;
const dirs: string[] = [];
const children: { kill(): boolean }[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-partial-'));
  dirs.push(dir);
  return dir;
}

/** Whether `pid` names no process (what the removal goes by). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * A recorder killed mid-start, for real: a child process opens an overwriting recording of `file` (its partial file
 * beside it), writes to it, prints the partial's name and SIGKILLs itself. Resolves with the child's pid once it is
 * gone.
 */
async function killedWriter(file: string): Promise<number> {
  const writer = pathToFileURL(repoPath('src/recorder/recording-writer.ts')).href;
  const code = `
    const { openRecording } = await import(${JSON.stringify(writer)});
    const w = await openRecording(${JSON.stringify(file)}, { format: 'rexbot-recording', version: 1 }, { overwrite: true });
    w.writeLine('{"t":1,"name":"heartbeat"}');
    process.kill(process.pid, 'SIGKILL');`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: repoPath(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, s) => resolve(s)));
  expect(signal, stderr).toBe('SIGKILL');
  return child.pid!;
}

/** A process that stays alive until the test ends. */
async function liveProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30); console.log("up")'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return child.pid!;
}

describe('partial recordings left by a killed recorder', () => {
  it('are removed, and named, by the next recording opened on the file; one whose writer is alive is kept', async () => {
    const dir = tempDir();
    const file = join(dir, 'rec.jsonl.gz');
    writeFileSync(file, 'yesterday');
    // Alive writers: this process (a recording of its own still open) and another live process.
    const ours = await openRecording(file, header, { overwrite: true });
    const [ourPartial] = readdirSync(dir).filter((n) => n.endsWith('.partial'));
    const live = await liveProcess();
    const liveOther = basename(partialRecordingPath(file, live));
    writeFileSync(join(dir, liveOther), 'another recorder, still running');
    const dead = await killedWriter(file);
    expect(gone(dead)).toBe(true);
    const leftover = readdirSync(dir).filter((n) => n.includes(`.${dead}.`));
    expect(leftover).toHaveLength(1); // what a SIGKILL before the rename leaves
    expect(leftover[0]).toMatch(/\.partial$/);
    // Left alone too: a dead pid's partial of another file, or from another machine (its pid is not this machine's
    // to check), and one named by a rexbot before pids were in the name (its writer cannot be told apart).
    const otherFile = basename(partialRecordingPath(join(dir, 'other.jsonl.gz'), dead));
    const otherHost = `rec.jsonl.gz.not-${hostname().replace(/[^A-Za-z0-9-]/g, '_')}.${dead}.0123456789ab.partial`;
    const oldStyle = 'rec.jsonl.gz.0123456789ab.partial';
    for (const n of [otherFile, otherHost, oldStyle]) writeFileSync(join(dir, n), 'x');

    // Without overwrite, onto the existing file: refused, but the dead recorder's partial is removed all the same.
    const reported: string[][] = [];
    const refused = await openRecording(file, header, { onRemovedPartials: (p) => reported.push(p) }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RecordingExistsError);
    expect(reported).toEqual([[join(dir, leftover[0]!)]]);
    expect(readdirSync(dir).sort()).toEqual(['rec.jsonl.gz', ourPartial!, liveOther, otherFile, otherHost, oldStyle].sort());
    expect(readFileSync(join(dir, liveOther), 'utf8')).toBe('another recorder, still running');
    expect(readFileSync(file, 'utf8')).toBe('yesterday');

    // Nothing more to remove: not called again.
    const again = await openRecording(file, header, { overwrite: true, onRemovedPartials: (p) => reported.push(p) });
    await again.discard();
    expect(reported).toHaveLength(1);

    // Our own recording went on and is kept whole.
    ours.writeLine('{"t":2,"name":"heartbeat"}');
    await ours.close();
    expect(readdirSync(dir).sort()).toEqual(['rec.jsonl.gz', liveOther, otherFile, otherHost, oldStyle].sort());
  });

  it('a removal another recorder got to first is not reported twice', async () => {
    const dir = tempDir();
    const file = join(dir, 'rec.jsonl.gz');
    await killedWriter(file);
    const [a, b] = await Promise.all([removeDeadPartials(file), removeDeadPartials(file)]);
    expect([...a!, ...b!]).toHaveLength(1);
    expect(readdirSync(dir)).toEqual([]);
  });
});
