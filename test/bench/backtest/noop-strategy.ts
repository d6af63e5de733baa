/**
 * A strategy that follows the book and trades and never emits an intent: the backtest bench's pipeline floor.
 * It subscribes to every book state and every trade without operators (a `mergeMap(() => EMPTY)` cost more per
 * event than the store's own publication), and counts what it was given, so the bench still delivers every state.
 */
import { Observable } from 'rxjs';
import { z } from 'zod';
import type { Intent } from '../../../src/model/intent.js';
import { defineStrategy } from '../../../src/strategy/define-strategy.js';

/** Book states and trades the no-op strategies of this process were given (the bench child prints it). */
export const received = { books: 0, trades: 0 };

export default defineStrategy({
  name: 'noop',
  params: z.strictObject({}),
  setup(ctx) {
    const m = ctx.markets[0]!;
    return new Observable<Intent>((subscriber) => {
      const books = ctx.book$(m).subscribe({ next: () => void received.books++, error: (e: unknown) => subscriber.error(e) });
      const trades = ctx.trades$(m).subscribe({ next: () => void received.trades++, error: (e: unknown) => subscriber.error(e) });
      return () => {
        books.unsubscribe();
        trades.unsubscribe();
      };
    });
  },
});
