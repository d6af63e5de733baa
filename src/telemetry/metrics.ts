/**
 * prom-client helpers. Every {@link createMetrics} call owns a fresh `Registry` — never prom-client's global
 * default one — so several bots, simulators and tests in one process can declare the same metric names without
 * colliding. Names get the `rexbot_` prefix here, in one place.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Throttler } from '../bittrex/rest/throttler.js';
import { REQUEST_PRIORITIES } from '../bittrex/rest/throttler.js';

/** Prefix of every rexbot metric name. */
export const METRIC_PREFIX = 'rexbot_';

/** Declaration of one metric. `labelNames` types the labels its methods accept. */
export interface MetricSpec<L extends string> {
  /** Name without the prefix (a name already starting with `rexbot_` is kept as is). */
  name: string;
  help: string;
  labelNames?: readonly L[];
}

/** A registry plus typed declaration helpers. */
export interface Metrics {
  /** The registry all metrics declared here live in. */
  readonly registry: Registry;
  counter<L extends string = never>(spec: MetricSpec<L>): Counter<L>;
  /** A gauge; with `collect`, prom-client calls it at each scrape so the value is computed from live state. */
  gauge<L extends string = never>(spec: MetricSpec<L> & { collect?: (this: Gauge<L>) => void }): Gauge<L>;
  /** `buckets` in the metric's unit (seconds for durations, per Prometheus convention). */
  histogram<L extends string = never>(spec: MetricSpec<L> & { buckets?: number[] }): Histogram<L>;
  /** The exposition text for a `/metrics` endpoint. */
  text(): Promise<string>;
  /** The Content-Type to serve {@link Metrics.text} with. */
  readonly contentType: string;
}

/** Options of {@link createMetrics}. */
export interface CreateMetricsOptions {
  /** Also collect Node process metrics (CPU, memory, event-loop lag) as `rexbot_process_*`, `rexbot_nodejs_*`. */
  defaultMetrics?: boolean;
  /** Labels added to every series (e.g. `{ bot: 'mm-1' }`). */
  labels?: Record<string, string>;
}

/** `name` with the rexbot prefix. */
export function metricName(name: string): string {
  return name.startsWith(METRIC_PREFIX) ? name : `${METRIC_PREFIX}${name}`;
}

/**
 * Create a fresh registry with typed helpers.
 *
 * @example
 * const metrics = createMetrics({ labels: { bot: 'mm-1' } });
 * const orders = metrics.counter({ name: 'orders_placed_total', help: 'Orders placed', labelNames: ['market'] });
 * orders.inc({ market: 'BTC-USD' });
 * http.get('/metrics', async () => [metrics.contentType, await metrics.text()]);
 */
