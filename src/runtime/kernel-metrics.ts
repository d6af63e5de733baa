/**
 * The kernel's metrics and event log: orders by outcome, risk denials (counted by the risk engine itself), fills,
 * PnL and positions per strategy, order acknowledgement latency, stream resyncs by reason (a sequence gap is
 * reason `gap`), stream reconnects, failed journal writes. Logging here is what lets a user watch orders, fills and PnL move.
 */
import type { Logger } from 'pino';
import { Subscription } from 'rxjs';
import type { GatewayStreams } from '../gateway/exchange-gateway.js';
import { tallyOf } from '../telemetry/counter-tally.js';
import { HistogramBuffer } from '../telemetry/histogram-buffer.js';
import type { Metrics } from '../telemetry/metrics.js';
import type { OrderActivityLog } from '../telemetry/order-activity-log.js';
import type { Kernel } from './kernel.js';

/** Attach metrics and event logging to `kernel`; unsubscribe to detach. */
export function kernelMetrics(opts: { metrics: Metrics; kernel: Kernel; logger: Logger; streams?: GatewayStreams; activity?: OrderActivityLog }): Subscription {
  const { metrics, kernel, logger, activity } = opts;
  // Counted per event: tallies, handed to prom-client when scraped (see counter-tally.ts).
  const events = tallyOf(metrics.counter({ name: 'order_events_total', help: 'Order events by type (outcome) and strategy', labelNames: ['type', 'strategy'] as const }), ['type', 'strategy']);
  const fills = tallyOf(metrics.counter({ name: 'fills_total', help: 'Fills by strategy and market', labelNames: ['strategy', 'market'] as const }), ['strategy', 'market']);
  const ackLatency = new HistogramBuffer(metrics.histogram({
    name: 'order_ack_seconds',
    help: 'Time from a request being sent to the exchange acknowledging it',
    labelNames: ['strategy'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  }), 'strategy');
  const resyncs = metrics.counter({ name: 'stream_resyncs_total', help: 'Stream resynchronizations by stream and reason', labelNames: ['stream', 'reason'] as const });
  const reconnects = metrics.counter({ name: 'stream_reconnects_total', help: 'Hub connections made again after the first (every stream resyncs after one)' });
  // Gauges are computed when scraped, from the state as it is then.
  const names = () => kernel.strategies.map((s) => s.name);
  metrics.gauge({
    name: 'pnl',
    help: 'Realized and unrealized PnL in the quote currency',
    labelNames: ['strategy', 'kind'] as const,
    collect() {
      for (const name of names()) {
        this.set({ strategy: name, kind: 'realized' }, kernel.portfolio.realizedPnl(name).toNumber());
        this.set({ strategy: name, kind: 'unrealized' }, kernel.portfolio.unrealizedPnl(kernel.mark, name).toNumber());
      }
    },
  });
  metrics.gauge({
    name: 'position',
    help: 'Position (base quantity) by strategy and market',
    labelNames: ['strategy', 'market'] as const,
    collect() {
      for (const name of names()) for (const p of kernel.portfolio.positions(name)) this.set({ strategy: name, market: p.marketSymbol }, p.quantity.toNumber());
    },
  });
  metrics.gauge({
    name: 'journal_bytes',
    help: 'Size of the order journal file in bytes (falls back when it compacts)',
    collect() {
      this.set(kernel.journal.size.bytes);
    },
  });
  metrics.gauge({
    name: 'trading_state',
    help: '0 ACTIVE, 1 REDUCING, 2 HALTED',
    collect() {
      this.set(kernel.risk.state === 'ACTIVE' ? 0 : kernel.risk.state === 'REDUCING' ? 1 : 2);
    },
  });

  const journalErrors = metrics.counter({ name: 'journal_errors_total', help: 'Failed journal writes (each refused the orders it carried; trading halts)' });
  const sub = new Subscription();
  sub.add(kernel.journal.onHealth((e) => {
    if (e.kind === 'failed') journalErrors.inc();
  }));
  const sentAt = new Map<string, number>();
  sub.add(kernel.orders.events$.subscribe((e) => {
    events.inc(e.type, e.strategy);
    activity?.onEvent(e);
    switch (e.type) {
      case 'submitted':
        sentAt.set(e.clientOrderId, e.at);
        break;
      case 'accepted': {
        const t0 = sentAt.get(e.clientOrderId);
        if (t0 !== undefined) ackLatency.observe(e.strategy, Math.max(0, e.at - t0) / 1000);
        sentAt.delete(e.clientOrderId);
        // Per-acknowledgement detail is debug: the activity log writes placed orders as short grouped lines.
        if (logger.isLevelEnabled('debug')) logger.debug({ strategy: e.strategy, key: e.intentKey, market: e.order.marketSymbol, side: e.order.direction, type: e.order.type, qty: e.order.quantity?.toString(), limit: e.order.limit?.toString(), status: e.order.status }, 'order accepted');
        break;
      }
      case 'fill':
        fills.inc(e.strategy, e.marketSymbol);
        if (!activity) logger.info({ strategy: e.strategy, market: e.marketSymbol, side: e.direction, qty: e.quantity.toString(), rate: e.rate.toString(), fee: e.commission.toString(), taker: e.isTaker, position: kernel.portfolio.position(e.marketSymbol, e.strategy).toString() }, 'fill');
        break;
      case 'denied':
        // Asked first: a strategy over the submit rate is denied at every requote, and the fields would be built
        // for each denial even with the level off (a backtest's silent logger).
        if (e.reasons.some((r) => r.code === 'INVALID_INTENT')) {
          if (logger.isLevelEnabled('error')) logger.error({ strategy: e.strategy, key: e.intentKey, reasons: e.reasons.map((r) => r.message) }, 'invalid intent denied');
        } else if (logger.isLevelEnabled('warn')) logger.warn({ strategy: e.strategy, key: e.intentKey, reasons: e.reasons.map((r) => r.code) }, 'intent denied by risk');
        break;
      case 'rejected':
        sentAt.delete(e.clientOrderId ?? '');
        logger.warn({ strategy: e.strategy, key: e.intentKey, code: e.code, message: e.message }, 'order rejected');
        break;
      case 'ambiguous':
        logger.warn({ strategy: e.strategy, key: e.intentKey, clientOrderId: e.clientOrderId }, 'order outcome unknown; resolving');
        break;
      case 'closed':
        sentAt.delete(e.clientOrderId);
        break;
      default:
        break;
    }
  }));
  if (opts.streams) {
    // The epoch counts connections (0 before the first): a change away from a real connection is a reconnection.
    let epoch = 0;
    sub.add(opts.streams.connectionEpoch$.subscribe((e) => {
      if (epoch > 0 && e !== epoch) {
        reconnects.inc();
        logger.warn({ epoch: e }, 'hub reconnected');
      }
      epoch = e;
    }));
  }
  sub.add(kernel.live.status$.subscribe((s) => {
    if (s.status.state === 'resyncing') resyncs.inc({ stream: s.stream, reason: s.cause ?? s.status.reason });
  }));
  return sub;
}
