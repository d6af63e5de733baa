/**
 * Typed v1.1 hub messages (seed 001, section 6; api-spec-v1-1.json definitions "… Delta - u?") in their
 * expanded form: the full field names of the official document, exact decimals, dates. The decoders take a
 * payload whose keys are already expanded ({@link expandKeys}); {@link decodeV1Message} does both steps.
 *
 * What the wire really carried, where the document is vague (WIRE-style notes):
 * - Numbers are JSON numbers (`"R":388.4071`, `6.49e-06`), not strings; payload text is parsed losslessly
 *   (wire/v1/json.ts), so `226094608.67016906` stays exactly that.
 * - Dates are epoch milliseconds in the 2021 captures (`"T":1618677730440`); older servers sent ISO text without
 *   a zone (`"2017-11-27T14:07:43.58"`), which meant UTC. Both are accepted.
 * - uS carries `D` (Deltas, an array of summaries), although the seed's table says `Delta`: the 2021 captures
 *   show `{"N":5740617,"D":[{"M":"BTC-LTC",…}]}`, and the document's own key list has `D Deltas`.
 * - QueryExchangeState fills carry `U` (Uuid) besides the documented fields; QuerySummaryState returns its
 *   summaries under `s` (Summaries), where the document's schema mislabels them `Fills`.
 */
import type { Decimal } from '../../../core/decimal.js';
import { WireFormatError } from '../../../core/errors.js';
import { arrayOf, bool, type Decoder, object, oneOf, str } from '../../../model/decode.js';
import { v1date, v1dec as dec, v1int as int } from '../decode.js';
import { expandKeys } from './minified-keys.js';

/** v1.1 exchange-delta row type: 0 ADD, 1 REMOVE, 2 UPDATE. */
export type V1BookDeltaType = 0 | 1 | 2;
/** v1.1 order-delta type: 0 OPEN, 1 PARTIAL, 2 FILL, 3 CANCEL. */
export type V1OrderDeltaType = 0 | 1 | 2 | 3;
/** Side of a v1.1 fill (the taker's). */
export type V1FillSide = 'BUY' | 'SELL';

/** One price level of a QueryExchangeState result. */
export interface V1BookLevel {
  Quantity: Decimal;
  Rate: Decimal;
}
/** One row of a uE Buys/Sells array. */
export interface V1BookDelta extends V1BookLevel {
  Type: V1BookDeltaType;
}
/** A fill in a uE message. */
export interface V1DeltaFill {
  FillId: number;
  OrderType: V1FillSide;
  Rate: Decimal;
  Quantity: Decimal;
  TimeStamp: Date;
}
/** uE: changes to one market's book, and its fills, numbered by a per-connection nonce. */
export interface V1ExchangeDelta {
  MarketName: string;
  Nonce: number;
  Buys: V1BookDelta[];
  Sells: V1BookDelta[];
  Fills: V1DeltaFill[];
}
/** A recent fill in a QueryExchangeState result. */
export interface V1StateFill {
  Id: number;
  TimeStamp: Date;
  Quantity: Decimal;
  Price: Decimal;
  Total: Decimal;
  FillType: string;
  OrderType: V1FillSide;
  Uuid?: string;
}
/** QueryExchangeState: the whole book of one market at `Nonce`, and its latest fills (newest first). */
export interface V1ExchangeState {
  MarketName: string;
  Nonce: number;
  Buys: V1BookLevel[];
  Sells: V1BookLevel[];
  Fills: V1StateFill[];
}
/** One market summary, as uS and QuerySummaryState carry it. */
export interface V1SummaryDelta {
  MarketName: string;
  High: Decimal;
  Low: Decimal;
  Volume: Decimal;
  Last: Decimal;
  BaseVolume: Decimal;
  TimeStamp: Date;
  Bid: Decimal;
  Ask: Decimal;
  OpenBuyOrders: number;
  OpenSellOrders: number;
  PrevDay: Decimal;
  Created: Date;
}
/** uS: changed summaries. */
export interface V1SummaryDeltas {
  Nonce: number;
  Deltas: V1SummaryDelta[];
}
/** QuerySummaryState: every market's summary. */
export interface V1SummaryState {
  Nonce: number;
  Summaries: V1SummaryDelta[];
}
/** One row of uL. */
export interface V1LiteSummary {
  MarketName: string;
  Last: Decimal;
  BaseVolume: Decimal;
  PrevDay: Decimal;
}
/** uL: the light summary deltas. */
export interface V1LiteSummaryDeltas {
  Deltas: V1LiteSummary[];
}
/** The order inside a uO message. */
export interface V1OrderDeltaOrder {
  Uuid: string;
  OrderUuid: string;
  Id: number;
  Exchange: string;
  OrderType: string;
  Quantity: Decimal;
  QuantityRemaining: Decimal;
  Limit: Decimal;
  CommissionPaid: Decimal;
  Price: Decimal;
  PricePerUnit?: Decimal;
  Opened: Date;
  Closed?: Date;
  IsOpen: boolean;
  CancelInitiated: boolean;
  ImmediateOrCancel: boolean;
  IsConditional: boolean;
  Condition?: string;
  ConditionTarget?: Decimal;
  Updated: Date;
}
/** uO: one order of the authenticated account changed. */
export interface V1OrderDelta {
  AccountUuid: string;
  Nonce: number;
  Type: V1OrderDeltaType;
  Order: V1OrderDeltaOrder;
}
/** The balance inside a uB message. */
export interface V1BalanceDeltaBalance {
  Uuid: string;
  AccountId: number;
  Currency: string;
  Balance: Decimal;
  Available: Decimal;
  Pending: Decimal;
  CryptoAddress?: string;
  Requested: boolean;
  Updated: Date;
  AutoSell?: boolean;
}
/** uB: one balance of the authenticated account changed. */
export interface V1BalanceDelta {
  Nonce: number;
  Delta: V1BalanceDeltaBalance;
}

