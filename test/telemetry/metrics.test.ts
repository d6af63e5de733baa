import { describe, expect, it } from 'vitest';
import { createThrottler } from '../../src/bittrex/rest/throttler.js';
import { VirtualClock } from '../../src/core/clock.js';
import { createMetrics, metricName, throttlerMetrics } from '../../src/telemetry/metrics.js';

/** The value of one series in exposition text, e.g. `rexbot_x{a="b"}`. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('createMetrics', () => {
  it('declares prefixed, typed metrics in its own registry', async () => {
    const metrics = createMetrics({ labels: { bot: 'mm-1' } });
    const placed = metrics.counter({ name: 'orders_placed_total', help: 'Orders placed', labelNames: ['market'] });
    const open = metrics.gauge({ name: 'rexbot_open_orders', help: 'Open orders' });
    const latency = metrics.histogram({ name: 'rest_latency_seconds', help: 'REST latency', buckets: [0.1, 1] });
    placed.inc({ market: 'BTC-USD' }, 2);
    open.set(3);
    latency.observe(0.05);

    const text = await metrics.text();
    expect(value(text, 'rexbot_orders_placed_total{market="BTC-USD",bot="mm-1"}')).toBe(2);
    expect(value(text, 'rexbot_open_orders{bot="mm-1"}')).toBe(3);
    expect(value(text, 'rexbot_rest_latency_seconds_bucket{le="0.1",bot="mm-1"}')).toBe(1);
    expect(metrics.contentType).toContain('text/plain');
    expect(metricName('x')).toBe('rexbot_x');
  });

  it('keeps registries apart, so two bots in one process can declare the same names', async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.counter({ name: 'ticks_total', help: 'Ticks' }).inc();
    b.counter({ name: 'ticks_total', help: 'Ticks' }).inc(5);
    expect(value(await a.text(), 'rexbot_ticks_total')).toBe(1);
    expect(value(await b.text(), 'rexbot_ticks_total')).toBe(5);
  });
});

describe('throttlerMetrics', () => {
  it('exposes queue depth, usage, pauses and waits read at scrape time', async () => {
    const clock = new VirtualClock(Date.parse('2021-06-14T00:00:30Z'));
    const throttler = createThrottler({ clock, callsPerMinute: 1 });
    const metrics = createMetrics();
    const stop = throttlerMetrics(throttler, metrics.registry, { name: 'main' });

    void throttler.schedule('read', async () => 1);
    const waiting = [throttler.schedule('cancel', async () => 2), throttler.schedule('read', async () => 3)];
    let text = await metrics.text();
    expect(value(text, 'rexbot_throttler_queue_depth{throttler="main",priority="cancel"}')).toBe(1);
    expect(value(text, 'rexbot_throttler_queue_depth{throttler="main",priority="read"}')).toBe(1);
    expect(value(text, 'rexbot_throttler_queue_depth{throttler="main",priority="place"}')).toBe(0);
    expect(value(text, 'rexbot_throttler_calls_used{throttler="main"}')).toBe(1);
    expect(value(text, 'rexbot_throttler_calls_per_minute{throttler="main"}')).toBe(1);

    throttler.throttled();
    text = await metrics.text();
    expect(value(text, 'rexbot_throttler_paused{throttler="main"}')).toBe(1);
    expect(value(text, 'rexbot_throttler_throttled_total{throttler="main"}')).toBe(1);

    await clock.advance(120_000); // pause ends at the next boundary, the second call one minute later
    await Promise.all(waiting);
    text = await metrics.text();
    expect(value(text, 'rexbot_throttler_paused{throttler="main"}')).toBe(0);
    expect(value(text, 'rexbot_throttler_calls_started_total{throttler="main"}')).toBe(3);
    expect(value(text, 'rexbot_throttler_calls_waited_total{throttler="main"}')).toBe(2);
    expect(value(text, 'rexbot_throttler_wait_seconds_total{throttler="main"}')).toBe(30 + 90);

    stop();
    expect(await metrics.text()).not.toContain('throttler="main"');
  });

  it('serves several throttlers from one registry and refuses a duplicate name', async () => {
    const metrics = createMetrics();
    throttlerMetrics(createThrottler({ callsPerMinute: 10 }), metrics.registry, { name: 'a' });
    throttlerMetrics(createThrottler({ callsPerMinute: 20 }), metrics.registry, { name: 'b' });
    expect(() => throttlerMetrics(createThrottler(), metrics.registry, { name: 'a' })).toThrow(/already exposed/);
    const text = await metrics.text();
    expect(value(text, 'rexbot_throttler_calls_per_minute{throttler="a"}')).toBe(10);
    expect(value(text, 'rexbot_throttler_calls_per_minute{throttler="b"}')).toBe(20);
  });
});
