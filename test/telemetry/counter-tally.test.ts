/**
 * A tallied counter must scrape exactly as the same counter incremented once per event: same series, same values,
 * same order, whatever the interleaving of counts, scrapes and resets.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/prng.js';
import { tallyOf } from '../../src/telemetry/counter-tally.js';
import { createMetrics } from '../../src/telemetry/metrics.js';

const TYPES = ['accepted', 'closed', 'fill', 'denied', 'rejected', 'a,b', 'x="y"', ''];
const STRATEGIES = ['mm', 'grid', 'mm-2'];

describe('CounterTally', () => {
  for (const seed of [1, 2, 3, 42, 1234]) {
    it(`scrapes as a counter incremented per event (randomized, seed ${seed})`, async () => {
      const rand = mulberry32(seed);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
      const plainMetrics = createMetrics({ labels: { bot: 'b' } });
      const talliedMetrics = createMetrics({ labels: { bot: 'b' } });
      const spec = { name: 'events_total', help: 'events', labelNames: ['type', 'strategy'] as const };
      const plain = plainMetrics.counter(spec);
      const tallied = talliedMetrics.counter(spec);
      const tally = tallyOf(tallied, ['type', 'strategy']);
      const plain0 = plainMetrics.counter({ name: 'bare_total', help: 'no labels' });
      const tallied0 = talliedMetrics.counter({ name: 'bare_total', help: 'no labels' });
      const tally0 = tallyOf(tallied0, []);
      const plain1 = plainMetrics.counter({ name: 'one_total', help: 'one label', labelNames: ['reason'] });
      const tallied1 = talliedMetrics.counter({ name: 'one_total', help: 'one label', labelNames: ['reason'] });
      const tally1 = tallyOf(tallied1, ['reason']);
      for (let step = 0; step < 2000; step++) {
        const r = rand();
        if (r < 0.6) {
          const type = pick(TYPES);
          const strategy = pick(STRATEGIES);
          plain.inc({ type, strategy });
          tally.inc(type, strategy);
        } else if (r < 0.75) {
          plain0.inc();
          tally0.inc();
        } else if (r < 0.9) {
          const reason = pick(TYPES);
          plain1.inc({ reason });
          tally1.inc(reason);
        } else if (r < 0.97) {
          expect(await talliedMetrics.text()).toBe(await plainMetrics.text());
        } else if (r < 0.985) {
          plain.reset();
          tallied.reset();
        } else {
          plainMetrics.registry.resetMetrics();
          talliedMetrics.registry.resetMetrics();
        }
      }
      expect(await talliedMetrics.text()).toBe(await plainMetrics.text());
      expect(await tallied.get()).toEqual(await plain.get());
      expect(await talliedMetrics.registry.getMetricsAsJSON()).toEqual(await plainMetrics.registry.getMetricsAsJSON());
    });
  }

  it('is shared by every user of one counter, and keeps a collect the counter was declared with', async () => {
    const metrics = createMetrics();
    let collected = 0;
    const counter = metrics.counter({ name: 'shared_total', help: 'shared', labelNames: ['k'] });
    (counter as unknown as { collect: () => void }).collect = () => {
      collected++;
    };
    const a = tallyOf(counter, ['k']);
    const b = tallyOf(counter, ['k']);
    expect(b).toBe(a);
    a.inc('x');
    b.inc('x');
    expect(await metrics.text()).toContain('rexbot_shared_total{k="x"} 2');
    expect(collected).toBe(1);
  });
});
