import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/telemetry/metrics.js';
import { startOpsServer, type OpsServer } from '../../src/telemetry/ops-server.js';

describe('ops server', () => {
  let ops: OpsServer | undefined;
  afterEach(async () => {
    await ops?.close();
    ops = undefined;
  });

  it('serves Prometheus metrics and a health status code', async () => {
    const metrics = createMetrics();
    metrics.counter({ name: 'orders_total', help: 'orders', labelNames: ['outcome'] as const }).inc({ outcome: 'accepted' }, 3);
    let healthy = true;
    ops = await startOpsServer({ metrics, health: () => ({ healthy, state: healthy ? 'ACTIVE' : 'HALTED' }) });
    const m = await request(`${ops.url}/metrics`);
    expect(m.statusCode).toBe(200);
    expect(await m.body.text()).toContain('rexbot_orders_total{outcome="accepted"} 3');
    const h = await request(`${ops.url}/health`);
    expect(h.statusCode).toBe(200);
    expect(await h.body.json()).toEqual({ healthy: true, state: 'ACTIVE' });
    healthy = false;
    const h2 = await request(`${ops.url}/health`);
    expect(h2.statusCode).toBe(503);
    await h2.body.text();
    const nf = await request(`${ops.url}/nope`);
    expect(nf.statusCode).toBe(404);
    await nf.body.text();
  });
});
