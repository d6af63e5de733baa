/** Literal unions for every enumerated wire field, with the value lists their decoders check against. */

export const MARKET_STATUSES = ['ONLINE', 'OFFLINE'] as const;
/** Market or currency status. */
export type MarketStatus = (typeof MARKET_STATUSES)[number];

export const ORDER_DIRECTIONS = ['BUY', 'SELL'] as const;
/** Order direction; also a trade's taker side. */
export type OrderDirection = (typeof ORDER_DIRECTIONS)[number];

export const ORDER_TYPES = ['LIMIT', 'MARKET', 'CEILING_LIMIT', 'CEILING_MARKET'] as const;
/** Order type. Ceiling orders spend (buy) or receive (sell) a quote amount instead of a base quantity. */
export type OrderType = (typeof ORDER_TYPES)[number];

export const TIME_IN_FORCES = [
  'GOOD_TIL_CANCELLED',
  'IMMEDIATE_OR_CANCEL',
  'FILL_OR_KILL',
  'POST_ONLY_GOOD_TIL_CANCELLED',
  'BUY_NOW',
  'INSTANT',
] as const;
/** Time in force. BUY_NOW and INSTANT exist on the wire but no order type allows them (seed table). */
export type TimeInForce = (typeof TIME_IN_FORCES)[number];

export const ORDER_STATUSES = ['OPEN', 'CLOSED'] as const;
/** Order status. */
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const CONDITIONAL_OPERANDS = ['LTE', 'GTE'] as const;
/** Trigger comparison against the last trade price. */
export type ConditionalOperand = (typeof CONDITIONAL_OPERANDS)[number];

export const CONDITIONAL_ORDER_STATUSES = ['OPEN', 'COMPLETED', 'CANCELLED', 'FAILED'] as const;
/** Conditional order status. */
export type ConditionalOrderStatus = (typeof CONDITIONAL_ORDER_STATUSES)[number];

export const ORDER_TO_CANCEL_TYPES = ['ORDER', 'CONDITIONAL_ORDER'] as const;
/** What an orderToCancel link points at. */
export type OrderToCancelType = (typeof ORDER_TO_CANCEL_TYPES)[number];

export const ADDRESS_STATUSES = ['REQUESTED', 'PROVISIONED'] as const;
/** Deposit address status. */
export type AddressStatus = (typeof ADDRESS_STATUSES)[number];

export const DEPOSIT_STATUSES = ['PENDING', 'COMPLETED', 'ORPHANED', 'INVALIDATED'] as const;
/** Deposit status. */
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

export const TRANSFER_METHODS = ['BLOCKCHAIN', 'WIRE_TRANSFER', 'CREDIT_CARD', 'ACH'] as const;
/** How funds arrived (deposit source) or leave (withdrawal target). */
export type TransferMethod = (typeof TRANSFER_METHODS)[number];

export const WITHDRAWAL_STATUSES = [
  'REQUESTED',
  'AUTHORIZED',
  'PENDING',
  'COMPLETED',
  'ERROR_INVALID_ADDRESS',
  'CANCELLED',
  'NEW',
] as const;
/** Withdrawal status (`NEW` appears in the official document only). */
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

export const ALLOWED_ADDRESS_STATUSES = ['ACTIVE', 'PENDING'] as const;
/** Allowed (whitelisted) withdrawal address status. */
export type AllowedAddressStatus = (typeof ALLOWED_ADDRESS_STATUSES)[number];

export const CANDLE_INTERVALS = ['MINUTE_1', 'MINUTE_5', 'HOUR_1', 'DAY_1'] as const;
/** Candle interval. */
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

export const CANDLE_TYPES = ['TRADE', 'MIDPOINT'] as const;
/** Candle type: from trades, or from the midpoint of best bid and ask. */
export type CandleType = (typeof CANDLE_TYPES)[number];

export const ORDER_BOOK_DEPTHS = [1, 25, 500] as const;
/** Order book depth accepted by the snapshot endpoint and the orderbook stream. */
export type OrderBookDepth = (typeof ORDER_BOOK_DEPTHS)[number];

export const BATCH_OPERATIONS = ['POST', 'DELETE'] as const;
/** Batch operation. */
export type BatchOperationKind = (typeof BATCH_OPERATIONS)[number];

/** Length of each candle interval in milliseconds. */
export const CANDLE_INTERVAL_MS: Record<CandleInterval, number> = {
  MINUTE_1: 60_000,
  MINUTE_5: 300_000,
  HOUR_1: 3_600_000,
  DAY_1: 86_400_000,
};
