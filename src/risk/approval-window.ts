/**
 * The times of the orders the risk engine approved inside the submit-rate window: what the SUBMIT_RATE check
 * counts, and when the window will admit more. Times arrive in clock order, so the window is a queue: a head index
 * walks past approvals that left it, and the array is compacted only when most of it is behind the head.
 */
export class ApprovalWindow {
  #times: number[] = [];
  #head = 0;

  constructor(private readonly windowMs: number) {}

  /** Approvals still inside the window (as of the last {@link ApprovalWindow.prune}). */
  get count(): number {
    return this.#times.length - this.#head;
  }

  /** One approval at `now`. */
  add(now: number): void {
    this.#times.push(now);
  }

  /** Forget approvals that left the window by `now` (an approval at `t` counts while `now - windowMs < t`). */
  prune(now: number): void {
    const from = now - this.windowMs;
    while (this.#head < this.#times.length && this.#times[this.#head]! <= from) this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#times.length) {
      this.#times = this.#times.slice(this.#head);
      this.#head = 0;
    }
  }

  /**
   * When the window, holding at most `max`, admits `orders` more (at most `max`): the moment enough of its oldest
   * approvals have left it. Undefined when it admits them now. Call after {@link ApprovalWindow.prune}.
   */
  admitsAt(orders: number, max: number): number | undefined {
    const leaving = this.count + Math.min(orders, max) - max;
    if (leaving <= 0) return undefined;
    return this.#times[this.#head + leaving - 1]! + this.windowMs;
  }
}
