/**
 * The synthetic market against the real engine, in virtual time: books stay two-sided and uncrossed, trades
 * happen and move, a user's order near the mid fills, the run is a function of the seed, and every currency is
 * conserved.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import type { Trade } from '../../../src/model/market.js';
import { createMarketDriver } from '../../../src/sim/driver/market-driver.js';
import { SyntheticMarket } from '../../../src/sim/driver/synthetic-market.js';
import type { SyntheticMarketInput } from '../../../src/sim/driver/synthetic-config.js';
import { createSimEngine } from '../../../src/sim/engine.js';

const T0 = Date.parse('2021-06-14T00:00:00Z');

function setup(config: SyntheticMarketInput) {
  const clock = new VirtualClock(T0);
  const engine = createSimEngine({ clock });
  const errors: unknown[] = [];
  const driver = new SyntheticMarket(engine, clock, config, { onError: (e) => errors.push(e) });
  const trades: Array<{ market: string; trade: Trade }> = [];
  engine.bus.on((e) => {
    if (e.kind === 'trade') for (const t of e.deltas) trades.push({ market: e.marketSymbol, trade: t });
  });
  return { clock, engine, driver, trades, errors };
}

const tradeKey = (x: { market: string; trade: Trade }) =>
  `${x.market} ${x.trade.executedAt.toISOString()} ${x.trade.takerSide} ${x.trade.quantity.toFixed()}@${x.trade.rate.toFixed()}`;

describe('SyntheticMarket', () => {
  it('over a simulated minute: two-sided, never crossed, trades happen, the mid moves, money is conserved', async () => {
    const { clock, engine, driver, trades, errors } = setup({ seed: 42, markets: ['BTC-USD', 'ETH-BTC'] });
    driver.start();
    const startMid = driver.mid('BTC-USD');
    for (let s = 0; s < 60; s++) {
      await clock.advance(1000);
      for (const m of ['BTC-USD', 'ETH-BTC']) {
        const book = engine.orderBook(m, 25).data;
        expect(book.bid.length, `${m} bids at ${s}s`).toBeGreaterThan(0);
        expect(book.ask.length, `${m} asks at ${s}s`).toBeGreaterThan(0);
        expect(book.bid[0]!.rate.lt(book.ask[0]!.rate), `${m} crossed at ${s}s`).toBe(true);
      }
    }
    for (const m of ['BTC-USD', 'ETH-BTC']) {
      const own = trades.filter((t) => t.market === m);
      // 20 taker orders a minute on average: trades every few seconds.
      expect(own.length, m).toBeGreaterThanOrEqual(8);
      expect(new Set(own.map((t) => t.trade.rate.toFixed())).size, m).toBeGreaterThan(3);
    }
    expect(driver.mid('BTC-USD')!.eq(startMid!)).toBe(false);
    const btc = trades.filter((t) => t.market === 'BTC-USD').map((t) => t.trade.rate.toNumber());
    // Plausible prices around the 30 000 start.
    for (const r of btc) expect(Math.abs(r / 30_000 - 1)).toBeLessThan(0.05);
    expect(engine.ticker('BTC-USD').lastTradeRate.gt(0)).toBe(true);

    for (const a of engine.ledger.audit()) expect(a.discrepancy.isZero(), a.currency).toBe(true);
    expect(errors).toEqual([]);
    expect(driver.stats.errors).toBe(0);
    driver.stop();
    expect(engine.orderBook('BTC-USD', 25).data).toEqual({ bid: [], ask: [] });
    // Stopped means stopped: no timer of the driver fires any more.
    const placed = driver.stats.placed;
    const tradeCount = trades.length;
    await clock.advance(60_000);
    expect(driver.stats.placed).toBe(placed);
    expect(trades).toHaveLength(tradeCount);
    for (const a of engine.ledger.audit()) {
      expect(a.discrepancy.isZero(), a.currency).toBe(true);
      expect(a.held.isZero(), `${a.currency} still held after stop`).toBe(true);
    }
  });

  it("fills a user's resting limit order placed near the mid", async () => {
    const { clock, engine, driver } = setup({ seed: 7, markets: ['BTC-USD'] });
    driver.start();
    await clock.advance(2000);
    const user = engine.createParticipant({ USD: dec('100000'), BTC: dec('1') });
    const book = engine.orderBook('BTC-USD', 1).data;
    // Inside the spread, one tick above the best bid: the next taker sell meets it first.
    const limit = book.bid[0]!.rate.plus('0.001');
    const order = engine.placeOrder(user, {
      marketSymbol: 'BTC-USD',
      direction: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GOOD_TIL_CANCELLED',
      quantity: dec('0.002'),
      limit,
    });
    expect(order.status).toBe('OPEN');
    for (let s = 0; s < 60 && engine.getOrder(user, order.id).status === 'OPEN'; s++) await clock.advance(1000);
    const after = engine.getOrder(user, order.id);
    expect(after.status).toBe('CLOSED');
    expect(after.fillQuantity.toFixed()).toBe('0.002');
    expect(engine.ledger.get(user, 'BTC').total.toFixed()).toBe('1.002');
    driver.stop();
    for (const a of engine.ledger.audit()) expect(a.discrepancy.isZero(), a.currency).toBe(true);
  });

  it('same seed, same trades; another seed, other trades', async () => {
    const run = async (seed: number) => {
      const { clock, driver, trades } = setup({ seed, markets: ['BTC-USD', 'ETH-USD'] });
      driver.start();
      await clock.advance(30_000);
      driver.stop();
      return trades.map(tradeKey);
    };
    const a = await run(5);
    expect(a.length).toBeGreaterThan(5);
    expect(await run(5)).toEqual(a);
    expect(await run(6)).not.toEqual(a);
  });

  it('drives every ONLINE market of the default catalog by default, each at a realistic price', async () => {
    const { clock, engine, driver, errors } = setup({ seed: 1 });
    driver.start();
    await clock.advance(5000);
    expect(driver.markets).toEqual(engine.catalog.markets().map((m) => m.symbol));
    const mid = (m: string) => {
      const b = engine.orderBook(m, 1).data;
      return b.bid[0]!.rate.plus(b.ask[0]!.rate).div(2).toNumber();
    };
    expect(mid('BTC-USD')).toBeGreaterThan(25_000);
    expect(mid('ETH-USD')).toBeGreaterThan(1_500);
    expect(mid('ETH-BTC')).toBeCloseTo(0.065, 2);
    expect(mid('USDT-USD')).toBeCloseTo(1, 1);
    driver.stop();
    expect(errors).toEqual([]);
    for (const a of engine.ledger.audit()) expect(a.discrepancy.isZero(), a.currency).toBe(true);
  });

  it('tops up a participant short of money with further deposits', async () => {
    const { clock, engine, driver, errors } = setup({ seed: 3, markets: ['BTC-USD'], fundingMultiple: 0.01, takers: { ratePerMinute: 120 } });
    driver.start();
    await clock.advance(20_000);
    expect(errors).toEqual([]);
    // Tiny start funding: the makers' ladders needed more, which came as further deposits.
    expect(driver.stats.credits).toBeGreaterThan(driver.participants().length * 2);
    const book = engine.orderBook('BTC-USD', 25).data;
    expect(book.bid.length).toBeGreaterThan(0);
    expect(book.ask.length).toBeGreaterThan(0);
    driver.stop();
    for (const a of engine.ledger.audit()) expect(a.discrepancy.isZero(), a.currency).toBe(true);
  });
  it('counts engine refusals (orders below the dust value) instead of throwing, and keeps going', async () => {
    // One lot of LTC-BTC is ~0.00005 BTC, far below the 50 000 satoshi minimum: every taker order is refused.
    const { clock, engine, driver, errors, trades } = setup({ seed: 4, markets: ['LTC-BTC'], takers: { lots: [1, 1], ratePerMinute: 60 } });
    driver.start();
    await clock.advance(30_000);
    expect(errors).toEqual([]);
    expect(driver.stats.rejected.DUST_TRADE_DISALLOWED_MIN_VALUE).toBeGreaterThan(10);
    expect(trades).toHaveLength(0);
    expect(engine.orderBook('LTC-BTC', 1).data.bid).toHaveLength(1);
    driver.stop();
  });
});

describe('createMarketDriver', () => {
  it("'synthetic' drives the books; 'none' leaves them to users", async () => {
    const clock = new VirtualClock(T0);
    const engine = createSimEngine({ clock });
    const none = createMarketDriver(engine, clock, { kind: 'none' });
    none.start();
    await clock.advance(10_000);
    expect(engine.orderBook('BTC-USD', 1).data).toEqual({ bid: [], ask: [] });
    none.stop();

    const synthetic = createMarketDriver(engine, clock, { kind: 'synthetic', seed: 2, markets: ['BTC-USD'] });
    expect(synthetic.kind).toBe('synthetic');
    synthetic.start();
    await clock.advance(10_000);
    expect(engine.orderBook('BTC-USD', 1).data.bid).toHaveLength(1);
    expect(synthetic.stats.placed).toBeGreaterThan(0);
    synthetic.stop();
    const placed = synthetic.stats.placed;
    await clock.advance(10_000);
    expect(synthetic.stats.placed).toBe(placed);
  });

  it('refuses an unknown market at creation', () => {
    const clock = new VirtualClock(T0);
    const engine = createSimEngine({ clock });
    expect(() => createMarketDriver(engine, clock, { kind: 'synthetic', markets: ['NOPE-USD'] })).toThrow(/MARKET_DOES_NOT_EXIST/);
  });
});
