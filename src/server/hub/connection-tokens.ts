/**
 * Connection tokens handed out by negotiate and checked on connect, start, abort and reconnect.
 *
 * A token is base64 of `connectionId:mac`, where mac is an HMAC under a per-server random key, so the server keeps
 * no table of negotiations that never connected, and a reconnecting client's old token stays valid. Base64 (with
 * `+`, `/`, `=`) on purpose: like the real service's tokens it must be URL-encoded, which exercises clients'
 * query encoding.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';

/** Issues and verifies connection tokens for one server instance. */
export class ConnectionTokens {
  readonly #key = randomBytes(32);

  /** A new connection id and its token. */
  issue(): { connectionId: string; connectionToken: string } {
    const connectionId = randomUUID();
    return { connectionId, connectionToken: this.tokenFor(connectionId) };
  }

  /** The token of a connection id. */
  tokenFor(connectionId: string): string {
    return Buffer.from(`${connectionId}:${this.#mac(connectionId)}`, 'utf8').toString('base64');
  }

  /**
   * The connection id a token stands for, or undefined when it was not issued here. A `+` that a sloppy client
   * left unencoded arrives as a space after query decoding; it is restored rather than refused.
   */
  verify(token: string | null | undefined): string | undefined {
    if (!token) return undefined;
    const text = Buffer.from(token.replaceAll(' ', '+'), 'base64').toString('utf8');
    const colon = text.lastIndexOf(':');
    if (colon <= 0) return undefined;
    const id = text.slice(0, colon);
    return text.slice(colon + 1) === this.#mac(id) ? id : undefined;
  }

  #mac(connectionId: string): string {
    return createHmac('sha256', this.#key).update(connectionId).digest('base64').slice(0, 22);
  }
}
