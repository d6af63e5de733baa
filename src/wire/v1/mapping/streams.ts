/**
 * v1.1 hub payloads ⇄ v3 stream messages (seed section 9): uE ⇄ orderBook + trade, uS ⇄ marketSummaries +
 * tickers, uL ⇄ marketSummary + ticker fields, uO ⇄ order, uB ⇄ balance.
 *
 * Renames: Nonce → sequence, Buys/Sells → bidDeltas/askDeltas, FillId → trade id (int there, uuid in v3),
 * fill Rate → rate, TimeStamp → executedAt, OrderType → takerSide, IsOpen → status (OPEN, CLOSED), AccountUuid →
 * accountId, Updated → updatedAt. Deprecated: the delta Type (in v3 quantity 0 means removal), uO Type, Uuid and
 * Id, uB Uuid, Pending and AutoSell; uB's int AccountId is a uuid in v3, so the caller names the account.
 *
 * The input types are structural (the fields used, in expanded key names), so the hub's decoded messages
 * (`wire/v1/hub`) and hand-built values both fit.
 */
import type { Decimal } from '../../../core/decimal.js';
import type { OrderBookEntry, MarketSummary, Ticker, Trade } from '../../../model/market.js';
import type { Order } from '../../../model/order.js';
import type { Balance } from '../../../model/wallet.js';
import { symbolToV1Market } from '../market-name.js';
import type { V1MarketSummary, V1Order } from '../rest-types.js';
import { percentChangeFromPrevDay, symbolFromV1, summaryFromV1 } from './market-data.js';
import { orderFromV1, orderToV1 } from './orders.js';

/** uE row type: 0 ADD, 1 REMOVE, 2 UPDATE. */
export const V1_BOOK_DELTA = { ADD: 0, REMOVE: 1, UPDATE: 2 } as const;

/** One uE Buys/Sells row. */
export interface V1BookDeltaRow {
  Type: number;
  Rate: Decimal;
  Quantity: Decimal;
}
/** One uE fill (the 2021 wire adds the trade's uuid as `Uuid`). */
export interface V1FillRow {
  FillId: number;
  OrderType: 'BUY' | 'SELL';
  Rate: Decimal;
  Quantity: Decimal;
  TimeStamp: Date;
  Uuid?: string | null | undefined;
}
/** uE, expanded. */
export interface V1ExchangeDeltaLike {
  MarketName: string;
  Nonce: number;
  Buys: readonly V1BookDeltaRow[];
  Sells: readonly V1BookDeltaRow[];
  Fills: readonly V1FillRow[];
}

/** A uE row → v3 book delta: REMOVE becomes quantity 0 (v3's removal). */
export function bookDeltaFromV1(row: V1BookDeltaRow): OrderBookEntry {
  return { rate: row.Rate, quantity: row.Type === V1_BOOK_DELTA.REMOVE ? row.Quantity.mul(0) : row.Quantity };
}

/**
 * A v3 book delta → uE row: quantity 0 is REMOVE; otherwise ADD when the level is new (`existed` false) and
 * UPDATE when it was already there. Without that knowledge a level is UPDATE, which v1.1 books apply the same way.
 */
export function bookDeltaToV1(e: OrderBookEntry, existed = true): V1BookDeltaRow {
  const Type = e.quantity.isZero() ? V1_BOOK_DELTA.REMOVE : existed ? V1_BOOK_DELTA.UPDATE : V1_BOOK_DELTA.ADD;
  return { Type, Rate: e.rate, Quantity: e.quantity };
}

/** A uE fill → v3 Trade (FillId as text when the fill carries no uuid). */
export function fillFromV1(f: V1FillRow): Trade {
  return { id: f.Uuid ?? String(f.FillId), executedAt: f.TimeStamp, quantity: f.Quantity, rate: f.Rate, takerSide: f.OrderType };
}

/** A v3 Trade → uE fill; the caller numbers fills (v1.1 FillId is an int). */
export function fillToV1(t: Trade, fillId: number): V1FillRow {
  return { FillId: fillId, OrderType: t.takerSide, Rate: t.rate, Quantity: t.quantity, TimeStamp: t.executedAt, Uuid: t.id };
}

/**
 * uE → the v3 orderBook deltas and trades it carries, numbered by `sequence` = Nonce (per connection on v1.1:
 * compare only within one connection).
 */
export function exchangeDeltaFromV1(d: V1ExchangeDeltaLike): {
  marketSymbol: string;
  sequence: number;
  bidDeltas: OrderBookEntry[];
  askDeltas: OrderBookEntry[];
  trades: Trade[];
} {
  return {
    marketSymbol: symbolFromV1(d.MarketName),
    sequence: d.Nonce,
    bidDeltas: d.Buys.map(bookDeltaFromV1),
    askDeltas: d.Sells.map(bookDeltaFromV1),
    trades: d.Fills.map(fillFromV1),
  };
}

/** uS/QuerySummaryState summary, expanded (DisplayMarketName is not sent on the hub). */
export type V1SummaryLike = Omit<V1MarketSummary, 'DisplayMarketName' | 'Created'> & { Created?: Date | null | undefined };

/** uS → v3 marketSummaries + tickers deltas with sequence = Nonce. */
export function summaryDeltasFromV1(d: { Nonce: number; Deltas: readonly V1SummaryLike[] }): {
  sequence: number;
  summaries: MarketSummary[];
  tickers: Ticker[];
} {
  const mapped = d.Deltas.map((s) => summaryFromV1({ ...s, Created: s.Created ?? null, DisplayMarketName: null }));
  return { sequence: d.Nonce, summaries: mapped.map((m) => m.summary), tickers: mapped.map((m) => m.ticker) };
}

