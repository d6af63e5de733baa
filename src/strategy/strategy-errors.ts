/**
 * Typed errors of the strategy layer. A broken plugin is a {@link PluginError} raised before the strategy runs
 * (nothing is subscribed, no intent is emitted); a strategy that breaks while running is a {@link StrategyFailure}
 * reported by the runner, never thrown into the runtime.
 */
import { RexbotError } from '../core/errors.js';

/** Why a plugin could not be used. Stable; safe to branch on. */
export type PluginErrorCode =
  /** No file at the path, or no strategy of that name in the strategies folder. */
  | 'PLUGIN_NOT_FOUND'
  /** The file is not .ts, .mts, .js or .mjs. */
  | 'PLUGIN_UNSUPPORTED_FILE'
  /** Importing the module failed: syntax error, a throw at the top level, a missing dependency. */
  | 'PLUGIN_LOAD_FAILED'
  /** The module has neither a default export nor a named export `strategy`. */
  | 'PLUGIN_NO_EXPORT'
  /** The export is not a value built by `defineStrategy`. */
  | 'PLUGIN_INVALID_EXPORT'
  /** `defineStrategy` was given a bad definition (name, params schema or setup). */
  | 'PLUGIN_INVALID_DEFINITION'
  /** The params (e.g. from the YAML bot) do not satisfy the plugin's schema. */
  | 'PLUGIN_INVALID_PARAMS';

/** One params problem: where (`params.spread`) and what. */
export interface ParamsIssue {
  /** Path inside the params object, e.g. `['spread']` or `['levels', 2]`. */
  path: (string | number)[];
  message: string;
}

/**
 * A strategy plugin that cannot be loaded or configured. The message names the strategy, the file and the cause,
 * e.g. `strategy plugin 'market-maker' (/repo/strategies/market-maker.ts): invalid params: params.spread: ...`.
 *
 * @example
 * try { await loadStrategy('./my-strategy.ts') }
 * catch (e) { if (e instanceof PluginError) console.error(e.code, e.message) }
 */
export class PluginError extends RexbotError {
  override readonly code: PluginErrorCode;
  /** The strategy name (as referenced, or from its definition once known). */
  readonly strategy: string | undefined;
  /** Absolute path of the plugin file, when resolved. */
  readonly path: string | undefined;
  /** Params problems (only for `PLUGIN_INVALID_PARAMS`). */
  readonly issues: readonly ParamsIssue[];
  /** The message without the `strategy plugin 'name' (path): ` prefix. */
  readonly problem: string;

  constructor(init: {
    code: PluginErrorCode;
    problem: string;
    strategy?: string | undefined;
    path?: string | undefined;
    cause?: unknown;
    issues?: readonly ParamsIssue[];
  }) {
    super(init.code, `${pluginLabel(init.strategy, init.path)}: ${init.problem}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.strategy = init.strategy;
    this.path = init.path;
    this.issues = init.issues ?? [];
    this.problem = init.problem;
  }
}

/** `strategy plugin 'name' (path)`, with whatever parts are known. */
export function pluginLabel(strategy: string | undefined, path: string | undefined): string {
  const name = strategy === undefined ? 'strategy plugin' : `strategy plugin '${strategy}'`;
  return path === undefined ? name : `${name} (${path})`;
}

/** Where a strategy failed: inside `setup(ctx)`, or later while its observable ran. */
export type StrategyPhase = 'setup' | 'run';

/**
 * A running strategy broke: `setup` threw, its observable errored, an operator threw, one of its own timer
 * callbacks threw, or it emitted something that is not an intent. The runner stops its intents and reports this
 * once; what happens to its open orders is the runtime's policy.
 */
export class StrategyFailure extends RexbotError {
  readonly strategy: string;
  readonly phase: StrategyPhase;
  /** The original error (or thrown value). */
  override readonly cause: unknown;

  constructor(strategy: string, phase: StrategyPhase, cause: unknown) {
    super('STRATEGY_FAILED', `strategy '${strategy}' failed during ${phase}: ${describeError(cause)}`, { cause });
    this.strategy = strategy;
    this.phase = phase;
    this.cause = cause;
  }
}

/** A strategy emitted a value that is not an {@link Intent} (unknown kind or missing key). */
export class InvalidIntentError extends RexbotError {
  /** What was emitted. */
  readonly value: unknown;
  constructor(message: string, value: unknown) {
    super('INVALID_INTENT', message);
    this.value = value;
  }
}

/** `Name: message` for an Error, `String(value)` for anything else thrown. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.name && err.name !== 'Error' ? `${err.name}: ${err.message}` : err.message;
  return String(err);
}