/** A v1.1 date: epoch milliseconds (2021 wire) or zone-less ISO text meaning UTC (older wire). */
export const v1Date: Decoder<Date> = v1date;

function intIn<const T extends number>(values: readonly T[]): Decoder<T> {
  return (v, path, where) => {
    const n = int(v, path, where);
    if (!(values as readonly number[]).includes(n)) throw new WireFormatError(where, path, { reason: `is not one of ${values.join('|')}`, text: `is not one of ${values.join('|')}: ${n}` });
    return n as T;
  };
}

const side = oneOf(['BUY', 'SELL'] as const);
const level = object<V1BookLevel>({ Quantity: dec, Rate: dec }, {});
const bookDelta = object<V1BookDelta>({ Type: intIn([0, 1, 2] as const), Quantity: dec, Rate: dec }, {});
const deltaFill = object<V1DeltaFill>({ FillId: int, OrderType: side, Rate: dec, Quantity: dec, TimeStamp: v1Date }, {});
const stateFill = object<V1StateFill>(
  { Id: int, TimeStamp: v1Date, Quantity: dec, Price: dec, Total: dec, FillType: str, OrderType: side },
  { Uuid: str },
);
const summary = object<V1SummaryDelta>(
  {
    MarketName: str,
    High: dec,
    Low: dec,
    Volume: dec,
    Last: dec,
    BaseVolume: dec,
    TimeStamp: v1Date,
    Bid: dec,
    Ask: dec,
    OpenBuyOrders: int,
    OpenSellOrders: int,
    PrevDay: dec,
    Created: v1Date,
  },
  {},
);

/** Decoders of the expanded payloads, by callback or method name. */
export const V1_DECODERS = {
  uE: object<V1ExchangeDelta>(
    { MarketName: str, Nonce: int, Buys: arrayOf(bookDelta), Sells: arrayOf(bookDelta), Fills: arrayOf(deltaFill) },
    {},
  ),
  uS: object<V1SummaryDeltas>({ Nonce: int, Deltas: arrayOf(summary) }, {}),
  uL: object<V1LiteSummaryDeltas>(
    { Deltas: arrayOf(object<V1LiteSummary>({ MarketName: str, Last: dec, BaseVolume: dec, PrevDay: dec }, {})) },
    {},
  ),
  uO: object<V1OrderDelta>(
    {
      AccountUuid: str,
      Nonce: int,
      Type: intIn([0, 1, 2, 3] as const),
      Order: object<V1OrderDeltaOrder>(
        {
          Uuid: str,
          OrderUuid: str,
          Id: int,
          Exchange: str,
          OrderType: str,
          Quantity: dec,
          QuantityRemaining: dec,
          Limit: dec,
          CommissionPaid: dec,
          Price: dec,
          Opened: v1Date,
          IsOpen: bool,
          CancelInitiated: bool,
          ImmediateOrCancel: bool,
          IsConditional: bool,
          Updated: v1Date,
        },
        { PricePerUnit: dec, Closed: v1Date, Condition: str, ConditionTarget: dec },
      ),
    },
    {},
  ),
  uB: object<V1BalanceDelta>(
    {
      Nonce: int,
      Delta: object<V1BalanceDeltaBalance>(
        {
          Uuid: str,
          AccountId: int,
          Currency: str,
          Balance: dec,
          Available: dec,
          Pending: dec,
          Requested: bool,
          Updated: v1Date,
        },
        { CryptoAddress: str, AutoSell: bool },
      ),
    },
    {},
  ),
  QueryExchangeState: object<V1ExchangeState>(
    { MarketName: str, Nonce: int, Buys: arrayOf(level), Sells: arrayOf(level), Fills: arrayOf(stateFill) },
    {},
  ),
  QuerySummaryState: object<V1SummaryState>({ Nonce: int, Summaries: arrayOf(summary) }, {}),
} as const;

/** The v1.1 payload kinds: the five callbacks and the two query results. */
export type V1MessageName = keyof typeof V1_DECODERS;

/** The typed message of each kind. */
export interface V1Messages {
  uE: V1ExchangeDelta;
  uS: V1SummaryDeltas;
  uL: V1LiteSummaryDeltas;
  uO: V1OrderDelta;
  uB: V1BalanceDelta;
  QueryExchangeState: V1ExchangeState;
  QuerySummaryState: V1SummaryState;
}

/** The five callbacks, exactly as the server names them. */
export const V1_CALLBACKS = ['uE', 'uS', 'uL', 'uO', 'uB'] as const;
/** A v1.1 callback name. */
export type V1Callback = (typeof V1_CALLBACKS)[number];

/**
 * Expand and decode one inflated payload (JSON value with minified keys, numbers as lossless-json parsed them) of kind `name`.
 * Throws {@link WireFormatError} (`where` = `v1.1 <name>`) naming the expanded field.
 *
 * @example
 * decodeV1Message('uE', { M: 'BTC-ETH', N: 5, Z: [{ TY: 1, R: 0.05, Q: 0 }], S: [], f: [] }).Buys[0].Type // 1
 */
export function decodeV1Message<K extends V1MessageName>(name: K, inflated: unknown): V1Messages[K] {
  const where = `v1.1 ${name}`;
  const decoder = V1_DECODERS[name] as unknown as Decoder<V1Messages[K]>;
  return decoder(expandKeys(inflated, where), '', where);
}
