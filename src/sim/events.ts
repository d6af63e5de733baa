/**
 * What the engine publishes, already shaped as the hub's stream payloads (seed section 6) and numbered from the
 * same {@link SequenceCounters} the REST snapshots report. The hub server forwards these; in-process consumers
 * (backtests) read them directly.
 */
import type { Balance, Deposit } from '../model/wallet.js';
import type { Candle, MarketSummary, OrderBookEntry, Ticker, Trade } from '../model/market.js';
import type { Execution, Order } from '../model/order.js';
import type { ConditionalOrder } from '../model/conditional-order.js';
import type { CandleInterval, CandleType } from '../model/enums.js';

/** One engine event. `accountId` is set on private events (balance, order, execution, conditionalOrder, deposit). */
export type SimEvent =
  | { kind: 'orderBook'; marketSymbol: string; depth: 1 | 25 | 500; sequence: number; bidDeltas: OrderBookEntry[]; askDeltas: OrderBookEntry[] }
  | { kind: 'trade'; marketSymbol: string; sequence: number; deltas: Trade[] }
  | { kind: 'ticker'; delta: Ticker }
  | { kind: 'tickers'; sequence: number; deltas: Ticker[] }
  | { kind: 'marketSummary'; delta: MarketSummary }
  | { kind: 'marketSummaries'; sequence: number; deltas: MarketSummary[] }
  | { kind: 'candle'; marketSymbol: string; interval: CandleInterval; candleType: CandleType; sequence: number; delta: Candle }
  | { kind: 'balance'; accountId: string; sequence: number; delta: Balance }
  | { kind: 'order'; accountId: string; sequence: number; delta: Order }
  | { kind: 'execution'; accountId: string; sequence: number; deltas: Execution[] }
  | { kind: 'conditionalOrder'; accountId: string; sequence: number; delta: ConditionalOrder }
  | { kind: 'deposit'; accountId: string; sequence: number; delta: Deposit };

/** A listener of engine events. Called synchronously, after the engine's state already reflects the event. */
export type SimEventListener = (event: SimEvent) => void;

/** A minimal synchronous fan-out (the engine is a hot path; RxJS wrapping happens at the edges). */
export class SimEventBus {
  readonly #listeners = new Set<SimEventListener>();

  /** Add a listener; returns a function that removes it. */
  on(listener: SimEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Deliver an event to every listener. A throwing listener does not stop the others or the engine. */
  emit(event: SimEvent): void {
    for (const l of this.#listeners) {
      try {
        l(event);
      } catch {
        // Listeners are edges (hub, recorder); their failures must never corrupt the matching engine.
      }
    }
  }
}
