/**
 * The grid of a sweep: `--sweep key=v1,v2,...` axes and their cartesian product. Values are read as YAML
 * scalars, exactly as they would be written in the config (`0.002` is a number, `true` a boolean, `abc` a
 * string, `"0.002"` a string), so a swept value validates as the same value in the file would.
 */
import { parse as parseYaml } from 'yaml';

/** One axis of the grid. */
export interface SweepAxis {
  /** A dotted config path (`venue.latency.orderEntry`) or a bare strategy parameter name (`spread`). */
  key: string;
  values: unknown[];
}

/**
 * Parse one `--sweep` argument; throws an Error fit to show the user.
 *
 * @example
 * parseSweepArg('spread=0.001,0.002') // { key: 'spread', values: [0.001, 0.002] }
 */
export function parseSweepArg(arg: string): SweepAxis {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new Error(`--sweep ${arg}: expected key=v1,v2,...`);
  const key = arg.slice(0, eq).trim();
  if (!/^[A-Za-z_][\w-]*(\.[\w-]+)*$/.test(key)) throw new Error(`--sweep ${arg}: '${key}' is not a parameter name or dotted config path`);
  const raw = arg.slice(eq + 1);
  const parts = raw.split(',').map((v) => v.trim());
  if (raw.trim() === '' || parts.some((p) => p === '')) throw new Error(`--sweep ${arg}: empty value in '${raw}'`);
  return { key, values: parts.map((p) => parseYaml(p) as unknown) };
}

/**
 * Every combination of the axes' values; the first axis varies slowest. Two axes with one key are refused.
 *
 * @example
 * sweepGrid([{ key: 'a', values: [1, 2] }, { key: 'b', values: ['x'] }]) // [{ a: 1, b: 'x' }, { a: 2, b: 'x' }]
 */
export function sweepGrid(axes: readonly SweepAxis[]): Array<Record<string, unknown>> {
  const seen = new Set<string>();
  for (const a of axes) {
    if (seen.has(a.key)) throw new Error(`--sweep ${a.key} given twice: put its values in one list`);
    seen.add(a.key);
  }
  let grid: Array<Record<string, unknown>> = [{}];
  for (const axis of axes) grid = grid.flatMap((g) => axis.values.map((v) => ({ ...g, [axis.key]: v })));
  return axes.length === 0 ? [] : grid;
}

/** A folder name for one grid point: `spread=0.001,levels=2`, filesystem-safe. */
export function paramsSlug(params: Record<string, unknown>): string {
  const s = Object.entries(params)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(',');
  return s.replace(/[^\w.=,+-]/g, '_').slice(0, 120) || 'run';
}
