/**
 * v1.1 ⇄ v3 for public market data (seed section 9, "Endpoint mapping" and "Key field renames"):
 * getmarkets ⇄ Market (+ Currency names), getcurrencies ⇄ Currency, getticker ⇄ Ticker, getmarketsummar(y|ies)
 * ⇄ MarketSummary + Ticker, getorderbook ⇄ OrderBook, getmarkethistory ⇄ Trade.
 *
 * Each `fromV1*` builds the v3 model type from a v1.1 answer; each `toV1*` shows a v3 object in its v1.1 form.
 * Where one side lacks a field the other needs, the caller passes it (a market's createdAt for a summary, a
 * trade's int id) or a documented default is used; nothing is invented silently.
 */
import { type Decimal, ZERO } from '../../../core/decimal.js';
import type { Currency, Market, MarketSummary, OrderBook, OrderBookEntry, Ticker, Trade } from '../../../model/market.js';
import { symbolToV1Market, v1MarketToSymbol } from '../market-name.js';
import type {
  V1Currency,
  V1Market,
  V1MarketHistoryEntry,
  V1MarketSummary,
  V1MarketTick,
  V1OrderBook,
  V1OrderBookEntry,
} from '../rest-types.js';
import { MappingError } from './mapping-error.js';

/**
 * What `prohibitedIn` holds for a market or currency v1.1 calls restricted: v1.1 says only THAT it is restricted
 * (IsRestricted), not where, so the v3 side gets this one placeholder locale rather than a guess.
 */
export const RESTRICTED_SOMEWHERE = '*';

/** v1.1 has no price precision; its rates carried 8 decimals. */
export const V1_PRECISION = 8;

/** `IsRestricted` → `prohibitedIn`. */
export function prohibitedInFromV1(isRestricted: boolean | null): string[] {
  return isRestricted ? [RESTRICTED_SOMEWHERE] : [];
}

/** `prohibitedIn` → `IsRestricted`. */
export function isRestrictedToV1(prohibitedIn: readonly string[] | undefined): boolean {
  return (prohibitedIn?.length ?? 0) > 0;
}

/** v3 symbol from a v1.1 name, or a MappingError naming the field. */
export function symbolFromV1(name: string, field = 'MarketName'): string {
  const s = v1MarketToSymbol(name);
  if (s === undefined) throw new MappingError(field, { reason: 'is not a v1.1 market name', text: `is not a v1.1 market name: ${JSON.stringify(name)}` });
  return s;
}

/**
 * getmarkets item → v3 Market: MarketCurrency → baseCurrencySymbol, BaseCurrency → quoteCurrencySymbol,
 * MarketName reversed → symbol, IsActive → status, IsRestricted → prohibitedIn, Created → createdAt.
 * MarketCurrencyLong, BaseCurrencyLong and LogoUrl belong to v3 Currency (see {@link currencyNamesFromV1});
 * IsSponsored is deprecated.
 */
export function marketFromV1(m: V1Market): Market {
  const out: Market = {
    symbol: symbolFromV1(m.MarketName),
    baseCurrencySymbol: m.MarketCurrency,
    quoteCurrencySymbol: m.BaseCurrency,
    minTradeSize: m.MinTradeSize,
    precision: V1_PRECISION,
    status: m.IsActive ? 'ONLINE' : 'OFFLINE',
    createdAt: m.Created ?? new Date(0),
    prohibitedIn: prohibitedInFromV1(m.IsRestricted),
  };
  if (m.Notice) out.notice = m.Notice;
  return out;
}

/** The currency-level fields of a getmarkets item: long names and the market currency's logo. */
export function currencyNamesFromV1(m: V1Market): { symbol: string; name: string | null; logoUrl: string | null }[] {
  return [
    { symbol: m.MarketCurrency, name: m.MarketCurrencyLong, logoUrl: m.LogoUrl },
    { symbol: m.BaseCurrency, name: m.BaseCurrencyLong, logoUrl: null },
  ];
}

/**
 * v3 Market (+ its currencies, for the long names and logo) → getmarkets item. The v1.1 Notice echoes the v3
 * notice; IsSponsored (deprecated) is false.
 */
