import { describe, expect, it } from 'vitest';
import { parseChannel } from '../../../src/server/hub/channels.js';

describe('parseChannel', () => {
  it('knows every stream of the seed table', () => {
    const publicNames = [
      'heartbeat',
      'tickers',
      'market_summaries',
      'ticker_BTC-USD',
      'market_summary_BTC-USD',
      'trade_REPV2-ETH',
      'orderbook_BTC-USD_1',
      'orderbook_BTC-USD_25',
      'orderbook_BTC-USD_500',
      'candle_1INCH-USD_MINUTE_1',
      'candle_BTC-USD_MINUTE_5',
      'candle_BTC-USD_HOUR_1',
      'candle_BTC-USD_DAY_1',
    ];
    for (const n of publicNames) expect(parseChannel(n)).toMatchObject({ name: n, scope: 'public' });
    for (const n of ['balance', 'order', 'execution', 'conditional_order', 'deposit']) {
      expect(parseChannel(n)).toEqual({ name: n, scope: 'private' });
      expect(parseChannel(`subaccounts_${n}`)).toEqual({ name: `subaccounts_${n}`, scope: 'subaccount' });
    }
  });

  it('canonicalises market symbols to upper case', () => {
    expect(parseChannel('orderbook_btc-usd_25')).toEqual({
      name: 'orderbook_BTC-USD_25',
      scope: 'public',
      marketSymbol: 'BTC-USD',
    });
  });

  it('rejects names outside the table', () => {
    for (const n of [
      '',
      'orderbook_BTC-USD_10',
      'orderbook_BTC-USD',
      'candle_BTC-USD_MINUTE_15',
      'ticker_BTCUSD',
      'Heartbeat',
      'subaccounts_heartbeat',
      'trade_BTC-USD ',
    ]) {
      expect(parseChannel(n)).toBeUndefined();
    }
  });
});
