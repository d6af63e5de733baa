/**
 * Every v1.1 endpoint of seed 001 section 4 through the simulator's HTTP server with rexbot's v1.1 client:
 * v1.1 market names, field names, shapes and date-times, exact decimals, and the mapping to the v3 model agreeing
 * with what v3 answers for the same state.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signV1Url, V1ApiError } from '../../../src/bittrex/v1/rest/index.js';
import { dec } from '../../../src/core/decimal.js';
import { balanceFromV1, marketFromV1, orderFromV1, summaryFromV1, tradeFromV1 } from '../../../src/wire/v1/index.js';
import { startV1World, type V1World } from './v1-harness.js';

const V1_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?$/;

describe('v1.1 REST endpoints through the simulator server', () => {
  let w: V1World;
  beforeAll(async () => {
    w = await startV1World();
  });
  afterAll(async () => {
    await w?.close();
  });

  it('/public/getmarkets: v1.1 names (quote first), currency long names, maps to the v3 market', async () => {
    const markets = await w.v1.public.getMarkets();
    const m = markets.find((x) => x.MarketName === 'USD-BTC')!;
    expect(m).toMatchObject({ MarketCurrency: 'BTC', BaseCurrency: 'USD', IsActive: true, IsRestricted: false });
    expect(m.MarketCurrencyLong).toBe((await w.v3.currencies.get('BTC')).name);
    const v3 = (await w.v3.markets.list()).find((x) => x.symbol === 'BTC-USD')!;
    expect(marketFromV1(m)).toMatchObject({ symbol: 'BTC-USD', minTradeSize: v3.minTradeSize, status: v3.status, createdAt: v3.createdAt });
  });

  it('/public/getcurrencies', async () => {
    const c = (await w.v1.public.getCurrencies()).find((x) => x.Currency === 'BTC')!;
    expect(c).toMatchObject({ CurrencyLong: expect.any(String), IsActive: true });
    expect(c.TxFee.eq((await w.v3.currencies.get('BTC')).txFee)).toBe(true);
  });

  it('/public/getticker, getmarketsummary, getmarketsummaries agree with v3', async () => {
    const tick = await w.v1.public.getTicker('USD-BTC');
    const v3t = await w.v3.markets.ticker('BTC-USD');
    expect([tick.Bid, tick.Ask, tick.Last].map(String)).toEqual([v3t.bidRate, v3t.askRate, v3t.lastTradeRate].map(String));
    const [s] = await w.v1.public.getMarketSummary('usd-btc');
    expect(s!.MarketName).toBe('USD-BTC');
    const { summary } = summaryFromV1(s!);
    const v3s = await w.v3.markets.summary('BTC-USD');
    expect(summary.volume.eq(v3s.volume)).toBe(true);
    expect(summary.quoteVolume.eq(v3s.quoteVolume)).toBe(true);
    expect(s!.OpenBuyOrders).toBe(2);
    const all = await w.v1.public.getMarketSummaries();
    expect(all.map((x) => x.MarketName)).toContain('USD-BTC');
  });

  it('/public/getorderbook both, buy and sell', async () => {
    const both = await w.v1.public.getOrderBook('USD-BTC', 'both');
    expect(both.buy[0]!.rate.toString()).toBe('29990');
    expect(both.sell[0]!.rate.toString()).toBe('30000');
    expect((await w.v1.public.getOrderBook('USD-BTC', 'buy')).sell).toEqual([]);
    expect((await w.v1.public.getOrderBook('USD-BTC', 'sell')).buy).toEqual([]);
  });

  it('/public/getmarkethistory: int Ids, the v3 trades', async () => {
    const h = await w.v1.public.getMarketHistory('USD-BTC');
    const v3 = await w.v3.markets.trades('BTC-USD');
    expect(h).toHaveLength(v3.data.length);
    expect(h.map((x) => tradeFromV1(x).id).sort()).toEqual(v3.data.map((t) => t.id).sort());
    expect(new Set(h.map((x) => x.Id)).size).toBe(h.length);
    expect(h[0]!.Total.eq(h[0]!.Quantity.times(h[0]!.Price))).toBe(true);
  });

  it('/market/buylimit, getopenorders, getorder, cancel, /account/getorderhistory', async () => {
    const { uuid } = await w.v1.market.buyLimit({ market: 'USD-BTC', quantity: dec('0.01'), rate: dec('29000') });
    const open = await w.v1.market.getOpenOrders('USD-BTC');
    expect(open.map((o) => o.OrderUuid)).toContain(uuid);
    const got = await w.v1.account.getOrder(uuid);
    expect(got).toMatchObject({ OrderUuid: uuid, Exchange: 'USD-BTC', OrderType: 'LIMIT_BUY', Closed: null, ImmediateOrCancel: false });
    expect(got.QuantityRemaining.toString()).toBe('0.01');
    expect(orderFromV1(got)).toMatchObject({ id: uuid, marketSymbol: 'BTC-USD', direction: 'BUY', status: 'OPEN' });
    expect(await w.v1.market.cancel(uuid)).toEqual({ uuid });
    const hist = await w.v1.account.getOrderHistory('USD-BTC');
    expect(hist.find((h) => h.OrderUuid === uuid)).toMatchObject({ OrderType: 'BUY_LIMIT', Exchange: 'USD-BTC' });
    expect((await w.v1.account.getOrder(uuid)).Closed).toBeInstanceOf(Date);
  });

  it('/market/selllimit IOC fills against the book; the fill shows in the order', async () => {
    const { uuid } = await w.v1.market.sellLimit({ market: 'USD-BTC', quantity: dec('0.01'), rate: dec('29990'), timeInForce: 'IOC' });
    const o = await w.v1.account.getOrder(uuid);
    expect(o).toMatchObject({ OrderType: 'LIMIT_SELL', ImmediateOrCancel: true });
    expect(o.QuantityRemaining.toString()).toBe('0');
    expect(o.Price.toString()).toBe('299.9');
    expect(o.PricePerUnit?.toString()).toBe('29990');
    expect(o.Closed).toBeInstanceOf(Date);
  });

  it('/account/getbalances and getbalance agree with v3, exactly', async () => {
    const v1 = await w.v1.account.getBalances();
    const v3 = await w.v3.balances.list();
    for (const b of v3.data) {
      const one = v1.find((x) => x.Currency === b.currencySymbol)!;
      expect(balanceFromV1(one, b.updatedAt).balance).toEqual(b);
    }
    const usd = await w.v1.account.getBalance('usd');
    expect(usd.Currency).toBe('USD');
    expect(usd.Balance.eq(v3.data.find((b) => b.currencySymbol === 'USD')!.total)).toBe(true);
  });

  it('/account/getdepositaddress fails with ADDRESS_GENERATING until the address exists', async () => {
    const first = await w.v1.account.getDepositAddress('BTC').catch((e: unknown) => e);
    expect(first).toBeInstanceOf(V1ApiError);
    expect((first as V1ApiError).code).toBe('ADDRESS_GENERATING');
    const addr = await vi.waitFor(() => w.v1.account.getDepositAddress('BTC'), { timeout: 5000, interval: 20 });
    expect(addr.Currency).toBe('BTC');
    expect(addr.Address).toBe((await w.v3.addresses.get('BTC')).cryptoAddress);
    expect((await w.v1.account.getBalance('BTC')).CryptoAddress).toBe(addr.Address);
  });

  it('/account/withdraw and getwithdrawalhistory (flags progress to completed)', async () => {
    const { uuid } = await w.v1.account.withdraw({ currency: 'BTC', quantity: dec('0.1'), address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' });
    const done = await vi.waitFor(async () => {
      const h = (await w.v1.account.getWithdrawalHistory('BTC')).find((x) => x.PaymentUuid === uuid)!;
      if (!h.TxId) throw new Error('not completed yet');
      return h;
    }, { timeout: 5000, interval: 20 });
    expect(done).toMatchObject({ Currency: 'BTC', Authorized: true, PendingPayment: false, Canceled: false, InvalidAddress: false });
    expect(done.Amount.toString()).toBe('0.1');
    expect((await w.v3.withdrawals.get(uuid)).status).toBe('COMPLETED');
  });

  it('/account/getdeposithistory: int Ids for the credited deposits', async () => {
    const d = await w.v1.account.getDepositHistory();
    expect(d.map((x) => x.Currency).sort()).toEqual(['BTC', 'USD']);
    expect(d.every((x) => Number.isInteger(x.Id) && x.Id > 0)).toBe(true);
    expect((await w.v1.account.getDepositHistory('USD')).map((x) => x.Amount.toString())).toEqual(['100000']);
  });

  it('answers raw v1.1 text: wrapper, numbers with 8 decimals, zone-less date-times', async () => {
    const res = await fetch(`${w.sim.restV1Url}/public/getmarketsummary?market=USD-BTC`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.startsWith('{"success":true,"message":"","result":[{"MarketName":"USD-BTC"')).toBe(true);
    expect(text).toMatch(/"Last":\d+\.\d{8},/);
    const body = JSON.parse(text) as { result: { TimeStamp: string }[] };
    expect(body.result[0]!.TimeStamp).toMatch(V1_DATE);
  });
});

describe('v1.1 result shapes where the service and its document disagree', () => {
  let w: V1World;
  let doc: V1World;
  beforeAll(async () => {
    w = await startV1World();
    doc = await startV1World({ v1ResultShapes: 'document' });
  });
  afterAll(async () => {
    await w?.close();
    await doc?.close();
  });
  const raw = async (world: V1World, q: string) => ((await (await fetch(`${world.sim.restV1Url}${q}`)).json()) as { result: unknown }).result;

  it('service (default): single objects and {Quantity, Rate} levels, as the service and its clients had them', async () => {
    expect(await raw(w, '/public/getticker?market=USD-BTC')).toMatchObject({ Bid: 29990, Ask: 30000 });
    expect(await raw(w, '/public/getorderbook?market=USD-BTC&type=both')).toMatchObject({ buy: [{ Quantity: 0.4, Rate: 29990 }, expect.anything()], sell: expect.any(Array) });
    expect(await raw(w, '/public/getorderbook?market=USD-BTC&type=sell')).toEqual([{ Quantity: 0.4, Rate: 30000 }, { Quantity: 0.5, Rate: 30010 }]);
    const { uuid } = await w.v1.market.buyLimit({ market: 'USD-BTC', quantity: dec('0.01'), rate: dec('25000') });
    const signedRaw = await fetchSigned(w, `/account/getorder?uuid=${uuid}`);
    expect(signedRaw).toMatchObject({ OrderUuid: uuid, Closed: null });
  });

  it('document: the arrays the seed declares, and rexbot\'s client reads both', async () => {
    expect(await raw(doc, '/public/getticker?market=USD-BTC')).toMatchObject([{ Bid: 29990 }]);
    expect(await raw(doc, '/public/getorderbook?market=USD-BTC&type=buy')).toMatchObject([{ buy: [{ quantity: 0.4, rate: 29990 }, expect.anything()], sell: [] }]);
    const { uuid } = await doc.v1.market.buyLimit({ market: 'USD-BTC', quantity: dec('0.01'), rate: dec('25000') });
    expect(await fetchSigned(doc, `/account/getorder?uuid=${uuid}`)).toMatchObject([{ OrderUuid: uuid }]);
    expect((await doc.v1.account.getOrder(uuid)).OrderUuid).toBe(uuid);
    expect((await doc.v1.public.getOrderBook('USD-BTC', 'sell')).sell[0]!.rate.toString()).toBe('30000');
    expect((await doc.v1.public.getTicker('USD-BTC')).Bid?.toString()).toBe('29990');
  });
});

async function fetchSigned(world: V1World, pathAndQuery: string): Promise<unknown> {
  const url = `${world.sim.restV1Url}${pathAndQuery}&apikey=${world.user.apiKey}&nonce=${Date.now()}`;
  const res = await fetch(url, { headers: { apisign: signV1Url(world.user.apiSecret, url) } });
  return ((await res.json()) as { result: unknown }).result;
}
