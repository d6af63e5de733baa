/** Orders, executions and batch records. */
import type { Decimal } from '../core/decimal.js';
import { arrayOf, bool, date, dec, id, int, json, object, oneOf, str, type Decoder } from './decode.js';
import {
  BATCH_OPERATIONS,
  ORDER_DIRECTIONS,
  ORDER_STATUSES,
  ORDER_TO_CANCEL_TYPES,
  ORDER_TYPES,
  TIME_IN_FORCES,
  type OrderDirection,
  type OrderStatus,
  type OrderToCancelType,
  type OrderType,
  type TimeInForce,
} from './enums.js';

/** Link to the paired item cancelled when this one executes (reciprocal). */
export interface OrderToCancel {
  type: OrderToCancelType;
  id: string;
}
export const decodeOrderToCancel: Decoder<OrderToCancel> = object<OrderToCancel>(
  { type: oneOf(ORDER_TO_CANCEL_TYPES), id: id },
  {},
);

/**
 * Request body of POST /orders. `quantity` for LIMIT and MARKET, `ceiling` for ceiling orders; `limit` for LIMIT
 * and CEILING_LIMIT. Amounts are decimals (or their string form) so no float ever touches money.
 */
export interface NewOrder {
  marketSymbol: string;
  direction: OrderDirection;
  type: OrderType;
  timeInForce: TimeInForce;
  /** Base quantity (LIMIT, MARKET). */
  quantity?: Decimal;
  /** Quote amount (CEILING_LIMIT, CEILING_MARKET). */
  ceiling?: Decimal;
  /** Limit price (LIMIT, CEILING_LIMIT). */
  limit?: Decimal;
  clientOrderId?: string;
  useAwards?: boolean;
}
export const decodeNewOrder: Decoder<NewOrder> = object<NewOrder>(
  {
    marketSymbol: str,
    direction: oneOf(ORDER_DIRECTIONS),
    type: oneOf(ORDER_TYPES),
    timeInForce: oneOf(TIME_IN_FORCES),
  },
  { quantity: dec, ceiling: dec, limit: dec, clientOrderId: id, useAwards: bool },
);

/** An order as the service reports it. */
export interface Order {
  id: string;
  marketSymbol: string;
  direction: OrderDirection;
  type: OrderType;
  timeInForce: TimeInForce;
  quantity?: Decimal;
  limit?: Decimal;
  ceiling?: Decimal;
  clientOrderId?: string;
  /** Filled quantity in base currency. */
  fillQuantity: Decimal;
  /** Commission paid, in quote currency. */
  commission: Decimal;
  /** Quote paid (buy) or received (sell), before commission. */
  proceeds: Decimal;
  status: OrderStatus;
  createdAt: Date;
  updatedAt?: Date;
  closedAt?: Date;
  orderToCancel?: OrderToCancel;
}
export const decodeOrder: Decoder<Order> = object<Order>(
  {
    id: id,
    marketSymbol: str,
    direction: oneOf(ORDER_DIRECTIONS),
    type: oneOf(ORDER_TYPES),
    timeInForce: oneOf(TIME_IN_FORCES),
    fillQuantity: dec,
    commission: dec,
    proceeds: dec,
    status: oneOf(ORDER_STATUSES),
    createdAt: date,
  },
  {
    quantity: dec,
    limit: dec,
    ceiling: dec,
    clientOrderId: id,
    updatedAt: date,
    closedAt: date,
    orderToCancel: decodeOrderToCancel,
  },
);

/** A fill of one of the account's orders. Immutable. */
export interface Execution {
  id: string;
  marketSymbol: string;
  executedAt: Date;
  quantity: Decimal;
  rate: Decimal;
  orderId: string;
  /** Commission in quote currency. */
  commission: Decimal;
  isTaker: boolean;
  /**
   * Not in the seed nor the official OpenAPI, but sent by the service by 2022 (raw GET /executions
   * responses quoted in ccxt issues #14734 and #14746): the taker side of the trade — on a maker execution the
   * OPPOSITE of the order's direction (ccxt PR #15655 verified this live and flips it for makers). Use the
   * order's direction for the account's side, never this field.
   */
  direction?: OrderDirection;
}
export const decodeExecution: Decoder<Execution> = object<Execution>(
  {
    id: id,
    marketSymbol: str,
    executedAt: date,
    quantity: dec,
    rate: dec,
    orderId: id,
    commission: dec,
    isTaker: bool,
  },
  { direction: oneOf(ORDER_DIRECTIONS) },
);

/** GET /executions/last-id body; the Sequence header comes with it. */
export interface ExecutionLastId {
  lastId?: string;
}
export const decodeExecutionLastId: Decoder<ExecutionLastId> = object<ExecutionLastId>({}, { lastId: id });

/** One operation of POST /batch. */
export type BatchOperation =
  | { resource: 'ORDER'; operation: 'POST'; payload: NewOrder }
  | { resource: 'ORDER'; operation: 'DELETE'; payload: { id: string } };

/** One result of POST /batch: `status` as the individual request would answer, an Order or an Error payload. */
export type BatchResponse =
  | { status: number; ok: true; payload: Order }
  | { status: number; ok: false; payload: ApiErrorBody };

/** The service's error body. */
export interface ApiErrorBody {
  code: string;
  detail?: string;
  data?: Record<string, unknown>;
}
export const decodeApiErrorBody: Decoder<ApiErrorBody> = object<ApiErrorBody>(
  { code: str },
  { detail: str, data: json as Decoder<Record<string, unknown>> },
);

export const decodeBatchResponse: Decoder<BatchResponse> = (v, path, where) => {
  const raw = object<{ status: number; payload: NonNullable<unknown> }>(
    { status: int, payload: json as Decoder<NonNullable<unknown>> },
    {},
  )(v, path, where);
  if (raw.status >= 200 && raw.status < 300) {
    return { status: raw.status, ok: true, payload: decodeOrder(raw.payload, `${path}.payload`, where) };
  }
  return { status: raw.status, ok: false, payload: decodeApiErrorBody(raw.payload, `${path}.payload`, where) };
};

/** One result of DELETE /orders/open. */
export interface BulkCancelResult {
  id: string;
  statusCode: string;
  result?: Order;
}
export const decodeBulkCancelResult: Decoder<BulkCancelResult> = object<BulkCancelResult>(
  { id: id, statusCode: str },
  { result: decodeOrder },
);

export const BATCH_OPERATION_KINDS = BATCH_OPERATIONS;
export const decodeOrders = arrayOf(decodeOrder);
