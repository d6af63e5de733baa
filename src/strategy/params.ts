/**
 * Strategy params: zod helpers for the values strategies need (exact decimals from YAML numbers or strings) and
 * the one function that validates raw params against a plugin's schema, turning zod issues into a
 * {@link PluginError} that names the strategy, the file and every offending field.
 */
import { z } from 'zod';
import { Decimal, isDecimal, parseDecimal, type DecimalInput } from '../core/decimal.js';
import { PluginError, type ParamsIssue } from './strategy-errors.js';
import { droppedKeys, knownKeysAt, unknownKeyMessage } from '../runtime/config/did-you-mean.js';

/** Bounds of a {@link decimalParam}. */
export interface DecimalParamOptions {
  /** Require a value above zero. */
  positive?: boolean;
  /** Inclusive lower bound. */
  min?: DecimalInput;
  /** Inclusive upper bound. */
  max?: DecimalInput;
}

/**
 * A zod schema for an exact decimal param. Accepts a YAML/JSON number (`0.001`), a string (`"0.001"`, preferred
 * for amounts: no binary rounding on the way) or a {@link Decimal}; outputs a Decimal.
 *
 * In zod 4 `.default(...)` takes an OUTPUT value (a Decimal); `.prefault('0.001')` takes an input to parse.
 *
 * @example
 * const params = z.strictObject({
 *   spread: decimalParam({ positive: true }).default(dec('0.002')),
 *   size: decimalParam({ positive: true }).prefault('0.01'),
 * });
 */
export function decimalParam(options: DecimalParamOptions = {}) {
  const min = options.min === undefined ? undefined : new Decimal(options.min);
  const max = options.max === undefined ? undefined : new Decimal(options.max);
  return z
    .union([z.string(), z.number(), z.custom<Decimal>((v) => isDecimal(v))], {
      error: (issue) => (issue.input === undefined ? 'required' : `expected a decimal number such as 0.001 or "0.001", got ${describe(issue.input)}`),
    })
    .transform((value, ctx) => {
      const d = parseDecimal(value);
      if (!d) {
        ctx.addIssue({ code: 'custom', message: `expected a decimal number such as 0.001 or "0.001", got ${describe(value)}` });
        return z.NEVER;
      }
      if (options.positive && !d.gt(0)) ctx.addIssue({ code: 'custom', message: `must be greater than 0, got ${d.toString()}` });
      if (min && d.lt(min)) ctx.addIssue({ code: 'custom', message: `must be at least ${min.toString()}, got ${d.toString()}` });
      if (max && d.gt(max)) ctx.addIssue({ code: 'custom', message: `must be at most ${max.toString()}, got ${d.toString()}` });
      return d;
    });
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : String(value);
}

/** Where params come from, for error messages. */
export interface ParamsSource {
  /** Strategy name. */
  strategy?: string | undefined;
  /** Plugin file. */
  path?: string | undefined;
}

/**
 * Validate raw params (e.g. the `params:` block of a YAML bot; absent means `{}` so defaults apply) with a
 * plugin's schema. Returns the typed output or throws a `PLUGIN_INVALID_PARAMS` {@link PluginError} listing
 * every issue as `params.<field>: <message>`. A key the schema does not name is an issue even when the schema is a
 * plain `z.object` (which would drop it silently); a plugin that wants other keys says so with `z.looseObject`.
 *
 * @example
 * parseParams(z.strictObject({ levels: z.number().int().min(1) }), { levels: 0 }, { strategy: 'mm' });
 * // PluginError: strategy plugin 'mm': invalid params: params.levels: Too small: expected number to be >=1
 */
export function parseParams<S extends z.ZodType>(schema: S, raw: unknown, source: ParamsSource = {}): z.output<S> {
  let result: ReturnType<S['safeParse']>;
  try {
    result = schema.safeParse(raw ?? {}) as ReturnType<S['safeParse']>;
  } catch (err) {
    // e.g. an async refinement in a schema parsed synchronously: the schema is the plugin's bug.
    throw new PluginError({ code: 'PLUGIN_INVALID_PARAMS', problem: `params schema could not be evaluated: ${String(err)}`, ...source, cause: err });
  }
  // A z.object (not strict) drops a key it does not know: a typo (`slwo: 20`) would leave `slow` at its default
  // without a word. Such a key is refused as a strict object refuses it.
  const dropped: ParamsIssue[] = droppedKeys(schema, raw).map((key) => ({ path: [key], message: unknownKeyMessage(key, knownKeysAt(schema, [])) }));
  if (result.success && dropped.length === 0) return result.data as z.output<S>;
  const issues: ParamsIssue[] = [
    ...(result.success ? [] : result.error.issues).map((i) => ({
      path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
      message: i.message,
    })),
    ...dropped,
  ];
  throw new PluginError({
    code: 'PLUGIN_INVALID_PARAMS',
    problem: `invalid params: ${issues.map(formatIssue).join('; ')}`,
    ...source,
    issues,
    cause: result.success ? undefined : result.error,
  });
}

/** `params.levels: Too small...`, `params.ladder[2].rate: ...`. */
export function formatIssue(issue: ParamsIssue): string {
  let where = 'params';
  for (const p of issue.path) where += typeof p === 'number' ? `[${p}]` : `.${p}`;
  return `${where}: ${issue.message}`;
}
