/**
 * `npm run bench [-- --only <name>]`: runs every bench in test/bench/*.bench.ts, prints each figure for people and
 * one JSON line per figure: {"bench":"<name>","value":N,"unit":"...","baseline":N,"ratio":N}.
 */
import { readdirSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Bench, Figure } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));

function parseOnly(argv: string[]): string | undefined {
  const i = argv.indexOf('--only');
  if (i >= 0) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith('--only='));
  return eq?.slice('--only='.length);
}

function round(n: number): number {
  return Math.abs(n) >= 100 ? Math.round(n) : Number(n.toPrecision(4));
}

/** The bench being run: a bench whose promise never settles lets Node exit (code 13) with nothing said. */
let running: string | undefined;
process.on('exit', () => {
  // Synchronous: at exit, an asynchronous write to a pipe may never be flushed.
  if (running !== undefined) writeSync(2, `bench ${running} never finished: nothing was left to run and its promise never settled\n`);
});

async function main(): Promise<number> {
  const only = parseOnly(process.argv.slice(2));
  const files = readdirSync(here).filter((f) => f.endsWith('.bench.ts')).sort();
  const benches: Bench[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(join(here, f)).href)) as { benches?: Bench[] };
    benches.push(...(mod.benches ?? []));
  }
  // `--only x` runs the bench named exactly x if there is one (`--only backtest` is not also `backtest-read`);
  // otherwise the benches named x…, and a bench whose name x starts with (it may measure a figure named x…, e.g.
  // `--only risk-evaluate-limit`), printing only that bench's figures that x names.
  const exact = only === undefined ? [] : benches.filter((b) => b.name === only);
  const byName = (b: Bench) => only === undefined || b.name.startsWith(only);
  const selected = exact.length > 0 ? exact : only ? benches.filter((b) => byName(b) || only.startsWith(b.name)) : benches;
  if (selected.length === 0) {
    process.stderr.write(`bench: nothing matches --only ${only}; known: ${benches.map((b) => b.name).join(', ')}\n`);
    return 2;
  }
  for (const b of selected) {
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
    for (const f of figures) {
      if (!byName(b) && !f.bench.startsWith(only!)) continue;
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
  }
  return 0;
}

process.exitCode = await main();
