/**
 * The stream side of the Bittrex gateway: {@link GatewayStreams} over one self-healing {@link HubClient}.
 *
 * The hub client already reconnects, re-authenticates and resubscribes; this adapter turns its lifecycle into
 * what synchronizers act on: `connectionEpoch$` moves once a new connection has its subscriptions back (so a
 * snapshot fetched on that signal is never older than the stream it is joined to), and `resyncs$` also says
 * why, and which private channels missed messages when authentication lapsed on a live connection.
 */
import { BehaviorSubject, filter, map, Subject, type Observable, type Subscription } from 'rxjs';
import type { HubClient, HubLifecycleEvent } from '../hub/hub-client-types.js';
import type { SubscriptionResult } from '../hub/hub-subscriptions.js';
import type { StreamMessage } from '../hub/messages.js';
import type { GatewayStreams, StreamResyncNotice } from '../../gateway/exchange-gateway.js';
import { GatewaySubscriptionError } from './gateway-errors.js';

/**
 * {@link GatewayStreams} over a hub client. The client is started on the first {@link subscribe}; a failed
 * start is reported to that caller and tried again by the next one.
 *
 * @example
 * const streams = new HubGatewayStreams(createHubClient({ transport: () => createHubTransport('classic', { url }) }));
 * streams.messages$.subscribe((m) => sync.route(m));
 * await streams.subscribe(['orderbook_BTC-USD_25']);
 */
export class HubGatewayStreams implements GatewayStreams {
  /** The hub client underneath (status, errors and counters for telemetry). */
  readonly hub: HubClient;
  readonly messages$: Observable<StreamMessage>;
  readonly connectionEpoch$: Observable<number>;
  readonly resyncs$: Observable<StreamResyncNotice>;
  readonly #epoch: BehaviorSubject<number>;
  readonly #resyncs = new Subject<StreamResyncNotice>();
  readonly #lifecycle: Subscription;
  #starting: Promise<void> | undefined;
  #closed = false;

  constructor(hub: HubClient) {
    this.hub = hub;
    // Heartbeats keep the client's watchdog fed; they carry nothing a consumer of the gateway could use.
    this.messages$ = hub.messages$.pipe(
      filter((m) => m.name !== 'heartbeat'),
      map((m) => ({ name: m.name, data: m.message }) as StreamMessage),
    );
    this.#epoch = new BehaviorSubject(hub.connectionEpoch);
    this.connectionEpoch$ = this.#epoch.asObservable();
    this.resyncs$ = this.#resyncs.asObservable();
    this.#lifecycle = hub.lifecycle$.subscribe((e) => this.#onLifecycle(e));
  }

  async subscribe(channels: readonly string[]): Promise<void> {
    await this.#start();
    throwRefusals(await this.hub.subscribe(channels));
  }

  async unsubscribe(channels: readonly string[]): Promise<void> {
    throwRefusals(await this.hub.unsubscribe(channels));
  }

  /** Stop the hub client and complete the observables. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#lifecycle.unsubscribe();
    await this.hub.stop();
    this.#epoch.complete();
    this.#resyncs.complete();
  }

  #start(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('gateway streams are closed'));
    this.#starting ??= this.hub.start().catch((e: unknown) => {
      this.#starting = undefined;
      throw e;
    });
    return this.#starting;
  }

  #onLifecycle(e: HubLifecycleEvent): void {
    switch (e.type) {
      case 'connected':
        this.#epoch.next(e.epoch);
        // Only a restarted client connects a second time; whatever was synchronized before may be stale.
        if (e.epoch > 1) this.#resyncs.next({ reason: 'connected', epoch: e.epoch });
        return;
      case 'reconnected':
        this.#resyncs.next({ reason: e.reason, epoch: e.epoch });
        this.#epoch.next(e.epoch);
        return;
      case 'resubscribed':
        this.#resyncs.next({ channels: e.channels, reason: e.reason, epoch: e.epoch });
        return;
      case 'authenticated':
        return;
    }
  }
}

function throwRefusals(results: readonly SubscriptionResult[]): void {
  const failures = results.flatMap((r) => (r.success ? [] : [r.error]));
  if (failures.length > 0) throw new GatewaySubscriptionError(failures);
}
