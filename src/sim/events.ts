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

/** Which kinds of event a listener would act on right now (see {@link SimEventBus.on}). */
export type SimEventInterest = (kind: SimEvent['kind']) => boolean;

/** A minimal synchronous fan-out (the engine is a hot path; RxJS wrapping happens at the edges). */
export class SimEventBus {
  readonly #listeners = new Set<SimEventListener>();
  /** Listeners that said when they would ignore events; every other listener wants every event. */
  readonly #interest = new Map<SimEventListener, SimEventInterest>();
  /**
   * What {@link wants} asks, in the listeners' order: each listener's interest, or `undefined` for one that wants
   * everything. Rebuilt when a listener comes or goes (rare), so the question asked several times per order is a
   * walk over a short array, without a Map lookup per listener.
   */
  #interests: readonly (SimEventInterest | undefined)[] = [];

  /**
   * Add a listener; returns a function that removes it. `interest`, when given, says which kinds of event the
   * listener would act on at the moment it is asked (a hub bridge with no subscriber ignores everything); the
   * listener still receives every event that is emitted.
   */
  on(listener: SimEventListener, interest?: SimEventInterest): () => void {
    this.#listeners.add(listener);
    if (interest) this.#interest.set(listener, interest);
    this.#rebuildInterests();
    return () => {
      this.#listeners.delete(listener);
      this.#interest.delete(listener);
      this.#rebuildInterests();
    };
  }

  #rebuildInterests(): void {
    this.#interests = [...this.#listeners].map((l) => this.#interest.get(l));
  }

  /**
   * False when no listener would act on an event of `kind` now. A producer may then skip building that event's
   * payload (and not emit it), provided it still moves any sequence the event would have carried: what listeners
   * observe is unchanged, since they would have ignored it.
   */
  wants(kind: SimEvent['kind']): boolean {
    const interests = this.#interests;
    for (let i = 0; i < interests.length; i++) {
      const interest = interests[i];
      if (interest === undefined || interest(kind)) return true;
    }
    return false;
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
