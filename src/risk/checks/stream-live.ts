/**
 * Stream liveness: an order is denied (STREAM_NOT_LIVE) while the market's book or the account stream is not
 * synchronized, because every other check would be reading stale state. Reducing orders are no exception:
 * a stale book can make even a closing order trade at a bad price.
 */
import { reason } from '../order-value.js';
import type { RiskCheck } from '../risk-context.js';

/**
 * Denies while the needed streams are not live (`requireLiveStreams`, default true).
 *
 * @example
 * // while the synchronizer resyncs BTC-USD:
 * engine.evaluate(order).reasons; // [{ code: 'STREAM_NOT_LIVE', ... }]
 */
export const streamLiveCheck: RiskCheck = {
  name: 'stream-live',
  check(order, ctx, config) {
    if (!config.requireLiveStreams || ctx.streamLive(order.marketSymbol)) return [];
    return [reason('STREAM_NOT_LIVE', `${order.marketSymbol}: market or account stream is not synchronized`)];
  },
};
