import { EMPTY, map, type Observable } from 'rxjs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { dec, type Decimal } from '../../src/core/decimal.js';
import type { Intent } from '../../src/model/intent.js';
import {
  defineStrategy,
  isStrategyDefinition,
  parseStrategyParams,
  STRATEGY_DEFINITION,
  type StrategyContext,
  type StrategyParams,
} from '../../src/strategy/define-strategy.js';
import { decimalParam, parseParams } from '../../src/strategy/params.js';
import { PluginError } from '../../src/strategy/strategy-errors.js';

const quoting = defineStrategy({
  name: 'quoting',
  params: z.strictObject({
    spread: decimalParam({ positive: true }).default(dec('0.002')),
    levels: z.number().int().min(1).max(10).default(3),
    side: z.enum(['both', 'bid', 'ask']).default('both'),
    tag: z.string().optional(),
  }),
  setup(ctx) {
    expectTypeOf(ctx.params.spread).toEqualTypeOf<Decimal>();
    expectTypeOf(ctx.params.levels).toEqualTypeOf<number>();
    expectTypeOf(ctx.params.side).toEqualTypeOf<'both' | 'bid' | 'ask'>();
    expectTypeOf(ctx.params.tag).toEqualTypeOf<string | undefined>();
    return ctx.every(1000).pipe(map((n): Intent => ({ kind: 'cancelAll', key: `c${n}` })));
  },
});

describe('defineStrategy', () => {
  it('returns a frozen, branded definition typed by its params schema', () => {
    expect(isStrategyDefinition(quoting)).toBe(true);
    expect(quoting[STRATEGY_DEFINITION]).toBe(true);
    expect(Object.isFrozen(quoting)).toBe(true);
    expect(quoting.name).toBe('quoting');
    expect(quoting.description).toBeUndefined();
    expectTypeOf<StrategyParams<typeof quoting>>().toEqualTypeOf<{
      spread: Decimal;
      levels: number;
      side: 'both' | 'bid' | 'ask';
      tag?: string | undefined;
    }>();
    expectTypeOf(quoting.setup).parameter(0).toEqualTypeOf<StrategyContext<StrategyParams<typeof quoting>>>();
    expectTypeOf(quoting.setup).returns.toEqualTypeOf<Observable<Intent>>();
  });

  it('recognises only branded values', () => {
    expect(isStrategyDefinition({ name: 'x', params: z.object({}), setup: () => EMPTY })).toBe(false);
    expect(isStrategyDefinition(null)).toBe(false);
    expect(isStrategyDefinition('quoting')).toBe(false);
    // The brand is a registry symbol: a definition built by another copy of the module is still recognised.
    expect(isStrategyDefinition({ [Symbol.for('rexbot.strategy-definition')]: true })).toBe(true);
  });

  it.each([
    [{ name: '', params: z.object({}), setup: () => EMPTY }, /name must match .* got ""/],
    [{ name: 'has space', params: z.object({}), setup: () => EMPTY }, /name must match .* got "has space"/],
    [{ name: 'x', params: { spread: 1 }, setup: () => EMPTY }, /strategy plugin 'x': params must be a zod schema/],
    [{ name: 'x', params: z.object({}) }, /strategy plugin 'x': setup must be a function/],
    [{ name: 'x', params: z.object({}), setup: () => EMPTY, description: 3 }, /description must be a string/],
  ])('rejects a malformed definition %#', (spec, message) => {
    const attempt = () => defineStrategy(spec as never);
    expect(attempt).toThrow(PluginError);
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (e) {
      expect((e as PluginError).code).toBe('PLUGIN_INVALID_DEFINITION');
    }
  });
});

