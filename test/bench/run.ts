/**
 * `npm run bench [-- --only <name>]`: runs every bench in test/bench/*.bench.ts, prints each figure for people and
 * one JSON line per figure: {"bench":"<name>","value":N,"unit":"...","baseline":N,"ratio":N}.
 *
 * Each bench runs in a process of its own (this file again, with `--bench <file>#<name>`), one after the other, so
 * no figure depends on which benches ran before it. In one process they did: after `sim-soak` (a simulator through
 * 300k orders) a full run printed `book-apply` at half its `--only` figure and `sim-soak` itself, run after twenty
 * others, a negative heap growth per order, as the earlier benches' garbage was collected during its run.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Bench, Figure } from './harness.js';

/** Where the `*.bench.ts` files are: this folder, or `BENCH_DIR` (the harness's own test points it at fixtures). */
const here = process.env.BENCH_DIR ?? dirname(fileURLToPath(import.meta.url));
const self = fileURLToPath(import.meta.url);

/** The value of `--name x` or `--name=x` in `argv`. */
function flag(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

function round(n: number): number {
  return Math.abs(n) >= 100 ? Math.round(n) : Number(n.toPrecision(4));
}

/** The benches of one `*.bench.ts` file. */
async function benchesOf(file: string): Promise<Bench[]> {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { benches?: Bench[] };
  return mod.benches ?? [];
}

/** The bench being run: a bench whose promise never settles lets Node exit (code 13) with nothing said. */
let running: string | undefined;
process.on('exit', () => {
  // Synchronous: at exit, an asynchronous write to a pipe may never be flushed.
  if (running !== undefined) writeSync(2, `bench ${running} never finished: nothing was left to run and its promise never settled\n`);
});

/** Print a figure for people and as its JSON line. */
function print(f: Figure): void {
  const line: Record<string, unknown> = { bench: f.bench, value: round(f.value), unit: f.unit };
  if (f.baseline !== undefined) {
    line.baseline = round(f.baseline);
    line.ratio = round(f.ratio ?? f.value / f.baseline);
  }
  const human = `${f.bench}: ${round(f.value)} ${f.unit}` +
    (f.baseline !== undefined ? ` (baseline ${round(f.baseline)} ${f.unit}, ratio ${line.ratio})` : '') +
    (f.note ? `  — ${f.note}` : '');
  process.stdout.write(`${human}\n${JSON.stringify(line)}\n`);
}

/**
 * In the process of one bench (`--bench <file>#<name>`): run it and print its figures, those `only` names when the
 * selection was by figure name (`--only risk-evaluate-limit` runs `risk-evaluate` and prints that figure alone).
 */
async function runOne(spec: string, only: string | undefined): Promise<number> {
  const cut = spec.lastIndexOf('#');
  const name = spec.slice(cut + 1);
  const b = (await benchesOf(spec.slice(0, cut))).find((x) => x.name === name);
  if (!b) {
    process.stderr.write(`bench: no bench ${name} in ${spec.slice(0, cut)}\n`);
    return 2;
  }
  let figures: Figure[];
  try {
    running = b.name;
    figures = await b.run();
    running = undefined;
  } catch (err) {
    running = undefined;
    process.stderr.write(`bench ${b.name} failed: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
  for (const f of figures) if (only === undefined || b.name.startsWith(only) || f.bench.startsWith(only)) print(f);
  return 0;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const only = flag(argv, '--only');
  const one = flag(argv, '--bench');
  if (one !== undefined) return runOne(one, only);
  const found: { file: string; bench: Bench }[] = [];
  for (const file of readdirSync(here).filter((f) => f.endsWith('.bench.ts')).sort()) {
    for (const bench of await benchesOf(file)) found.push({ file, bench });
  }
  // `--only x` runs the bench named exactly x if there is one (`--only backtest` is not also `backtest-read`);
  // otherwise the benches named x…, and a bench whose name x starts with (it may measure a figure named x…, e.g.
  // `--only risk-evaluate-limit`), printing only that bench's figures that x names.
  const exact = only === undefined ? [] : found.filter((f) => f.bench.name === only);
  const selected =
    exact.length > 0 ? exact : only ? found.filter((f) => f.bench.name.startsWith(only) || only.startsWith(f.bench.name)) : found;
  if (selected.length === 0) {
    process.stderr.write(`bench: nothing matches --only ${only}; known: ${found.map((f) => f.bench.name).join(', ')}\n`);
    return 2;
  }
  for (const { file, bench } of selected) {
    // The same node flags (tsx's loader) and this file; the child prints its figures straight to our stdout.
    const args = [...process.execArgv, self, '--bench', `${file}#${bench.name}`, ...(only === undefined ? [] : ['--only', only])];
    const r = spawnSync(process.execPath, args, { stdio: 'inherit' });
    if (r.status !== 0) {
      // The child said why on stderr (a failure, a bench that never settled); a signal is said here.
      if (r.status === null) process.stderr.write(`bench ${bench.name} killed by ${r.signal ?? 'a signal'}\n`);
      return r.status ?? 1;
    }
  }
  return 0;
}

process.exitCode = await main();
