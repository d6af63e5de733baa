/**
 * Intents: what a strategy wants, in its own words. Strategies never hold the gateway; they emit intents, which
 * flow one way — strategy → order planner → risk engine → order manager → gateway — and every outcome (placed,
 * denied with reasons, failed) comes back as an event naming the intent's `key`.
 *
 * `key` is chosen by the strategy and is stable for "the same wish": re-emitting an intent with the same key
 * replaces the previous wish (e.g. a new quote ladder), it does not add to it.
 */
import type { Decimal } from '../core/decimal.js';
import type { OrderDirection } from './enums.js';
import type { NewOrder } from './order.js';

/**
 * An order as a strategy describes it: the POST /orders body without what the order manager adds (the
 * clientOrderId it journals before sending, and useAwards). Amounts are exact decimals.
 */
export type OrderSpec = Pick<NewOrder, 'marketSymbol' | 'direction' | 'type' | 'timeInForce' | 'quantity' | 'ceiling' | 'limit'>;

/** One level of a quote ladder. */
export interface Quote {
  rate: Decimal;
  quantity: Decimal;
}

/** Place one order. */
export interface PlaceIntent {
  kind: 'place';
  key: string;
  order: OrderSpec;
}

/** Cancel the order placed for intent `targetKey` (or an exchange order id). */
export interface CancelIntent {
  kind: 'cancel';
  key: string;
  targetKey?: string;
  orderId?: string;
}

/** Cancel every open order of this strategy (optionally of one market). */
export interface CancelAllIntent {
  kind: 'cancelAll';
  key: string;
  marketSymbol?: string;
}

/**
 * Desired resting quotes on one market. The order manager reconciles them against this key's open orders with the
 * fewest cancels and placements (orders already resting at a wanted rate and quantity are kept) and sends the
 * difference as one POST /batch.
 */
export interface QuotesIntent {
  kind: 'quotes';
  key: string;
  marketSymbol: string;
  bids: Quote[];
  asks: Quote[];
}

/**
 * An entry order; once it fills, a take-profit and a stop-loss as an OCO pair of conditional orders linked by
 * orderToCancel (whichever triggers first cancels the other).
 */
export interface BracketIntent {
  kind: 'bracket';
  key: string;
  entry: OrderSpec;
  /** Trigger price of the take-profit (a limit order at this price closes the position). */
  takeProfit: Decimal;
  /** Trigger price of the stop-loss (a market order closes the position). */
  stopLoss: Decimal;
}

/** A trailing stop closing `quantity` when the price retraces `trailingStopPercent` from its extreme. */
export interface TrailingStopIntent {
  kind: 'trailingStop';
  key: string;
  marketSymbol: string;
  /** Direction of the closing order (SELL protects a long position). */
  direction: OrderDirection;
  quantity: Decimal;
  trailingStopPercent: Decimal;
}

/** Move the position in `marketSymbol` (base currency held by this strategy) to `position`. */
export interface TargetPositionIntent {
  kind: 'targetPosition';
  key: string;
  marketSymbol: string;
  /** Desired base-currency position attributed to the strategy (0 = flat). */
  position: Decimal;
  /** Worst acceptable price as a fraction away from the mid (0.005 = 0.5 %); sent as an IOC limit. */
  maxSlippage?: Decimal;
}

/** Everything a strategy can ask for. */
export type Intent =
  | PlaceIntent
  | CancelIntent
  | CancelAllIntent
  | QuotesIntent
  | BracketIntent
  | TrailingStopIntent
  | TargetPositionIntent;

/** The intent kinds. */
export type IntentKind = Intent['kind'];

/**
 * A concrete order about to be sent, as the risk engine sees it: the planner's output for one intent. The risk
 * engine may round it (precision, minTradeSize) or deny it.
 */
export interface ProposedOrder extends OrderSpec {
  /** The strategy that asked. */
  strategy: string;
  /** The intent key it serves. */
  intentKey: string;
  /** True when executing it can only shrink the strategy's position (allowed while REDUCING). */
  reducesPosition: boolean;
}

/** Why the risk engine refused an order. `code` is stable (metrics label); `message` is for people. */
export interface RiskReason {
  code: string;
  message: string;
}

/** The risk engine's answer for one proposed order. */
export type RiskVerdict = { approved: true; order: ProposedOrder } | { approved: false; reasons: RiskReason[] };