/** One uL row. */
export interface V1LiteSummaryLike {
  MarketName: string;
  Last: Decimal;
  BaseVolume: Decimal;
  PrevDay: Decimal;
}

/** uL row → the v3 fields it carries: symbol, lastTradeRate (Ticker), quoteVolume and percentChange (MarketSummary). */
export function liteSummaryFromV1(l: V1LiteSummaryLike): {
  symbol: string;
  lastTradeRate: Decimal;
  quoteVolume: Decimal;
  percentChange: Decimal | undefined;
} {
  return {
    symbol: symbolFromV1(l.MarketName),
    lastTradeRate: l.Last,
    quoteVolume: l.BaseVolume,
    percentChange: percentChangeFromPrevDay(l.Last, l.PrevDay),
  };
}

/** uO's order, expanded: a REST order plus IsOpen and Updated. */
export interface V1OrderDeltaOrderLike {
  OrderUuid: string;
  Exchange: string;
  OrderType: string;
  Quantity: Decimal;
  QuantityRemaining: Decimal;
  Limit?: Decimal | null | undefined;
  CommissionPaid: Decimal;
  Price: Decimal;
  Opened: Date;
  Closed?: Date | null | undefined;
  IsOpen: boolean;
  ImmediateOrCancel: boolean;
  Updated?: Date | null | undefined;
}

/** uO type: 0 OPEN, 1 PARTIAL, 2 FILL, 3 CANCEL (deprecated in v3: the order's state says it). */
export const V1_ORDER_DELTA = { OPEN: 0, PARTIAL: 1, FILL: 2, CANCEL: 3 } as const;

/** uO → v3 order message: AccountUuid → accountId, Nonce → sequence, IsOpen → status, Updated → updatedAt. */
export function orderDeltaFromV1(d: { AccountUuid: string; Nonce: number; Order: V1OrderDeltaOrderLike }): {
  accountId: string;
  sequence: number;
  delta: Order;
} {
  const o = d.Order;
  const rest: V1Order = {
    Uuid: null, OrderUuid: o.OrderUuid, Exchange: o.Exchange, OrderType: o.OrderType, Quantity: o.Quantity,
    QuantityRemaining: o.QuantityRemaining, Limit: o.Limit ?? null, CommissionPaid: o.CommissionPaid, Price: o.Price,
    PricePerUnit: null, Opened: o.Opened, Closed: o.Closed ?? null, CancelInitiated: false,
    ImmediateOrCancel: o.ImmediateOrCancel, IsConditional: false, Condition: null, ConditionTarget: null,
  };
  const delta = orderFromV1(rest);
  delta.status = o.IsOpen ? 'OPEN' : 'CLOSED';
  if (o.Updated) delta.updatedAt = o.Updated;
  return { accountId: d.AccountUuid, sequence: d.Nonce, delta };
}

/** The uO Type for a v3 order (CANCEL when closed unfilled or part-filled below its quantity, FILL when filled). */
export function orderDeltaTypeOf(o: Order): number {
  const filled = o.fillQuantity;
  if (o.status === 'CLOSED') return o.quantity && filled.lt(o.quantity) ? V1_ORDER_DELTA.CANCEL : V1_ORDER_DELTA.FILL;
  return filled.isZero() ? V1_ORDER_DELTA.OPEN : V1_ORDER_DELTA.PARTIAL;
}

/** v3 order message → uO (Id, the deprecated int, is the caller's `orderNumber`). */
export function orderDeltaToV1(accountId: string, sequence: number, o: Order, orderNumber = 0) {
  const v1 = orderToV1(o);
  return {
    AccountUuid: accountId,
    Nonce: sequence,
    Type: orderDeltaTypeOf(o),
    Order: { ...v1, Uuid: o.id, Id: orderNumber, IsOpen: o.status === 'OPEN', Updated: o.updatedAt ?? o.createdAt },
  };
}

/** uB's balance, expanded. */
export interface V1BalanceDeltaLike {
  Currency: string;
  Balance: Decimal;
  Available: Decimal;
  Updated: Date;
}

/**
 * uB → v3 balance message: Nonce → sequence, Balance → total, Updated → updatedAt. v1.1's AccountId is an int
 * where v3's accountId is a uuid, so the caller says which account (`accountId`).
 */
export function balanceDeltaFromV1(d: { Nonce: number; Delta: V1BalanceDeltaLike }, accountId: string): {
  accountId: string;
  sequence: number;
  delta: Balance;
} {
  const b = d.Delta;
  return { accountId, sequence: d.Nonce, delta: { currencySymbol: b.Currency, total: b.Balance, available: b.Available, updatedAt: b.Updated } };
}

/** v3 balance message → uB (Uuid, Pending, AutoSell deprecated; AccountId the caller's int `accountNumber`). */
export function balanceDeltaToV1(sequence: number, b: Balance, accountNumber = 0) {
  return {
    Nonce: sequence,
    Delta: {
      Uuid: null, AccountId: accountNumber, Currency: b.currencySymbol, Balance: b.total, Available: b.available,
      Pending: b.total.mul(0), CryptoAddress: null, Requested: false, Updated: b.updatedAt, AutoSell: false,
    },
  };
}

/** v3 market symbol in uE/uS/uL (MarketName): reversed. */
export function streamMarketName(symbol: string): string {
  return symbolToV1Market(symbol);
}
