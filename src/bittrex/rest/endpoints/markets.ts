/** Market data endpoints (public, unsigned): markets, summaries, tickers, order books, trades and candles. */
import { arrayOf } from '../../../model/decode.js';
import type { CandleInterval, CandleType, OrderBookDepth } from '../../../model/enums.js';
import {
  type Candle,
  type Market,
  type MarketSummary,
  type OrderBook,
  type Ticker,
  type Trade,
  decodeCandle,
  decodeMarket,
  decodeMarketSummary,
  decodeOrderBook,
  decodeTicker,
  decodeTrade,
} from '../../../model/market.js';
import type { HttpTransport, Sequenced } from '../http.js';
import { type CandleDate, segment, validateCandleDate, validateCandleKind, validateDepth } from '../validate.js';

/** Which candles: TRADE (from trades; the default, path segment left out) or MIDPOINT (from best bid/ask). */
export interface CandleOptions {
  type?: CandleType | undefined;
}

/** `client.markets`: public market data. Snapshot GETs return their Sequence for stream synchronisation. */
export interface MarketsEndpoints {
  /** GET /markets — every market. */
  list(): Promise<Market[]>;
  /** GET /markets/{marketSymbol} — one market. */
  get(marketSymbol: string): Promise<Market>;
  /** GET /markets/summaries — 24-hour summaries of every market, with the snapshot's Sequence. */
  summaries(): Promise<Sequenced<MarketSummary[]>>;
  /** HEAD /markets/summaries — the Sequence of the summaries snapshot. */
  summariesSequence(): Promise<number>;
  /** GET /markets/tickers — tickers of every market, with the snapshot's Sequence. */
  tickers(): Promise<Sequenced<Ticker[]>>;
  /** HEAD /markets/tickers — the Sequence of the tickers snapshot. */
  tickersSequence(): Promise<number>;
  /** GET /markets/{marketSymbol}/ticker — one ticker. */
  ticker(marketSymbol: string): Promise<Ticker>;
  /** GET /markets/{marketSymbol}/summary — one 24-hour summary. */
  summary(marketSymbol: string): Promise<MarketSummary>;
  /** GET /markets/{marketSymbol}/orderbook?depth= — book snapshot (depth 1, 25 or 500; default 25) with its Sequence. */
  orderBook(marketSymbol: string, opts?: { depth?: OrderBookDepth | undefined }): Promise<Sequenced<OrderBook>>;
  /** HEAD /markets/{marketSymbol}/orderbook?depth= — the book's Sequence at that depth (sequences differ per depth). */
  orderBookSequence(marketSymbol: string, depth?: OrderBookDepth): Promise<number>;
  /** GET /markets/{marketSymbol}/trades — recent trades with the snapshot's Sequence. */
  trades(marketSymbol: string): Promise<Sequenced<Trade[]>>;
  /** HEAD /markets/{marketSymbol}/trade — the Sequence of the recent trades snapshot (singular path, as served). */
  tradesSequence(marketSymbol: string): Promise<number>;
  /** GET /markets/{marketSymbol}/candles/[{candleType}/]{candleInterval}/recent — recent candles with their Sequence. */
  candles(marketSymbol: string, interval: CandleInterval, opts?: CandleOptions): Promise<Sequenced<Candle[]>>;
  /** HEAD /markets/{marketSymbol}/candles/[{candleType}/]{candleInterval}/recent — the candles' Sequence. */
  candlesSequence(marketSymbol: string, interval: CandleInterval, opts?: CandleOptions): Promise<number>;
  /**
   * GET /markets/{marketSymbol}/candles/[{candleType}/]{candleInterval}/historical/{year}[/{month}[/{day}]] —
   * candles of one period: a year of DAY_1, a month of HOUR_1, a day of MINUTE_1/MINUTE_5.
   */
  historicalCandles(marketSymbol: string, interval: CandleInterval, date: CandleDate, opts?: CandleOptions): Promise<Candle[]>;
}

