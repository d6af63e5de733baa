/**
 * Market data from the venue feeds the strategy and the risk engine's prices: a trade of zero or negative quantity,
 * a trade or book level at a zero or negative rate, a ticker at a negative rate is nonsense a broken or hostile
 * venue (or a corrupted recording) could send. They were accepted (found by an attack pass); each is now refused
 * naming the field. A zero ticker rate stays valid (the service's "no bid"/"no trade yet"). Candles and market
 * summaries followed: negative prices or volumes, and a candle's low above its high, are refused; a candle of no
 * volume and a summary's negative percentChange are real and kept.
 */
import { describe, expect, it } from 'vitest';
import { arrayOf, decode } from '../../src/model/decode.js';
import { decodeCandle, decodeMarketSummary, decodeOrderBook, decodeTicker, decodeTrade } from '../../src/model/market.js';

const trade = (quantity: unknown, rate: unknown) => ({ id: 't1', executedAt: '2021-06-14T00:00:00Z', quantity, rate, takerSide: 'BUY' });
const ticker = (lastTradeRate: unknown, bidRate: unknown, askRate: unknown) => ({ symbol: 'BTC-USD', lastTradeRate, bidRate, askRate });
const W = 'GET /v3/markets/BTC-USD/trades';

describe('decodeTrade', () => {
  it('refuses a quantity or rate that is zero, negative or out of range, naming the field', () => {
    expect(() => decode(decodeTrade, trade('0', '1'), W)).toThrow('GET /v3/markets/BTC-USD/trades: quantity is not positive: "0"');
    expect(() => decode(decodeTrade, trade('-1.5', '1'), W)).toThrow('quantity is negative: "-1.5"');
    expect(() => decode(decodeTrade, trade('1', '0.00000000'), W)).toThrow('rate is not positive: "0.00000000"');
    expect(() => decode(decodeTrade, trade('1', '-30000'), W)).toThrow('rate is negative: "-30000"');
    expect(() => decode(decodeTrade, trade('1', '1e400'), W)).toThrow('rate is out of range: "1e400"');
    const t = decode(decodeTrade, trade('0.00000001', '30000.123'), W);
    expect([t.quantity.toString(), t.rate.toString()]).toEqual(['0.00000001', '30000.123']);
  });
});

describe('decodeTicker', () => {
  it('refuses a negative rate naming the field, and keeps zero (no bid, no trade yet)', () => {
    const w = 'GET /v3/markets/tickers';
    expect(() => decode(decodeTicker, ticker('1', '-0.5', '2'), w)).toThrow('GET /v3/markets/tickers: bidRate is negative: "-0.5"');
    expect(() => decode(decodeTicker, ticker('-1', '0.5', '2'), w)).toThrow('lastTradeRate is negative: "-1"');
    expect(() => decode(decodeTicker, ticker('1', '0.5', '-2'), w)).toThrow('askRate is negative: "-2"');
    const t = decode(decodeTicker, ticker('0', '0', '2'), w);
    expect([t.lastTradeRate.isZero(), t.bidRate.isZero(), t.askRate.toString()]).toEqual([true, true, '2']);
  });
});

describe('decodeOrderBook', () => {
  it('refuses a level with a quantity or rate that is zero or negative, naming the side and index', () => {
    const w = 'GET /v3/markets/BTC-USD/orderbook';
    const book = (bid: unknown[], ask: unknown[]) => ({ bid, ask });
    const level = (quantity: string, rate: string) => ({ quantity, rate });
    expect(() => decode(decodeOrderBook, book([level('1', '2'), level('-1', '1')], []), w)).toThrow(`${w}: bid[1].quantity is negative: "-1"`);
    // A snapshot lists the levels there are: one of no quantity is no level (only a delta uses 0 to remove one).
    expect(() => decode(decodeOrderBook, book([], [level('0', '3')]), w)).toThrow(`${w}: ask[0].quantity is not positive: "0"`);
    expect(() => decode(decodeOrderBook, book([], [level('1', '0')]), w)).toThrow(`${w}: ask[0].rate is not positive: "0"`);
    expect(() => decode(decodeOrderBook, book([level('1', '-2')], []), w)).toThrow(`${w}: bid[0].rate is negative: "-2"`);
    const b = decode(decodeOrderBook, book([level('0.5', '30000')], [level('1.25', '30001')]), w);
    expect([b.bid[0]!.quantity.toString(), b.ask[0]!.rate.toString()]).toEqual(['0.5', '30001']);
  });
});

