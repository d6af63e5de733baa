/**
 * The strategy plugin loader. A plugin is a TypeScript or JavaScript module (.ts, .mts, .js, .mjs) whose default
 * export (or named export `strategy`) is a {@link defineStrategy} result. It is referenced either by path
 * (absolute, or relative to a base directory such as the YAML file's folder) or by name, meaning a file of that
 * name in the repository's `strategies/` folder.
 *
 * Loading is a plain dynamic `import()`: no build step. The rexbot CLI registers tsx, so TypeScript plugins load
 * under Node as they are; vitest transforms them natively. Any problem — missing file, syntax error, a throw at
 * import, no or wrong export, params failing the schema — is one {@link PluginError} naming the strategy, the
 * file and the cause, and nothing else happens (no context is built, nothing subscribes, no order is sent).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, isAbsolute, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { z } from 'zod';
import { isStrategyDefinition, parseStrategyParams, type StrategyDefinition } from './define-strategy.js';
import { describeError, PluginError } from './strategy-errors.js';
import { closestKey } from '../runtime/config/did-you-mean.js';

/** File extensions a plugin may have, in the order a bare name or extension-less path tries them. */
export const STRATEGY_EXTENSIONS: readonly string[] = ['.ts', '.mts', '.js', '.mjs'];

/** The repository's `strategies/` folder (the example strategies; where names resolve by default). */
export const REPO_STRATEGIES_DIR: string = fileURLToPath(new URL('../../strategies/', import.meta.url));

/** Where references resolve. */
export interface LoadStrategyOptions {
  /** Base of relative paths (default: the current working directory); the runtime passes the YAML file's folder. */
  baseDir?: string;
  /** Folder where names resolve (default {@link REPO_STRATEGIES_DIR}). */
  strategiesDir?: string;
  /**
   * What the module is loaded for. Omitted: only to read its definition (list params, validate), no strategy is set
   * up from it. `'shared'`: a run sets strategies up from the process's one instance of the module (a live bot).
   * `'fresh'`: a run sets strategies up from an instance of the module no earlier run in this process was set up
   * from, so what its top level holds (`let trades = 0` beside `defineStrategy`) starts anew: a backtest, whose
   * sweep jobs run one after another in a worker thread and whose `--band` runs share one process, and whose
   * report must not depend on which runs came before it. Only the plugin file itself is instantiated again; the
   * modules it imports stay shared. A {@link FreshPluginRun}: `'fresh'` for the run it stands for, whose
   * strategies naming the same file are set up from one instance, as a live bot's are.
   */
  run?: 'shared' | 'fresh' | FreshPluginRun;
}

/** A loaded plugin. */
export interface LoadedStrategy {
  definition: StrategyDefinition;
  /** Absolute path of the module. */
  path: string;
}

/** A loaded plugin with validated params, ready for a context. */
export interface ConfiguredStrategy<S extends z.ZodType = z.ZodType> {
  definition: StrategyDefinition<S>;
  path: string;
  /** Instance name: the configured one, else the definition's. */
  name: string;
  params: z.output<S>;
}

/** True when `ref` is a path rather than a bare strategy name. */
export function isPathReference(ref: string): boolean {
  return isAbsolute(ref) || ref.startsWith('.') || ref.includes('/') || ref.includes('\\') || extname(ref) !== '';
}

const isFile = (p: string): boolean => existsSync(p) && statSync(p).isFile();

/**
 * Resolve a reference to an absolute plugin file without importing it.
 *
 * @example
 * resolveStrategyPath('market-maker');              // <repo>/strategies/market-maker.ts
 * resolveStrategyPath('./mine.ts', { baseDir });    // <baseDir>/mine.ts
 */
export function resolveStrategyPath(ref: string, options: LoadStrategyOptions = {}): string {
  if (typeof ref !== 'string' || ref.trim() === '') {
    throw new PluginError({ code: 'PLUGIN_NOT_FOUND', problem: `a strategy reference must be a name or a path, got ${JSON.stringify(ref)}` });
  }
  return isPathReference(ref) ? resolveByPath(ref, options) : resolveByName(ref, options);
}

