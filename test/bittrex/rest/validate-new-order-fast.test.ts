import { describe, expect, it } from 'vitest';
import { dec, isDecimal } from '../../../src/core/decimal.js';
import { ValidationError } from '../../../src/core/errors.js';
import { mulberry32 } from '../../../src/core/prng.js';
import { ORDER_DIRECTIONS, ORDER_TYPES, TIME_IN_FORCES } from '../../../src/model/enums.js';
import type { NewOrder } from '../../../src/model/order.js';
import { optionalBoolean, optionalText, requireOneOf, requireText, validateNewOrder } from '../../../src/bittrex/rest/validate.js';

/**
 * validateNewOrder as it was written before its rules were tested inline (every field name built and every helper
 * called on each order; positivity by `gt(0)`): the reference the inline version must agree with, error for error.
 */
function reference(order: NewOrder, where: string, field = 'newOrder'): void {
  const fail = (f: string, problem: string): never => {
    throw new ValidationError(f, `${problem} (${where})`);
  };
  const show = (v: unknown) => (isDecimal(v) ? v.toString() : (JSON.stringify(v) ?? String(v)));
  const requirePositive = (f: string, value: unknown) => {
    if (!isDecimal(value)) fail(f, `must be a Decimal (use dec('...')), got ${show(value)}`);
    else if (!value.isFinite() || !value.gt(0)) fail(f, `must be positive, got ${show(value)}`);
  };
  if (typeof order !== 'object' || order === null) fail(field, `must be an object, got ${show(order)}`);
  requireText(`${field}.marketSymbol`, order.marketSymbol, where);
  requireOneOf(`${field}.direction`, order.direction, ORDER_DIRECTIONS, where);
  requireOneOf(`${field}.type`, order.type, ORDER_TYPES, where);
  requireOneOf(`${field}.timeInForce`, order.timeInForce, TIME_IN_FORCES, where);
  const { type, timeInForce: tif } = order;
  if (tif === 'BUY_NOW' || tif === 'INSTANT') fail(`${field}.timeInForce`, `${tif} is not allowed for any order type`);
  if ((tif === 'GOOD_TIL_CANCELLED' || tif === 'POST_ONLY_GOOD_TIL_CANCELLED') && type !== 'LIMIT') {
    fail(`${field}.timeInForce`, `${tif} is only allowed for LIMIT orders, not ${type}`);
  }
  const ceilingType = type === 'CEILING_LIMIT' || type === 'CEILING_MARKET';
  const [needed, excluded] = ceilingType ? (['ceiling', 'quantity'] as const) : (['quantity', 'ceiling'] as const);
  if (order[needed] === undefined) fail(`${field}.${needed}`, `is required for ${type} orders`);
  if (order[excluded] !== undefined) fail(`${field}.${excluded}`, `must be left out of ${type} orders`);
  requirePositive(`${field}.${needed}`, order[needed]);
  if (type === 'LIMIT' || type === 'CEILING_LIMIT') {
    if (order.limit === undefined) fail(`${field}.limit`, `is required for ${type} orders`);
    requirePositive(`${field}.limit`, order.limit);
  } else if (order.limit !== undefined) {
    fail(`${field}.limit`, `must be left out of ${type} orders`);
  }
  optionalText(`${field}.clientOrderId`, order.clientOrderId, where);
  optionalBoolean(`${field}.useAwards`, order.useAwards, where);
}

function outcome(f: () => void): string {
  try {
    f();
    return 'ok';
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return `${err.field}: ${err.message}`;
  }
}

describe('validateNewOrder (rules tested inline, names built only on failure)', () => {
  it('accepts and refuses exactly as the helper-per-rule version did, with the same field and message', () => {
    const rand = mulberry32(9090);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const amounts: unknown[] = [undefined, dec('0.001'), dec('30010'), dec('0'), dec('-0'), dec('-1'), dec('1e-30'), dec('5')];
    // Non-finite and non-Decimal amounts: what a JavaScript caller could pass despite the types.
    amounts.push(new (dec('1').constructor as new (v: string) => unknown)('NaN'), new (dec('1').constructor as new (v: string) => unknown)('Infinity'));
    amounts.push(1, '1', null);
    const texts: unknown[] = [undefined, 'BTC-USD', '', 5, null];
    const directions: unknown[] = [...ORDER_DIRECTIONS, 'buy', undefined];
    const types: unknown[] = [...ORDER_TYPES, 'STOP', undefined];
    const tifs: unknown[] = [...TIME_IN_FORCES, 'GTC', undefined];
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const order: Record<string, unknown> = {
        marketSymbol: rand() < 0.9 ? 'BTC-USD' : pick(texts),
        direction: rand() < 0.9 ? pick(ORDER_DIRECTIONS) : pick(directions),
        type: rand() < 0.9 ? pick(ORDER_TYPES) : pick(types),
        timeInForce: rand() < 0.9 ? pick(TIME_IN_FORCES) : pick(tifs),
      };
      for (const k of ['quantity', 'ceiling', 'limit']) {
        const v = pick(amounts);
        if (v !== undefined || rand() < 0.2) order[k] = v;
      }
      if (rand() < 0.3) order.clientOrderId = pick(texts);
      if (rand() < 0.3) order.useAwards = pick([true, false, 'yes', undefined, 0]);
      const field = rand() < 0.8 ? 'newOrder' : 'ops[3].payload';
      const want = outcome(() => reference(order as unknown as NewOrder, 'POST /orders', field));
      seen.add(want.split(':')[0]!);
      expect(outcome(() => validateNewOrder(order as unknown as NewOrder, 'POST /orders', field)), JSON.stringify(order)).toBe(want);
    }
    // Every rule was exercised, and some orders passed.
    expect(seen.size).toBeGreaterThan(12);
    expect(seen.has('ok')).toBe(true);
  });
});
