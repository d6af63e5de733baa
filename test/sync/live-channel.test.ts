import { describe, expect, it } from 'vitest';
import type { StreamMessage } from '../../src/bittrex/hub/messages.js';
import { liveChannelOf } from '../../src/sync/live-streams.js';

/** A message with only the fields channel routing reads (routing never looks at the rest). */
const msg = (name: string, data: Record<string, unknown> = {}): StreamMessage => ({ name, data }) as unknown as StreamMessage;

describe('liveChannelOf', () => {
  it('keys books, trades and TRADE candles by market, and account streams by name', () => {
    expect(liveChannelOf(msg('orderBook', { marketSymbol: 'BTC-USD', depth: 25 }))).toBe('orderbook_BTC-USD_25');
    expect(liveChannelOf(msg('trade', { marketSymbol: 'ETH-BTC' }))).toBe('trade_ETH-BTC');
    expect(liveChannelOf(msg('candle', { marketSymbol: 'BTC-USD', interval: 'MINUTE_1' }))).toBe('candle_BTC-USD_MINUTE_1');
    expect(liveChannelOf(msg('candle', { marketSymbol: 'BTC-USD', interval: 'HOUR_1', candleType: 'TRADE' }))).toBe('candle_BTC-USD_HOUR_1');
    for (const name of ['balance', 'order', 'execution']) expect(liveChannelOf(msg(name))).toBe(name);
    expect(liveChannelOf(msg('conditionalOrder'))).toBe('conditional_order');
  });

  it('takes none of the messages a LiveData keeps no stream of', () => {
    expect(liveChannelOf(msg('candle', { marketSymbol: 'BTC-USD', interval: 'MINUTE_1', candleType: 'MIDPOINT' }))).toBeUndefined();
    for (const name of ['ticker', 'tickers', 'marketSummary', 'marketSummaries', 'deposit', 'heartbeat', 'authenticationExpiring']) {
      expect(liveChannelOf(msg(name, { symbol: 'BTC-USD' })), name).toBeUndefined();
    }
  });
});
