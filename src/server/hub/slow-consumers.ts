/**
 * Caps on what slow hub consumers may make the server hold (issue 9 item 7). Every push to a socket that does
 * not read piles up in its send buffer. One connection is dropped past `perConnection` unsent bytes; and since
 * 300 connections each under that cap could still hold gigabytes, a lagging connection (over `lagBytes`) is
 * also dropped when the unsent bytes of all connections together pass `total`. Sockets that keep up are never
 * dropped for others' sake: the sum is only computed when a lagging socket is about to get more.
 */

/** What is measured of a socket: its unsent bytes (`ws`'s `bufferedAmount`). */
export interface Buffered {
  readonly bufferedAmount: number;
}

/** Options of {@link SlowConsumers}. */
export interface SlowConsumerLimits {
  /** Unsent bytes one connection may hold; default 16 MiB. */
  perConnection?: number;
  /** Unsent bytes all connections together may hold; default 256 MiB. */
  total?: number;
}

/** Default per-connection cap. */
export const DEFAULT_MAX_BUFFERED_PER_CONNECTION = 16 * 1024 * 1024;
/** Default total cap. */
export const DEFAULT_MAX_BUFFERED_TOTAL = 256 * 1024 * 1024;

/** Tracks the hub's sockets and says which one is too slow to keep. */
export class SlowConsumers {
  readonly perConnection: number;
  readonly total: number;
  /** A socket with this much unsent is lagging: only then is the total computed. */
  readonly #lagBytes: number;
  readonly #sockets = new Set<Buffered>();
  #dropped = 0;

  constructor(limits: SlowConsumerLimits = {}) {
    this.perConnection = limits.perConnection ?? DEFAULT_MAX_BUFFERED_PER_CONNECTION;
    this.total = limits.total ?? DEFAULT_MAX_BUFFERED_TOTAL;
    this.#lagBytes = Math.min(this.perConnection, Math.max(64 * 1024, Math.floor(this.total / 64)));
  }

  add(socket: Buffered): void {
    this.#sockets.add(socket);
  }

  delete(socket: Buffered): void {
    this.#sockets.delete(socket);
  }

  /** Connections dropped for being too slow. */
  get dropped(): number {
    return this.#dropped;
  }

  /** True when `socket` must be dropped instead of given one more push (and counts it). */
  tooSlow(socket: Buffered): boolean {
    const mine = socket.bufferedAmount;
    if (mine < this.#lagBytes) return false;
    let drop = mine > this.perConnection;
    if (!drop) {
      let sum = 0;
      for (const s of this.#sockets) sum += s.bufferedAmount;
      drop = sum > this.total;
    }
    if (drop) this.#dropped++;
    return drop;
  }
}
