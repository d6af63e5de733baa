/**
 * The v1.1 REST resources (seed section 2) as exact values, and their decoders.
 *
 * Field names are v1.1's own (PascalCase, as on the wire), so one type serves the client that reads them and the
 * simulator that writes them (`stringifyV1`). Amounts are {@link Decimal}, date-times `Date`, and what v1.1 sends
 * as `null` is `null`. Decoders are lenient where the service was (nullable flags and texts), strict where a
 * wrong value would corrupt state (ids, amounts, order types).
 */
import type { Decimal } from '../../core/decimal.js';
import type { Decoder } from '../../model/decode.js';
import { nullable, v1any, v1array, v1bool, v1date, v1dec, v1int, v1object, v1oneOf, v1str } from './decode.js';

/** The wrapper every v1.1 answer comes in (seed section 2: Result). */
export interface V1Result<T> {
  success: boolean;
  message: string;
  result: T | null;
}

/** /public/getmarkets item. MarketName is `<BaseCurrency>-<MarketCurrency>` (`BTC-LTC`). */
export interface V1Market {
  MarketCurrency: string;
  BaseCurrency: string;
  MarketCurrencyLong: string | null;
  BaseCurrencyLong: string | null;
  MinTradeSize: Decimal;
  MarketName: string;
  IsActive: boolean;
  IsRestricted: boolean | null;
  Created: Date | null;
  Notice: string | null;
  IsSponsored: boolean | null;
  LogoUrl: string | null;
}
export const decodeV1Market: Decoder<V1Market> = v1object<V1Market>({
  MarketCurrency: v1str,
  BaseCurrency: v1str,
  MarketCurrencyLong: nullable(v1str),
  BaseCurrencyLong: nullable(v1str),
  MinTradeSize: v1dec,
  MarketName: v1str,
  IsActive: v1bool,
  IsRestricted: nullable(v1bool),
  Created: nullable(v1date),
  Notice: nullable(v1str),
  IsSponsored: nullable(v1bool),
  LogoUrl: nullable(v1str),
});

/** Currency coin types (seed section 2). Decoders accept other strings: the list grew with the service. */
export const V1_COIN_TYPES = [
  'ADA', 'ANTSHARES', 'BITCOIN', 'BITCOIN_STEALTH', 'BITSHAREX', 'CRYPTO_NOTE_PAYMENTID', 'ETH', 'ETH_CONTRACT',
  'FIAT', 'LISK', 'LUMEN', 'NEM', 'NXT', 'OMNI', 'RIPPLE', 'STEEM', 'TRON', 'WAVES', 'WAVES_ASSET',
] as const;

/** /public/getcurrencies item. */
export interface V1Currency {
  Currency: string;
  CurrencyLong: string;
  MinConfirmation: number;
  TxFee: Decimal;
  IsActive: boolean;
  IsRestricted: boolean | null;
  CoinType: string;
  BaseAddress: string | null;
  Notice: string | null;
}
export const decodeV1Currency: Decoder<V1Currency> = v1object<V1Currency>({
  Currency: v1str,
  CurrencyLong: v1str,
  MinConfirmation: v1int,
  TxFee: v1dec,
  IsActive: v1bool,
  IsRestricted: nullable(v1bool),
  CoinType: v1str,
  BaseAddress: nullable(v1str),
  Notice: nullable(v1str),
});

/** /public/getticker item. Null on a market that never traded. */
export interface V1MarketTick {
  Bid: Decimal | null;
  Ask: Decimal | null;
  Last: Decimal | null;
}
export const decodeV1MarketTick: Decoder<V1MarketTick> = v1object<V1MarketTick>({
  Bid: nullable(v1dec),
  Ask: nullable(v1dec),
  Last: nullable(v1dec),
});

/** /public/getmarketsummaries and /public/getmarketsummary item (last 24 h). */
export interface V1MarketSummary {
  MarketName: string;
  High: Decimal | null;
  Low: Decimal | null;
  Volume: Decimal | null;
  Last: Decimal | null;
  BaseVolume: Decimal | null;
  TimeStamp: Date;
  Bid: Decimal | null;
  Ask: Decimal | null;
  OpenBuyOrders: number | null;
  OpenSellOrders: number | null;
  PrevDay: Decimal | null;
  Created: Date | null;
  DisplayMarketName: string | null;
}
export const decodeV1MarketSummary: Decoder<V1MarketSummary> = v1object<V1MarketSummary>({
  MarketName: v1str,
  High: nullable(v1dec),
  Low: nullable(v1dec),
  Volume: nullable(v1dec),
  Last: nullable(v1dec),
  BaseVolume: nullable(v1dec),
  TimeStamp: v1date,
  Bid: nullable(v1dec),
  Ask: nullable(v1dec),
  OpenBuyOrders: nullable(v1int),
  OpenSellOrders: nullable(v1int),
  PrevDay: nullable(v1dec),
  Created: nullable(v1date),
  DisplayMarketName: nullable(v1str),
});

