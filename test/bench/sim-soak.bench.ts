/**
 * 'sim-soak': memory of a simulator that runs for days (issue 9 item 6). One account creates and cancels orders
 * (with fresh clientOrderIds) through the full engine, one second of virtual time apart (100k cycles = 28 hours,
 * past every retention window), for 300k cycles; after each
 * 100k the heap is collected and RSS and heap printed. With retention (sim/retention.ts: closed orders and
 * executions 10k per account / 7 days, idempotency keys 24 h, tombstones 1 h) memory levels off instead of
 * growing ~1.4 KB per closed order; the figure is the heap growth per order over the last 200k cycles.
 */
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { VirtualClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { createSimEngine } from '../../src/sim/engine.js';
import type { Bench, Figure } from './harness.js';

const STEP = 100_000;
const STEPS = 3;

function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

export const benches: Bench[] = [
  {
    name: 'sim-soak',
    async run() {
      const clock = new VirtualClock(Date.parse('2021-06-14T00:00:00Z'));
      const engine = createSimEngine({ clock });
      const me = engine.createParticipant({ USD: dec('1000000000') });
      const qty = dec('0.01');
      const limit = dec('10000');
      const figures: Figure[] = [];
      const heap: number[] = [];
      for (let step = 1; step <= STEPS; step++) {
        for (let i = 0; i < STEP; i++) {
          const o = engine.placeOrder(me, { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: qty, limit, clientOrderId: randomUUID() });
          engine.cancelOrder(me, o.id);
          await clock.advance(1_000);
        }
        collect();
        const m = process.memoryUsage();
        heap.push(m.heapUsed);
        figures.push({ bench: `sim-soak.rss-${step * 100}k`, value: Math.round(m.rss / 1048576), unit: 'MB', note: `RSS after ${step * STEP} create/cancel cycles (heap ${Math.round(m.heapUsed / 1048576)} MB)` });
      }
      const perOrder = (heap[STEPS - 1]! - heap[0]!) / ((STEPS - 1) * STEP);
      figures.push({ bench: 'sim-soak', value: Math.round(perOrder), unit: 'bytes/order', note: `heap growth per closed order from ${STEP / 1000}k to ${(STEPS * STEP) / 1000}k cycles (issue 9 measured ~1400 without retention)` });
      return figures;
    },
  },
];
