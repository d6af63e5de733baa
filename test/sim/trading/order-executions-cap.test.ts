/**
 * An order keeps only the executions GET /orders/{id}/executions can answer (the newest 1000, trading-settle.ts):
 * a maker filled thousands of times still answers exactly its newest 1000, newest first.
 */
import { describe, expect, it } from 'vitest';
import { checkInvariants, setup } from './harness.js';

describe('executions kept per order', () => {
  it('answers the newest 1000 of a maker order filled 2500 times, newest first, across the trims', () => {
    const h = setup();
    h.fund('maker', 'BTC', '10');
    h.fund('taker', 'USD', '1000000');
    const maker = h.limit('maker', 'SELL', '5', '30000');
    const seen: string[] = [];
    for (let i = 0; i < 2500; i++) {
      h.limit('taker', 'BUY', '0.001', '30000');
      const newest = h.trading.reads.orderExecutions('maker', maker.id);
      expect(newest.length).toBe(Math.min(i + 1, 1000));
      seen.push(newest[0]!.id);
    }
    expect(new Set(seen).size).toBe(2500);
    const answer = h.trading.reads.orderExecutions('maker', maker.id).map((e) => e.id);
    expect(answer).toEqual(seen.slice(-1000).reverse());
    expect(h.trading.getOrder('maker', maker.id).fillQuantity?.toFixed()).toBe('2.5');
    checkInvariants(h, ['maker', 'taker']);
  });
});