function resolveByPath(ref: string, options: LoadStrategyOptions): string {
  const abs = resolve(options.baseDir ?? process.cwd(), ref);
  const ext = extname(abs);
  if (ext !== '' && STRATEGY_EXTENSIONS.includes(ext)) {
    if (isFile(abs)) return abs;
    throw new PluginError({ code: 'PLUGIN_NOT_FOUND', problem: 'no such file', path: abs });
  }
  // No (known) extension: `./strategies/grid` means grid.ts, grid.mts, grid.js or grid.mjs.
  for (const e of STRATEGY_EXTENSIONS) if (isFile(abs + e)) return abs + e;
  if (ext !== '' && isFile(abs)) {
    throw new PluginError({
      code: 'PLUGIN_UNSUPPORTED_FILE',
      problem: `unsupported file type '${ext}' (a plugin is ${STRATEGY_EXTENSIONS.join(', ')})`,
      path: abs,
    });
  }
  throw new PluginError({
    code: 'PLUGIN_NOT_FOUND',
    problem: `no such file (also tried ${STRATEGY_EXTENSIONS.join(', ')})`,
    path: abs,
  });
}

function resolveByName(name: string, options: LoadStrategyOptions): string {
  const dir = options.strategiesDir ?? REPO_STRATEGIES_DIR;
  for (const e of STRATEGY_EXTENSIONS) {
    const candidate = resolve(dir, name + e);
    if (isFile(candidate)) return candidate;
  }
  const known = availableStrategies(dir);
  const near = closestKey(name, known);
  throw new PluginError({
    code: 'PLUGIN_NOT_FOUND',
    problem: `no strategy named '${name}' in ${dir.endsWith(sep) ? dir : dir + sep}${near !== undefined ? `; did you mean '${near}'?` : ''}${known.length ? ` (available: ${known.join(', ')})` : ''}`,
    strategy: name,
  });
}

/**
 * Names of the plugins in a strategies folder (files with a plugin extension, without it), sorted.
 *
 * @example
 * availableStrategies(); // ['breakout-bracket', 'grid', 'ma-crossover', 'market-maker']
 */
export function availableStrategies(dir: string = REPO_STRATEGIES_DIR): string[] {
  if (!existsSync(dir)) return [];
  const names = new Set<string>();
  for (const f of readdirSync(dir)) {
    const ext = extname(f);
    if (STRATEGY_EXTENSIONS.includes(ext) && !f.endsWith('.d.ts') && isFile(resolve(dir, f))) names.add(f.slice(0, -ext.length));
  }
  return [...names].sort();
}

/**
 * Load a plugin by name or path and return its definition. Throws {@link PluginError} only.
 *
 * @example
 * const { definition, path } = await loadStrategy('grid');
 * const { definition: mine } = await loadStrategy('./my-strategy.ts', { baseDir: dirname(configFile) });
 */
export async function loadStrategy(ref: string, options: LoadStrategyOptions = {}): Promise<LoadedStrategy> {
  const path = resolveStrategyPath(ref, options);
  const label = isPathReference(ref) ? undefined : ref;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(options.run instanceof FreshPluginRun ? options.run.urlOf(path) : moduleUrl(path, options.run))) as Record<string, unknown>;
  } catch (err) {
    // defineStrategy() rejecting its input at import time: keep that code, add the file.
    // (Matched by shape: a plugin outside the repo may carry its own copy of this module.)
    const invalid = err as Partial<PluginError> | null;
    if (invalid?.code === 'PLUGIN_INVALID_DEFINITION' && typeof invalid.problem === 'string') {
      throw new PluginError({ code: 'PLUGIN_INVALID_DEFINITION', problem: invalid.problem, strategy: invalid.strategy ?? label, path, cause: err });
    }
    throw new PluginError({ code: 'PLUGIN_LOAD_FAILED', problem: `failed to load: ${stripAnsi(describeError(err))}${loaderHint(err, path)}`, strategy: label, path, cause: err });
  }
  const hasDefault = 'default' in mod && mod.default !== undefined;
  const exported = hasDefault ? mod.default : mod.strategy;
  if (exported === undefined) {
    throw new PluginError({
      code: 'PLUGIN_NO_EXPORT',
      problem: 'no default export and no export named `strategy` (write `export default defineStrategy({ ... })`)',
      strategy: label,
      path,
    });
  }
  if (!isStrategyDefinition(exported)) {
    throw new PluginError({
      code: 'PLUGIN_INVALID_EXPORT',
      problem: `the ${hasDefault ? 'default export' : 'export `strategy`'} is ${describeValue(exported)}, not a strategy definition (wrap it in defineStrategy({ name, params, setup }))`,
      strategy: label,
      path,
    });
  }
  return { definition: exported, path };
}

