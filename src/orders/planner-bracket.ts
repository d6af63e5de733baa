/**
 * A bracket's exit legs, planned once its entry has filled: a take-profit (conditional at `takeProfit` creating a
 * LIMIT at that price) and a stop-loss (conditional at `stopLoss` creating a MARKET order), both closing the
 * filled quantity. The manager places the take-profit first and then the stop-loss with
 * `orderToCancel: { type: 'CONDITIONAL_ORDER', id: takeProfit.id }`, which pairs them (reciprocally) as OCO:
 * whichever triggers first cancels the other.
 */
import type { Decimal } from '../core/decimal.js';
import type { OrderDirection } from '../model/enums.js';
import type { OrderSpec } from '../model/intent.js';
import type { BracketLegs } from './journal-records.js';
import type { PlannedConditional } from './planner.js';
import { propose, stopOperand, takeProfitOperand } from './planner-orders.js';

/** The direction that closes a position opened by `entry`. */
export function closingDirection(entry: OrderDirection): OrderDirection {
  return entry === 'BUY' ? 'SELL' : 'BUY';
}

/**
 * The take-profit and stop-loss legs for an entry of `direction` that filled `filled` on `marketSymbol`.
 *
 * @example
 * planBracketLegs({ strategy: 'breakout', intentKey: 'b1', marketSymbol: 'BTC-USD', direction: 'BUY' },
 *   { takeProfit: dec('33000'), stopLoss: dec('29000') }, dec('0.1'), dec('0.1'));
 * // [ takeProfit: GTE 33000 -> SELL LIMIT 0.1 @ 33000,  stopLoss: LTE 29000 -> SELL MARKET 0.1 ]
 */
export function planBracketLegs(
  entry: { strategy: string; intentKey: string; marketSymbol: string; direction: OrderDirection },
  legs: BracketLegs,
  filled: Decimal,
  position: Decimal,
): { takeProfit: PlannedConditional; stopLoss: PlannedConditional } {
  const direction = closingDirection(entry.direction);
  const tp: OrderSpec = {
    marketSymbol: entry.marketSymbol,
    direction,
    type: 'LIMIT',
    timeInForce: 'GOOD_TIL_CANCELLED',
    quantity: filled,
    limit: legs.takeProfit,
  };
  const sl: OrderSpec = { marketSymbol: entry.marketSymbol, direction, type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: filled };
  return {
    takeProfit: {
      role: 'takeProfit',
      proposal: propose(tp, entry.strategy, entry.intentKey, position),
      trigger: { operand: takeProfitOperand(direction), triggerPrice: legs.takeProfit },
    },
    stopLoss: {
      role: 'stopLoss',
      proposal: propose(sl, entry.strategy, entry.intentKey, position),
      trigger: { operand: stopOperand(direction), triggerPrice: legs.stopLoss },
    },
  };
}
