/**
 * The benchmark harness behind `npm run bench`. Each `*.bench.ts` file in this folder exports `benches`, a list of
 * {@link Bench}. A bench measures one or more figures and returns them; where a figure has a baseline measured in
 * the same run (e.g. a bare undici loop), it sets `baseline` and the harness computes `ratio = value / baseline`.
 */

/** One measured figure. */
export interface Figure {
  bench: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  /** Human note printed beside the figure (e.g. the target). Not part of the JSON line. */
  note?: string;
}

/** A named benchmark. `name` is what `--only` matches (also matches figure names by prefix). */
export interface Bench {
  name: string;
  run(): Promise<Figure[]>;
}

/** Time `fn` repeatedly for at least `minMs` (after a warm-up) and return operations per second. */
export async function opsPerSecond(fn: () => unknown | Promise<unknown>, opts: { minMs?: number; batch?: number } = {}): Promise<number> {
  const minMs = opts.minMs ?? 1000;
  const batch = opts.batch ?? 1;
  const warmEnd = performance.now() + Math.min(300, minMs / 3);
  while (performance.now() < warmEnd) for (let i = 0; i < batch; i++) await fn();
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < minMs) {
    for (let i = 0; i < batch; i++) await fn();
    ops += batch;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

/** Synchronous variant of {@link opsPerSecond} with no await per call (for sub-microsecond operations). */
export function opsPerSecondSync(fn: () => unknown, opts: { minMs?: number; batch?: number } = {}): number {
  const minMs = opts.minMs ?? 1000;
  // One round of the alternating measurement, with the warm-up opsPerSecond uses.
  return alternatingOpsPerSecondSync([fn], { rounds: 1, roundMs: minMs, warmMs: Math.min(300, minMs / 3), batch: opts.batch ?? 100 })[0]!;
}

/**
 * Operations per second of each of `fns`, measured in alternating rounds: `warmMs` of warm-up each, then `rounds`
 * rounds in which each runs for `roundMs` in turn (in batches of `batch` calls); each rate is its calls over its own
 * time. For a figure and its baseline from the same run: one window per side, one after the other, lets a slow spell
 * of a shared host land on one side only (book-apply read 0.86, 2.30 and 1.12 of its baseline in three runs in a
 * row that way, 2026-11-28); alternating spreads it over both.
 */
export function alternatingOpsPerSecondSync(
  fns: readonly (() => unknown)[],
  opts: { rounds?: number; roundMs?: number; warmMs?: number; batch?: number } = {},
): number[] {
  const { rounds = 8, roundMs = 250, warmMs = 500, batch = 1 } = opts;
  for (const fn of fns) {
    const warmEnd = performance.now() + warmMs;
    while (performance.now() < warmEnd) for (let i = 0; i < batch; i++) fn();
  }
  const ops = fns.map(() => 0);
  const ms = fns.map(() => 0);
  for (let r = 0; r < rounds; r++) {
    fns.forEach((fn, f) => {
      const start = performance.now();
      let now = start;
      let n = 0;
      while (now - start < roundMs) {
        for (let i = 0; i < batch; i++) fn();
        n += batch;
        now = performance.now();
      }
      ops[f]! += n;
      ms[f]! += now - start;
    });
  }
  return ops.map((n, f) => (n * 1000) / ms[f]!);
}

/** Percentile (0..100) of a list of samples. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}
