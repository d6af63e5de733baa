import { describe, expect, it } from 'vitest';
import { WireFormatError } from '../../../src/core/errors.js';
import { HubSubscriptionError } from '../../../src/bittrex/hub/hub-errors.js';
import {
  channelOf,
  isPrivateChannel,
  normalizeChannels,
  readSubscriptionReply,
} from '../../../src/bittrex/hub/hub-subscriptions.js';
import { decodeStreamMessage } from '../../../src/bittrex/hub/messages.js';
import { balancePayload, orderBookPayload } from './hub-client-harness.js';

describe('hub subscriptions', () => {
  it('pairs each SocketResponse with its channel, typing refusals', () => {
    const results = readSubscriptionReply('Subscribe', ['heartbeat', 'order'], [
      { Success: true, ErrorCode: null },
      { Success: false, ErrorCode: 'UNAUTHORIZED_USER' },
    ]);
    expect(results[0]).toEqual({ channel: 'heartbeat', success: true });
    const refused = results[1]!;
    expect(refused.success).toBe(false);
    if (!refused.success) {
      expect(refused.error).toBeInstanceOf(HubSubscriptionError);
      expect(refused.error).toMatchObject({ channel: 'order', errorCode: 'UNAUTHORIZED_USER', operation: 'Subscribe' });
    }
  });

  it('refuses a reply that does not answer every channel', () => {
    expect(() => readSubscriptionReply('Subscribe', ['a', 'b'], [{ Success: true }])).toThrow(WireFormatError);
    expect(() => readSubscriptionReply('Unsubscribe', ['a'], { Success: true })).toThrow(WireFormatError);
    expect(() => readSubscriptionReply('Subscribe', ['a'], [{ ErrorCode: 'X' }])).toThrow(WireFormatError);
  });

  it('knows the private channels, sub-account variants included', () => {
    for (const c of ['balance', 'order', 'conditional_order', 'deposit', 'execution', 'subaccounts_order']) {
      expect(isPrivateChannel(c)).toBe(true);
    }
    for (const c of ['heartbeat', 'tickers', 'orderbook_BTC-USD_25', 'trade_BTC-USD', 'orders']) {
      expect(isPrivateChannel(c)).toBe(false);
    }
  });

  it('names the channel of a message, and of an account message only when unambiguous', () => {
    const book = decodeStreamMessage('orderBook', orderBookPayload(1, 'ETH-BTC', 500));
    expect(channelOf(book, new Set())).toBe('orderbook_ETH-BTC_500');
    expect(channelOf(decodeStreamMessage('heartbeat', undefined), new Set())).toBe('heartbeat');
    const balance = decodeStreamMessage('balance', balancePayload(1));
    expect(channelOf(balance, new Set(['balance']))).toBe('balance');
    expect(channelOf(balance, new Set(['subaccounts_balance']))).toBe('subaccounts_balance');
    expect(channelOf(balance, new Set(['balance', 'subaccounts_balance']))).toBeUndefined();
  });

  it('de-duplicates channel names and rejects empty ones', () => {
    expect(normalizeChannels(['a', 'b', 'a'])).toEqual(['a', 'b']);
    expect(() => normalizeChannels(['a', ' '])).toThrow(TypeError);
  });
});
