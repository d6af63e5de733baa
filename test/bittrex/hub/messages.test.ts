import { describe, expect, it } from 'vitest';
import {
  channelName,
  channelOf,
  decodeStreamMessage,
  parseChannelName,
  sequenceOf,
  streamMessageName,
  type Channel,
} from '../../../src/bittrex/hub/messages.js';
import { WireFormatError } from '../../../src/core/errors.js';
import { dec } from '../../../src/core/decimal.js';

const T = '2021-06-14T01:54:00Z';
const order = {
  id: 'o1',
  marketSymbol: 'BTC-USD',
  direction: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GOOD_TIL_CANCELLED',
  quantity: '1.00000000',
  limit: '30000.00000000',
  clientOrderId: 'c1',
  fillQuantity: '0.00000000',
  commission: '0.00000000',
  proceeds: '0.00000000',
  status: 'OPEN',
  createdAt: T,
};

describe('stream message decoders', () => {
  it('decodes every message of the seed table', () => {
    const ticker = { symbol: 'BTC-USD', lastTradeRate: '1', bidRate: '0.9', askRate: '1.1' };
    const summary = { symbol: 'BTC-USD', high: '2', low: '1', volume: '10', quoteVolume: '15', percentChange: '-1.5', updatedAt: T };
    const candle = { startsAt: T, open: '1', high: '2', low: '0.5', close: '1.5', volume: '3', quoteVolume: '4' };
    const cases: [string, unknown][] = [
      ['orderBook', { marketSymbol: 'BTC-USD', depth: 25, sequence: 5, bidDeltas: [{ quantity: '0', rate: '1' }], askDeltas: [] }],
      ['ticker', ticker],
      ['tickers', { sequence: 1, deltas: [ticker] }],
      ['trade', { sequence: 2, marketSymbol: 'BTC-USD', deltas: [{ id: 't1', executedAt: T, quantity: '1', rate: '2', takerSide: 'SELL' }] }],
      ['candle', { sequence: 3, marketSymbol: 'BTC-USD', interval: 'MINUTE_1', delta: candle, candleType: 'TRADE' }],
      ['marketSummary', summary],
      ['marketSummaries', { sequence: 4, deltas: [summary] }],
      ['balance', { accountId: 'a1', sequence: 6, delta: { currencySymbol: 'BTC', total: '1', available: '0.5', updatedAt: T } }],
      ['order', { accountId: 'a1', sequence: 7, delta: order }],
      ['conditionalOrder', { accountId: 'a1', sequence: 8, delta: { id: 'k1', marketSymbol: 'BTC-USD', operand: 'LTE', triggerPrice: '1', status: 'OPEN', createdAt: T } }],
      ['deposit', { accountId: 'a1', sequence: 9, delta: { id: 'd1', currencySymbol: 'BTC', quantity: '1', cryptoAddress: 'x', confirmations: 1, updatedAt: T, status: 'PENDING' } }],
      ['execution', { accountId: 'a1', sequence: 10, deltas: [{ id: 'e1', marketSymbol: 'BTC-USD', executedAt: T, quantity: '1', rate: '2', orderId: 'o1', commission: '0.01', isTaker: true }] }],
      ['heartbeat', undefined],
      ['authenticationExpiring', { anything: 1 }],
    ];
    for (const [name, payload] of cases) {
      const m = decodeStreamMessage(name, payload);
      expect(m.name).toBe(name);
    }
    const ob = decodeStreamMessage('orderbook', cases[0]![1]); // any case
    expect(ob.name).toBe('orderBook');
    if (ob.name === 'orderBook') expect(ob.data.bidDeltas[0]!.rate.eq(dec('1'))).toBe(true);
    const ex = decodeStreamMessage('execution', cases[11]![1]);
    if (ex.name === 'execution') expect(ex.data.deltas[0]!.commission.toString()).toBe('0.01');
    expect(sequenceOf(decodeStreamMessage('order', cases[8]![1]))).toBe(7);
    expect(sequenceOf(decodeStreamMessage('ticker', ticker))).toBeUndefined();
    expect(streamMessageName('MARKETSUMMARIES')).toBe('marketSummaries');
  });

  it('names the stream and field of a malformed message', () => {
    const bad: [string, unknown, RegExp][] = [
      ['orderBook', { marketSymbol: 'X-Y', depth: 7, sequence: 1, bidDeltas: [], askDeltas: [] }, /stream orderBook: depth is not 1, 25 or 500/],
      ['orderBook', { marketSymbol: 'X-Y', depth: 25, sequence: 1, bidDeltas: [{ quantity: '-1', rate: '1' }], askDeltas: [] }, /stream orderBook: bidDeltas\[0\]\.quantity is negative/],
      ['orderBook', { marketSymbol: 'X-Y', depth: 25, sequence: 1, bidDeltas: [], askDeltas: [{ quantity: '1', rate: '0' }] }, /askDeltas\[0\]\.rate is not positive/],
      ['orderBook', { marketSymbol: 'X-Y', depth: 25, sequence: 'x', bidDeltas: [], askDeltas: [] }, /stream orderBook: sequence is not an integer/],
      ['orderBook', { marketSymbol: 'X-Y', depth: 25, sequence: 1, bidDeltas: [{ quantity: 'NaN', rate: '1' }], askDeltas: [] }, /bidDeltas\[0\]\.quantity is not a decimal/],
      ['trade', { sequence: 2, marketSymbol: 'X-Y', deltas: [{ id: 't1', executedAt: T, quantity: '0', rate: '2', takerSide: 'SELL' }] }, /stream trade: deltas\[0\]\.quantity is not positive: "0"/],
      ['trade', { sequence: 2, marketSymbol: 'X-Y', deltas: [{ id: 't1', executedAt: T, quantity: '1', rate: '-2', takerSide: 'SELL' }] }, /stream trade: deltas\[0\]\.rate is negative: "-2"/],
      ['ticker', { symbol: 'X-Y', lastTradeRate: '1', bidRate: '-0.9', askRate: '1.1' }, /stream ticker: bidRate is negative/],
      ['balance', { sequence: 1, delta: {} }, /stream balance: accountId is missing/],
      ['order', { accountId: 'a', sequence: 1, delta: { ...order, status: 'WEIRD' } }, /stream order: delta\.status is not one of OPEN\|CLOSED/],
      ['candle', { sequence: 1, marketSymbol: 'X-Y', interval: 'MINUTE_2', delta: {} }, /stream candle: interval is not one of/],
      ['tickers', null, /stream tickers: <root> is not an object/],
      ['nope', {}, /stream nope: <root> is not a known stream message/],
    ];
    for (const [name, payload, re] of bad) {
      expect(() => decodeStreamMessage(name, payload), name).toThrow(WireFormatError);
      expect(() => decodeStreamMessage(name, payload), name).toThrow(re);
    }
  });
});