const decodeMarkets = arrayOf(decodeMarket);
const decodeSummaries = arrayOf(decodeMarketSummary);
const decodeTickers = arrayOf(decodeTicker);
const decodeTrades = arrayOf(decodeTrade);
const decodeCandles = arrayOf(decodeCandle);

/** Builds `client.markets` over a transport. */
export function createMarketsEndpoints(http: HttpTransport): MarketsEndpoints {
  const market = (symbol: string, where: string) => `/markets/${segment('marketSymbol', symbol, where)}`;
  const candlePath = (symbol: string, interval: CandleInterval, opts: CandleOptions | undefined, where: string) => {
    validateCandleKind(interval, opts?.type, where);
    return `${market(symbol, where)}/candles/${opts?.type ? `${opts.type}/` : ''}${interval}`;
  };
  return {
    list: () => http.call({ method: 'GET', path: '/markets', signed: false }, decodeMarkets),
    get: async (symbol) => http.call({ method: 'GET', path: market(symbol, 'GET /markets/{marketSymbol}'), signed: false }, decodeMarket),
    summaries: () => http.callSequenced({ method: 'GET', path: '/markets/summaries', signed: false }, decodeSummaries),
    summariesSequence: () => http.head({ method: 'HEAD', path: '/markets/summaries', signed: false }),
    tickers: () => http.callSequenced({ method: 'GET', path: '/markets/tickers', signed: false }, decodeTickers),
    tickersSequence: () => http.head({ method: 'HEAD', path: '/markets/tickers', signed: false }),
    ticker: async (symbol) =>
      http.call({ method: 'GET', path: `${market(symbol, 'GET /markets/{marketSymbol}/ticker')}/ticker`, signed: false }, decodeTicker),
    summary: async (symbol) =>
      http.call(
        { method: 'GET', path: `${market(symbol, 'GET /markets/{marketSymbol}/summary')}/summary`, signed: false },
        decodeMarketSummary,
      ),
    orderBook: async (symbol, opts) => {
      const where = 'GET /markets/{marketSymbol}/orderbook';
      validateDepth(opts?.depth, where);
      return http.callSequenced(
        { method: 'GET', path: `${market(symbol, where)}/orderbook`, query: { depth: opts?.depth }, signed: false },
        decodeOrderBook,
      );
    },
    orderBookSequence: async (symbol, depth) => {
      const where = 'HEAD /markets/{marketSymbol}/orderbook';
      validateDepth(depth, where);
      return http.head({ method: 'HEAD', path: `${market(symbol, where)}/orderbook`, query: { depth }, signed: false });
    },
    trades: async (symbol) =>
      http.callSequenced(
        { method: 'GET', path: `${market(symbol, 'GET /markets/{marketSymbol}/trades')}/trades`, signed: false },
        decodeTrades,
      ),
    tradesSequence: async (symbol) =>
      http.head({ method: 'HEAD', path: `${market(symbol, 'HEAD /markets/{marketSymbol}/trade')}/trade`, signed: false }),
    candles: async (symbol, interval, opts) => {
      const path = candlePath(symbol, interval, opts, 'GET /markets/{marketSymbol}/candles/{candleType}/{candleInterval}/recent');
      return http.callSequenced({ method: 'GET', path: `${path}/recent`, signed: false }, decodeCandles);
    },
    candlesSequence: async (symbol, interval, opts) => {
      const path = candlePath(symbol, interval, opts, 'HEAD /markets/{marketSymbol}/candles/{candleType}/{candleInterval}/recent');
      return http.head({ method: 'HEAD', path: `${path}/recent`, signed: false });
    },
    historicalCandles: async (symbol, interval, date, opts) => {
      const where = 'GET /markets/{marketSymbol}/candles/{candleType}/{candleInterval}/historical/{year}/{month}/{day}';
      const path = candlePath(symbol, interval, opts, where);
      validateCandleDate(interval, date, where);
      const parts = [date.year, date.month, date.day].filter((p) => p !== undefined).join('/');
      return http.call({ method: 'GET', path: `${path}/historical/${parts}`, signed: false }, decodeCandles);
    },
  };
}
