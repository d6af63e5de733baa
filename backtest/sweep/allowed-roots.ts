/**
 * The folders a sweep worker may read and write (`rexbot worker --root DIR`): anyone who can write the queue names
 * a job's config, data and output folder, so a worker refuses a job whose paths lead anywhere else — after `..`
 * is normalised away and symbolic links are followed to where they really point.
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { notAFile } from '../../src/core/file-kind.js';

/** A job path the worker refuses (outside its folders, or not a file): the job fails with this, the worker goes on. */
export class JobPathError extends Error {
  override name = 'JobPathError';
}

/**
 * `dirs` as real, absolute folder paths (relative to the working directory). With `mustExist` (folders the user
 * named with `--root`) a missing one is an error naming `flag`; otherwise (`--map` targets, an output share not made
 * yet) a missing part is kept as written.
 *
 * @example
 * const roots = await resolveRoots(['/srv/rexbot', '/mnt/share'], { mustExist: true, flag: '--root' });
 */
export async function resolveRoots(dirs: readonly string[], opts: { mustExist: boolean; flag: string }): Promise<string[]> {
  const out: string[] = [];
  for (const d of dirs) {
    const real = await realPathOf(d).catch((e: unknown) => {
      throw new Error(`${opts.flag} ${d}: ${e instanceof Error ? e.message : String(e)}`);
    });
    const st = await lstat(real).catch(() => undefined);
    if (opts.mustExist && !st) throw new Error(`${opts.flag} ${d}: no such folder`);
    if (st && !st.isDirectory()) throw new Error(`${opts.flag} ${d}: not a folder`);
    out.push(real);
  }
  return out;
}

/**
 * Where `p` really is: absolute, `..` normalised, every symbolic link of it that exists followed. The part that does
 * not exist yet (an output folder still to be made) is kept as written, under its nearest existing folder's real
 * path. A link that points nowhere is refused: what it names could be created later, anywhere.
 */
export async function realPathOf(p: string): Promise<string> {
  const missing: string[] = [];
  let cur = resolve(p);
  for (;;) {
    try {
      return join(await realpath(cur), ...missing);
    } catch {
      const link = await lstat(cur).catch(() => undefined);
      if (link) throw new Error(`${p}: ${cur} cannot be resolved (a symbolic link to nothing, or unreadable)`);
      const up = dirname(cur);
      // the file-system root always resolves; this only guards the loop
      if (up === cur) return resolve(p);
      missing.unshift(basename(cur));
      cur = up;
    }
  }
}

/** True when `p` (a real path) is `root` or under it. */
function under(p: string, root: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

/** True when `real` (a real path) is one of `roots` (real paths) or under one. */
export function insideRoots(real: string, roots: readonly string[]): boolean {
  return roots.some((r) => under(real, r));
}

/**
 * `p`'s real path when it lies in one of `roots` (real paths, from {@link resolveRoots}); otherwise an
 * {@link JobPathError} naming `what` (`config`, `venue.data[0].path`, `output folder`) and the path.
 *
 * @example
 * await assertInsideRoots('/srv/rexbot/config/../../etc/passwd', ['/srv/rexbot'], 'config'); // throws
 */
export async function assertInsideRoots(p: string, roots: readonly string[], what: string): Promise<string> {
  const real = await realPathOf(p).catch((e: unknown) => {
    throw new JobPathError(`${what} ${e instanceof Error ? e.message : String(e)}`);
  });
  if (insideRoots(real, roots)) return real;
  const shown = real === p ? p : `${p} (really ${real})`;
  throw new JobPathError(`${what} ${shown} is outside the folders this worker may use (${roots.join(', ')}); start the worker with --root for it`);
}

/**
 * The job's config and output folder checked before the job goes to a thread: both in `roots`, and the config,
 * when it exists, a regular file (reading a FIFO would block the thread where not even terminating it helps). A
 * missing config is left to the run, which says so. Throws {@link JobPathError}.
 */
export async function assertJobPaths(job: { configPath: string; outDir: string }, roots: readonly string[]): Promise<void> {
  const config = await assertInsideRoots(job.configPath, roots, 'config');
  const st = await stat(config).catch(() => undefined);
  if (st && !st.isFile()) throw new JobPathError(`config ${job.configPath} is ${notAFile(st)}, not a file`);
  await assertInsideRoots(job.outDir, roots, 'output folder');
}
