/**
 * v1.1 ⇄ v3 for orders (seed section 9): buylimit/selllimit ⇄ POST /orders, getopenorders/getorder ⇄ Order,
 * getorderhistory ⇄ closed Order.
 *
 * Renames: Uuid/OrderUuid → id, Exchange (reversed) → marketSymbol, OrderType → type + direction,
 * QuantityRemaining → fillQuantity (quantity − remaining), CommissionPaid → commission, Price → proceeds,
 * Opened → createdAt, Closed → closedAt, ImmediateOrCancel → timeInForce, rate → limit, IsOpen/Closed → status.
 * Deprecated: PricePerUnit, CancelInitiated, Condition, ConditionTarget (conditional orders are separate in v3).
 */
import type { Decimal } from '../../../core/decimal.js';
import { ORDER_DIRECTIONS, ORDER_TYPES, type OrderDirection, type OrderType, type TimeInForce } from '../../../model/enums.js';
import type { NewOrder, Order } from '../../../model/order.js';
import { symbolToV1Market } from '../market-name.js';
import type { V1HistoryEntry, V1Order } from '../rest-types.js';
import { symbolFromV1 } from './market-data.js';
import { MappingError } from './mapping-error.js';

/** v1.1's time in force values (seed: IOC or GTC). */
export const V1_TIME_IN_FORCES = ['GTC', 'IOC'] as const;
/** A v1.1 time in force. */
export type V1TimeInForce = (typeof V1_TIME_IN_FORCES)[number];

/** v1.1 time in force → v3 (GTC → GOOD_TIL_CANCELLED, IOC → IMMEDIATE_OR_CANCEL). */
export function timeInForceFromV1(tif: V1TimeInForce): TimeInForce {
  return tif === 'IOC' ? 'IMMEDIATE_OR_CANCEL' : 'GOOD_TIL_CANCELLED';
}

/** v3 time in force → v1.1, or a MappingError for what v1.1 cannot place (FILL_OR_KILL, POST_ONLY_…, …). */
export function timeInForceToV1(tif: TimeInForce): V1TimeInForce {
  if (tif === 'GOOD_TIL_CANCELLED') return 'GTC';
  if (tif === 'IMMEDIATE_OR_CANCEL') return 'IOC';
  throw new MappingError('timeInForce', `${tif} has no v1.1 form (v1.1 places GTC or IOC limit orders only)`);
}

/** ImmediateOrCancel flag → v3 time in force. */
export function timeInForceFromFlag(immediateOrCancel: boolean): TimeInForce {
  return immediateOrCancel ? 'IMMEDIATE_OR_CANCEL' : 'GOOD_TIL_CANCELLED';
}

/** v3 time in force → the ImmediateOrCancel flag (fill-or-kill is immediate too). */
export function timeInForceToFlag(tif: TimeInForce): boolean {
  return tif === 'IMMEDIATE_OR_CANCEL' || tif === 'FILL_OR_KILL';
}

const TYPES = new Set<string>(ORDER_TYPES);
const DIRECTIONS = new Set<string>(ORDER_DIRECTIONS);

/**
 * OrderType → type + direction. Open orders write `LIMIT_BUY` (type first), order history `BUY_LIMIT`
 * (direction first); both are read.
 *
 * @example
 * orderTypeFromV1('LIMIT_SELL') // { type: 'LIMIT', direction: 'SELL' }
 * orderTypeFromV1('BUY_LIMIT')  // { type: 'LIMIT', direction: 'BUY' }
 */
export function orderTypeFromV1(orderType: string): { type: OrderType; direction: OrderDirection } {
  const cut = orderType.lastIndexOf('_');
  const head = orderType.slice(0, cut);
  const tail = orderType.slice(cut + 1);
  if (TYPES.has(head) && DIRECTIONS.has(tail)) return { type: head as OrderType, direction: tail as OrderDirection };
  const first = orderType.indexOf('_');
  const dir = orderType.slice(0, first);
  const rest = orderType.slice(first + 1);
  if (DIRECTIONS.has(dir) && TYPES.has(rest)) return { type: rest as OrderType, direction: dir as OrderDirection };
  throw new MappingError('OrderType', { reason: 'is not a v1.1 order type', text: `is not a v1.1 order type: ${JSON.stringify(orderType)}` });
}

/** type + direction → OrderType as open orders write it (`LIMIT_BUY`). */
export function orderTypeToV1(type: OrderType, direction: OrderDirection): string {
  return `${type}_${direction}`;
}

/** type + direction → OrderType as order history writes it (`BUY_LIMIT`). */
export function historyOrderTypeToV1(type: OrderType, direction: OrderDirection): string {
  return `${direction}_${type}`;
}

/** Average fill price (deprecated PricePerUnit): proceeds / filled, 8 decimals; null before any fill. */
export function pricePerUnit(proceeds: Decimal, filled: Decimal): Decimal | null {
  return filled.isZero() ? null : proceeds.div(filled).toDecimalPlaces(8);
}

/** getopenorders / getorder item → v3 Order. Closed set means CLOSED. */
export function orderFromV1(o: V1Order): Order {
  const { type, direction } = orderTypeFromV1(o.OrderType);
  const out: Order = {
    id: o.OrderUuid,
    marketSymbol: symbolFromV1(o.Exchange, 'Exchange'),
    direction,
    type,
    timeInForce: timeInForceFromFlag(o.ImmediateOrCancel),
    quantity: o.Quantity,
    fillQuantity: o.Quantity.minus(o.QuantityRemaining),
    commission: o.CommissionPaid,
    proceeds: o.Price,
    status: o.Closed ? 'CLOSED' : 'OPEN',
    createdAt: o.Opened,
  };
  if (o.Limit !== null) out.limit = o.Limit;
  if (o.Closed) out.closedAt = o.Closed;
  return out;
}