/**
 * One run that sets its strategies up from fresh plugin modules (a backtest kernel's): every strategy of it that
 * names the same plugin file gets the same instance, so they share its top level as a live bot's strategies do,
 * and no other run's.
 */
export class FreshPluginRun {
  /** The URL each plugin file of this run is imported from. */
  readonly #urls = new Map<string, string>();

  /** @internal The URL of `path` for this run: the one its first load got. */
  urlOf(path: string): string {
    let url = this.#urls.get(path);
    if (url === undefined) this.#urls.set(path, (url = moduleUrl(path, 'fresh')));
    return url;
  }
}

/** Plugin files whose process-wide module instance a run has set strategies up from. */
const setUp = new Set<string>();
/** Module instances made for fresh runs so far (each import URL names its own, so it is loaded anew). */
let freshInstances = 0;

/**
 * The URL to import `path` from for a load of `run`'s kind: the file's own URL, except for a fresh run once a run
 * has set strategies up from that instance, which gets a URL of its own (a query Node and tsx load as a new module;
 * tsx's source maps still name the file without it in stack traces).
 */
function moduleUrl(path: string, run: 'shared' | 'fresh' | undefined): string {
  const href = pathToFileURL(path).href;
  if (run === undefined) return href;
  if (run === 'fresh' && setUp.has(path)) return `${href}?rexbot-run=${++freshInstances}`;
  setUp.add(path);
  return href;
}

/**
 * Load a plugin and validate its params in one step — what the runtime does for each `strategies:` entry of a
 * bot config. The instance `name` defaults to the definition's name.
 *
 * @example
 * const s = await loadConfiguredStrategy({ use: 'market-maker', name: 'mm-btc', params: { spread: '0.002' } }, { baseDir });
 * s.params.spread; // Decimal
 */
export async function loadConfiguredStrategy(
  entry: { use: string; name?: string; params?: unknown },
  options: LoadStrategyOptions = {},
): Promise<ConfiguredStrategy> {
  const { definition, path } = await loadStrategy(entry.use, options);
  const name = entry.name ?? definition.name;
  const params = parseStrategyParams(definition, entry.params, { strategy: name, path });
  return { definition, path, name, params };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'a plain object' : `a ${typeof value}`;
}

// Transformers (esbuild, oxc) colour their diagnostics for terminals; log lines and YAML-config errors want text.
const ANSI = /\u001b\[[0-9;]*m/g;
const stripAnsi = (text: string): string => text.replace(ANSI, '');

/** A hint when Node itself cannot load TypeScript (a plugin run outside the rexbot CLI without tsx). */
function loaderHint(err: unknown, path: string): string {
  const code = (err as { code?: unknown } | null)?.code;
  const ext = extname(path);
  if (code === 'ERR_UNKNOWN_FILE_EXTENSION' && (ext === '.ts' || ext === '.mts')) {
    return ' (TypeScript plugins need a TypeScript loader: run through the rexbot CLI, or `node --import tsx`)';
  }
  // A .ts/.js file outside an ESM package scope is CommonJS by Node's rules; under tsx its `import` statements
  // then end in require(esm) of the plugin itself, which Node refuses with this unhelpful cycle message.
  if (code === 'ERR_REQUIRE_CYCLE_MODULE' && (ext === '.ts' || ext === '.js')) {
    return ` (no package.json with "type": "module" governs this file, so it was loaded as CommonJS: rename it to ${ext === '.ts' ? '.mts' : '.mjs'}, or put {"type": "module"} in a package.json beside it)`;
  }
  return '';
}
