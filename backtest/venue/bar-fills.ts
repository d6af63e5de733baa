/**
 * Fills from bar (candle) data, where there is no book and no queue: only each bar's open, high, low and close.
 *
 * - Intrabar path: a bar that closed at or above its open went O → L → H → C (down first, then up to close); one
 *   that closed below its open went O → H → L → C. This is the usual convention of bar-level backtesters (the
 *   extreme nearer the open comes first); it decides which of two orders on either side of the bar fills first.
 * - A resting limit order fills whole, at its limit, as a maker, when the path reaches its price: `touch` (the
 *   default of many tools, optimistic) fills a buy when the path goes down to its limit, `trade-through` (the
 *   default here, conservative) only when it goes below it. Sells mirror this.
 * - An order marketable on arrival (a MARKET order, or a limit at or through the last close) fills whole at the
 *   last bar's close, as a taker: bars carry no depth, so no size limit applies (the report says so).
 */
import type { Decimal } from '../../src/core/decimal.js';
import type { Candle } from '../../src/model/market.js';
import type { FillDecision, QueuedOrder } from './resting-queues.js';

/** The limit-fill rule of bar mode. */
export type BarLimitFill = 'touch' | 'trade-through';

/** The bar's price path (see the module note). */
export function intrabarPath(c: Candle): Decimal[] {
  return c.close.gte(c.open) ? [c.open, c.low, c.high, c.close] : [c.open, c.high, c.low, c.close];
}

/** The fills a bar implies for our resting orders, in the order the path reaches them. */
export function barDecisions(orders: Iterable<QueuedOrder>, candle: Candle, rule: BarLimitFill): FillDecision[] {
  const path = intrabarPath(candle);
  const hits: Array<{ d: FillDecision; step: number }> = [];
  for (const o of orders) {
    if (o.remaining.isZero()) continue;
    let lo = path[0]!;
    let hi = path[0]!;
    for (let step = 0; step < path.length; step++) {
      const p = path[step]!;
      if (p.lt(lo)) lo = p;
      if (p.gt(hi)) hi = p;
      const reached = o.side === 'bid' ? (rule === 'touch' ? lo.lte(o.rate) : lo.lt(o.rate)) : rule === 'touch' ? hi.gte(o.rate) : hi.gt(o.rate);
      if (reached) {
        hits.push({ d: { order: o, quantity: o.remaining, reason: 'bar' }, step });
        break;
      }
    }
  }
  // In path order; at one step, best price first (the engine fills our better-priced order first), then queue order.
  hits.sort((a, b) => {
    if (a.step !== b.step) return a.step - b.step;
    const x = a.d.order;
    const y = b.d.order;
    if (x.side !== y.side || x.key === y.key) return 0;
    return (x.side === 'bid' ? y.key - x.key : x.key - y.key) < 0 ? -1 : 1;
  });
  for (const h of hits) h.d.order.remaining = h.d.order.remaining.minus(h.d.quantity);
  return hits.map((h) => h.d);
}
