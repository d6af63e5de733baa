/**
 * oneOf answers the enum's own string rather than the input (so a decoded order keeps no slice of its request
 * body alive); this proves it accepts, answers and refuses exactly what the plain Set check did.
 */
import { describe, expect, it } from 'vitest';
import { WireFormatError } from '../../src/core/errors.js';
import { mulberry32 } from '../../src/core/prng.js';
import { parseWireJson } from '../../src/core/wire-json.js';
import { oneOf } from '../../src/model/decode.js';
import { ORDER_DIRECTIONS, ORDER_STATUSES, ORDER_TYPES, TIME_IN_FORCES } from '../../src/model/enums.js';

/** The decoder as it was: the input itself when the set has it. */
function reference(values: readonly string[]) {
  const set = new Set(values);
  return (v: unknown): unknown => (typeof v === 'string' && set.has(v) ? v : 'refused');
}

function attempt(decode: (v: unknown) => unknown, v: unknown): unknown {
  try {
    return decode(v);
  } catch (err) {
    if (err instanceof WireFormatError) return 'refused';
    throw err;
  }
}

describe('oneOf', () => {
  it('accepts, answers and refuses exactly as the set check did, for known values, near misses and other types', () => {
    const rnd = mulberry32(9);
    for (const values of [ORDER_DIRECTIONS, ORDER_TYPES, TIME_IN_FORCES, ORDER_STATUSES]) {
      const decode = oneOf(values);
      const ref = reference(values);
      const inputs: unknown[] = [...values, '', 'buy', ' BUY', 'BUY ', 'LIMIT\u0000', 1, null, undefined, true, {}, ['BUY'], new String('BUY')];
      for (let i = 0; i < 2000; i++) {
        const v = values[Math.floor(rnd() * values.length)]!;
        const cut = Math.floor(rnd() * v.length);
        // Mutations of a known value: dropped, doubled or changed characters, and the value itself rebuilt.
        inputs.push(v.slice(0, cut) + v.slice(cut + 1), v.slice(0, cut) + v[cut] + v.slice(cut), v.slice(0, cut) + String.fromCharCode(65 + Math.floor(rnd() * 58)) + v.slice(cut + 1), [...v].join(''));
      }
      for (const v of inputs) expect(attempt((x) => decode(x, 'f', 'where'), v)).toEqual(ref(v));
    }
  });

  it('answers the enum value itself for a string cut from a parsed request body', () => {
    const body = parseWireJson('{"timeInForce":"IMMEDIATE_OR_CANCEL","direction":"BUY"}') as Record<string, string>;
    expect(oneOf(TIME_IN_FORCES)(body.timeInForce, 'timeInForce', 'POST /v3/orders')).toBe('IMMEDIATE_OR_CANCEL');
    expect(oneOf(ORDER_DIRECTIONS)(body.direction, 'direction', 'POST /v3/orders')).toBe('BUY');
  });

  it('names the field and the allowed values when it refuses', () => {
    expect(() => oneOf(ORDER_DIRECTIONS)('SIDEWAYS', 'order.direction', 'POST /v3/orders')).toThrow(/order\.direction is not one of BUY\|SELL: "SIDEWAYS"/);
  });
});
