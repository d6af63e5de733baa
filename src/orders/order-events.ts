/**
 * Order events: the one channel through which a strategy learns what became of its intents. Shared contract
 * between the order manager (producer), strategies (ctx.orderEvents$), the portfolio (fills) and metrics.
 */
import type { Decimal } from '../core/decimal.js';
import type { Order, ConditionalOrder } from '../model/index.js';
import type { RiskReason } from '../model/intent.js';
/** What happened to a strategy's intent; delivered to that strategy (ctx.orderEvents$) and to metrics/logs. */
export type OrderEvent =
  | { type: 'submitted'; strategy: string; intentKey: string; clientOrderId: string; at: number }
  | { type: 'accepted'; strategy: string; intentKey: string; clientOrderId: string; order: Order; at: number }
  | { type: 'denied'; strategy: string; intentKey: string; reasons: RiskReason[]; at: number }
  /**
   * Refused: by the planner before anything was sent (no `clientOrderId`), by the exchange, or sent and never found
   * (`LOST`). A placement that was sent names the market and side it was for (from its request), so what was refused
   * is known without the order, which the exchange never made; a conditional order's side is its order's.
   */
  | { type: 'rejected'; strategy: string; intentKey: string; clientOrderId?: string; marketSymbol?: string; direction?: 'BUY' | 'SELL'; code: string; message: string; at: number }
  | { type: 'fill'; strategy: string; intentKey: string; clientOrderId: string; orderId: string; marketSymbol: string; direction: 'BUY' | 'SELL'; quantity: Decimal; rate: Decimal; commission: Decimal; isTaker: boolean; executionId: string; at: number }
  | { type: 'closed'; strategy: string; intentKey: string; clientOrderId: string; order: Order; at: number }  // filled completely or cancelled
  | { type: 'conditional'; strategy: string; intentKey: string; conditionalOrder: ConditionalOrder; at: number }
  | { type: 'ambiguous'; strategy: string; intentKey: string; clientOrderId: string; at: number }; // sent, outcome unknown; being resolved
