/**
 * `runBacktest`: one backtest job — a bot config (file or parsed) plus parameter overrides in, a
 * {@link ReportInput} out. A job given as `{ configPath, params, queueModel }` is plain data, so the same job can be
 * handed to a worker thread (sweeps) or, later, a distributed queue unchanged.
 *
 * Parameter overrides (`params`):
 * - a dotted path into the bot config: `venue.latency.orderEntry`, `risk.maxOpenOrders`,
 *   `strategies.mm.params.spread` (a strategy by name or index);
 * - a bare name: that key in the params of every strategy whose schema has it (`spread`), checked against the
 *   strategy's schema when the run loads it; a name no strategy takes is an error naming the strategies.
 * Overrides are applied to the config as written (before validation), so a value goes through the same schema
 * and errors as a value in the YAML.
 */
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { performance } from 'node:perf_hooks';
import { botConfigSchema, type BotConfig } from '../src/runtime/bot-config.js';
import { closestKey } from '../src/runtime/config/did-you-mean.js';
import { ConfigError, parseYamlConfig, yamlLocator } from '../src/runtime/config/yaml-config.js';
import { loadStrategy } from '../src/strategy/load-strategy.js';
import { openReader } from './readers/index.js';
import { assertConfigFilesInside, assertStrategiesInside } from './sweep/config-files.js';
import { confineFiles, readJobFile } from './sweep/confined-files.js';
import { MAX_CONFIG_BYTES } from '../src/runtime/config/config-file.js';
import type { MarketDataReader } from './readers/reader.js';
import type { ReportInput } from './report/report-input.js';
import { type BacktestBotConfig, type BacktestProgress, runSession } from './run/backtest-session.js';
import { SkippedLines } from './run/skipped-lines.js';
import type { QueueModelName } from './venue/queue-model.js';

/** A backtest job. */
export interface RunBacktestOptions {
  /** The bot config file (venue kind `backtest`). */
  configPath?: string | undefined;
  /** A parsed bot config instead of a file (its `file` resolves relative paths). */
  config?: BotConfig | undefined;
  /** Overrides: dotted config paths or bare strategy param names (see the module note). */
  params?: Record<string, unknown> | undefined;
  /** Queue model instead of the config's (`pessimistic`, `optimistic`, `power`, `log`). */
  queueModel?: string | undefined;
  onProgress?: ((p: BacktestProgress) => void) | undefined;
  /** Readers to use instead of opening the config's data entries (tests, benches). */
  readers?: readonly MarketDataReader[] | undefined;
  /**
   * Folders every file the config names (data, latency files, recorded markets, strategy plugins by path) must lie
   * in: a queue worker's `--root`s, real paths. Anywhere when absent.
   */
  allowedRoots?: readonly string[] | undefined;
}

/** What a job returns. */
export interface RunBacktestResult {
  report: ReportInput;
  stats: { events: number; wallMs: number };
}

const QUEUE_MODELS: readonly QueueModelName[] = ['pessimistic', 'optimistic', 'power', 'log'];

/**
 * Run one backtest job. With `allowedRoots`, every file it opens is checked again as it is opened (a link swapped
 * after the check below would otherwise lead outside: confined-files.ts).
 */
export function runBacktest(opts: RunBacktestOptions): Promise<RunBacktestResult> {
  return opts.allowedRoots ? confineFiles(opts.allowedRoots, () => run(opts)) : run(opts);
}

async function run(opts: RunBacktestOptions): Promise<RunBacktestResult> {
  const started = performance.now();
  const params = opts.params ?? {};
  const config = await resolveConfig(opts, params, opts.allowedRoots);
  if (opts.queueModel !== undefined && !QUEUE_MODELS.includes(opts.queueModel as QueueModelName)) {
    throw new RangeError(`unknown queue model "${opts.queueModel}"; known: ${QUEUE_MODELS.join(', ')}`);
  }
  const baseDir = dirname(resolve(config.file));
  // before any is opened: a file outside is never read (no error can show a line of it), a plugin never imported
  if (opts.allowedRoots) await assertConfigFilesInside(config, baseDir, opts.allowedRoots);
  // a queued job's author (allowedRoots set by the worker) may name any file in the roots, e.g. a .env, as data:
  // its report tells where lines were skipped and why, never what they held
  const skipped = new SkippedLines({ withText: opts.allowedRoots === undefined });
  const readers =
    opts.readers ??
    config.venue.data.map((d) =>
      openReader(d.format, resolve(baseDir, d.path), { onBadLine: d.onBadLine, onError: skipped.onError, markets: d.markets, params: d.params }),
    );
  const { report, events } = await runSession({
    config,
    readers,
    skipped,
    queueModel: opts.queueModel as QueueModelName | undefined,
    params: Object.keys(params).length > 0 ? params : undefined,
    onProgress: opts.onProgress,
  });
  return { report, stats: { events, wallMs: performance.now() - started } };
}