/** One order book level (seed: `{quantity, rate}`). */
export interface V1OrderBookEntry {
  quantity: Decimal;
  rate: Decimal;
}
/**
 * WIRE: the seed and the official document write the level as `{quantity, rate}`; the service of 2014-2018 (its
 * old documentation, ccxt's v1.1 parser reading `Rate`/`Quantity`) wrote `{Quantity, Rate}`. Accept both.
 */
export const decodeV1OrderBookEntry: Decoder<V1OrderBookEntry> = (v, path, where) => {
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  const pascal = o.quantity === undefined && o.rate === undefined && (o.Quantity !== undefined || o.Rate !== undefined);
  return pascal
    ? { quantity: v1dec(o.Quantity, `${path}.Quantity`, where), rate: v1dec(o.Rate, `${path}.Rate`, where) }
    : v1object<V1OrderBookEntry>({ quantity: v1dec, rate: v1dec })(v, path, where);
};

/** /public/getorderbook: the requested side(s); a side not asked for is empty. */
export interface V1OrderBook {
  buy: V1OrderBookEntry[];
  sell: V1OrderBookEntry[];
}
const levels = v1array(decodeV1OrderBookEntry);
export const decodeV1OrderBook: Decoder<V1OrderBook> = (v, path, where) => {
  const o = v1object<{ buy: unknown; sell: unknown }>({ buy: v1any, sell: v1any })(v, path, where);
  return {
    buy: o.buy === null ? [] : levels(o.buy, `${path}.buy`, where),
    sell: o.sell === null ? [] : levels(o.sell, `${path}.sell`, where),
  };
};

/** /public/getmarkethistory item: a public trade. */
export interface V1MarketHistoryEntry {
  Id: number;
  TimeStamp: Date;
  Quantity: Decimal;
  Price: Decimal;
  Total: Decimal;
  FillType: string;
  /** The taker's side. */
  OrderType: 'BUY' | 'SELL';
  /** The trade's uuid, which later answers (and the v1.1 hub's fills, `U`) carry beside the int Id. */
  Uuid: string | null;
}
export const decodeV1MarketHistoryEntry: Decoder<V1MarketHistoryEntry> = v1object<V1MarketHistoryEntry>({
  Id: v1int,
  TimeStamp: v1date,
  Quantity: v1dec,
  Price: v1dec,
  Total: v1dec,
  FillType: v1str,
  OrderType: v1oneOf(['BUY', 'SELL'] as const),
  Uuid: nullable(v1str),
});

/**
 * /market/getopenorders and /account/getorder item. `OrderType` is `LIMIT_BUY` or `LIMIT_SELL` for the limit
 * orders v1.1 places; an order placed through v3 shows its own type (`MARKET_SELL`, `CEILING_LIMIT_BUY`).
 */
export interface V1Order {
  Uuid: string | null;
  OrderUuid: string;
  Exchange: string;
  OrderType: string;
  Quantity: Decimal;
  QuantityRemaining: Decimal;
  Limit: Decimal | null;
  CommissionPaid: Decimal;
  Price: Decimal;
  PricePerUnit: Decimal | null;
  Opened: Date;
  /** WIRE: declared boolean in the document, but a date-time or null in its examples and on the wire. */
  Closed: Date | null;
  CancelInitiated: boolean;
  ImmediateOrCancel: boolean;
  IsConditional: boolean;
  /** Deprecated without replacement; `"NONE"` on plain orders. */
  Condition: unknown;
  ConditionTarget: unknown;
}
export const decodeV1Order: Decoder<V1Order> = v1object<V1Order>({
  Uuid: nullable(v1str),
  OrderUuid: v1str,
  Exchange: v1str,
  OrderType: v1str,
  Quantity: v1dec,
  QuantityRemaining: v1dec,
  Limit: nullable(v1dec),
  CommissionPaid: v1dec,
  Price: v1dec,
  PricePerUnit: nullable(v1dec),
  Opened: v1date,
  Closed: nullable(v1date),
  CancelInitiated: v1bool,
  ImmediateOrCancel: v1bool,
  IsConditional: v1bool,
  Condition: v1any,
  ConditionTarget: v1any,
});

