/** Public market data resources: markets, currencies, tickers, summaries, order books, trades, candles. */
import type { Decimal } from '../core/decimal.js';
import { amount, arrayOf, date, dec, id, int, object, oneOf, positive, refine, str, type Decoder } from './decode.js';
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
/**
 * High, low and volumes are never negative, refused naming the field; zero stays valid (a market with no trade in
 * the window: the simulator reports high and low 0 then). percentChange is a change, negative when the rate fell.
 */
export const decodeMarketSummary: Decoder<MarketSummary> = object<MarketSummary>(
  { symbol: str, high: amount, low: amount, volume: amount, quoteVolume: amount, updatedAt: date },
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
/**
 * Prices above zero (a candle is made of trades, or of midpoints, at real rates) and volumes not negative (zero is
 * an interval without trades: the service's placeholder repeats the last close with volume 0), with
 * {@link candleRangeProblem}'s rule; refused naming the field otherwise.
 */
export const decodeCandle: Decoder<Candle> = refine(
  object<Candle>(
    { startsAt: date, open: positive, high: positive, low: positive, close: positive, volume: amount, quoteVolume: amount },
    {},
  ),
  candleRangeProblem,
);

/**
 * What is wrong with a candle's prices, or undefined: a low above its high, or an open or close outside
 * [low, high], which no run of trades makes. `problem` quotes the prices, `reason` says it quoting none. Also the
 * rule of the backtest's candle readers (backtest/readers/candles-common.ts), so a candle file and the venue agree.
 */
export function candleRangeProblem(c: Pick<Candle, 'open' | 'high' | 'low' | 'close'>): { field: 'low' | 'open' | 'close'; problem: string; reason: string } | undefined {
  const range = `[low ${c.low.toFixed()}, high ${c.high.toFixed()}]`;
  if (c.low.gt(c.high)) return { field: 'low', problem: `is above high: ${range}`, reason: 'is above high' };
  if (c.open.lt(c.low) || c.open.gt(c.high)) return { field: 'open', problem: `${c.open.toFixed()} is outside ${range}`, reason: 'is outside [low, high]' };
  if (c.close.lt(c.low) || c.close.gt(c.high)) return { field: 'close', problem: `${c.close.toFixed()} is outside ${range}`, reason: 'is outside [low, high]' };
  return undefined;
}
