/** A fill event for tests that feed a Portfolio by hand (the portfolio and risk tests). */
import { dec } from '../../src/core/decimal.js';
import type { OrderDirection } from '../../src/model/enums.js';
import type { FillEvent } from '../../src/portfolio/portfolio.js';

/** What a test says about a fill; the rest is numbered or defaulted by {@link fillEvent}. */
export interface FillSpec {
  direction: OrderDirection;
  quantity: string;
  rate: string;
  /** Default `s1`. */
  strategy?: string;
  /** Default `BTC-USD`. */
  market?: string;
  /** Default `0`. */
  commission?: string;
  /** Default `o<n>`. */
  orderId?: string;
  /** Default `e<n>`; give one to replay a fill. */
  executionId?: string;
  isTaker: boolean;
  at: number;
}

/**
 * Fill number `n` of intent `k`: its clientOrderId is `c<n>`, its order and execution ids `o<n>` and `e<n>` unless
 * given, so fills with distinct `n` never collide.
 *
 * @example
 * portfolio.onFill(fillEvent(++seq, { direction: 'BUY', quantity: '1', rate: '30000', isTaker: true, at: T0 }));
 */
export function fillEvent(n: number, f: FillSpec): FillEvent {
  return {
    type: 'fill',
    strategy: f.strategy ?? 's1',
    intentKey: 'k',
    clientOrderId: `c${n}`,
    orderId: f.orderId ?? `o${n}`,
    marketSymbol: f.market ?? 'BTC-USD',
    direction: f.direction,
    quantity: dec(f.quantity),
    rate: dec(f.rate),
    commission: dec(f.commission ?? '0'),
    isTaker: f.isTaker,
    executionId: f.executionId ?? `e${n}`,
    at: f.at,
  };
}