/** /account/getorderhistory item. Note the order type reads `BUY_LIMIT` here, `LIMIT_BUY` on open orders. */
export interface V1HistoryEntry {
  OrderUuid: string;
  Exchange: string;
  TimeStamp: Date;
  OrderType: string;
  Limit: Decimal | null;
  Quantity: Decimal;
  QuantityRemaining: Decimal;
  Commission: Decimal;
  Price: Decimal;
  PricePerUnit: Decimal | null;
  IsConditional: boolean;
  Condition: unknown;
  ConditionTarget: unknown;
  ImmediateOrCancel: boolean;
  Closed: Date | null;
}
export const decodeV1HistoryEntry: Decoder<V1HistoryEntry> = v1object<V1HistoryEntry>({
  OrderUuid: v1str,
  Exchange: v1str,
  TimeStamp: v1date,
  OrderType: v1str,
  Limit: nullable(v1dec),
  Quantity: v1dec,
  QuantityRemaining: v1dec,
  Commission: v1dec,
  Price: v1dec,
  PricePerUnit: nullable(v1dec),
  IsConditional: v1bool,
  Condition: v1any,
  ConditionTarget: v1any,
  ImmediateOrCancel: v1bool,
  Closed: nullable(v1date),
});

/** /account/getbalances item and /account/getbalance result. */
export interface V1Balance {
  Currency: string;
  Balance: Decimal;
  Available: Decimal;
  /** Deprecated without replacement (always zero in the simulator). */
  Pending: Decimal | null;
  CryptoAddress: string | null;
  /** True while a deposit address is being generated. */
  Requested: boolean | null;
  Uuid: string | null;
}
export const decodeV1Balance: Decoder<V1Balance> = v1object<V1Balance>({
  Currency: v1str,
  Balance: v1dec,
  Available: v1dec,
  Pending: nullable(v1dec),
  CryptoAddress: nullable(v1str),
  Requested: nullable(v1bool),
  Uuid: nullable(v1str),
});

/** /account/getdepositaddress item. */
export interface V1Address {
  Currency: string;
  Address: string;
}
export const decodeV1Address: Decoder<V1Address> = v1object<V1Address>({ Currency: v1str, Address: v1str });

/** /account/getwithdrawalhistory item: four flags instead of a state (seed section 3). */
export interface V1WithdrawalHistoryEntry {
  PaymentUuid: string;
  Currency: string;
  Amount: Decimal;
  Address: string;
  Opened: Date;
  Authorized: boolean;
  PendingPayment: boolean;
  TxCost: Decimal;
  TxId: string | null;
  Canceled: boolean;
  InvalidAddress: boolean;
}
export const decodeV1WithdrawalHistoryEntry: Decoder<V1WithdrawalHistoryEntry> = v1object<V1WithdrawalHistoryEntry>({
  PaymentUuid: v1str,
  Currency: v1str,
  Amount: v1dec,
  Address: v1str,
  Opened: v1date,
  Authorized: v1bool,
  PendingPayment: v1bool,
  TxCost: v1dec,
  TxId: nullable(v1str),
  Canceled: v1bool,
  InvalidAddress: v1bool,
});

/** /account/getdeposithistory item. */
export interface V1DepositHistoryEntry {
  Id: number;
  Amount: Decimal;
  Currency: string;
  Confirmations: number;
  LastUpdated: Date;
  TxId: string | null;
  CryptoAddress: string | null;
}
export const decodeV1DepositHistoryEntry: Decoder<V1DepositHistoryEntry> = v1object<V1DepositHistoryEntry>({
  Id: v1int,
  Amount: v1dec,
  Currency: v1str,
  Confirmations: v1int,
  LastUpdated: v1date,
  TxId: nullable(v1str),
  CryptoAddress: nullable(v1str),
});

/** Result of buylimit, selllimit, cancel and withdraw (seed: ResponseSuccessUuid). */
export interface V1Uuid {
  uuid: string;
}
export const decodeV1Uuid: Decoder<V1Uuid> = v1object<V1Uuid>({ uuid: v1str });
