/**
 * A strategy's scope follows the work started in it past `await` and `then` while a watcher tracks scopes
 * (`rexbot validate`'s rehearsal), so a continuation with no frame of the plugin's on its stack is still known to
 * be the strategy's; without a tracker (a backtest, a live bot) nothing is carried and nothing is left behind.
 */
import { describe, expect, it } from 'vitest';
import { currentStrategy, strategyScopesTracked, trackStrategyScopes } from '../../src/strategy/strategy-scope.js';
import { inScope } from '../helpers/in-strategy-scope.js';


describe('strategy scopes across await and then', () => {
  it("carry the scope a promise's continuation was started in while tracked, and only its own", async () => {
    const untrack = trackStrategyScopes();
    try {
      const helper = async (): Promise<string | undefined> => {
        await Promise.resolve();
        return currentStrategy();
      };
      const a = inScope('a', () => Promise.resolve().then(() => currentStrategy()));
      const b = inScope('b', () => helper());
      // Nested: the inner scope's continuation is the inner strategy's; after it, the outer's again.
      const nested = inScope('a', () => [inScope('b', () => Promise.resolve().then(() => currentStrategy())), Promise.resolve().then(() => currentStrategy())]);
      expect(currentStrategy()).toBeUndefined();
      expect(await Promise.all([a, b, ...nested])).toEqual(['a', 'b', 'b', 'a']);
      // The scope entered in a continuation is left there: the code after it is the continuation's again.
      const after = await inScope('a', () => Promise.resolve().then(() => [inScope('b', () => currentStrategy()), currentStrategy()]));
      expect(after).toEqual(['b', 'a']);
    } finally {
      untrack();
    }
    expect(strategyScopesTracked()).toBe(false);
    expect(currentStrategy()).toBeUndefined();
  });

  it('carry nothing while untracked: the scope is the synchronous one only', async () => {
    const later = inScope('a', () => {
      expect(currentStrategy()).toBe('a');
      return Promise.resolve().then(() => currentStrategy());
    });
    expect(await later).toBeUndefined();
  });
});
