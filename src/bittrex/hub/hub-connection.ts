/**
 * One hub connection attempt as the client sees it: a transport plus the state and timers that must die with it
 * (watchdog, renewal timer, event subscription), and calls that end as soon as the connection is given up.
 */
import type { Subscription } from 'rxjs';
import type { Clock, TimerHandle } from '../../core/clock.js';
import { TimeoutError } from '../../core/errors.js';
import type { HeartbeatWatchdog } from './heartbeat-watchdog.js';
import type { HubTransport, TransportEvent } from './transport.js';

/**
 * A transport wrapped for the client. Every call is raced against the connection's loss and a clock timeout, so
 * no caller ever waits on a connection that is gone, and a server that stops answering costs one timeout.
 *
 * @example
 * const conn = new HubConnection(transport, clock, (what, e) => drop(conn, `${what}-timeout`, e));
 * conn.listen((ev) => onEvent(conn, ev));
 * await conn.guard(transport.connect(), 20_000, 'connect');
 * const reply = await conn.invoke(15_000, 'Subscribe', ['heartbeat']);
 */
export class HubConnection {
  readonly transport: HubTransport;
  /** Set once the transport is open (see HubClient.connectionEpoch); 0 before. */
  epoch = 0;
  /** Authenticated (if needed) and subscribed; only a ready connection triggers a reconnect when it dies. */
  ready = false;
  /** Clock time at which the server will consider the last authentication expired. */
  authExpiresAt = 0;
  renewTimer: TimerHandle | undefined;
  renewing = false;
  /** Channels being subscribed again after an authentication lapse, and their messages held meanwhile. */
  #holding: { channels: ReadonlySet<string>; held: unknown[] } | undefined;
  watchdog: HeartbeatWatchdog | undefined;
  readonly #clock: Clock;
  readonly #onTimeout: (what: string, error: TimeoutError) => void;
  readonly #lost: Promise<never>;
  #loseWith!: (e: Error) => void;
  #isLost = false;
  #events: Subscription | undefined;

  /**
   * Hold messages of `channels` until {@link HubConnection.release}: after an authentication lapse their first
   * message can arrive in the same read as the answer to the new Subscribe, before the owner told the streams to
   * resync; delivered then, a stream would see a gap first and never learn that the lapse caused it.
   */
  holdChannels(channels: Iterable<string>): void {
    this.#holding = { channels: new Set(channels), held: [] };
  }

  /** Keep `message` if its channel is held; false when it should be delivered now. */
  held(channel: string | undefined, message: unknown): boolean {
    const h = this.#holding;
    if (!h || channel === undefined || !h.channels.has(channel)) return false;
    h.held.push(message);
    return true;
  }

  /** Stop holding; `deliver` gets what was held, in arrival order (nothing when `deliver` is omitted: dropped). */
  release<T>(deliver?: (message: T) => void): void {
    const h = this.#holding;
    this.#holding = undefined;
    if (h && deliver) for (const m of h.held) deliver(m as T);
  }

  /** `onTimeout` is told when a guarded call timed out, so the owner can give the connection up. */
  constructor(transport: HubTransport, clock: Clock, onTimeout: (what: string, error: TimeoutError) => void) {
    this.transport = transport;
    this.#clock = clock;
    this.#onTimeout = onTimeout;
    this.#lost = new Promise<never>((_, reject) => (this.#loseWith = reject));
    this.#lost.catch(() => {}); // only ever raced against calls; never an unhandled rejection on its own
  }

  /** True once {@link markLost} was called. */
  get isLost(): boolean {
    return this.#isLost;
  }

  /** Route the transport's events to `handler` until the connection is lost. */
  listen(handler: (ev: TransportEvent) => void): void {
    this.#events = this.transport.events$.subscribe(handler);
  }

  /**
   * Give the connection up: pending and future guarded calls reject with `error`, timers stop, events stop.
   * Returns false when it was already lost. Does not close the transport (see {@link close}).
   */
  markLost(error: Error): boolean {
    if (this.#isLost) return false;
    this.#isLost = true;
    this.#loseWith(error);
    this.watchdog?.stop();
    this.renewTimer?.cancel();
    this.#events?.unsubscribe();
    return true;
  }

  /** Close the transport, swallowing errors: a broken transport is being discarded either way. */
  async close(): Promise<void> {
    try {
      await this.transport.close();
    } catch {
      // Nothing useful to do with a failure to close something already given up.
    }
  }

  /** Call a hub method, with the connection's loss and a timeout of `timeoutMs` racing it. */
  invoke(timeoutMs: number, method: string, ...args: unknown[]): Promise<unknown> {
    return this.guard(this.transport.invoke(method, ...args), timeoutMs, method);
  }

  /** Race `work` against the connection's loss and a clock timeout named `what`. */
  async guard<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
    let timer: TimerHandle | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = this.#clock.setTimeout(() => {
        const e = new TimeoutError(`hub ${what}: no answer within ${timeoutMs} ms`, { timeoutMs });
        reject(e);
        this.#onTimeout(what, e);
      }, timeoutMs);
    });
    try {
      return await Promise.race([work, this.#lost, timeout]);
    } finally {
      timer?.cancel();
    }
  }
}
