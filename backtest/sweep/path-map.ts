/**
 * Path mapping for sweep workers whose machine sees the coordinator's files under other paths (`rexbot worker
 * --map /coordinator/path=/worker/path`): a job's config and output folder are rewritten on the way in, the
 * result's report paths back on the way out, so the coordinator's index links its own paths.
 */
import { isAbsolute, normalize, sep } from 'node:path';
import type { SweepJob, SweepResult } from './sweep-job.js';

/** One prefix mapping: the coordinator's `from` is the worker's `to`. */
export interface PathMapping {
  from: string;
  to: string;
}

/** Parse `FROM=TO` (both absolute); throws saying what is wrong. */
export function parsePathMapping(arg: string): PathMapping {
  const eq = arg.indexOf('=');
  const from = eq < 0 ? '' : arg.slice(0, eq);
  const to = eq < 0 ? '' : arg.slice(eq + 1);
  if (!from || !to) throw new Error(`--map ${arg}: expected FROM=TO, e.g. --map /home/me/rexbot=/srv/rexbot`);
  for (const p of [from, to]) if (!isAbsolute(p)) throw new Error(`--map ${arg}: ${p} is not an absolute path`);
  return { from: trim(normalize(from)), to: trim(normalize(to)) };
}

function trim(p: string): string {
  return p.length > 1 && p.endsWith(sep) ? p.slice(0, -1) : p;
}

/**
 * `p` with the first mapping whose prefix (a whole path segment) it starts with applied, `from` → `to`. `..` is
 * normalised away first: `/from/../x` is `/x`, not a path under `to`.
 */
export function mapPath(path: string, maps: readonly PathMapping[], reverse = false): string {
  const p = normalize(path);
  for (const m of maps) {
    const [a, b] = reverse ? [m.to, m.from] : [m.from, m.to];
    if (p === a) return b;
    const prefix = a === sep ? a : a + sep;
    if (p.startsWith(prefix)) return b + sep + p.slice(prefix.length);
  }
  return p;
}

/** The job as the worker sees it. */
export function mapJobIn(job: SweepJob, maps: readonly PathMapping[]): SweepJob {
  if (maps.length === 0) return job;
  return { ...job, configPath: mapPath(job.configPath, maps), outDir: mapPath(job.outDir, maps) };
}

/** The result as the coordinator sees it. */
export function mapResultOut(r: SweepResult, maps: readonly PathMapping[]): SweepResult {
  if (maps.length === 0 || !r.ok) return r;
  return { ...r, outDir: mapPath(r.outDir, maps, true), html: mapPath(r.html, maps, true) };
}