export function createMetrics(opts: CreateMetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (opts.labels) registry.setDefaultLabels(opts.labels);
  if (opts.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });

  const base = <L extends string>(spec: MetricSpec<L>) => ({
    name: metricName(spec.name),
    help: spec.help,
    labelNames: [...(spec.labelNames ?? [])] as L[],
    registers: [registry],
  });

  return {
    registry,
    counter: (spec) => new Counter(base(spec)),
    gauge: (spec) => new Gauge({ ...base(spec), ...(spec.collect ? { collect: spec.collect } : {}) }),
    histogram: (spec) => new Histogram({ ...base(spec), ...(spec.buckets ? { buckets: spec.buckets } : {}) }),
    text: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

type ThrottlerLabel = 'throttler';

/** The throttlers watched through one registry, so one set of series serves every API key. */
const watched = new WeakMap<Registry, Map<string, Throttler>>();

/**
 * Expose a throttler's state on `registry`: queue depth per priority, calls used and budget this minute,
 * in-flight calls, whether it is paused after a 429, the 429 streak, and cumulative calls started, calls that
 * had to wait, total waiting time and 429s. Values are read from {@link Throttler.stats} at scrape time.
 * Several throttlers (one per API key) can share a registry under distinct `name`s.
 *
 * Returns a function that stops exposing this throttler.
 *
 * @example
 * const metrics = createMetrics();
 * const stop = throttlerMetrics(throttler, metrics.registry, { name: 'main-key' });
 * // rexbot_throttler_queue_depth{throttler="main-key",priority="read"} 3
 */
export function throttlerMetrics(throttler: Throttler, registry: Registry, opts: { name?: string } = {}): () => void {
  const name = opts.name ?? 'default';
  let throttlers = watched.get(registry);
  // Declared once per registry; again if someone cleared the registry since.
  if (!throttlers || !registry.getSingleMetric(metricName('throttler_queue_depth'))) {
    throttlers ??= new Map();
    watched.set(registry, throttlers);
    declareThrottlerMetrics(registry, throttlers);
  }
  if (throttlers.has(name)) throw new Error(`throttlerMetrics: a throttler named "${name}" is already exposed on this registry`);
  throttlers.set(name, throttler);
  const own = throttlers;
  return () => {
    if (own.get(name) === throttler) own.delete(name);
  };
}

function declareThrottlerMetrics(registry: Registry, throttlers: Map<string, Throttler>): void {
  const registers = [registry];
  const labelNames: ThrottlerLabel[] = ['throttler'];

  /** A gauge set from each throttler's stats at scrape time. */
  const gauge = (name: string, help: string, read: (s: ReturnType<Throttler['stats']>) => number | undefined) =>
    new Gauge<ThrottlerLabel>({
      name: metricName(name),
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const [throttler, t] of throttlers) {
          const v = read(t.stats());
          if (v !== undefined) this.set({ throttler }, v);
        }
      },
    });

  /** A counter mirroring a cumulative total kept by the throttler (reset + inc, as prom-client has no set). */
  const counter = (name: string, help: string, read: (s: ReturnType<Throttler['stats']>) => number) =>
    new Counter<ThrottlerLabel>({
      name: metricName(name),
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const [throttler, t] of throttlers) this.inc({ throttler }, read(t.stats()));
      },
    });

  new Gauge<ThrottlerLabel | 'priority'>({
    name: metricName('throttler_queue_depth'),
    help: 'Requests waiting for the rate-limit budget, per priority',
    labelNames: ['throttler', 'priority'],
    registers,
    collect() {
      this.reset();
      for (const [throttler, t] of throttlers) {
        const { queued } = t.stats();
        for (const priority of REQUEST_PRIORITIES) this.set({ throttler, priority }, queued[priority]);
      }
    },
  });
  gauge('throttler_calls_used', 'Calls started in the current calendar minute', (s) => s.usedThisMinute);
  gauge('throttler_calls_per_minute', 'Configured call budget per minute', (s) => s.callsPerMinute);
  gauge('throttler_in_flight', 'Requests started and not yet answered', (s) => s.inFlight);
  gauge('throttler_paused', '1 while every caller is paused after a 429, else 0', (s) => (s.pausedUntil === undefined ? 0 : 1));
  gauge('throttler_consecutive_throttles', '429s since the last success (drives the backoff)', (s) => s.consecutiveThrottles);
  counter('throttler_calls_started_total', 'Requests started', (s) => s.totals.started);
  counter('throttler_calls_waited_total', 'Requests that had to wait for the budget or a 429 pause', (s) => s.totals.waited);
  counter('throttler_wait_seconds_total', 'Total time requests spent waiting in the queue', (s) => s.totals.waitMs / 1000);
  counter('throttler_throttled_total', '429 / THROTTLED answers reported', (s) => s.totals.throttled);

  // Only throttlers sharing their budget through Redis (rateLimit.shared) have these series.
  gauge('throttler_shared_fallback', '1 while this process spends its local fallback share because Redis is unreachable, else 0', (s) =>
    s.shared === undefined ? undefined : s.shared.mode === 'fallback' ? 1 : 0,
  );
  new Counter<ThrottlerLabel>({
    name: metricName('throttler_shared_fallbacks_total'),
    help: 'Times this process left the shared budget (Redis unreachable) for its local fallback share',
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const [throttler, t] of throttlers) {
        const shared = t.stats().shared;
        if (shared) this.inc({ throttler }, shared.fallbacks);
      }
    },
  });
  new Counter<ThrottlerLabel | 'priority'>({
    name: metricName('throttler_shared_calls_started_total'),
    help: 'Requests started under the shared budget, per priority',
    labelNames: ['throttler', 'priority'],
    registers,
    collect() {
      this.reset();
      for (const [throttler, t] of throttlers) {
        const shared = t.stats().shared;
        if (shared) for (const priority of REQUEST_PRIORITIES) this.inc({ throttler, priority }, shared.startedByPriority[priority]);
      }
    },
  });
}
