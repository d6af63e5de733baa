/**
 * The times of the orders the risk engine approved inside the submit-rate window: what the SUBMIT_RATE check
 * counts, and when the window will admit more. Times arrive in clock order, so the window is a queue: a ring of
 * doubles (a power-of-two capacity, doubled when full), its oldest approval at `#head`.
 *
 * A ring rather than an array walked by a head index and cut now and then: the cut ran for the first time long
 * after the risk engine's evaluate() had been optimized (after about a thousand approvals), with no type feedback,
 * and threw away the optimized code of evaluate() and of the order manager's submit() it is inlined into (both were
 * compiled again, in every market maker's backtest). The ring's only rare step, growing, happens while the window
 * fills, before then; the window never holds more than the limit's approvals.
 */
export class ApprovalWindow {
  #times = new Float64Array(64);
  #head = 0;
  #size = 0;

  constructor(private readonly windowMs: number) {}

  /** Approvals still inside the window (as of the last {@link ApprovalWindow.prune}). */
  get count(): number {
    return this.#size;
  }

  /** One approval at `now`. */
  add(now: number): void {
    if (this.#size === this.#times.length) this.#grow();
    this.#times[(this.#head + this.#size) & (this.#times.length - 1)] = now;
    this.#size++;
  }

  /** Forget approvals that left the window by `now` (an approval at `t` counts while `now - windowMs < t`). */
  prune(now: number): void {
    const from = now - this.windowMs;
    const times = this.#times;
    const mask = times.length - 1;
    while (this.#size > 0 && times[this.#head]! <= from) {
      this.#head = (this.#head + 1) & mask;
      this.#size--;
    }
  }

  /**
   * When the window, holding at most `max`, admits `orders` more (at most `max`): the moment enough of its oldest
   * approvals have left it. Undefined when it admits them now. Call after {@link ApprovalWindow.prune}.
   */
  admitsAt(orders: number, max: number): number | undefined {
    const leaving = this.#size + Math.min(orders, max) - max;
    if (leaving <= 0) return undefined;
    return this.#times[(this.#head + leaving - 1) & (this.#times.length - 1)]! + this.windowMs;
  }

  /** Twice the room, the approvals first in order. */
  #grow(): void {
    const n = this.#times.length;
    const times = new Float64Array(n * 2);
    for (let k = 0; k < this.#size; k++) times[k] = this.#times[(this.#head + k) & (n - 1)]!;
    this.#times = times;
    this.#head = 0;
  }
}