export function marketToV1(m: Market, currencies?: ReadonlyMap<string, Currency>): V1Market {
  const base = currencies?.get(m.baseCurrencySymbol);
  const quote = currencies?.get(m.quoteCurrencySymbol);
  return {
    MarketCurrency: m.baseCurrencySymbol,
    BaseCurrency: m.quoteCurrencySymbol,
    MarketCurrencyLong: base?.name ?? m.baseCurrencySymbol,
    BaseCurrencyLong: quote?.name ?? m.quoteCurrencySymbol,
    MinTradeSize: m.minTradeSize,
    MarketName: symbolToV1Market(m.symbol),
    IsActive: m.status === 'ONLINE',
    IsRestricted: isRestrictedToV1(m.prohibitedIn),
    Created: m.createdAt,
    Notice: m.notice ?? null,
    IsSponsored: false,
    LogoUrl: base?.logoUrl ?? null,
  };
}

/**
 * getcurrencies item → v3 Currency: Currency → symbol, CurrencyLong → name, CoinType → coinType,
 * MinConfirmation → minConfirmations, TxFee → txFee, IsActive → status, IsRestricted → prohibitedIn.
 * BaseAddress is deprecated (dropped).
 */
export function currencyFromV1(c: V1Currency): Currency {
  const out: Currency = {
    symbol: c.Currency,
    name: c.CurrencyLong,
    coinType: c.CoinType,
    status: c.IsActive ? 'ONLINE' : 'OFFLINE',
    minConfirmations: c.MinConfirmation,
    txFee: c.TxFee,
    prohibitedIn: prohibitedInFromV1(c.IsRestricted),
  };
  if (c.Notice) out.notice = c.Notice;
  return out;
}

/** v3 Currency → getcurrencies item (BaseAddress from v3's optional baseAddress, else null). */
export function currencyToV1(c: Currency): V1Currency {
  return {
    Currency: c.symbol,
    CurrencyLong: c.name,
    MinConfirmation: c.minConfirmations,
    TxFee: c.txFee,
    IsActive: c.status === 'ONLINE',
    IsRestricted: isRestrictedToV1(c.prohibitedIn),
    CoinType: c.coinType,
    BaseAddress: c.baseAddress ?? null,
    Notice: c.notice ?? null,
  };
}

/** getticker item (of v1.1 market `market`) → v3 Ticker: Bid/Ask/Last → bidRate/askRate/lastTradeRate (null → 0). */
export function tickerFromV1(t: V1MarketTick, market: string): Ticker {
  return {
    symbol: symbolFromV1(market, 'market'),
    bidRate: t.Bid ?? ZERO,
    askRate: t.Ask ?? ZERO,
    lastTradeRate: t.Last ?? ZERO,
  };
}

/** v3 Ticker → getticker item. */
export function tickerToV1(t: Ticker): V1MarketTick {
  return { Bid: t.bidRate, Ask: t.askRate, Last: t.lastTradeRate };
}

/**
 * PrevDay (the price 24 h ago) → percentChange, in percent as v3 reports it (8 decimals); undefined without
 * a PrevDay or a Last, or when PrevDay is zero.
 */
export function percentChangeFromPrevDay(last: Decimal | null, prevDay: Decimal | null): Decimal | undefined {
  if (!last || !prevDay || prevDay.isZero()) return undefined;
  return last.minus(prevDay).div(prevDay).times(100).toDecimalPlaces(8);
}

/** percentChange → PrevDay: the last price divided by (1 + percentChange/100), 8 decimals; Last when unknown. */
export function prevDayFromPercentChange(last: Decimal, percentChange: Decimal | undefined): Decimal {
  if (percentChange === undefined) return last;
  const factor = percentChange.div(100).plus(1);
  return factor.isZero() ? last : last.div(factor).toDecimalPlaces(8);
}

/**
 * getmarketsummary item → v3 MarketSummary + Ticker (v3 moved Last/Bid/Ask to the ticker): MarketName reversed →
 * symbol, BaseVolume → quoteVolume, TimeStamp → updatedAt, PrevDay → percentChange. OpenBuyOrders,
 * OpenSellOrders are deprecated; Created belongs to v3 Market.createdAt.
 */
