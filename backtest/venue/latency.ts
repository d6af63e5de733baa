/**
 * Latency models of the backtest venue: a constant, a seeded distribution (normal, log-normal, uniform) or measured
 * values read from a file. Each draw is whole or fractional virtual milliseconds ≥ 0; the same seed gives the
 * same draws, so a run with random latency is still reproducible.
 */
import { resolve } from 'node:path';
import type { LatencyConfig } from '../../src/runtime/config/backtest-venue.js';
import { Prng } from '../../src/sim/driver/prng.js';
import { ReplayFormatError } from '../../src/sim/driver/replay-error.js';
import { readConfiguredJobFile } from '../sweep/confined-files.js';

/** Draws latencies. */
export interface Latency {
  /** The next latency, ms. */
  next(): number;
  /** One sentence for the report's assumptions. */
  describe(what: string): string;
}

/** Build a latency model; `baseDir` resolves a measured-values file. */
export function createLatency(cfg: LatencyConfig, baseDir: string, label: string): Latency {
  if (typeof cfg === 'number') return constant(cfg);
  switch (cfg.kind) {
    case 'constant':
      return constant(cfg.ms);
    case 'normal': {
      const rng = new Prng(`${cfg.seed}:${label}`);
      return {
        next: () => Math.max(cfg.min, cfg.mean + cfg.stdev * rng.normal()),
        describe: (w) => `${w} latency is drawn from a normal distribution (mean ${cfg.mean} ms, standard deviation ${cfg.stdev} ms, at least ${cfg.min} ms, seed ${cfg.seed}).`,
      };
    }
    case 'lognormal': {
      const rng = new Prng(`${cfg.seed}:${label}`);
      return {
        next: () => Math.max(cfg.min, cfg.median * Math.exp(cfg.sigma * rng.normal())),
        describe: (w) => `${w} latency is drawn from a log-normal distribution (median ${cfg.median} ms, sigma ${cfg.sigma}, at least ${cfg.min} ms, seed ${cfg.seed}).`,
      };
    }
    case 'uniform': {
      const rng = new Prng(`${cfg.seed}:${label}`);
      const lo = Math.min(cfg.min, cfg.max);
      const hi = Math.max(cfg.min, cfg.max);
      return {
        next: () => lo + (hi - lo) * rng.next(),
        describe: (w) => `${w} latency is drawn uniformly between ${lo} and ${hi} ms (seed ${cfg.seed}).`,
      };
    }
    case 'file': {
      const path = resolve(baseDir, cfg.path);
      const values = readMeasured(path, `venue.latency.${label}.path`);
      const rng = new Prng(`${cfg.seed}:${label}`);
      let i = 0;
      return {
        next: () => (cfg.order === 'cycle' ? values[i++ % values.length]! : values[Math.floor(rng.next() * values.length)]!),
        describe: (w) =>
          `${w} latency is one of ${values.length} measured values from ${cfg.path} (${cfg.order === 'cycle' ? 'in file order, repeated' : `drawn at random, seed ${cfg.seed}`}).`,
      };
    }
  }
}

function constant(ms: number): Latency {
  return { next: () => ms, describe: (w) => `${w} latency is a constant ${ms} ms.` };
}

/**
 * The largest latency file read (whole, into one string): far above any real measurement set — a day of one value a
 * second is ~600 KB, and 64 MiB holds some 8 million values — yet a wrong file (a capture named by mistake) is
 * refused instead of read into memory.
 */
export const MAX_LATENCY_FILE_BYTES = 64 * 2 ** 20;

/**
 * Numbers in ms, separated by whitespace or commas; `#` starts a comment. A bad value names file:line; a file that
 * cannot be read (not a regular file, over {@link MAX_LATENCY_FILE_BYTES}) names `field`, the config field that
 * named it, and the file.
 */
export function readMeasured(path: string, field = 'latency file'): number[] {
  const text = readConfiguredJobFile(path, field, MAX_LATENCY_FILE_BYTES);
  const out: number[] = [];
  text.split('\n').forEach((line, i) => {
    for (const token of line.replace(/#.*/, '').split(/[\s,]+/)) {
      if (token === '') continue;
      const v = Number(token);
      if (!Number.isFinite(v) || v < 0) {
        // a file's error like the readers': a queued sweep job's author learns file:line, not the file's text
        throw new ReplayFormatError({ file: path, line: i + 1 }, `latency '${token}' is not a number of milliseconds ≥ 0`, { withoutText: 'a latency is not a number of milliseconds ≥ 0' });
      }
      out.push(v);
    }
  });
  if (out.length === 0) throw new Error(`${path}: no latency values`);
  return out;
}
