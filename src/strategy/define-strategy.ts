/**
 * `defineStrategy`: how a plugin declares a strategy. A strategy is a name, a zod schema for its params and a
 * `setup(ctx)` that returns an `Observable<Intent>`; rexbot validates the params (from YAML), builds the context,
 * subscribes, stamps each intent with the strategy's name and routes it through risk to the order manager.
 *
 * The returned definition is a plain frozen object carrying a brand ({@link STRATEGY_DEFINITION}) so the plugin
 * loader can tell "a strategy" from "some export". The brand is a `Symbol.for` key, so it is recognised even when
 * a plugin's copy of this module is a different instance from the loader's.
 */
import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { Intent } from '../model/intent.js';
import type { VenueFeature } from '../model/venue-features.js';
import { parseParams, type ParamsSource } from './params.js';
import { PluginError } from './strategy-errors.js';
import type { StrategyContext } from './strategy-context.js';

export type { StrategyContext } from './strategy-context.js';

/** Brand carried by every {@link StrategyDefinition}. */
export const STRATEGY_DEFINITION = Symbol.for('rexbot.strategy-definition');

/** Allowed strategy names: they label metrics and logs and prefix intent keys, so keep them plain. */
export const STRATEGY_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Venue features beyond resting and immediate-or-cancel LIMIT orders that a strategy may use (the table in
 * model/venue-features.ts says which venue lacks which). Declaring them (see {@link StrategySpec.uses}) lets a bot
 * config be refused before it runs on a venue that cannot do them, such as the legacy v1.1 interface.
 */
export type { VenueFeature } from '../model/venue-features.js';

/** What a plugin author writes. */
export interface StrategySpec<S extends z.ZodType> {
  /** Unique, stable name (letters, digits, `.`, `_`, `-`; at most 64 characters). */
  name: string;
  /** One line saying what the strategy does, for whoever reads the plugin (kept on the definition, printed nowhere). */
  description?: string;
  /**
   * zod schema of the params; its output type is `ctx.params`. Prefer `z.strictObject`. A YAML key the schema does
   * not name is refused with a "did you mean" under a plain `z.object` too (which would drop it); `z.looseObject`
   * accepts other keys.
   */
  params: S;
  /**
   * The venue features this strategy may use with these params (a list, or a function of the params): e.g.
   * `['conditionalOrders']` for brackets. A venue that lacks one refuses the config at load time, naming the
   * strategy and the feature, instead of the first order being refused while trading. Leave it out when the
   * strategy places only LIMIT orders (GOOD_TIL_CANCELLED or IMMEDIATE_OR_CANCEL).
   */
  uses?: readonly VenueFeature[] | ((params: z.output<S>) => readonly VenueFeature[]);
  /**
   * Called once when the strategy starts. Read what you need from `ctx`, return the stream of intents.
   * Throwing here (or erroring the observable later) stops this strategy only.
   */
  setup(ctx: StrategyContext<z.output<S>>): Observable<Intent>;
}

/** A strategy as rexbot loads and runs it (see {@link defineStrategy}). */
export interface StrategyDefinition<S extends z.ZodType = z.ZodType> {
  readonly [STRATEGY_DEFINITION]: true;
  readonly name: string;
  readonly description: string | undefined;
  readonly params: S;
  /** The venue features it may use with `params` (see {@link StrategySpec.uses}); empty when undeclared. */
  uses(params: z.output<S>): readonly VenueFeature[];
  setup(ctx: StrategyContext<z.output<S>>): Observable<Intent>;
}

/** The params type of a definition. */
export type StrategyParams<D> = D extends StrategyDefinition<infer S> ? z.output<S> : never;

/**
 * Declare a strategy. Make it the module's default export (or a named export `strategy`).
 *
 * Throws a `PLUGIN_INVALID_DEFINITION` {@link PluginError} when the name, schema or setup is malformed, so a
 * broken plugin fails at load time with a message naming it.
 *
 * @example
 * import { z } from 'zod';
 * import { map } from 'rxjs';
 * import { defineStrategy, decimalParam } from 'rexbot';
 *
 * export default defineStrategy({
 *   name: 'hello-quotes',
 *   params: z.strictObject({ size: decimalParam({ positive: true }).prefault('0.01') }),
 *   setup(ctx) {
 *     const [market] = ctx.markets;
 *     return ctx.book$(market).pipe(
 *       map((book) => ({ kind: 'quotes', key: 'q', marketSymbol: market,
 *         bids: [{ rate: book.bestBid()!.rate, quantity: ctx.params.size }], asks: [] })),
 *     );
 *   },
 * });
 */
export function defineStrategy<S extends z.ZodType>(spec: StrategySpec<S>): StrategyDefinition<S> {
  const where = typeof spec?.name === 'string' ? spec.name : undefined;
  const invalid = (problem: string): PluginError => new PluginError({ code: 'PLUGIN_INVALID_DEFINITION', problem, strategy: where });
  if (spec === null || typeof spec !== 'object') throw invalid('defineStrategy needs an object { name, params, setup }');
  if (typeof spec.name !== 'string' || !STRATEGY_NAME_PATTERN.test(spec.name)) {
    throw invalid(`name must match ${STRATEGY_NAME_PATTERN} (letters, digits, '.', '_', '-'), got ${JSON.stringify(spec.name)}`);
  }
  const schema = spec.params as unknown as { safeParse?: unknown } | undefined;
  if (schema === null || typeof schema !== 'object' || typeof schema.safeParse !== 'function') {
    throw invalid('params must be a zod schema, e.g. z.strictObject({ ... })');
  }
  if (typeof spec.setup !== 'function') throw invalid('setup must be a function (ctx) => Observable<Intent>');
  if (spec.description !== undefined && typeof spec.description !== 'string') throw invalid('description must be a string');
  if (spec.uses !== undefined && typeof spec.uses !== 'function' && !Array.isArray(spec.uses)) {
    throw invalid('uses must be a list of venue features or a function (params) => list');
  }
  const setup = spec.setup;
  const uses = spec.uses;
  return Object.freeze({
    [STRATEGY_DEFINITION]: true as const,
    name: spec.name,
    description: spec.description,
    params: spec.params,
    uses: (p: z.output<S>): readonly VenueFeature[] => (uses === undefined ? [] : typeof uses === 'function' ? uses(p) : uses),
    setup: (ctx: StrategyContext<z.output<S>>) => setup.call(spec, ctx),
  });
}

/**
 * True when `value` was built by {@link defineStrategy}.
 *
 * @example
 * const mod = await import(url);
 * if (!isStrategyDefinition(mod.default)) throw new Error('not a strategy');
 */
export function isStrategyDefinition(value: unknown): value is StrategyDefinition {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    (value as { [STRATEGY_DEFINITION]?: unknown })[STRATEGY_DEFINITION] === true
  );
}

/**
 * Validate raw params (the YAML `params:` block; absent = `{}`) against a definition's schema.
 *
 * @example
 * const params = parseStrategyParams(marketMaker, { spread: '0.002', levels: 3 }, { path: file });
 */
export function parseStrategyParams<S extends z.ZodType>(
  definition: StrategyDefinition<S>,
  raw: unknown,
  source: ParamsSource = {},
): z.output<S> {
  return parseParams(definition.params, raw, { strategy: source.strategy ?? definition.name, path: source.path });
}