describe('params validation', () => {
  it('applies defaults when no params are given (absent YAML block)', () => {
    const params = parseStrategyParams(quoting, undefined);
    expect(params.spread.toString()).toBe('0.002');
    expect(params).toMatchObject({ levels: 3, side: 'both' });
  });

  it('parses decimals exactly from strings and numbers', () => {
    expect(parseStrategyParams(quoting, { spread: '0.00000001' }).spread.toString()).toBe('0.00000001');
    expect(parseStrategyParams(quoting, { spread: 0.1 }).spread.eq(dec('0.1'))).toBe(true);
    expect(parseStrategyParams(quoting, { spread: dec('0.3') }).spread.toString()).toBe('0.3');
  });

  it('names the strategy, the file and every failing field', () => {
    let error: PluginError | undefined;
    try {
      parseStrategyParams(quoting, { spread: '-1', levels: 0, side: 'up', sprad: 1 }, { path: '/bots/a.yaml' });
    } catch (e) {
      error = e as PluginError;
    }
    expect(error).toBeInstanceOf(PluginError);
    expect(error!.code).toBe('PLUGIN_INVALID_PARAMS');
    expect(error!.strategy).toBe('quoting');
    expect(error!.path).toBe('/bots/a.yaml');
    expect(error!.message).toMatch(/^strategy plugin 'quoting' \(\/bots\/a\.yaml\): invalid params: /);
    expect(error!.message).toContain('params.spread: must be greater than 0, got -1');
    expect(error!.message).toContain('params.levels: Too small: expected number to be >=1');
    expect(error!.message).toContain('params.side: Invalid option');
    expect(error!.message).toContain('params: Unrecognized key: "sprad"');
    expect(error!.issues.map((i) => i.path)).toEqual([['spread'], ['levels'], ['side'], []]);
  });

  it('refuses a key a plain z.object would drop (a typo left its param at the default), with did you mean', () => {
    const loose = { slow: z.number().default(20), fast: z.number().default(5) };
    expect(() => parseParams(z.object(loose), { fast: 3, slwo: 30 }, { strategy: 'cross' })).toThrow(
      /^strategy plugin 'cross': invalid params: params\.slwo: unknown field "slwo"; did you mean "slow"\?$/,
    );
    // Through wrappers (a cross-field refine, a default for the whole block), with the schema's own issues too.
    const refined = z.object(loose).refine((p) => p.fast < p.slow, { message: 'fast must be smaller than slow', path: ['fast'] }).default({ slow: 20, fast: 5 });
    expect(() => parseParams(refined, { fast: 'x', slwo: 30 })).toThrow('params.fast: Invalid input: expected number, received string; params.slwo: unknown field "slwo"');
    // A schema that asks for other keys gets them; a union's keys depend on its branch and are left to it.
    expect(parseParams(z.looseObject(loose), { slwo: 30 })).toEqual({ slow: 20, fast: 5, slwo: 30 });
    expect(parseParams(z.object(loose).catchall(z.number()), { slwo: 30 })).toEqual({ slow: 20, fast: 5, slwo: 30 });
    expect(parseParams(z.union([z.object({ a: z.number() }), z.object({ b: z.number() })]), { a: 1, c: 2 })).toEqual({ a: 1 });
    expect(parseParams(z.object(loose), { slow: 30 })).toEqual({ slow: 30, fast: 5 });
  });

  it('uses the instance name when given', () => {
    expect(() => parseStrategyParams(quoting, { levels: 'many' }, { strategy: 'mm-btc' })).toThrow(
      /^strategy plugin 'mm-btc': invalid params: params\.levels: Invalid input: expected number, received string$/,
    );
  });

  it('rejects params that are not an object', () => {
    expect(() => parseStrategyParams(quoting, [1, 2])).toThrow(/invalid params: params: Invalid input: expected object, received array/);
  });

  it('decimalParam reports bad input, bounds and missing values', () => {
    const schema = z.strictObject({ a: decimalParam(), b: decimalParam({ min: '1', max: '2' }) });
    expect(() => parseParams(schema, { a: 'abc', b: '3' })).toThrow(
      'invalid params: params.a: expected a decimal number such as 0.001 or "0.001", got "abc"; params.b: must be at most 2, got 3',
    );
    expect(() => parseParams(schema, { a: true, b: '0.5' })).toThrow(
      'params.a: expected a decimal number such as 0.001 or "0.001", got true; params.b: must be at least 1, got 0.5',
    );
    expect(() => parseParams(schema, { b: 1 })).toThrow('params.a: required');
    expect(() => parseParams(schema, { a: 'NaN', b: 1 })).toThrow('params.a: expected a decimal number');
  });
});
