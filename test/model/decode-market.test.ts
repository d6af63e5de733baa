/**
 * Market data from the venue feeds the strategy and the risk engine's prices: a trade of zero or negative quantity,
 * a trade or book level at a zero or negative rate, a ticker at a negative rate is nonsense a broken or hostile
 * venue (or a corrupted recording) could send. They were accepted (found by an attack pass); each is now refused
 * naming the field. A zero ticker rate stays valid (the service's "no bid"/"no trade yet").
 */
import { describe, expect, it } from 'vitest';
import { decode } from '../../src/model/decode.js';
import { decodeOrderBook, decodeTicker, decodeTrade } from '../../src/model/market.js';

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
