/** Conditional orders: stop, stop-limit, trailing stop, take-profit, OCO. */
import type { Decimal } from '../core/decimal.js';
import { WireFormatError } from '../core/errors.js';
import { date, dec, id, object, oneOf, str, type Decoder } from './decode.js';
import { CONDITIONAL_OPERANDS, CONDITIONAL_ORDER_STATUSES, type ConditionalOperand, type ConditionalOrderStatus } from './enums.js';
import { decodeNewOrder, decodeOrderToCancel, type NewOrder, type OrderToCancel } from './order.js';

/** Request body of POST /conditional-orders. Exactly one of triggerPrice and trailingStopPercent. */
export interface NewConditionalOrder {
  marketSymbol: string;
  operand: ConditionalOperand;
  triggerPrice?: Decimal;
  trailingStopPercent?: Decimal;
  orderToCreate?: NewOrder;
  orderToCancel?: OrderToCancel;
  clientConditionalOrderId?: string;
}
const newConditionalFields = object<Omit<NewConditionalOrder, 'operand'> & { operand?: ConditionalOperand }>(
  { marketSymbol: str },
  {
    operand: oneOf(CONDITIONAL_OPERANDS),
    triggerPrice: dec,
    trailingStopPercent: dec,
    orderToCreate: decodeNewOrder,
    orderToCancel: decodeOrderToCancel,
    clientConditionalOrderId: id,
  },
);

/**
 * Decoder of a {@link NewConditionalOrder}. `operand` is required, except with `trailingStopPercent`, where the
 * seed's NewConditionalOrder table says it is "set automatically": a trailing stop that sells (a stop under a long
 * position) trails below the highest price and fires at or below it, LTE; one that buys, GTE. Without an
 * `orderToCreate` there is nothing to tell the way from, and `operand` stays required.
 */
export const decodeNewConditionalOrder: Decoder<NewConditionalOrder> = (v, path, where) => {
  const { operand, ...rest } = newConditionalFields(v, path, where);
  if (operand !== undefined) return { ...rest, operand };
  const direction = rest.trailingStopPercent !== undefined ? rest.orderToCreate?.direction : undefined;
  if (direction === undefined) throw new WireFormatError(where, path ? `${path}.operand` : 'operand', 'is missing');
  return { ...rest, operand: direction === 'SELL' ? 'LTE' : 'GTE' };
};

/** A conditional order as the service reports it. */
export interface ConditionalOrder extends NewConditionalOrder {
  id: string;
  status: ConditionalOrderStatus;
  /** The order placed when the trigger fired. */
  createdOrderId?: string;
  /** Why placing orderToCreate failed on trigger. */
  orderCreationErrorCode?: string;
  createdAt: Date;
  updatedAt?: Date;
  closedAt?: Date;
}
export const decodeConditionalOrder: Decoder<ConditionalOrder> = object<ConditionalOrder>(
  {
    id: id,
    marketSymbol: str,
    operand: oneOf(CONDITIONAL_OPERANDS),
    status: oneOf(CONDITIONAL_ORDER_STATUSES),
    createdAt: date,
  },
  {
    triggerPrice: dec,
    trailingStopPercent: dec,
    orderToCreate: decodeNewOrder,
    orderToCancel: decodeOrderToCancel,
    clientConditionalOrderId: id,
    createdOrderId: id,
    orderCreationErrorCode: str,
    updatedAt: date,
    closedAt: date,
  },
);
