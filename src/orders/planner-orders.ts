/**
 * Small pure helpers the planner uses to turn order specs into concrete requests: rounding a rate to a market's
 * precision on the safe side, deciding whether an order can only shrink a position, and building the NewOrder
 * and conditional-order requests from risk-approved proposals.
 */
import { type Decimal, dgt, dlt, dlte, ZERO } from '../core/decimal.js';
import { toPlaces } from '../core/decimal-round.js';
import type { NewConditionalOrder } from '../model/conditional-order.js';
import type { ConditionalOperand, OrderDirection } from '../model/enums.js';
import type { OrderSpec, ProposedOrder } from '../model/intent.js';
import type { NewOrder } from '../model/order.js';

/**
 * Round a limit rate to `precision` decimals towards the side that never pays more than asked: down for a buy,
 * up for a sell.
 *
 * @example
 * roundRate(dec('100.129'), 2, 'BUY').toFixed()  // '100.12'
 * roundRate(dec('100.121'), 2, 'SELL').toFixed() // '100.13'
 */
export function roundRate(rate: Decimal, precision: number, direction: OrderDirection): Decimal {
  // toPlaces gives a rate already at the precision (a strategy that rounds its own quotes) back itself.
  return toPlaces(rate, precision, direction !== 'BUY');
}

/**
 * True when executing an order of `quantity` in `direction` can only move `position` (base currency, signed:
 * long > 0) towards zero without crossing it — the orders a REDUCING risk state still allows.
 */
export function reducesPosition(direction: OrderDirection, quantity: Decimal | undefined, position: Decimal): boolean {
  if (quantity === undefined) return false;
  // Against the shared ZERO: a number operand would be parsed into a new Decimal at every proposal.
  return direction === 'SELL' ? dgt(position, ZERO) && dlte(quantity, position) : dlt(position, ZERO) && dlte(quantity, position.neg());
}

/** The proposal for an order spec of `strategy`'s intent `intentKey`. */
export function propose(spec: OrderSpec, strategy: string, intentKey: string, position: Decimal): ProposedOrder {
  return { ...spec, strategy, intentKey, reducesPosition: reducesPosition(spec.direction, spec.quantity, position) };
}

/** The request body for an approved proposal (only the NewOrder fields; amounts exactly as approved). */
export function toNewOrder(p: OrderSpec, clientOrderId?: string): NewOrder {
  const o: NewOrder = { marketSymbol: p.marketSymbol, direction: p.direction, type: p.type, timeInForce: p.timeInForce };
  if (p.quantity !== undefined) o.quantity = p.quantity;
  if (p.ceiling !== undefined) o.ceiling = p.ceiling;
  if (p.limit !== undefined) o.limit = p.limit;
  if (clientOrderId !== undefined) o.clientOrderId = clientOrderId;
  return o;
}

/** Trigger side of a conditional order that closes a position by `direction`: a protective SELL fires on a fall. */
export function stopOperand(direction: OrderDirection): ConditionalOperand {
  return direction === 'SELL' ? 'LTE' : 'GTE';
}

/** Trigger side of a take-profit closing by `direction`: a SELL take-profit fires on a rise. */
export function takeProfitOperand(direction: OrderDirection): ConditionalOperand {
  return direction === 'SELL' ? 'GTE' : 'LTE';
}

/** What a conditional order needs besides its orderToCreate. */
export interface ConditionalTrigger {
  operand: ConditionalOperand;
  triggerPrice?: Decimal | undefined;
  trailingStopPercent?: Decimal | undefined;
}

/** A conditional-order request around an approved orderToCreate. */
export function toNewConditional(
  trigger: ConditionalTrigger,
  orderToCreate: OrderSpec,
  clientConditionalOrderId: string,
  orderToCancel?: { type: 'CONDITIONAL_ORDER' | 'ORDER'; id: string },
): NewConditionalOrder {
  const c: NewConditionalOrder = {
    marketSymbol: orderToCreate.marketSymbol,
    operand: trigger.operand,
    orderToCreate: toNewOrder(orderToCreate),
    clientConditionalOrderId,
  };
  if (trigger.triggerPrice !== undefined) c.triggerPrice = trigger.triggerPrice;
  if (trigger.trailingStopPercent !== undefined) c.trailingStopPercent = trigger.trailingStopPercent;
  if (orderToCancel) c.orderToCancel = orderToCancel;
  return c;
}
