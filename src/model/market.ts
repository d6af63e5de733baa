/** Public market data resources: markets, currencies, tickers, summaries, order books, trades, candles. */
import type { Decimal } from '../core/decimal.js';
import { amount, arrayOf, date, dec, id, int, object, oneOf, positive, str, type Decoder } from './decode.js';
import { MARKET_STATUSES, ORDER_DIRECTIONS, type MarketStatus, type OrderDirection } from './enums.js';

/** A market, `<BASE>-<QUOTE>`. */
export interface Market {
  symbol: string;
  baseCurrencySymbol: string;
  quoteCurrencySymbol: string;
  minTradeSize: Decimal;
  /** Number of decimals allowed in a limit price. */
  precision: number;
  status: MarketStatus;
  createdAt: Date;
  notice?: string;
  prohibitedIn?: string[];
  associatedTermsOfService?: string[];
  tags?: string[];
}
export const decodeMarket: Decoder<Market> = object<Market>(
  {
    symbol: str,
    baseCurrencySymbol: str,
    quoteCurrencySymbol: str,
    minTradeSize: dec,
    precision: int,
    status: oneOf(MARKET_STATUSES),
    createdAt: date,
  },
  { notice: str, prohibitedIn: arrayOf(str), associatedTermsOfService: arrayOf(str), tags: arrayOf(str) },
);

/** A currency. */
export interface Currency {
  symbol: string;
  name: string;
  coinType: string;
  status: MarketStatus;
  minConfirmations: number;
  txFee: Decimal;
  notice?: string;
  logoUrl?: string;
  prohibitedIn?: string[];
  baseAddress?: string;
  associatedTermsOfService?: string[];
  tags?: string[];
}
export const decodeCurrency: Decoder<Currency> = object<Currency>(
  { symbol: str, name: str, coinType: str, status: oneOf(MARKET_STATUSES), minConfirmations: int, txFee: dec },
  {
    notice: str,
    logoUrl: str,
    prohibitedIn: arrayOf(str),
    baseAddress: str,
    associatedTermsOfService: arrayOf(str),
    tags: arrayOf(str),
  },
);

/** Rolling 24-hour summary of a market. */
export interface MarketSummary {
  symbol: string;
  high: Decimal;
  low: Decimal;
  volume: Decimal;
  quoteVolume: Decimal;
  percentChange?: Decimal;
  updatedAt: Date;
}
export const decodeMarketSummary: Decoder<MarketSummary> = object<MarketSummary>(
  { symbol: str, high: dec, low: dec, volume: dec, quoteVolume: dec, updatedAt: date },
  { percentChange: dec },
);

/** Last trade, best bid and best ask (zero when absent). */
export interface Ticker {
  symbol: string;
  lastTradeRate: Decimal;
  bidRate: Decimal;
  askRate: Decimal;
}
/** A rate is never negative (zero means there is none); refused naming the field, as a balance is. */
export const decodeTicker: Decoder<Ticker> = object<Ticker>(
  { symbol: str, lastTradeRate: amount, bidRate: amount, askRate: amount },
  {},
);

/** One price level. */
export interface OrderBookEntry {
  quantity: Decimal;
  rate: Decimal;
}
/**
 * A level of a REST snapshot: quantity and rate above zero. A snapshot lists the levels there are, so a quantity
 * of 0 is no level; only a stream delta uses 0, to remove one (hub/messages.ts decodes those).
 */
export const decodeOrderBookEntry: Decoder<OrderBookEntry> = object<OrderBookEntry>({ quantity: positive, rate: positive }, {});

/** Order book snapshot: bids best (highest) first, asks best (lowest) first. */
export interface OrderBook {
  bid: OrderBookEntry[];
  ask: OrderBookEntry[];
}
export const decodeOrderBook: Decoder<OrderBook> = object<OrderBook>(
  { bid: arrayOf(decodeOrderBookEntry), ask: arrayOf(decodeOrderBookEntry) },
  {},
);

/** A public trade. */
export interface Trade {
  id: string;
  executedAt: Date;
  quantity: Decimal;
  rate: Decimal;
  takerSide: OrderDirection;
}
/** Quantity and rate above zero: refused naming the field otherwise. */
export const decodeTrade: Decoder<Trade> = object<Trade>(
  { id: id, executedAt: date, quantity: positive, rate: positive, takerSide: oneOf(ORDER_DIRECTIONS) },
  {},
);

/** A candle. Intervals without trading are omitted by the service. */
export interface Candle {
  startsAt: Date;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  volume: Decimal;
  quoteVolume: Decimal;
}
export const decodeCandle: Decoder<Candle> = object<Candle>(
  { startsAt: date, open: dec, high: dec, low: dec, close: dec, volume: dec, quoteVolume: dec },
  {},
);
