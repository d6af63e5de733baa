/**
 * Issue 11 item 7: bittrex-node 1.2.1 (axios-based v1.1 REST client, npm `bittrex-node`), unchanged, against the
 * simulator. The client hard-codes `https://bittrex.com/api/v1.1` in its axios instance and signs
 * `${defaults.baseURL}${path}?${query}`, so pointing it elsewhere means setting that one URL
 * (`client._client.defaults.baseURL`); nothing else is touched.
 *
 * WIRE facts this client holds the simulator to:
 * - date-times without a zone: it parses `new Date(`${value}Z`)`, so an answer with a `Z` would be Invalid Date;
 * - getorder answers one object: `order()` returns `parseDates([result], …)[0]`;
 * - a refusal is `success:false` with the code as `message` (it throws `new Error(data.message)`).
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startV1World, type V1World } from '../server/v1/v1-harness.js';

type Row = Record<string, unknown>;
interface BittrexNodeClient {
  _client: { defaults: { baseURL: string } };
  markets(): Promise<Row[]>;
  currencies(): Promise<Row[]>;
  ticker(market: string): Promise<Row>;
  marketSummaries(): Promise<Row[]>;
  marketSummary(market: string): Promise<Row[]>;
  marketHistory(market: string): Promise<Row[]>;
  orderBook(market: string, opts?: { type?: string }): Promise<{ buy: Row[]; sell: Row[] } | Row[]>;
  buyLimit(market: string, opts: { quantity: string | number; rate: string | number }): Promise<{ uuid: string }>;
  sellLimit(market: string, opts: { quantity: string | number; rate: string | number }): Promise<{ uuid: string }>;
  cancelOrder(uuid: string): Promise<unknown>;
  openOrders(market?: string): Promise<Row[]>;
  balances(): Promise<Row[]>;
  balance(currency: string): Promise<Row>;
  depositAddress(currency: string): Promise<Row>;
  withdraw(currency: string, opts: { quantity: string | number; address: string; paymentid?: string }): Promise<{ uuid: string }>;
  orderHistory(market: string): Promise<Row[]>;
  order(uuid: string): Promise<Row>;
  withdrawalHistory(currency?: string): Promise<Row[]>;
  depositHistory(currency?: string): Promise<Row[]>;
}
const { BittrexClient } = createRequire(import.meta.url)('bittrex-node') as {
  BittrexClient: new (o: { apiKey?: string; apiSecret?: string; keepAlive?: boolean }) => BittrexNodeClient;
};

const isDate = (v: unknown) => v instanceof Date && !Number.isNaN(v.getTime());

describe('bittrex-node 1.2.1 against the simulator', () => {
  let w: V1World;
  let client: BittrexNodeClient;
  let pub: BittrexNodeClient;
  beforeAll(async () => {
    w = await startV1World();
    client = new BittrexClient({ apiKey: w.user.apiKey, apiSecret: w.user.apiSecret, keepAlive: false });
    client._client.defaults.baseURL = w.sim.restV1Url;
    pub = new BittrexClient({ keepAlive: false });
    pub._client.defaults.baseURL = w.sim.restV1Url;
  });
  afterAll(async () => {
    await w?.close();
  });

  it('markets and currencies (Created parsed as a date)', async () => {
    const m = (await pub.markets()).find((x) => x.MarketName === 'USD-BTC')!;
    expect(m).toMatchObject({ MarketCurrency: 'BTC', BaseCurrency: 'USD', IsActive: true });
    expect(isDate(m.Created)).toBe(true);
    expect((await pub.currencies()).map((c) => c.Currency)).toContain('BTC');
  });

  it('ticker, summaries, history and order book', async () => {
    expect(await pub.ticker('USD-BTC')).toMatchObject({ Bid: 29990, Ask: 30000, Last: expect.any(Number) });
    const [s] = await pub.marketSummary('USD-BTC');
    expect(s).toMatchObject({ MarketName: 'USD-BTC', Bid: 29990 });
    expect(isDate(s!.TimeStamp)).toBe(true);
    expect((await pub.marketSummaries()).some((x) => x.MarketName === 'USD-BTC')).toBe(true);
    const h = await pub.marketHistory('USD-BTC');
    expect(h.length).toBe(2);
    expect(h.every((x) => isDate(x.TimeStamp) && Number.isInteger(x.Id))).toBe(true);
    const book = (await pub.orderBook('USD-BTC')) as { buy: Row[]; sell: Row[] };
    expect(book.sell[0]).toEqual({ Quantity: 0.4, Rate: 30000 });
    expect(await pub.orderBook('USD-BTC', { type: 'buy' })).toEqual([{ Quantity: 0.4, Rate: 29990 }, { Quantity: 0.5, Rate: 29980 }]);
  });

  it('buyLimit, openOrders, order, cancelOrder, orderHistory — the order is the engine\'s, seen by v3 too', async () => {
    const { uuid } = await client.buyLimit('USD-BTC', { quantity: 0.01, rate: 29000 });
    expect((await w.v3.orders.get(uuid)).status).toBe('OPEN');
    const open = await client.openOrders('USD-BTC');
    const mine = open.find((o) => o.OrderUuid === uuid)!;
    expect(mine).toMatchObject({ Exchange: 'USD-BTC', OrderType: 'LIMIT_BUY', Quantity: 0.01, QuantityRemaining: 0.01, Limit: 29000 });
    expect(isDate(mine.Opened)).toBe(true);
    const o = await client.order(uuid);
    expect(o).toMatchObject({ OrderUuid: uuid, Closed: null });
    expect(isDate(o.Opened)).toBe(true);
    await client.cancelOrder(uuid);
    expect((await w.v3.orders.get(uuid)).status).toBe('CLOSED');
    expect(isDate((await client.order(uuid)).Closed)).toBe(true);
    const sold = await client.sellLimit('USD-BTC', { quantity: '0.01', rate: '29990' });
    const hist = await client.orderHistory('USD-BTC');
    expect(hist.map((x) => x.OrderUuid)).toEqual(expect.arrayContaining([uuid, sold.uuid]));
    expect(hist.every((x) => isDate(x.TimeStamp) && isDate(x.Closed))).toBe(true);
  });

  it('balances and balance agree with v3', async () => {
    const v3 = await w.v3.balances.get('USD');
    expect((await client.balances()).find((b) => b.Currency === 'USD')).toMatchObject({ Balance: Number(v3.total), Available: Number(v3.available) });
    expect(await client.balance('BTC')).toMatchObject({ Currency: 'BTC', Pending: 0 });
  });

  it('depositAddress: ADDRESS_GENERATING, then the address', async () => {
    await expect(client.depositAddress('BTC')).rejects.toThrow('ADDRESS_GENERATING');
    const a = await vi.waitFor(() => client.depositAddress('BTC'), { timeout: 5000, interval: 20 });
    expect(a).toEqual({ Currency: 'BTC', Address: expect.any(String) });
  });

  it('withdraw, withdrawalHistory, depositHistory', async () => {
    const { uuid } = await client.withdraw('BTC', { quantity: 0.1, address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' });
    expect((await client.withdrawalHistory('BTC')).find((x) => x.PaymentUuid === uuid)).toMatchObject({ Amount: 0.1, Canceled: false });
    expect((await client.depositHistory()).map((d) => d.Currency).sort()).toEqual(['BTC', 'USD']);
  });

  it('refusals reach it as the message code', async () => {
    await expect(client.buyLimit('USD-NOPE', { quantity: 1, rate: 1 })).rejects.toThrow('INVALID_MARKET');
    await expect(client.buyLimit('USD-BTC', { quantity: 1000, rate: 29000 })).rejects.toThrow('INSUFFICIENT_FUNDS');
    await expect(client.cancelOrder('6f1b7f3e-0000-4000-8000-000000000000')).rejects.toThrow('INVALID_ORDER');
  });
});
