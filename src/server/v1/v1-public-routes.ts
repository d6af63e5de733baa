/** /public/*: markets, currencies, ticker, summaries, order book and trade history, in v1.1 names and shapes. */
import type { Currency, MarketSummary, Ticker } from '../../model/market.js';
import type { SimEngine } from '../../sim/engine.js';
import {
  currencyToV1, marketToV1, orderBookToV1, summaryToV1, tickerToV1, tradeToV1,
} from '../../wire/v1/mapping/index.js';
import type { V1MarketSummary } from '../../wire/v1/rest-types.js';
import type { NumericIds } from './numeric-ids.js';
import { bookResult, single, type V1ResultShapes } from './v1-shapes.js';
import { bookTypeParam, marketParam } from './v1-params.js';
import type { V1Routes } from './v1-routes.js';

/** The engine parts the v1.1 public routes read. */
export type V1PublicBackend = Pick<SimEngine, 'catalog' | 'markets' | 'currencies' | 'ticker' | 'tickers' | 'summary' | 'summaries' | 'orderBook' | 'trades'>;

/** Add the public routes (getticker and getorderbook in `shapes`, see v1-shapes.ts). */
export function addV1PublicRoutes(routes: V1Routes, e: V1PublicBackend, tradeIds: NumericIds, shapes: V1ResultShapes): void {
  const pub = (path: string, handle: (q: URLSearchParams) => unknown) => routes.set(path, { auth: 'public', handle: (c) => handle(c.query) });
  /** The catalog's symbol for a v1.1 market parameter (INVALID_MARKET when unknown). */
  const market = (q: URLSearchParams) => e.catalog.market(marketParam(q)).symbol;
  const currencyMap = () => new Map<string, Currency>(e.currencies().map((c) => [c.symbol, c]));
  const summaryOf = (s: MarketSummary, t: Ticker, created: Date | undefined): V1MarketSummary => {
    // OpenBuyOrders/OpenSellOrders are deprecated in v3; the simulator shows its price levels per side.
    const book = e.orderBook(s.symbol, 500).data;
    return summaryToV1(s, t, { created, openBuyOrders: book.bid.length, openSellOrders: book.ask.length });
  };
  pub('/public/getmarkets', () => {
    const cur = currencyMap();
    return e.markets().map((m) => marketToV1(m, cur));
  });
  pub('/public/getcurrencies', () => e.currencies().map(currencyToV1));
  pub('/public/getticker', (q) => single(shapes, tickerToV1(e.ticker(market(q)))));
  pub('/public/getmarketsummaries', () => {
    const tickers = new Map(e.tickers().data.map((t) => [t.symbol, t]));
    const created = new Map(e.markets().map((m) => [m.symbol, m.createdAt]));
    return e.summaries().data.flatMap((s) => {
      const t = tickers.get(s.symbol);
      return t ? [summaryOf(s, t, created.get(s.symbol))] : [];
    });
  });
  pub('/public/getmarketsummary', (q) => {
    const symbol = market(q);
    const created = e.markets().find((m) => m.symbol === symbol)?.createdAt;
    return [summaryOf(e.summary(symbol), e.ticker(symbol), created)];
  });
  pub('/public/getorderbook', (q) => {
    const symbol = market(q);
    const type = bookTypeParam(q);
    return bookResult(shapes, orderBookToV1(e.orderBook(symbol, 500).data, type), type);
  });
  pub('/public/getmarkethistory', (q) => e.trades(market(q)).data.map((t) => tradeToV1(t, tradeIds.idOf(t.id))));
}
