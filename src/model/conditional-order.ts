/** Conditional orders: stop, stop-limit, trailing stop, take-profit, OCO. */
import type { Decimal } from '../core/decimal.js';
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
export const decodeNewConditionalOrder: Decoder<NewConditionalOrder> = object<NewConditionalOrder>(
  { marketSymbol: str, operand: oneOf(CONDITIONAL_OPERANDS) },
  {
    triggerPrice: dec,
    trailingStopPercent: dec,
    orderToCreate: decodeNewOrder,
    orderToCancel: decodeOrderToCancel,
    clientConditionalOrderId: id,
  },
);

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