export function summaryFromV1(s: V1MarketSummary): { summary: MarketSummary; ticker: Ticker } {
  const symbol = symbolFromV1(s.MarketName);
  const summary: MarketSummary = {
    symbol,
    high: s.High ?? ZERO,
    low: s.Low ?? ZERO,
    volume: s.Volume ?? ZERO,
    quoteVolume: s.BaseVolume ?? ZERO,
    updatedAt: s.TimeStamp,
  };
  const pct = percentChangeFromPrevDay(s.Last, s.PrevDay);
  if (pct !== undefined) summary.percentChange = pct;
  const ticker: Ticker = { symbol, lastTradeRate: s.Last ?? ZERO, bidRate: s.Bid ?? ZERO, askRate: s.Ask ?? ZERO };
  return { summary, ticker };
}

/** What v1.1 shows in a summary beyond the v3 summary and ticker. */
export interface V1SummaryExtras {
  /** The market's createdAt (v3 Market). */
  created?: Date | undefined;
  /** Open order counts per side (deprecated in v3; the simulator counts its book's orders). */
  openBuyOrders?: number | undefined;
  openSellOrders?: number | undefined;
}

/** v3 MarketSummary + Ticker → getmarketsummary item. */
export function summaryToV1(s: MarketSummary, t: Ticker, extras: V1SummaryExtras = {}): V1MarketSummary {
  return {
    MarketName: symbolToV1Market(s.symbol),
    High: s.high,
    Low: s.low,
    Volume: s.volume,
    Last: t.lastTradeRate,
    BaseVolume: s.quoteVolume,
    TimeStamp: s.updatedAt,
    Bid: t.bidRate,
    Ask: t.askRate,
    OpenBuyOrders: extras.openBuyOrders ?? 0,
    OpenSellOrders: extras.openSellOrders ?? 0,
    PrevDay: prevDayFromPercentChange(t.lastTradeRate, s.percentChange),
    Created: extras.created ?? null,
    DisplayMarketName: null,
  };
}

const entryFromV1 = (e: V1OrderBookEntry): OrderBookEntry => ({ quantity: e.quantity, rate: e.rate });
const entryToV1 = (e: OrderBookEntry): V1OrderBookEntry => ({ quantity: e.quantity, rate: e.rate });

/** getorderbook → v3 OrderBook: buy → bid, sell → ask. */
export function orderBookFromV1(b: V1OrderBook): OrderBook {
  return { bid: b.buy.map(entryFromV1), ask: b.sell.map(entryFromV1) };
}

/** Which sides getorderbook answers (v3 has no single-side option; its depth limit has no v1.1 equivalent). */
export type V1BookType = 'buy' | 'sell' | 'both';

/** v3 OrderBook → getorderbook (the side not asked for left empty). */
export function orderBookToV1(b: OrderBook, type: V1BookType = 'both'): V1OrderBook {
  return {
    buy: type === 'sell' ? [] : b.bid.map(entryToV1),
    sell: type === 'buy' ? [] : b.ask.map(entryToV1),
  };
}

/**
 * getmarkethistory item → v3 Trade: Price → rate, TimeStamp → executedAt, OrderType → takerSide, Uuid → id (the
 * int Id as text when there is no Uuid). Total and FillType are deprecated.
 */
export function tradeFromV1(h: V1MarketHistoryEntry): Trade {
  return {
    id: h.Uuid ?? String(h.Id),
    executedAt: h.TimeStamp,
    quantity: h.Quantity,
    rate: h.Price,
    takerSide: h.OrderType,
  };
}

/**
 * v3 Trade → getmarkethistory item. v1.1's Id is an int where v3's is a uuid, so the caller numbers trades
 * (`numericId`); Total = quantity × rate; FillType `FILL` (v3 does not say whether the taker filled fully).
 */
export function tradeToV1(t: Trade, numericId: number): V1MarketHistoryEntry {
  return {
    Id: numericId,
    TimeStamp: t.executedAt,
    Quantity: t.quantity,
    Price: t.rate,
    Total: t.quantity.times(t.rate).toDecimalPlaces(8),
    FillType: 'FILL',
    OrderType: t.takerSide,
    Uuid: t.id,
  };
}
