import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dec } from '../../../../src/core/decimal.js';
import { type Harness, expectOne, startHarness } from '../harness.js';
import { SEQ } from '../test-routes.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.server.reset());

describe('markets (public, unsigned)', () => {
  it('list: GET /markets', async () => {
    const markets = await h.client.markets.list();
    expectOne(h.server, { method: 'GET', path: '/v3/markets', signed: false });
    expect(markets).toHaveLength(3);
    expect(markets[0]).toMatchObject({ symbol: 'BTC-EUR', baseCurrencySymbol: 'BTC', quoteCurrencySymbol: 'EUR', precision: 3, status: 'ONLINE' });
    expect(markets[0]!.minTradeSize.equals(dec('0.00044994'))).toBe(true);
    expect(markets[0]!.createdAt).toEqual(new Date('2020-03-30T06:12:04.860Z'));
    expect(h.server.last().headers['api-key']).toBeUndefined();
  });

  it('get: GET /markets/{marketSymbol}', async () => {
    const m = await h.client.markets.get('ETH-BTC');
    expectOne(h.server, { method: 'GET', path: '/v3/markets/ETH-BTC', signed: false });
    expect(m.symbol).toBe('ETH-BTC');
    expect(m.minTradeSize.toString()).toBe('0.0014018');
  });

  it('summaries: GET /markets/summaries with its Sequence', async () => {
    const { data, sequence } = await h.client.markets.summaries();
    expectOne(h.server, { method: 'GET', path: '/v3/markets/summaries', signed: false });
    expect(sequence).toBe(SEQ.summaries);
    expect(data[1]!.percentChange!.equals(dec('-2.35'))).toBe(true);
    expect(data[0]!.quoteVolume.equals(dec('1303094.16785036'))).toBe(true);
    expect(data[0]!.updatedAt.toISOString()).toBe('2021-06-14T01:53:34.507Z');
  });

  it('summariesSequence: HEAD /markets/summaries', async () => {
    expect(await h.client.markets.summariesSequence()).toBe(SEQ.summaries);
    expectOne(h.server, { method: 'HEAD', path: '/v3/markets/summaries', signed: false });
  });

  it('tickers: GET /markets/tickers with its Sequence', async () => {
    const { data, sequence } = await h.client.markets.tickers();
    expectOne(h.server, { method: 'GET', path: '/v3/markets/tickers', signed: false });
    expect(sequence).toBe(SEQ.tickers);
    expect(data[1]!.bidRate.equals(dec('0.00006534'))).toBe(true);
  });

  it('tickersSequence: HEAD /markets/tickers', async () => {
    expect(await h.client.markets.tickersSequence()).toBe(SEQ.tickers);
    expectOne(h.server, { method: 'HEAD', path: '/v3/markets/tickers', signed: false });
  });

  it('ticker: GET /markets/{marketSymbol}/ticker', async () => {
    const t = await h.client.markets.ticker('BTC-EUR');
    expectOne(h.server, { method: 'GET', path: '/v3/markets/BTC-EUR/ticker', signed: false });
    expect(t.lastTradeRate.equals(dec('32407.599'))).toBe(true);
    expect(t.askRate.toFixed(8)).toBe('32483.68700000');
  });

  it('summary: GET /markets/{marketSymbol}/summary', async () => {
    const s = await h.client.markets.summary('BTC-EUR');
    expectOne(h.server, { method: 'GET', path: '/v3/markets/BTC-EUR/summary', signed: false });
    expect(s.high.equals(dec('33021.044'))).toBe(true);
  });

  it('orderBook: GET /markets/{marketSymbol}/orderbook?depth= with the per-depth Sequence', async () => {
    const { data, sequence } = await h.client.markets.orderBook('BTC-EUR', { depth: 500 });
    expectOne(h.server, { method: 'GET', path: '/v3/markets/BTC-EUR/orderbook', query: { depth: '500' }, signed: false });
    expect(sequence).toBe(3209228);
    expect(data.bid[0]!.rate.equals(dec('32414.617'))).toBe(true);
    expect(data.ask[0]!.quantity.equals(dec('0.3082066'))).toBe(true);
  });

  it('orderBook without depth leaves the service default (25)', async () => {
    const { sequence } = await h.client.markets.orderBook('BTC-EUR');
    expectOne(h.server, { method: 'GET', path: '/v3/markets/BTC-EUR/orderbook', signed: false });
    expect(sequence).toBe(SEQ.orderBook['25']);
  });

  it('orderBookSequence: HEAD /markets/{marketSymbol}/orderbook?depth=', async () => {
    expect(await h.client.markets.orderBookSequence('BTC-EUR', 1)).toBe(SEQ.orderBook['1']);
    expectOne(h.server, { method: 'HEAD', path: '/v3/markets/BTC-EUR/orderbook', query: { depth: '1' }, signed: false });
  });

  it('trades: GET /markets/{marketSymbol}/trades with its Sequence', async () => {
    const { data, sequence } = await h.client.markets.trades('BTC-EUR');
    expectOne(h.server, { method: 'GET', path: '/v3/markets/BTC-EUR/trades', signed: false });
    expect(sequence).toBe(SEQ.trades);
    expect(data[0]).toMatchObject({ takerSide: 'BUY', id: '8f0d3b1e-6c2a-4f5d-9e7b-1a2c3d4e5f60' });
    expect(data[0]!.executedAt.toISOString()).toBe('2021-06-14T01:53:12.340Z');
  });

  it('tradesSequence: HEAD /markets/{marketSymbol}/trade (singular)', async () => {
    expect(await h.client.markets.tradesSequence('BTC-EUR')).toBe(SEQ.trades);
    expectOne(h.server, { method: 'HEAD', path: '/v3/markets/BTC-EUR/trade', signed: false });
  });

  it('candles: GET /markets/{marketSymbol}/candles/{candleInterval}/recent (TRADE segment left out)', async () => {
    const { data, sequence } = await h.client.markets.candles('BTC-EUR', 'MINUTE_1');
    expectOne(h.server, { method: 'GET', path: '/v3/markets/BTC-EUR/candles/MINUTE_1/recent', signed: false });
    expect(sequence).toBe(SEQ.candles);
    expect(data[0]!.quoteVolume.equals(dec('532.43284'))).toBe(true);
    expect(data[1]!.volume.isZero()).toBe(true);
  });

  it('candles with a type: GET /markets/{marketSymbol}/candles/MIDPOINT/{candleInterval}/recent', async () => {
    await h.client.markets.candles('BTC-EUR', 'HOUR_1', { type: 'MIDPOINT' });
    expectOne(h.server, { method: 'GET', path: '/v3/markets/BTC-EUR/candles/MIDPOINT/HOUR_1/recent', signed: false });
  });

  it('candlesSequence: HEAD /markets/{marketSymbol}/candles/{candleType}/{candleInterval}/recent', async () => {
    expect(await h.client.markets.candlesSequence('BTC-EUR', 'MINUTE_5', { type: 'TRADE' })).toBe(SEQ.candles);
    expectOne(h.server, { method: 'HEAD', path: '/v3/markets/BTC-EUR/candles/TRADE/MINUTE_5/recent', signed: false });
  });

  it('historicalCandles: GET .../historical/{year}/{month}/{day} with the parts the interval needs', async () => {
    const day = await h.client.markets.historicalCandles('BTC-EUR', 'MINUTE_5', { year: 2021, month: 6, day: 13 });
    expectOne(h.server, { method: 'GET', path: '/v3/markets/BTC-EUR/candles/MINUTE_5/historical/2021/6/13', signed: false });
    expect(day[0]!.open.equals(dec('32399'))).toBe(true);
    h.server.reset();
    await h.client.markets.historicalCandles('BTC-EUR', 'HOUR_1', { year: 2021, month: 5 }, { type: 'MIDPOINT' });
    expectOne(h.server, { method: 'GET', path: '/v3/markets/BTC-EUR/candles/MIDPOINT/HOUR_1/historical/2021/5', signed: false });
    h.server.reset();
    await h.client.markets.historicalCandles('BTC-EUR', 'DAY_1', { year: 2020 });
    expectOne(h.server, { method: 'GET', path: '/v3/markets/BTC-EUR/candles/DAY_1/historical/2020', signed: false });
  });

  it('percent-encodes path segments', async () => {
    await expect(h.client.markets.get('BTC/EUR ?')).rejects.toMatchObject({ status: 404, code: 'MARKET_DOES_NOT_EXIST' });
    expect(h.server.last().url).toBe('/v3/markets/BTC%2FEUR%20%3F');
  });

  it('reads go through the throttler as reads', () => {
    expect(new Set(h.throttler.priorities)).toEqual(new Set(['read']));
  });
});
