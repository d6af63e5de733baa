/**
 * {@link Multicast}: what a `Subject` gives its subscribers — each value to every subscriber in subscription order,
 * a subscriber added while a value is being delivered sees the next value, not that one — for a hot path that
 * only ever calls `next` (and maybe `complete`). rxjs's `Subject.next` spends a closure (errorContext) and an
 * array iterator on every value; the market store and the backtest gateway publish one for nearly every recorded
 * event. The list of subscribers is replaced, never changed in place, so a delivery walks the list as it was.
 */
import { Observable, type Subscriber } from 'rxjs';

/**
 * A hot observable fed by `next`.
 *
 * @example
 * const changes = new Multicast<number>();
 * changes.observable.subscribe((n) => console.log(n));
 * changes.next(1); // logs 1
 */
export class Multicast<T> {
  #subscribers: ReadonlyArray<Subscriber<T>> = [];
  #completed = false;

  /** Subscribers get the values sent after they subscribed; after {@link complete}, a new one completes at once. */
  readonly observable: Observable<T> = new Observable<T>((subscriber) => {
    if (this.#completed) {
      subscriber.complete();
      return undefined;
    }
    this.#subscribers = [...this.#subscribers, subscriber];
    return () => {
      this.#subscribers = this.#subscribers.filter((s) => s !== subscriber);
    };
  });

  /** True while something is subscribed. */
  get observed(): boolean {
    return this.#subscribers.length > 0;
  }

  /** Send `value` to every current subscriber (a throwing subscriber is rxjs's to report; the others still get it). */
  next(value: T): void {
    const subscribers = this.#subscribers;
    for (let i = 0; i < subscribers.length; i++) subscribers[i]!.next(value);
  }

  /** Complete every subscriber; later values go nowhere. */
  complete(): void {
    if (this.#completed) return;
    this.#completed = true;
    const subscribers = this.#subscribers;
    this.#subscribers = [];
    for (const s of subscribers) s.complete();
  }
}
