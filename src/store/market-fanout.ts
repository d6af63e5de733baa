/**
 * {@link MarketFanout}: the {@link MarketStore}'s subscribers — to every change (`changes$`), to one book (`book$`)
 * and to one market's trades (`trades$`) — in ONE list, in subscription order.
 *
 * `book$` and `trades$` used to be `changes$.pipe(filter(...), map(...))`: each event went through a filter layer of
 * every such subscription (a book subscription's filter also saw every trade event, and the other way round), then
 * a map layer, and every change allocated its event object even when nobody took events whole. Here a book or
 * trades subscriber is handed its value directly by the store's walk over the list, and the event object is only
 * made when a whole-event subscriber is reached. What each subscriber receives, and in which order relative to the
 * others, is what the filter/map pipelines gave: one list keeps the subscription order across the three kinds; a
 * subscriber added while a value is being delivered sees the next value, not that one (the list is replaced, never
 * changed in place, as in src/core/multicast.ts); the value is the same object the pipeline's map returned.
 * test/store/market-fanout.test.ts replays random interleavings against the filter/map pipelines.
 */
import { Observable, type Subscriber, type TeardownLogic } from 'rxjs';
import type { Trade } from '../model/index.js';
import type { MarketEvent } from './market-store.js';
import type { ReadonlyOrderBook } from './order-book.js';

/** What a subscriber wants: every event, one book's states, or one market's new trades. */
const Want = { All: 0, Book: 1, Trades: 2 } as const;
type Want = (typeof Want)[keyof typeof Want];

/** One subscriber and what it wants (one class for every kind, so the delivery loop sees one shape). */
class Sink {
  constructor(
    readonly want: Want,
    readonly marketSymbol: string,
    readonly depth: number,
    readonly subscriber: Subscriber<unknown>,
  ) {}
}

/**
 * The store's subscriber list. Writers call the `publish*` methods after the store holds the change.
 *
 * @example
 * const fanout = new MarketFanout();
 * fanout.book('BTC-USD', 25).subscribe((b) => console.log(b.sequence));
 * fanout.publishBook('BTC-USD', 25, book, false); // logs book.sequence
 */
export class MarketFanout {
  #sinks: readonly Sink[] = [];

  /** Every change, as an event. */
  readonly changes$: Observable<MarketEvent> = new Observable<MarketEvent>((s) => this.#add(Want.All, '', 0, s));

  /** The states of the book of (market, depth), as they change (no current value: the store adds it). */
  book(marketSymbol: string, depth: number): Observable<ReadonlyOrderBook> {
    return new Observable<ReadonlyOrderBook>((s) => this.#add(Want.Book, marketSymbol, depth, s));
  }

  /** The batches of new trades of a market (a reset's whole snapshot included). */
  trades(marketSymbol: string): Observable<readonly Trade[]> {
    return new Observable<readonly Trade[]>((s) => this.#add(Want.Trades, marketSymbol, 0, s));
  }

  #add(want: Want, marketSymbol: string, depth: number, subscriber: Subscriber<never>): TeardownLogic {
    const sink = new Sink(want, marketSymbol, depth, subscriber as Subscriber<unknown>);
    this.#sinks = [...this.#sinks, sink];
    return () => {
      this.#sinks = this.#sinks.filter((s) => s !== sink);
    };
  }

  /** A book changed: its subscribers get `book`, whole-event subscribers a `book` event. */
  publishBook(marketSymbol: string, depth: number, book: ReadonlyOrderBook, reset: boolean): void {
    const sinks = this.#sinks;
    let event: MarketEvent | undefined;
    for (let i = 0; i < sinks.length; i++) {
      const s = sinks[i]!;
      if (s.want === Want.Book) {
        if (s.depth === depth && s.marketSymbol === marketSymbol) s.subscriber.next(book);
      } else if (s.want === Want.All) {
        s.subscriber.next((event ??= { kind: 'book', marketSymbol, depth, book, reset }));
      }
    }
  }

  /** Trades were added: the market's trade subscribers get `trades`, whole-event subscribers a `trades` event. */
  publishTrades(marketSymbol: string, trades: readonly Trade[], reset: boolean): void {
    const sinks = this.#sinks;
    let event: MarketEvent | undefined;
    for (let i = 0; i < sinks.length; i++) {
      const s = sinks[i]!;
      if (s.want === Want.Trades) {
        if (s.marketSymbol === marketSymbol) s.subscriber.next(trades);
      } else if (s.want === Want.All) {
        s.subscriber.next((event ??= { kind: 'trades', marketSymbol, trades, reset }));
      }
    }
  }

  /** Any other change: whole-event subscribers only. */
  publish(event: MarketEvent): void {
    const sinks = this.#sinks;
    for (let i = 0; i < sinks.length; i++) {
      const s = sinks[i]!;
      if (s.want === Want.All) s.subscriber.next(event);
    }
  }
}