describe('orderBook decoding', () => {
  const level = (quantity: unknown, rate: unknown) => ({ quantity, rate });
  const message = (over: Record<string, unknown>) => ({ marketSymbol: 'BTC-USD', depth: 25, sequence: 9, bidDeltas: [], askDeltas: [], ...over });
  const error = (payload: unknown): string => {
    try {
      decodeStreamMessage('orderBook', payload);
    } catch (e) {
      expect(e).toBeInstanceOf(WireFormatError);
      return (e as Error).message;
    }
    return 'no error';
  };

  it('decodes the wire form to exact levels, and the forms the service could also send', () => {
    const m = decodeStreamMessage('orderBook', message({ bidDeltas: [level('0.00000000', '30001.12300000')], askDeltas: [level('1.5', 30002.5)] }));
    if (m.name !== 'orderBook') throw new Error(m.name);
    expect(m.data.bidDeltas[0]!.quantity.isZero()).toBe(true);
    expect(m.data.bidDeltas[0]!.rate.toString()).toBe('30001.123');
    expect(m.data.askDeltas[0]!.rate.toString()).toBe('30002.5');
    // Quoted integers and exponent decimals are valid, if unusual.
    const quoted = decodeStreamMessage('orderBook', message({ depth: '500', sequence: '12', bidDeltas: [level('1e-8', '.5')] }));
    if (quoted.name !== 'orderBook') throw new Error(quoted.name);
    expect(quoted.data).toMatchObject({ depth: 500, sequence: 12 });
    expect(quoted.data.bidDeltas[0]!.quantity.eq(dec('0.00000001'))).toBe(true);
    expect(quoted.data.bidDeltas[0]!.rate.eq(dec('0.5'))).toBe(true);
  });

  it('names the field of every malformed level or envelope', () => {
    const cases: [Record<string, unknown>, string][] = [
      [message({ bidDeltas: [level('1', '2'), level('-0.00000000', '3')] }), 'stream orderBook: bidDeltas[1].quantity is negative: 0'],
      [message({ askDeltas: [level('1', '-2')] }), 'stream orderBook: askDeltas[0].rate is not positive: -2'],
      [message({ askDeltas: [level('1', '0.00')] }), 'stream orderBook: askDeltas[0].rate is not positive: 0'],
      [message({ askDeltas: [level('1', '2'), level('1', 'x')] }), 'stream orderBook: askDeltas[1].rate is not a decimal: "x"'],
      [message({ askDeltas: [{ rate: '2' }] }), 'stream orderBook: askDeltas[0].quantity is missing'],
      [message({ askDeltas: [['1', '2']] }), 'stream orderBook: askDeltas[0] is not an object: ["1","2"]'],
      [message({ bidDeltas: null }), 'stream orderBook: bidDeltas is missing'],
      [message({ askDeltas: {} }), 'stream orderBook: askDeltas is not an array: {}'],
      [message({ sequence: -1 }), 'stream orderBook: sequence is negative: -1'],
      [message({ sequence: 1.5 }), 'stream orderBook: sequence is not an integer: 1.5'],
      [message({ marketSymbol: 7 }), 'stream orderBook: marketSymbol is not a string: 7'],
    ];
    for (const [payload, text] of cases) expect(error(payload), text).toBe(text);
    expect(error([])).toBe('stream orderBook: <root> is not an object: []');
  });

  it('refuses a level out of range (1e400, 400 digits) naming its field, and takes 31 digits before the point', () => {
    const huge = '9'.repeat(400);
    const cases: [Record<string, unknown>, string][] = [
      [message({ askDeltas: [level('1', '1e400')] }), 'stream orderBook: askDeltas[0].rate is out of range: 1e+400'],
      [message({ askDeltas: [level('1', huge)] }), 'stream orderBook: askDeltas[0].rate is out of range: '],
      [message({ bidDeltas: [level('1', '2'), level('1e400', '1')] }), 'stream orderBook: bidDeltas[1].quantity is out of range: 1e+400'],
      [message({ bidDeltas: [level(`${huge}.5`, '1')] }), 'stream orderBook: bidDeltas[0].quantity is out of range: '],
      // Not a fast-path form (a quoted sequence): the general decoder bounds the same.
      [message({ sequence: '9', askDeltas: [level('1', huge)] }), 'stream orderBook: askDeltas[0].rate is out of range: '],
      [message({ sequence: '9', askDeltas: [level('1e31', '1')] }), 'stream orderBook: askDeltas[0].quantity is out of range: 10000000000000000000000000000000'],
    ];
    for (const [payload, text] of cases) {
      const got = error(payload);
      expect(got.startsWith(text), got).toBe(true);
      expect(got.length, got).toBeLessThan(120); // a 400-digit value is cut short
    }
    const edge = `${'9'.repeat(31)}.5`;
    for (const extra of [{}, { sequence: '9' }]) {
      const m = decodeStreamMessage('orderBook', message({ ...extra, bidDeltas: [level(edge, edge)], askDeltas: [level('0', '9e30')] }));
      if (m.name !== 'orderBook') throw new Error(m.name);
      expect(m.data.bidDeltas[0]!.rate.toFixed()).toBe(edge);
      expect(m.data.bidDeltas[0]!.quantity.toFixed()).toBe(edge);
      expect(m.data.askDeltas[0]!.rate.eq(dec('9e30'))).toBe(true);
    }
  });
});

