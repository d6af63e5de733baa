/**
 * exitWhenDone ends a finished command's process that a leftover handle holds open, and must not cut its log
 * short: pino's default destination writes JSON lines to stdout asynchronously, and into a pipe read slowly
 * (`rexbot run … | (sleep 3; cat)`) a write meets a full pipe and is retried on a timer. Ending the process then
 * lost the chunk being retried (about 16 KB of lines from the middle of the log). A real process, its stdout read
 * only once it has said it is ending.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { repoPath } from '../helpers/shared.js';

const LINES = 300;
const children: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('exitWhenDone and the log', { timeout: 60_000 }, () => {
  it('waits for every log line to reach a slow stdout before it ends the process, with the command\'s code', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', repoPath('test', 'fixtures', 'exit-when-done', 'logs-then-lingers.ts'), String(LINES)], {
      cwd: repoPath(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stderr = '';
    child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    // Nobody reads stdout until the process says it is ending: its pipe is full meanwhile.
    child.stdout!.pause();
    await vi.waitFor(() => expect(stderr).toContain('rexbot logs: warning: finished, but 1 s later'), { timeout: 30_000, interval: 20 });
    let stdout = '';
    child.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stdout!.resume();
    expect(await exited, stderr).toBe(3);
    await new Promise<void>((resolve) => (child.stdout!.readableEnded ? resolve() : child.stdout!.once('end', () => resolve())));
    const seqs = stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { seq: number }).seq);
    expect(seqs).toEqual(Array.from({ length: LINES }, (_, i) => i));
  });
});
