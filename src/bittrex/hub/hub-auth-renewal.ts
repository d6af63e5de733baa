/**
 * Keeping a hub connection authenticated (seed section 5): Authenticate when it opens, then again on
 * `authenticationExpiring` or, in case that message is lost, a timer after the last success; when it had lapsed
 * anyway, the private streams the server cancelled are subscribed again. A renewal that fails gives the connection up.
 * The client that owns the connections ({@link HubAuthRenewalHost}) does the calls and publishes what happens.
 */
import type { Clock } from '../../core/clock.js';
import { authenticateHub, AUTH_LIFETIME_MS, DEFAULT_AUTH_RENEW_AFTER_MS, hubAuthLapsed } from './hub-auth.js';
import type { HubClientOptions, HubLifecycleEvent, HubLogger, HubMessage } from './hub-client-types.js';
import type { HubConnection } from './hub-connection.js';
import { isPrivateChannel, type SubscriptionResult } from './hub-subscriptions.js';

/** The client options authentication uses. */
export type HubAuthOptions = Pick<HubClientOptions, 'credentials' | 'randomContent' | 'venueTime' | 'authRenewAfterMs'>;

/** What a renewal needs of the client whose connection it keeps authenticated. */
export interface HubAuthRenewalHost {
  /** Call a hub method on `conn` (ends early when the connection is lost, drops it when unanswered). */
  invoke(conn: HubConnection, method: string, ...args: unknown[]): Promise<unknown>;
  subscribeOn(conn: HubConnection, channels: string[]): Promise<SubscriptionResult[]>;
  /** Forget and report refused channels; answers `results`. */
  settle(results: SubscriptionResult[]): SubscriptionResult[];
  /** The channels the client keeps subscribed. */
  wanted(): ReadonlySet<string>;
  /** An Authenticate succeeded (counted in the client's stats). */
  authenticated(event: Extract<HubLifecycleEvent, { type: 'authenticated' }>): void;
  /** Private channels were subscribed again after a lapse. */
  resubscribed(event: Extract<HubLifecycleEvent, { type: 'resubscribed' }>): void;
  /** Hand a message to the client's streams. */
  publish(message: HubMessage): void;
  error(e: Error): void;
  /** Give `conn` up (a new connection re-authenticates). */
  drop(conn: HubConnection, reason: string, cause: unknown): Promise<void>;
}

/**
 * Authentication of the connections of one hub client.
 *
 * @example
 * const auth = new HubAuthRenewal(opts, clock, log, host);
 * await auth.authenticate(conn, false); // when the connection opens; renewals then follow by themselves
 * auth.renew(conn, 'expiring'); // on the server's authenticationExpiring
 */
export class HubAuthRenewal {
  readonly #opts: HubAuthOptions;
  readonly #clock: Clock;
  readonly #log: HubLogger;
  readonly #host: HubAuthRenewalHost;

  constructor(opts: HubAuthOptions, clock: Clock, log: HubLogger, host: HubAuthRenewalHost) {
    this.#opts = opts;
    this.#clock = clock;
    this.#log = log;
    this.#host = host;
  }

  /** Authenticate `conn` (the client has credentials) and schedule its renewal. Rejects as authenticateHub does. */
  async authenticate(conn: HubConnection, renewal: boolean): Promise<void> {
    const creds = this.#opts.credentials!;
    const rc = this.#opts.randomContent;
    const invoke = (m: string, ...a: unknown[]) => this.#host.invoke(conn, m, ...a);
    await authenticateHub(invoke, creds, this.#clock, { renewal, randomContent: rc, venue: this.#opts.venueTime });
    const at = this.#clock.now();
    conn.authExpiresAt = at + AUTH_LIFETIME_MS;
    conn.renewTimer?.cancel();
    conn.renewTimer = this.#clock.setTimeout(
      () => void this.renew(conn, 'scheduled'),
      this.#opts.authRenewAfterMs ?? DEFAULT_AUTH_RENEW_AFTER_MS,
    );
    this.#host.authenticated({ type: 'authenticated', epoch: conn.epoch, renewal, at });
  }

  /** Renew authentication on a live connection; restore private subscriptions if it had lapsed. */
  async renew(conn: HubConnection, trigger: 'expiring' | 'scheduled'): Promise<void> {
    if (!this.#opts.credentials || !conn.ready || conn.isLost || conn.renewing) return;
    conn.renewing = true;
    try {
      // Lapsed means the server has cancelled the private subscriptions (seed section 5): they must be made
      // again, and the streams missed messages meanwhile.
      const invoke = (m: string, ...a: unknown[]) => this.#host.invoke(conn, m, ...a);
      const lapsed = await hubAuthLapsed(this.#clock.now(), conn.authExpiresAt, invoke, () => conn.isLost);
      await this.authenticate(conn, true);
      this.#log.debug({ epoch: conn.epoch, trigger, lapsed }, 'hub authentication renewed');
      const priv = [...this.#host.wanted()].filter(isPrivateChannel);
      if (priv.length === 0) return;
      // Subscribed again even when not lapsed: the server can end authentication between its answer to
      // IsAuthenticated and our Authenticate, and every later check then finds us authenticated, so the streams
      // would stay silent for good. That costs one call per renewal; the streams find what they missed by the gap
      // in sequence, and a refusal then is no reason to forget a channel (only a lapse settles the answers).
      if (lapsed) conn.holdChannels(priv);
      const results = await this.#host.subscribeOn(conn, priv);
      if (!lapsed) {
        for (const r of results) {
          if (!r.success) this.#log.debug({ channel: r.channel, errorCode: r.error.errorCode }, 'hub renewal: Subscribe refused');
        }
        return;
      }
      this.#host.settle(results);
      const wanted = this.#host.wanted();
      const channels = priv.filter((c) => wanted.has(c));
      this.#host.resubscribed({ type: 'resubscribed', epoch: conn.epoch, channels, reason: 'auth-lapsed', at: this.#clock.now() });
      // The streams resync now: what arrived meanwhile is the first of the new subscription, in order.
      conn.release<HubMessage>((m) => this.#host.publish(m));
    } catch (e) {
      conn.release(); // dropped: the connection is given up below, and a new one resyncs every stream
      if (conn.isLost) return; // the loss is already reported and a reconnect under way
      this.#host.error(e instanceof Error ? e : new Error(String(e)));
      // Without authentication the private streams are dead on this connection; a new one re-authenticates.
      await this.#host.drop(conn, 'auth-renewal-failed', e);
    } finally {
      conn.renewing = false;
    }
  }
}
