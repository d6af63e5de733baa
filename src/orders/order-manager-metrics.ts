/**
 * The order manager's one metric: `order_manager_total{what, kind}` (intents by kind, events by type, requests by
 * operation and outcome), counted through a tally so the hot paths do not pay prom-client's per-call cost.
 */
import type { Counter } from 'prom-client';
import { tallyOf } from '../telemetry/counter-tally.js';
import { metricName, type Metrics } from '../telemetry/metrics.js';

/** Count one in `order_manager_total{what, kind}`; counts nothing without `metrics`. */
export type OrderManagerCount = (what: string, kind: string) => void;

/**
 * The counting function of an order manager. One series per registry: a manager restarted in the same process
 * reuses the series its predecessor registered (prom-client refuses twins).
 */
export function orderManagerCounter(metrics: Metrics | undefined): OrderManagerCount {
  if (!metrics) return () => {};
  const counter =
    (metrics.registry.getSingleMetric(metricName('order_manager_total')) as Counter<'what' | 'kind'> | undefined) ??
    metrics.counter({
      name: 'order_manager_total',
      help: 'Order manager activity: intents by kind, events by type, requests by operation and outcome',
      labelNames: ['what', 'kind'],
    });
  const tally = tallyOf(counter, ['what', 'kind']);
  return (what, kind) => tally.inc(what, kind);
}