/** The config of a job with its overrides applied and validated. */
async function resolveConfig(opts: RunBacktestOptions, params: Record<string, unknown>, roots: readonly string[] | undefined): Promise<BacktestBotConfig> {
  let cfg: BotConfig;
  if (opts.configPath !== undefined) {
    const file = opts.configPath;
    // A config: a regular file no larger than any config (config-file.ts; a huge one was read whole, out of memory).
    const text = readJobFile(file, MAX_CONFIG_BYTES);
    if (Object.keys(params).length === 0) cfg = { ...parseYamlConfig(text, file, botConfigSchema), file };
    else {
      // Read as `rexbot run` reads it (YAML errors at their line, ${VAR} from the environment), but not validated
      // yet: the overrides go in first. A plain YAML parse here left ${VAR} as text in every run of a sweep.
      const raw = (parseYamlConfig(text, file, z.unknown()) ?? {}) as Record<string, unknown>;
      await applyOverrides(raw, params, file, roots);
      // Validated as a whole again: an override gets the schema's own errors, named by path and placed in the file.
      const parsed = botConfigSchema.safeParse(raw);
      if (!parsed.success) {
        const locate = yamlLocator(text);
        throw new ConfigError(file, parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: `${i.message} (with overrides ${JSON.stringify(params)})`, ...locate(i.path) })));
      }
      cfg = { ...parsed.data, file };
    }
  } else if (opts.config) {
    cfg = opts.config;
    if (Object.keys(params).length > 0) {
      // A parsed config holds parsed values (Decimals, times): only strategy params, which the plugin validates
      // from raw values when the run loads it, can be overridden on it. Everything else needs the file.
      for (const name of Object.keys(params)) {
        if (name.includes('.') && !/^strategies\.[^.]+\.params\./.test(name)) {
          throw new Error(`runBacktest: override "${name}" needs the config as a file (configPath), so it is validated like the YAML; on a parsed config only strategy params can be overridden`);
        }
      }
      const strategies = cfg.strategies.map((s) => ({ ...s, params: { ...s.params } }));
      await applyOverrides({ strategies } as unknown as Record<string, unknown>, params, cfg.file, roots);
      cfg = { ...cfg, strategies };
    }
  } else {
    throw new Error('runBacktest: give configPath or config');
  }
  if (cfg.venue.kind !== 'backtest') throw new ConfigError(cfg.file, [{ path: 'venue.kind', message: `must be 'backtest' to backtest, not '${cfg.venue.kind}'` }]);
  return cfg as BacktestBotConfig;
}

/** Apply overrides to a raw (as written) config object. */
async function applyOverrides(raw: Record<string, unknown>, params: Record<string, unknown>, file: string, roots?: readonly string[]): Promise<void> {
  const strategies = Array.isArray(raw.strategies) ? (raw.strategies as Array<Record<string, unknown>>) : [];
  for (const [name, value] of Object.entries(params)) {
    if (name.includes('.')) {
      setPath(raw, name.split('.'), value, name, file);
      continue;
    }
    // a bare name loads the plugins to read their params: a queue job may have pointed one anywhere just before
    if (roots) await assertStrategiesInside(strategies, dirname(resolve(file)), roots);
    const takers = await paramTakers(strategies, name, file);
    for (const s of takers) s.params = { ...((s.params as Record<string, unknown> | undefined) ?? {}), [name]: value };
  }
}

/**
 * The strategies of a raw config whose params take `name`; a ConfigError naming the strategies (and the closest
 * param they do take) when none does.
 */
