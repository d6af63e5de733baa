/**
 * `rexbot validate` warns of a strategy that times itself on the wall clock — RxJS operators on their default
 * scheduler (`interval(1000)`, `throttleTime(2000)` without `ctx.scheduler`) or the global timers — which its
 * rehearsal, like a backtest, runs on virtual time: it passed with "0 intents" and the strategy then did less in a
 * backtest than live. Each warning names the strategy (not its neighbours in the same bot), says how the timer was
 * started and points at ctx.scheduler. Through the real binary, which also has to exit with a plugin's own
 * `setInterval` still pending.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/shared.js';
import { validatePlugins } from '../helpers/validate-plugins.js';

const h = validatePlugins('validate-timers', ['filter', 'interval', 'map', 'mergeMap', 'Observable', 'throttleTime']);
afterAll(() => h.remove());
const tmp = h.dir;
/** A plugin named `name` whose setup returns `body`, on line 6 (with `ctx`, `place` and its rxjs imports in scope). */
const plugin = h.plugin;
const validate = h.validate;

describe('rexbot validate and wall-clock timers', { timeout: 120_000 }, () => {
  it('warns of each strategy that starts one, naming it, how and where, and points at ctx.scheduler; the others pass quietly', async () => {
    const r = await validate({
      ticker: plugin('ticker', 'interval(1000).pipe(map(place))'),
      throttled: plugin('throttled', "ctx.book$('BTC-USD').pipe(throttleTime(2000), map(() => place(0)))"),
      later: plugin('later', 'ctx.every(1000).pipe(mergeMap(async (i) => { await Promise.resolve(); setTimeout(() => undefined, 50); return place(i); }))'),
      leftover: plugin('leftover', 'new Observable<never>(() => { setInterval(() => undefined, 500); })'),
      good: plugin('good', "interval(1000, ctx.scheduler).pipe(map(place))"),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/: ok \(5 strategies, venue paper; 15 s simulated: ticker 0 intents, throttled \d+ intents?, later \d+ intents, leftover 0 intents, good 15 intents/);
    const warnings = r.stderr.trim().split('\n');
    expect(warnings.map((w) => /warning: strategy '(\w+)'/.exec(w)?.[1])).toEqual(['ticker', 'throttled', 'later', 'leftover']);
    for (const w of warnings) {
      expect(w.startsWith(`${r.bot}: warning: strategy '`)).toBe(true);
      expect(w).toContain('a wall-clock timer runs on real time, so in this rehearsal and in a backtest (virtual time) it fires late or never');
      expect(w).toContain('pass ctx.scheduler to every time-based RxJS operator (interval(ms, ctx.scheduler)');
      expect(w).toContain('strategies/README.md, "Time: the clock rules"');
    }
    expect(warnings[0]).toContain("strategy 'ticker' started 1 wall-clock timer in the 15 s simulated run (e.g. setInterval of 1000 ms, by an RxJS operator or interval()/timer() on its default scheduler)");
    expect(warnings[1]).toContain('(e.g. setInterval of 2000 ms, by an RxJS operator');
    // Outside every strategy's scope (an async continuation): known by the plugin's frame on the stack.
    expect(warnings[2]).toMatch(new RegExp(`started \\d+ wall-clock timers? in the 15 s simulated run \\(e\\.g\\. setTimeout of 50 ms, by the plugin itself, at ${join(tmp, 'later.ts')}:6:\\d+\\)`));
    expect(warnings[3]).toMatch(new RegExp(`\\(e\\.g\\. setInterval of 500 ms, by the plugin itself, at ${join(tmp, 'leftover.ts')}:6:\\d+\\)`));
  });

  it('says nothing of strategies on the context\'s clock (the shipped market maker included)', async () => {
    const r = await validate({ mm: repoPath('strategies', 'market-maker.ts'), good: plugin('good2', "ctx.book$('BTC-USD').pipe(throttleTime(2000, ctx.scheduler), map(() => place(0)))") });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  });
});
