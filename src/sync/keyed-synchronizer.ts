/**
 * One {@link Synchronizer} per key, for streams whose sequence numbers are independent per key: private
 * streams per account (rule 2: `subaccounts_*` streams carry every managed sub-account, told apart by
 * `accountId`), or one multiplexed feed of several order books. Messages are routed by `keyOf`; the
 * synchronizer of a key is created (and started) the first time the key is seen, or up front with
 * {@link KeyedSynchronizers.get}.
 */
import { merge, map, Observable, Subject, takeUntil } from 'rxjs';
import type { Synchronizer, SyncStatus } from './synchronizer.js';

/** A status of the synchronizer of `key`. */
export interface KeyedSyncStatus<K> {
  key: K;
  status: SyncStatus;
}

/**
 * Synchronizers by key.
 *
 * @example
 * const balances = new KeyedSynchronizers((m: BalanceMessage) => m.accountId, (accountId) =>
 *   syncBalances({ store: stores.of(accountId), fetchSnapshot: () => rest.balances(accountId), clock }));
 * hub.on('balance', (m) => balances.push(m));
 */
export class KeyedSynchronizers<K, S, M extends { readonly sequence: number }> {
  readonly #byKey = new Map<K, Synchronizer<S, M>>();
  readonly #added = new Subject<[K, Synchronizer<S, M>]>();
  readonly #stopped = new Subject<void>();

  constructor(
    private readonly keyOf: (message: M) => K,
    private readonly create: (key: K) => Synchronizer<S, M>,
  ) {}

  /** The synchronizer of `key`, created and started on first use. */
  get(key: K): Synchronizer<S, M> {
    let sync = this.#byKey.get(key);
    if (!sync) {
      sync = this.create(key);
      this.#byKey.set(key, sync);
      this.#added.next([key, sync]);
      sync.start();
    }
    return sync;
  }

  /** Route one message to the synchronizer of its key. */
  push(message: M): void {
    this.get(this.keyOf(message)).push(message);
  }

  /** Keys seen so far. */
  keys(): K[] {
    return [...this.#byKey.keys()];
  }

  /** Status transitions of every synchronizer, present and future (current statuses replayed on subscribe). */
  get status$(): Observable<KeyedSyncStatus<K>> {
    return new Observable<KeyedSyncStatus<K>>((subscriber) => {
      const of = (key: K, sync: Synchronizer<S, M>) => sync.status$.pipe(map((status) => ({ key, status })));
      const existing = [...this.#byKey].map(([k, s]) => of(k, s));
      const later = new Observable<KeyedSyncStatus<K>>((inner) =>
        this.#added.subscribe(([k, s]) => of(k, s).subscribe((v) => inner.next(v))),
      );
      return merge(...existing, later).pipe(takeUntil(this.#stopped)).subscribe(subscriber);
    });
  }

  /** The transport reconnected: resync every key. */
  reconnect(): void {
    for (const s of this.#byKey.values()) s.reconnect();
  }

  /** Stop every synchronizer. */
  stop(): void {
    for (const s of this.#byKey.values()) s.stop();
    this.#stopped.next();
    this.#stopped.complete();
    this.#added.complete();
  }
}