/** The quantity v1.1 shows for an order (a ceiling order has none in v3: its fill so far). */
function v1Quantity(o: Order): Decimal {
  return o.quantity ?? o.fillQuantity;
}

/** When a CLOSED order closed (closedAt, else its last update). */
function closedAtOf(o: Order): Date | null {
  if (o.status !== 'CLOSED') return null;
  return o.closedAt ?? o.updatedAt ?? o.createdAt;
}

/** v3 Order → getopenorders / getorder item. */
export function orderToV1(o: Order): V1Order {
  const quantity = v1Quantity(o);
  return {
    Uuid: null,
    OrderUuid: o.id,
    Exchange: symbolToV1Market(o.marketSymbol),
    OrderType: orderTypeToV1(o.type, o.direction),
    Quantity: quantity,
    QuantityRemaining: quantity.minus(o.fillQuantity),
    Limit: o.limit ?? null,
    CommissionPaid: o.commission,
    Price: o.proceeds,
    PricePerUnit: pricePerUnit(o.proceeds, o.fillQuantity),
    Opened: o.createdAt,
    Closed: closedAtOf(o),
    CancelInitiated: false,
    ImmediateOrCancel: timeInForceToFlag(o.timeInForce),
    IsConditional: false,
    Condition: 'NONE',
    ConditionTarget: null,
  };
}

/** getorderhistory item → v3 Order (closed): TimeStamp → createdAt, Commission → commission. */
export function historyFromV1(h: V1HistoryEntry): Order {
  const { type, direction } = orderTypeFromV1(h.OrderType);
  const out: Order = {
    id: h.OrderUuid,
    marketSymbol: symbolFromV1(h.Exchange, 'Exchange'),
    direction,
    type,
    timeInForce: timeInForceFromFlag(h.ImmediateOrCancel),
    quantity: h.Quantity,
    fillQuantity: h.Quantity.minus(h.QuantityRemaining),
    commission: h.Commission,
    proceeds: h.Price,
    status: 'CLOSED',
    createdAt: h.TimeStamp,
  };
  if (h.Limit !== null) out.limit = h.Limit;
  if (h.Closed) out.closedAt = h.Closed;
  return out;
}

/** v3 Order (closed) → getorderhistory item. */
export function orderToV1History(o: Order): V1HistoryEntry {
  const quantity = v1Quantity(o);
  return {
    OrderUuid: o.id,
    Exchange: symbolToV1Market(o.marketSymbol),
    TimeStamp: o.createdAt,
    OrderType: historyOrderTypeToV1(o.type, o.direction),
    Limit: o.limit ?? null,
    Quantity: quantity,
    QuantityRemaining: quantity.minus(o.fillQuantity),
    Commission: o.commission,
    Price: o.proceeds,
    PricePerUnit: pricePerUnit(o.proceeds, o.fillQuantity),
    IsConditional: false,
    Condition: 'NONE',
    ConditionTarget: null,
    ImmediateOrCancel: timeInForceToFlag(o.timeInForce),
    Closed: closedAtOf(o),
  };
}

/** The query of /market/buylimit and /market/selllimit, as exact values. */
export interface V1LimitOrder {
  /** v1.1 market name, `BTC-LTC`. */
  market: string;
  quantity: Decimal;
  rate: Decimal;
  /** Absent means GTC. */
  timeInForce?: V1TimeInForce | undefined;
}

/** buylimit (`BUY`) / selllimit (`SELL`) → v3 NewOrder: market reversed → marketSymbol, rate → limit, type LIMIT. */
export function newOrderFromV1(o: V1LimitOrder, direction: OrderDirection): NewOrder {
  return {
    marketSymbol: symbolFromV1(o.market, 'market'),
    direction,
    type: 'LIMIT',
    timeInForce: timeInForceFromV1(o.timeInForce ?? 'GTC'),
    quantity: o.quantity,
    limit: o.rate,
  };
}

/**
 * v3 NewOrder → the v1.1 call that places it, or a MappingError for what v1.1 cannot express: any type but
 * LIMIT, a time in force but GTC/IOC, a clientOrderId (v1.1 has no idempotency key), useAwards.
 */
export function newOrderToV1(n: NewOrder): { endpoint: 'buylimit' | 'selllimit'; order: V1LimitOrder } {
  if (n.type !== 'LIMIT') throw new MappingError('type', `${n.type} has no v1.1 form (v1.1 places limit orders only)`);
  if (n.quantity === undefined || n.limit === undefined) {
    throw new MappingError('quantity', 'and limit are both required for a v1.1 limit order');
  }
  if (n.clientOrderId !== undefined) throw new MappingError('clientOrderId', 'has no v1.1 form (v1.1 has no idempotency key)');
  if (n.useAwards) throw new MappingError('useAwards', 'has no v1.1 form');
  return {
    endpoint: n.direction === 'BUY' ? 'buylimit' : 'selllimit',
    order: {
      market: symbolToV1Market(n.marketSymbol),
      quantity: n.quantity,
      rate: n.limit,
      timeInForce: timeInForceToV1(n.timeInForce),
    },
  };
}
