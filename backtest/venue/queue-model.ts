/**
 * Queue models: where a cancellation at our price level happened relative to our resting order. A recorded level
 * shrinking by more than the recorded trades at that price explain is someone cancelling; the recording cannot
 * say whether they stood ahead of us (we move up) or behind us (we do not). The model decides how much of the
 * decrease `d` came from ahead, given `ahead` (recorded quantity in front of us) and `behind` (the rest of the
 * level before the decrease):
 * - `pessimistic`: none (every cancellation is behind us);
 * - `optimistic`: all of it, as far as there is quantity ahead;
 * - `power` (the default): a share f(ahead) / (f(ahead) + f(behind)) with f(x) = x^n (n = 3 by default), and
 * - `log`: the same with f(x) = ln(1 + x).
 * The probabilistic pair follows the idea of hftbacktest's probabilistic queue models (a cancellation is more
 * likely to come from the longer part of the queue, and sharply so for n > 1); the formula here is our own
 * statement of it. Whatever a model says, the part ahead never drops below 0 and never exceeds the level.
 */
import { Decimal, ZERO } from '../../src/core/decimal.js';

/** A queue model's name. */
export type QueueModelName = 'pessimistic' | 'optimistic' | 'power' | 'log';

/** Decides how much of an unexplained decrease came from ahead of us. */
export interface QueueModel {
  readonly name: QueueModelName;
  /** The part of `decrease` (≤ ahead + behind) that stood ahead of us, 0 ≤ result ≤ min(decrease, ahead). */
  aheadShare(ahead: Decimal, behind: Decimal, decrease: Decimal): Decimal;
  /** One sentence for the report's assumptions. */
  describe(): string;
}

/** Build a queue model. */
export function queueModel(name: QueueModelName, exponent = 3): QueueModel {
  switch (name) {
    case 'pessimistic':
      return {
        name,
        aheadShare: (ahead, behind, d) => clamp(d.minus(behind), ahead, d),
        describe: () => 'Queue model pessimistic: a cancellation at our price is behind our order unless the level shrank below our place in it.',
      };
    case 'optimistic':
      return {
        name,
        aheadShare: (ahead, _behind, d) => (d.lt(ahead) ? d : ahead),
        describe: () => 'Queue model optimistic: a cancellation at our price is ahead of our order as far as there is quantity ahead.',
      };
    case 'power':
      return probabilistic(name, (x) => Math.pow(x, exponent), `Queue model power (n = ${exponent}): a cancellation at our price is ahead of our order with share f(ahead)/(f(ahead)+f(behind)), f(x) = x^${exponent}.`);
    case 'log':
      return probabilistic(name, (x) => Math.log1p(x), 'Queue model log: a cancellation at our price is ahead of our order with share f(ahead)/(f(ahead)+f(behind)), f(x) = ln(1+x).');
  }
}

function probabilistic(name: QueueModelName, f: (x: number) => number, sentence: string): QueueModel {
  return {
    name,
    aheadShare(ahead, behind, d) {
      if (ahead.isZero()) return ZERO;
      // What cannot have come from behind (the decrease is larger than everything behind) came from ahead.
      const forced = d.minus(behind);
      const fa = f(ahead.toNumber());
      const fb = f(behind.toNumber());
      const share = fa + fb > 0 ? fa / (fa + fb) : 0;
      // The share is a model's estimate; rounded to the 8 decimals quantities have, so fills stay exact.
      const estimate = new Decimal((d.toNumber() * share).toFixed(8));
      return clamp(forced.gt(estimate) ? forced : estimate, ahead, d);
    },
    describe: () => sentence,
  };
}

/** `x` limited to [0, min(ahead, d)]. */
function clamp(x: Decimal, ahead: Decimal, d: Decimal): Decimal {
  const hi = ahead.lt(d) ? ahead : d;
  if (x.isNegative()) return ZERO;
  return x.gt(hi) ? hi : x;
}
