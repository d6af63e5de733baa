/**
 * Observing on hot paths without paying prom-client's per-call cost (the label object hashed into a string key
 * and validated at every `observe`). A {@link HistogramBuffer} keeps the observations of one label value in a
 * plain array and hands them to the histogram, in order, when the histogram is read (`get()`, which every scrape
 * goes through, calls its `collect` hook first) or when the buffer is full — so a scrape sees exactly the
 * buckets, sum and count one `observe` per event would have made (the sum adds the same values in the same order).
 *
 * Resetting the histogram drops the observations not yet handed over, as it drops the ones already there.
 */
import type { Histogram } from 'prom-client';

/** Observations kept before they are handed over anyway: bounds the memory of a bot nobody scrapes. */
const CAPACITY = 1024;

/**
 * Observations of one histogram with one label, kept until it is read.
 *
 * @example
 * const ack = new HistogramBuffer(metrics.histogram({ name: 'ack_seconds', help: '…', labelNames: ['strategy'] }), 'strategy');
 * ack.observe('mm', 0.004);
 */
export class HistogramBuffer {
  readonly #histogram: Histogram<string>;
  readonly #label: string;
  /** Label values and observations, interleaved, in the order they were observed. */
  #pending: (string | number)[] = [];

  constructor(histogram: Histogram<string>, label: string) {
    this.#histogram = histogram;
    this.#label = label;
    const self = this;
    const hooks = histogram as unknown as { collect?: (this: Histogram<string>) => void | Promise<void>; reset: (this: Histogram<string>) => void };
    const collect = hooks.collect;
    hooks.collect = function (this: Histogram<string>) {
      self.flush();
      return collect?.call(this);
    };
    const reset = hooks.reset;
    hooks.reset = function (this: Histogram<string>) {
      self.#pending = [];
      reset.call(this);
    };
  }

  /** Observe `value` for label value `labelValue`. */
  observe(labelValue: string, value: number): void {
    if (!Number.isFinite(value)) {
      // prom-client refuses it: it does so here, at the call, as it would have without the buffer.
      this.flush();
      this.#histogram.observe({ [this.#label]: labelValue }, value);
      return;
    }
    const pending = this.#pending;
    pending.push(labelValue, value);
    if (pending.length >= 2 * CAPACITY) this.flush();
  }

  /** Hand every pending observation to the histogram (reading the histogram does this by itself). */
  flush(): void {
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    for (let i = 0; i < pending.length; i += 2) this.#histogram.observe({ [this.#label]: pending[i] as string }, pending[i + 1] as number);
  }
}
