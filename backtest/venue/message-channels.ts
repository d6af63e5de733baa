/**
 * The hub channel a stream message travels on: what the backtest gateway checks against the bot's subscriptions
 * before it queues a message. {@link channelOf} is the general rule; the venue publishes its hot messages (book
 * deltas, trades) with the channel its {@link MarketFeed} named once per view, which must be the same string
 * (test/backtest/venue-channels.test.ts compares every publication with channelOf).
 */
import { channelName, type StreamMessage } from '../../src/bittrex/hub/messages.js';
import type { OrderBookDepth } from '../../src/model/enums.js';

/** The channel `m` travels on. */
export function channelOf(m: StreamMessage): string {
  switch (m.name) {
    case 'orderBook':
      return channelName.orderBook(m.data.marketSymbol, m.data.depth as OrderBookDepth);
    case 'trade':
      return channelName.trade(m.data.marketSymbol);
    case 'candle':
      return channelName.candle(m.data.marketSymbol, m.data.interval);
    case 'order':
      return 'order';
    case 'balance':
      return 'balance';
    case 'execution':
      return 'execution';
    case 'conditionalOrder':
      return 'conditional_order';
    default:
      return m.name;
  }
}
