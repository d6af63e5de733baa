/**
 * The partial files an overwriting recording is written to until it is kept (recording-writer.ts), and the removal
 * of those whose writer is gone. A recorder SIGKILLed (or a machine losing power) before its recording replaced the
 * old file left its partial file behind for good, one per crash, and nothing said so. The name now tells who wrote
 * it: `<file>.<host>.<pid>.<random>.partial`, so a later recorder on the same `<file>` can remove the ones whose
 * writer no longer runs, and only those.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { readdir, unlink } from 'node:fs/promises';

/**
 * This machine's name as it goes into a partial file's name: a partial written on another machine (a shared or
 * network directory, a container with a pid space of its own and another name) has a pid this machine cannot check,
 * so it is never removed from here. Characters outside `[A-Za-z0-9-]` (the dots of a domain name) become `_` to keep
 * the name's fields apart.
 */
function hostTag(): string {
  return hostname().replace(/[^A-Za-z0-9-]/g, '_') || '_';
}

/**
 * The partial file a writer with process id `pid` (default this process) on this machine writes `file` to until it
 * is kept: `<file>.<host>.<pid>.<12 hex digits>.partial`. The random part keeps two writers of one process apart.
 */
export function partialRecordingPath(file: string, pid: number = process.pid): string {
  return `${file}.${hostTag()}.${pid}.${randomBytes(6).toString('hex')}.partial`;
}

/** Whether process `pid` is known to be gone: only a "no such process" answer says so; anything else may be alive. */
function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false; // alive (possibly a pid reused by another process: that one is left alone all the same)
  } catch (e) {
    // EPERM: it exists, owned by another user.
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Remove the partial files of `file` (see {@link partialRecordingPath}) written on this machine by a process that
 * no longer exists, and resolve with their paths. A partial whose writer's pid is alive is kept, even if the pid
 * was reused by another process: a second recorder on the same file must not lose its recording. Partials written
 * on another machine, or named otherwise (by a rexbot before pids were in the name), are left alone too. Best
 * effort: a directory that cannot be read, or a file that cannot be removed (or was removed meanwhile by another
 * recorder), is skipped and not reported.
 */
export async function removeDeadPartials(file: string): Promise<string[]> {
  const dir = dirname(file);
  const prefix = `${basename(file)}.${hostTag()}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^([1-9]\d{0,9})\.[0-9a-f]{12}\.partial$/.exec(name.slice(prefix.length));
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || !processGone(pid)) continue;
    const path = join(dir, name);
    if (await unlink(path).then(() => true, () => false)) removed.push(path);
  }
  return removed;
}