describe('decodeCandle', () => {
  const w = 'GET /v3/markets/BTC-USD/candles/MINUTE_1/recent';
  const candle = (open: string, high: string, low: string, close: string, volume = '1', quoteVolume = '2') =>
    ({ startsAt: '2021-06-14T01:54:00Z', open, high, low, close, volume, quoteVolume });

  it('refuses a zero or negative price and a negative volume, naming the field', () => {
    expect(() => decode(arrayOf(decodeCandle), [candle('1', '2', '0.5', '1'), candle('-1', '2', '0.5', '1')], w)).toThrow(`${w}: [1].open is negative: "-1"`);
    expect(() => decode(decodeCandle, candle('1', '1', '0', '1'), w)).toThrow(`${w}: low is not positive: "0"`);
    expect(() => decode(decodeCandle, candle('-3', '-1', '-4', '-2'), w)).toThrow('open is negative: "-3"');
    expect(() => decode(decodeCandle, candle('1', '2', '0.5', '1', '-0.1'), w)).toThrow(`${w}: volume is negative: "-0.1"`);
    expect(() => decode(decodeCandle, candle('1', '2', '0.5', '1', '1', '-2'), w)).toThrow('quoteVolume is negative: "-2"');
    expect(() => decode(decodeCandle, candle('1', '1e400', '0.5', '1'), w)).toThrow('high is out of range: "1e400"');
  });

  it('refuses a low above the high, or an open or close outside [low, high], naming the field', () => {
    expect(() => decode(decodeCandle, candle('3', '2', '4', '3'), w)).toThrow(`${w}: low is above high: [low 4, high 2]`);
    expect(() => decode(decodeCandle, candle('5', '4', '2', '3'), w)).toThrow(`${w}: open 5 is outside [low 2, high 4]`);
    expect(() => decode(decodeCandle, candle('3', '4', '2', '1.5'), w)).toThrow(`${w}: close 1.5 is outside [low 2, high 4]`);
    // In a stream message the path is the candle's: `delta.low`.
    expect(() => decodeCandle(candle('3', '2', '4', '3'), 'delta', 'stream candle')).toThrow('stream candle: delta.low is above high');
  });

  it('keeps the placeholder of an interval without trades: the last close, volume 0 (recorded v3 traffic)', () => {
    const c = decode(decodeCandle, candle('0.00000008', '0.00000008', '0.00000008', '0.00000008', '0', '0'), w);
    expect([c.open.toFixed(), c.low.toFixed(), c.volume.isZero(), c.quoteVolume.isZero()]).toEqual(['0.00000008', '0.00000008', true, true]);
  });
});

describe('decodeMarketSummary', () => {
  const w = 'GET /v3/markets/summaries';
  const summary = (high: string, low: string, volume: string, quoteVolume: string, percentChange?: string) =>
    ({ symbol: 'BTC-USD', high, low, volume, quoteVolume, percentChange, updatedAt: '2021-06-14T01:54:00Z' });

  it('refuses a negative high, low or volume naming the field', () => {
    expect(() => decode(arrayOf(decodeMarketSummary), [summary('2', '1', '3', '4'), summary('-2', '1', '3', '4')], w)).toThrow(`${w}: [1].high is negative: "-2"`);
    expect(() => decode(decodeMarketSummary, summary('2', '-1', '3', '4'), w)).toThrow(`${w}: low is negative: "-1"`);
    expect(() => decode(decodeMarketSummary, summary('2', '1', '-3', '4'), w)).toThrow(`${w}: volume is negative: "-3"`);
    expect(() => decode(decodeMarketSummary, summary('2', '1', '3', '-4'), w)).toThrow(`${w}: quoteVolume is negative: "-4"`);
  });

  it('keeps a negative percentChange (the rate fell) and zeros (no trade in the window, as the simulator reports)', () => {
    const s = decode(decodeMarketSummary, summary('30000', '29000', '12.5', '370000', '-3.25'), w);
    expect(s.percentChange?.toFixed()).toBe('-3.25');
    const quiet = decode(decodeMarketSummary, summary('0', '0', '0', '0'), w);
    expect([quiet.high.isZero(), quiet.low.isZero(), quiet.volume.isZero(), quiet.percentChange]).toEqual([true, true, true, undefined]);
  });
});
