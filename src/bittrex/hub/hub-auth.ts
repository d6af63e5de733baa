/**
 * Hub authentication (seed section 5): `Authenticate(apiKey, timestamp, randomContent, signature)` answered by a
 * SocketResponse. It lasts 10 minutes; the server says `authenticationExpiring` one minute before the end and
 * cancels private subscriptions when it ends.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import { type Credentials, signHubAuth } from '../rest/auth.js';
import { describeOffset, type VenueClock, type VenuePing } from '../rest/venue-clock.js';
import { decode } from '../../model/decode.js';
import { decodeSocketResponse, type SocketResponse } from '../../model/misc.js';
import { HubAuthError } from './hub-errors.js';

/** How long one authentication lasts on the service. */
export const AUTH_LIFETIME_MS = 10 * 60_000;

/**
 * When to renew without waiting for `authenticationExpiring`: at 9 minutes, the moment the server would send it.
 * If that message is lost the client still renews a minute before private subscriptions are cancelled.
 */
export const DEFAULT_AUTH_RENEW_AFTER_MS = 9 * 60_000;

/**
 * How long before the end of an authentication, by our clock, a renewal takes it for lapsed anyway. The server's
 * 10 minutes began when it processed Authenticate, a one-way trip before our clock saw its answer, and the two
 * clocks differ: a renewal this close to the end may find the private subscriptions already cancelled.
 */
export const AUTH_EXPIRY_MARGIN_MS = 5_000;

/** Calls a hub method on one connection. */
export type HubInvoke = (method: string, ...args: unknown[]) => Promise<unknown>;

/**
 * The venue's time for Authenticate's timestamp, shared with the REST client of the same gateway, and how to
 * measure it (GET /ping) when the hub refuses a timestamp.
 */
export interface HubVenueTime {
  clock: VenueClock;
  ping: VenuePing;
}

/**
 * Authenticate one connection. Resolves when the server answered `Success: true`; rejects with
 * {@link HubAuthError} on `Success: false` (its ErrorCode kept) or a reply that is not a SocketResponse, and with
 * the invocation's own error when the call itself failed (connection closed, timeout).
 *
 * The timestamp comes from `clock`, so a virtual-time run signs with virtual time; the server checks the
 * signature, and a simulator on the same clock can check the timestamp too. With `venue` it comes from the venue's
 * clock instead, and an `INVALID_TIMESTAMP` refusal has it measured and Authenticate tried once more.
 *
 * @example
 * await authenticateHub((m, ...a) => transport.invoke(m, ...a), creds, systemClock, { renewal: false });
 */
export async function authenticateHub(
  invoke: HubInvoke,
  credentials: Credentials,
  clock: Clock,
  opts: { renewal: boolean; randomContent?: (() => string) | undefined; venue?: HubVenueTime | undefined },
): Promise<void> {
  const venue = opts.venue;
  for (let corrected = false; ; corrected = true) {
    const generation = venue?.clock.generation ?? 0;
    const args = signHubAuth(credentials, (venue?.clock ?? clock).now(), (opts.randomContent ?? randomUUID)());
    const reply = await invoke('Authenticate', args.apiKey, args.timestamp, args.randomContent, args.signature);
    let response: SocketResponse;
    try {
      response = decode(decodeSocketResponse, reply, 'hub Authenticate');
    } catch (e) {
      throw new HubAuthError('WIRE_FORMAT', { renewal: opts.renewal, cause: e });
    }
    if (response.Success) return;
    const code = response.ErrorCode ?? 'UNKNOWN';
    if (code !== 'INVALID_TIMESTAMP' || !venue) throw new HubAuthError(code, { renewal: opts.renewal });
    if (corrected) {
      const detail = `refused again on the venue's time; this machine's clock is ${describeOffset(venue.clock.offsetMs)}: set it right (NTP)`;
      throw new HubAuthError(code, { renewal: opts.renewal, detail });
    }
    // A refused Authenticate changed nothing on the server: measuring the venue's clock and signing again is safe.
    let retry: boolean;
    try {
      retry = await venue.clock.correct(generation, venue.ping);
    } catch (e) {
      throw new HubAuthError(code, { renewal: opts.renewal, detail: "the venue's clock could not be measured (GET /ping)", cause: e });
    }
    if (!retry) throw new HubAuthError(code, { renewal: opts.renewal, detail: "yet this machine's clock agrees with the venue's (GET /ping)" });
  }
}

/**
 * Ask the server whether this connection is still authenticated. Answers false when the reply is anything but
 * `true`, including an error reply from a server without IsAuthenticated: the caller then assumes the worst
 * (private subscriptions gone) and re-subscribes, which costs a resync but never loses data.
 * A failure of the connection itself still rejects, so the caller can tell it apart.
 */
export async function isHubAuthenticated(
  invoke: HubInvoke,
  connectionLost: () => boolean,
): Promise<boolean> {
  try {
    return (await invoke('IsAuthenticated')) === true;
  } catch (e) {
    if (connectionLost()) throw e;
    return false;
  }
}

/**
 * Whether a renewal finds the authentication lapsed (the server has then cancelled the private subscriptions):
 * by our clock within {@link AUTH_EXPIRY_MARGIN_MS} of its end `expiresAt`, else by the server's own answer.
 */
export async function hubAuthLapsed(now: number, expiresAt: number, invoke: HubInvoke, connectionLost: () => boolean): Promise<boolean> {
  return now >= expiresAt - AUTH_EXPIRY_MARGIN_MS || !(await isHubAuthenticated(invoke, connectionLost));
}
