/**
 * A buffered histogram must scrape exactly as the same histogram observed once per event — buckets, sum, count —
 * whatever the interleaving of observations, scrapes, resets and buffer overflows.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/prng.js';
import { HistogramBuffer } from '../../src/telemetry/histogram-buffer.js';
import { createMetrics } from '../../src/telemetry/metrics.js';

describe('HistogramBuffer', () => {
  for (const seed of [1, 7, 21]) {
    it(`scrapes as a histogram observed per event (randomized, seed ${seed})`, async () => {
      const rand = mulberry32(seed);
      const spec = { name: 'ack_seconds', help: 'ack', labelNames: ['strategy'] as const, buckets: [0.001, 0.01, 0.1, 1] };
      const plainMetrics = createMetrics({ labels: { bot: 'b' } });
      const bufferedMetrics = createMetrics({ labels: { bot: 'b' } });
      const plain = plainMetrics.histogram(spec);
      const buffered = new HistogramBuffer(bufferedMetrics.histogram(spec), 'strategy');
      for (let step = 0; step < 6000; step++) {
        const r = rand();
        if (r < 0.97) {
          const strategy = ['mm', 'grid', 'x"y'][Math.floor(rand() * 3)]!;
          // Values whose float sum depends on the order they are added in.
          const value = rand() < 0.5 ? rand() * 2 : rand() / 3000;
          plain.observe({ strategy }, value);
          buffered.observe(strategy, value);
        } else if (r < 0.995) {
          expect(await bufferedMetrics.text()).toBe(await plainMetrics.text());
        } else {
          plainMetrics.registry.resetMetrics();
          bufferedMetrics.registry.resetMetrics();
        }
      }
      expect(await bufferedMetrics.text()).toBe(await plainMetrics.text());
      expect(await bufferedMetrics.registry.getMetricsAsJSON()).toEqual(await plainMetrics.registry.getMetricsAsJSON());
    });
  }

  it('refuses a value that is not a number at the call, as prom-client does', () => {
    const metrics = createMetrics();
    const buffered = new HistogramBuffer(metrics.histogram({ name: 'h_seconds', help: 'h', labelNames: ['strategy'] }), 'strategy');
    expect(() => buffered.observe('mm', Number.NaN)).toThrow(/not a valid number/);
  });
});
