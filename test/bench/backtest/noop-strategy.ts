/** A strategy that follows the book and trades and never emits an intent: the backtest bench's pipeline floor. */
import { EMPTY, merge, mergeMap } from 'rxjs';
import { z } from 'zod';
import { defineStrategy } from '../../../src/strategy/define-strategy.js';

export default defineStrategy({
  name: 'noop',
  params: z.strictObject({}),
  setup(ctx) {
    const m = ctx.markets[0]!;
    return merge(ctx.book$(m), ctx.trades$(m)).pipe(mergeMap(() => EMPTY));
  },
});
