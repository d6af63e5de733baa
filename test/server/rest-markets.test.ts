/**
 * Public market data through the real server with the project's REST client: ping, currencies, markets, tickers,
 * summaries, order books at every depth (Sequence equal to HEAD), recent trades, and candles recent and historical
 * with and without the candleType segment and with and without zero padding in the date.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestClient } from '../../src/bittrex/rest/client.js';
import { dec } from '../../src/core/decimal.js';
import type { Candle } from '../../src/model/market.js';
import { apiError, type SimFixture, startFixture, T0, type TestAccount } from './sim-fixture.js';

describe('REST market data end to end', () => {
  let fx: SimFixture;
  let pub: RestClient;
  let maker: TestAccount;
  let taker: TestAccount;

  beforeAll(async () => {
    fx = await startFixture();
    pub = fx.client();
    maker = await fx.account({ USD: '10000000', BTC: '100' });
    taker = await fx.account({ USD: '10000000', BTC: '100' });
    // 30 levels a side, so depth 25 truncates and depth 500 shows everything.
    for (let i = 0; i < 30; i++) {
      await maker.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec(29_990 - i * 10) });
      await maker.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec(30_010 + i * 10) });
    }
  });
  afterAll(async () => {
    await fx.close();
  });

  it('answers ping with the server time rounded down to the second', async () => {
    await fx.advance(1234);
    expect((await pub.ping.get()).serverTime).toBe(T0 + 1000);
  });

  it('lists currencies and markets and reads one of each', async () => {
    const currencies = await pub.currencies.list();
    expect(currencies.map((c) => c.symbol)).toEqual(expect.arrayContaining(['BTC', 'ETH', 'USD', 'USDT', 'LTC', 'XRP', 'ADA']));
    const btc = await pub.currencies.get('BTC');
    expect(btc).toMatchObject({ symbol: 'BTC', name: 'Bitcoin', status: 'ONLINE' });
    expect(btc.txFee.toString()).toBe('0.0003');

    const markets = await pub.markets.list();
    expect(markets.map((m) => m.symbol)).toContain('ETH-BTC');
    const m = await pub.markets.get('BTC-USD');
    expect(m).toMatchObject({ symbol: 'BTC-USD', baseCurrencySymbol: 'BTC', quoteCurrencySymbol: 'USD', precision: 3, status: 'ONLINE' });
    expect(m.minTradeSize.toString()).toBe('0.0000545');

    await apiError(pub.currencies.get('NOPE'), 404, 'CURRENCY_DOES_NOT_EXIST');
    await apiError(pub.markets.get('NOPE-USD'), 404, 'MARKET_DOES_NOT_EXIST');
    await apiError(pub.markets.get('USD-BTC'), 400, 'MARKET_NAME_REVERSED');
  });

  it('serves the order book at depth 1, 25 and 500 with the Sequence of HEAD at that depth', async () => {
    const sizes = { 1: 1, 25: 25, 500: 30 } as const;
    for (const depth of [1, 25, 500] as const) {
      const book = await pub.markets.orderBook('BTC-USD', { depth });
      expect(book.data.bid).toHaveLength(sizes[depth]);
      expect(book.data.ask).toHaveLength(sizes[depth]);
      expect(book.data.bid[0]!.rate.toString()).toBe('29990');
      expect(book.data.ask[0]!.rate.toString()).toBe('30010');
      expect(book.data.bid.at(-1)!.rate.toString()).toBe(String(29_990 - (sizes[depth] - 1) * 10));
      expect(book.data.ask.every((e) => e.quantity.eq('0.1'))).toBe(true);
      expect(book.sequence).toBeGreaterThan(0);
      expect(await pub.markets.orderBookSequence('BTC-USD', depth)).toBe(book.sequence);
    }
    // Depth 25 is the default on both.
    const dflt = await pub.markets.orderBook('BTC-USD');
    expect(dflt.data.bid).toHaveLength(25);
    expect(await pub.markets.orderBookSequence('BTC-USD')).toBe(dflt.sequence);
    // A level beyond depth 25 changing moves depth 500's sequence only.
    const before = { d25: await pub.markets.orderBookSequence('BTC-USD', 25), d500: await pub.markets.orderBookSequence('BTC-USD', 500) };
    await maker.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('29000') });
    expect(await pub.markets.orderBookSequence('BTC-USD', 25)).toBe(before.d25);
    expect(await pub.markets.orderBookSequence('BTC-USD', 500)).toBe(before.d500 + 1);

    const bad = await fx.raw('GET', '/markets/BTC-USD/orderbook?depth=7');
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('BAD_REQUEST');
  });

  it('serves tickers and summaries with their Sequence, before and after a trade', async () => {
    const t0 = await pub.markets.ticker('BTC-USD');
    expect(t0.bidRate.toString()).toBe('29990');
    expect(t0.askRate.toString()).toBe('30010');
    expect(t0.lastTradeRate.isZero()).toBe(true);

    const tickers = await pub.markets.tickers();
    expect(tickers.data.find((t) => t.symbol === 'BTC-USD')?.askRate.toString()).toBe('30010');
    expect(await pub.markets.tickersSequence()).toBe(tickers.sequence);
    const summaries = await pub.markets.summaries();
    expect(summaries.data.map((s) => s.symbol)).toContain('BTC-USD');
    expect(await pub.markets.summariesSequence()).toBe(summaries.sequence);

    // Sweep two ask levels.
    const o = await taker.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.15'), limit: dec('30020') });
    expect(o.fillQuantity.toString()).toBe('0.15');
    expect(o.proceeds.toString()).toBe(dec('0.1').times(30010).plus(dec('0.05').times(30020)).toString());

    const t1 = await pub.markets.ticker('BTC-USD');
    expect(t1.lastTradeRate.toString()).toBe('30020');
    expect(t1.askRate.toString()).toBe('30020');
    const after = await pub.markets.tickers();
    expect(after.sequence).toBeGreaterThan(tickers.sequence);
    expect(await pub.markets.tickersSequence()).toBe(after.sequence);

    const s = await pub.markets.summary('BTC-USD');
    expect(s.high.toString()).toBe('30020');
    expect(s.low.toString()).toBe('30010');
    expect(s.volume.toString()).toBe('0.15');
    const all = await pub.markets.summaries();
    expect(await pub.markets.summariesSequence()).toBe(all.sequence);
  });

  it('serves recent trades with their Sequence (HEAD /trade)', async () => {
    await taker.client.orders.create({ marketSymbol: 'BTC-USD', direction: 'SELL', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.02') });
    const trades = await pub.markets.trades('BTC-USD');
    expect(trades.data.length).toBeGreaterThanOrEqual(3);
    const sell = trades.data.find((t) => t.takerSide === 'SELL')!;
    expect(sell.rate.toString()).toBe('29990');
    expect(sell.quantity.toString()).toBe('0.02');
    expect(trades.data.filter((t) => t.takerSide === 'BUY').map((t) => t.rate.toString()).sort()).toEqual(['30010', '30020']);
    expect(await pub.markets.tradesSequence('BTC-USD')).toBe(trades.sequence);
    expect(trades.sequence).toBeGreaterThan(0);
    // Nothing traded on ETH-BTC yet: an empty snapshot is still a snapshot.
    const none = await pub.markets.trades('ETH-BTC');
    expect(none.data).toEqual([]);
    expect(await pub.markets.tradesSequence('ETH-BTC')).toBe(none.sequence);
  });

  it('serves recent candles with and without the candleType segment, with their Sequence', async () => {
    const minute = new Date(Math.floor(fx.clock.now() / 60_000) * 60_000).toISOString();
    const plain = await pub.markets.candles('BTC-USD', 'MINUTE_1');
    const trade = await pub.markets.candles('BTC-USD', 'MINUTE_1', { type: 'TRADE' });
    expect(plain.data).toEqual(trade.data);
    const c = plain.data.find((x) => x.startsAt.toISOString() === minute)!;
    expect(c).toBeDefined();
    expect({ open: c.open.toString(), high: c.high.toString(), low: c.low.toString(), close: c.close.toString(), volume: c.volume.toString() })
      .toEqual({ open: '30010', high: '30020', low: '29990', close: '29990', volume: '0.17' });
    expect(await pub.markets.candlesSequence('BTC-USD', 'MINUTE_1')).toBe(plain.sequence);
    expect(await pub.markets.candlesSequence('BTC-USD', 'MINUTE_1', { type: 'TRADE' })).toBe(trade.sequence);
    for (const interval of ['MINUTE_5', 'HOUR_1', 'DAY_1'] as const) {
      const r = await pub.markets.candles('BTC-USD', interval);
      expect(r.data.at(-1)!.volume.toString()).toBe('0.17');
    }
    // MIDPOINT candles come from best bid/ask, so they exist without trades too.
    const mid = await pub.markets.candles('BTC-USD', 'MINUTE_1', { type: 'MIDPOINT' });
    expect(await pub.markets.candlesSequence('BTC-USD', 'MINUTE_1', { type: 'MIDPOINT' })).toBe(mid.sequence);

    // The raw paths agree byte for byte.
    const a = await fx.raw('GET', '/markets/BTC-USD/candles/MINUTE_1/recent');
    const b = await fx.raw('GET', '/markets/BTC-USD/candles/TRADE/MINUTE_1/recent');
    expect(a.status).toBe(200);
    expect(a.text).toBe(b.text);
    expect(a.headers.sequence).toBe(b.headers.sequence);
    const bad = await fx.raw('GET', '/markets/BTC-USD/candles/VOLUME/MINUTE_1/recent');
    expect(bad.status).toBe(400);
  });

  it('serves historical candles for a year, a month and a day, zero padded or not', async () => {
    const minute = Math.floor(fx.clock.now() / 60_000) * 60_000;
    const has = (list: Candle[], at: number) => list.some((x) => x.startsAt.getTime() === at);
    const day = await pub.markets.historicalCandles('BTC-USD', 'MINUTE_1', { year: 2021, month: 6, day: 14 });
    expect(has(day, minute)).toBe(true);
    expect(await pub.markets.historicalCandles('BTC-USD', 'MINUTE_1', { year: 2021, month: 6, day: 13 })).toEqual([]);
    const fives = await pub.markets.historicalCandles('BTC-USD', 'MINUTE_5', { year: 2021, month: 6, day: 14 }, { type: 'TRADE' });
    expect(fives).toHaveLength(1);
    const hours = await pub.markets.historicalCandles('BTC-USD', 'HOUR_1', { year: 2021, month: 6 });
    expect(has(hours, Date.UTC(2021, 5, 14, 12))).toBe(true);
    const days = await pub.markets.historicalCandles('BTC-USD', 'DAY_1', { year: 2021 });
    expect(has(days, Date.UTC(2021, 5, 14))).toBe(true);
    expect(days[0]!.volume.toString()).toBe('0.17');

    // Zero padding and the candleType segment make no difference on the wire.
    const variants = [
      '/markets/BTC-USD/candles/MINUTE_1/historical/2021/6/14',
      '/markets/BTC-USD/candles/MINUTE_1/historical/2021/06/14',
      '/markets/BTC-USD/candles/TRADE/MINUTE_1/historical/2021/06/14',
      '/markets/BTC-USD/candles/TRADE/MINUTE_1/historical/2021/6/14',
    ];
    const bodies = await Promise.all(variants.map((v) => fx.raw('GET', v)));
    for (const r of bodies) {
      expect(r.status, r.text).toBe(200);
      expect(r.text).toBe(bodies[0]!.text);
    }
    expect(bodies[0]!.json.length).toBe(day.length);
    const hourly = await fx.raw('GET', '/markets/BTC-USD/candles/HOUR_1/historical/2021/06');
    expect(hourly.json).toHaveLength(hours.length);

    for (const bad of ['/markets/BTC-USD/candles/MINUTE_1/historical/2021/13/01', '/markets/BTC-USD/candles/HOUR_1/historical/2021', '/markets/BTC-USD/candles/DAY_1/historical/twenty']) {
      const r = await fx.raw('GET', bad);
      expect(r.status, bad).toBe(400);
      expect(r.json.code).toBe('BAD_REQUEST');
    }
  });
});