async function paramTakers(strategies: Array<Record<string, unknown>>, name: string, file: string): Promise<Array<Record<string, unknown>>> {
  const takers: Array<Record<string, unknown>> = [];
  const known: string[] = [];
  for (const s of strategies) {
    const keys = await paramKeys(s, dirname(resolve(file)));
    if (keys === undefined || keys.includes(name)) takers.push(s);
    else known.push(...keys);
  }
  if (takers.length === 0) {
    const names = strategies.map((s) => `${String(s.name)} (${String(s.use)})`).join(', ');
    const near = closestKey(name, known);
    const hint = near === undefined ? '' : `; did you mean "${near}"?`;
    throw new ConfigError(file, [{ path: name, message: `no strategy takes a param "${name}" (strategies: ${names || 'none'})${hint}` }]);
  }
  return takers;
}

/** The keys of a strategy's params schema (undefined when they cannot be listed: it takes any). */
async function paramKeys(s: Record<string, unknown>, baseDir: string): Promise<string[] | undefined> {
  if (typeof s.use !== 'string') return [];
  const { definition } = await loadStrategy(s.use, { baseDir });
  const shape = (definition.params as unknown as { shape?: Record<string, unknown> }).shape;
  return shape === undefined ? undefined : Object.keys(shape);
}

/**
 * Check before a sweep starts that each bare parameter name it varies is taken by a strategy of the config
 * (a ConfigError, with "did you mean", otherwise): a misspelt name would fail every run of the grid alike.
 * Dotted config paths and the values themselves are checked by each run, which reports a bad value in its row.
 */
export async function checkSweepKeys(configPath: string, keys: readonly string[]): Promise<void> {
  let strategies: Array<Record<string, unknown>>;
  try {
    const raw = (parseYaml(readJobFile(configPath, MAX_CONFIG_BYTES)) ?? {}) as Record<string, unknown>;
    strategies = Array.isArray(raw.strategies) ? (raw.strategies as Array<Record<string, unknown>>) : [];
  } catch {
    return; // a config that cannot be read: each run says why, where (with the YAML's line)
  }
  for (const key of keys) {
    if (key.includes('.')) continue;
    try {
      await paramTakers(strategies, key, configPath);
    } catch (err) {
      // Only the name is judged here; a plugin that does not load is the run's to report, as without a sweep.
      if (err instanceof ConfigError && err.message.includes(`no strategy takes a param "${key}"`)) throw err;
      return;
    }
  }
}

/** Set `path` in `obj`; an array step is an index or, for strategies, a strategy name. */
function setPath(obj: Record<string, unknown>, path: string[], value: unknown, full: string, file: string): void {
  // '__proto__.x' would set x on Object.prototype for the rest of the process (a worker's every later job).
  const unsafe = path.find((step) => step === '__proto__' || step === 'constructor' || step === 'prototype');
  if (unsafe !== undefined) throw new ConfigError(file, [{ path: full, message: `"${unsafe}" cannot be a step of an override path` }]);
  let cur: unknown = obj;
  for (let i = 0; i < path.length - 1; i++) {
    const step = path[i]!;
    let next: unknown;
    if (Array.isArray(cur)) {
      const index = /^\d+$/.test(step) ? Number(step) : cur.findIndex((e) => (e as { name?: unknown } | null)?.name === step);
      next = cur[index];
      if (next === undefined) throw new ConfigError(file, [{ path: full, message: `no element "${step}" at ${path.slice(0, i).join('.') || '(root)'}` }]);
    } else if (cur !== null && typeof cur === 'object') {
      const o = cur as Record<string, unknown>;
      if (!Object.hasOwn(o, step) || o[step] === undefined || o[step] === null) o[step] = {};
      next = o[step];
    } else {
      throw new ConfigError(file, [{ path: full, message: `${path.slice(0, i).join('.')} is not an object` }]);
    }
    cur = next;
  }
  if (cur === null || typeof cur !== 'object') throw new ConfigError(file, [{ path: full, message: 'cannot set a value inside a non-object' }]);
  (cur as Record<string, unknown>)[path[path.length - 1]!] = value;
}

export type { BacktestProgress };
