/**
 * Caps on what slow hub consumers may make the server hold (issue 9 item 7). Every push to a socket that does
 * not read piles up in its send buffer. One connection is dropped past `perConnection` unsent bytes; and since
 * 300 connections each under that cap could still hold gigabytes, a lagging connection (over `lagBytes`) is
 * also dropped when the unsent bytes of all connections together pass `total`. Sockets that keep up are never
 * dropped for others' sake: the sum is only computed when a lagging socket is about to get more.
 *
 * Every frame the server writes after the handshake goes through {@link SlowConsumers.send}: pushes, replies to
 * invocations and keep-alives alike. A client that sends small calls and never reads their replies (a 40-byte
 * QueryExchangeState answered with ~50 KB) is otherwise a way to make the server hold any amount of memory.
 */

/** What is measured of a socket: its unsent bytes (`ws`'s `bufferedAmount`). */
export interface Buffered {
  readonly bufferedAmount: number;
}

/** A socket the hub writes frames to (`ws`'s WebSocket). */
export interface FrameSocket extends Buffered {
  readonly readyState: number;
  readonly OPEN: number;
  send(data: string): void;
  terminate(): void;
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

  /**
   * Write one frame to `socket` if it is open; a socket over its cap (or lagging while all together are over
   * theirs) is dropped instead. True when the frame was written.
   */
  send(socket: FrameSocket, frame: string): boolean {
    if (socket.readyState !== socket.OPEN) return false;
    if (this.tooSlow(socket)) {
      socket.terminate();
      return false;
    }
    socket.send(frame);
    return true;
  }

  /** True when `socket` must be dropped instead of given one more frame (and counts it). */
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
