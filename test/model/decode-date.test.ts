import { describe, expect, it } from 'vitest';
import { WireFormatError } from '../../src/core/errors.js';
import { date } from '../../src/model/decode.js';

describe('date decoder', () => {
  it('decodes the same text twice to equal but separate Dates (a caller may change its own)', () => {
    const a = date('2026-11-27T07:25:19.480Z', 'createdAt', 'x');
    const b = date('2026-11-27T07:25:19.480Z', 'updatedAt', 'x');
    expect(a.getTime()).toBe(Date.parse('2026-11-27T07:25:19.480Z'));
    expect(b).not.toBe(a);
    a.setTime(0);
    expect(date('2026-11-27T07:25:19.480Z', 'closedAt', 'x').getTime()).toBe(Date.parse('2026-11-27T07:25:19.480Z'));
    expect(date('2021-06-14T00:00:00Z', 'at', 'x').toISOString()).toBe('2021-06-14T00:00:00.000Z');
  });

  it('still refuses what is not a date-time, naming the field', () => {
    expect(() => date('yesterday', 'createdAt', 'GET /v3/orders/x')).toThrow(WireFormatError);
    expect(() => date('yesterday', 'createdAt', 'GET /v3/orders/x')).toThrow(/createdAt/);
    expect(() => date(5, 'createdAt', 'x')).toThrow(WireFormatError);
  });
});