describe('channel names', () => {
  it('formats and parses every stream', () => {
    const cases: [string, Channel][] = [
      ['orderbook_BTC-USD_25', { stream: 'orderbook', marketSymbol: 'BTC-USD', depth: 25 }],
      ['orderbook_REPV2-ETH_500', { stream: 'orderbook', marketSymbol: 'REPV2-ETH', depth: 500 }],
      ['trade_BTC-USD', { stream: 'trade', marketSymbol: 'BTC-USD' }],
      ['candle_BTC-USD_MINUTE_1', { stream: 'candle', marketSymbol: 'BTC-USD', interval: 'MINUTE_1' }],
      ['candle_BTC-USD_DAY_1', { stream: 'candle', marketSymbol: 'BTC-USD', interval: 'DAY_1' }],
      ['ticker_BTC-USD', { stream: 'ticker', marketSymbol: 'BTC-USD' }],
      ['market_summary_BTC-USD', { stream: 'market_summary', marketSymbol: 'BTC-USD' }],
      ['tickers', { stream: 'tickers' }],
      ['market_summaries', { stream: 'market_summaries' }],
      ['heartbeat', { stream: 'heartbeat' }],
      ['balance', { stream: 'balance', subaccounts: false }],
      ['subaccounts_conditional_order', { stream: 'conditional_order', subaccounts: true }],
      ['execution', { stream: 'execution', subaccounts: false }],
    ];
    for (const [name, channel] of cases) {
      expect(parseChannelName(name), name).toEqual(channel);
      expect(channelName.of(channel)).toBe(name);
    }
    expect(channelName.orderBook('BTC-USD', 25)).toBe('orderbook_BTC-USD_25');
    expect(channelName.trade('BTC-USD')).toBe('trade_BTC-USD');
    expect(channelName.candle('BTC-USD', 'MINUTE_1')).toBe('candle_BTC-USD_MINUTE_1');
    expect(channelName.account('deposit', true)).toBe('subaccounts_deposit');
    for (const bad of ['orderbook_BTC-USD_7', 'orderbook_BTC-USD', 'candle_BTC-USD_MINUTE_2', 'trade_', 'subaccounts_tickers', 'Tickers', 'ticker_BTCUSD']) {
      expect(parseChannelName(bad), bad).toBeUndefined();
    }
  });

  it('tells which channel a message came from', () => {
    const m = decodeStreamMessage('orderBook', { marketSymbol: 'BTC-EUR', depth: 500, sequence: 1, bidDeltas: [], askDeltas: [] });
    expect(channelOf(m)).toBe('orderbook_BTC-EUR_500');
    expect(channelOf(decodeStreamMessage('heartbeat', undefined))).toBeUndefined();
  });
});
