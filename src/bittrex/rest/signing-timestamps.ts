/**
 * The `Api-Timestamp` of each signed request. The clock's time in whole ms, never going back, and never the same for
 * two identical requests: a server that refuses replays (the simulator refuses a repeated key, timestamp and
 * signature) takes two identical signed requests with one timestamp for a replay, and a virtual clock that stands
 * still, or two identical reads within a millisecond, would produce exactly that.
 *
 * Different requests may share a millisecond: their signatures differ. Bumping the timestamp for every request
 * instead (the earlier rule) let a client sending more than 1000 signed requests a second run ahead of real time
 * without bound, until the server's ±5-minute window refused them all (after ~30 s at 12k requests a second).
 */
export class SigningTimestamps {
  #last = 0;
  /** The requests (see {@link next}) already signed with `#last`. */
  readonly #used = new Set<string>();

  /**
   * The timestamp for `request` (anything that identifies what gets signed besides the timestamp: method, URI,
   * sub-account and the body, or its content hash) at clock time `now`: `now` in whole ms unless that is behind the last one given, and one ms
   * later than the last when this very request was already signed with it.
   *
   * @example
   * const ts = new SigningTimestamps();
   * ts.next(1000, 'GET /v3/balances'); // 1000
   * ts.next(1000, 'GET /v3/orders/open'); // 1000 (another request)
   * ts.next(1000, 'GET /v3/balances'); // 1001 (the same request again)
   */
  next(now: number, request: string): number {
    const t = Math.floor(now);
    if (t > this.#last) {
      this.#last = t;
      if (this.#used.size > 0) this.#used.clear();
    } else if (this.#used.has(request)) {
      this.#last++;
      this.#used.clear();
    }
    this.#used.add(request);
    return this.#last;
  }
}
