/**
 * `rexbot validate` warns of a strategy that reads the wall clock — `Date.now()`, `new Date()`, `performance.now()`,
 * `process.hrtime` — instead of `ctx.clock.now()`: its rehearsal, like a backtest, runs on virtual time, where the
 * machine's time is after every recorded event, so the strategy decides on a time the bot is not at and nothing
 * said so (it passed with "ok"). Each warning names the strategy (not its neighbours in the same bot), what it
 * called, where when the plugin called it itself, and the fix; a strategy on ctx.clock (using `new Date(ms)`,
 * `Date.UTC`, `Date.parse` and `instanceof Date`, which must work exactly as before while the rehearsal watches)
 * passes quietly. Through the real binary.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/shared.js';
import { validatePlugins } from '../helpers/validate-plugins.js';

const h = validatePlugins('validate-clock-reads', ['map', 'mergeMap', 'throttleTime', 'timestamp']);
afterAll(() => h.remove());
const tmp = h.dir;
/** A plugin named `name` whose setup returns `body`, on line 6 (with `ctx`, `place` and its rxjs imports in scope). */
const plugin = h.plugin;
const validate = h.validate;

// The bot's clock in the rehearsal starts on 2024-01-01; a Date built from it must be that Date, exactly.
const dateChecks =
  "const d = new Date(ctx.clock.now()); if (!(d instanceof Date) || d.constructor !== Date || Object.getPrototypeOf(d) !== Date.prototype || d.getUTCFullYear() !== 2024 || new Date(2024, 0, 1, 12).getHours() !== 12 || Date.UTC(2024, 0, 1) !== Date.parse('2024-01-01T00:00:00Z') || !Number.isNaN(new Date(undefined as never).getTime())) throw new Error('Date is not Date: ' + String(d));";

describe('rexbot validate and wall-clock reads', { timeout: 120_000 }, () => {
  it('warns of each strategy that reads the wall clock, naming it, what it called, where, and points at ctx.clock.now(); the good one passes quietly', async () => {
    const r = await validate({
      operators: plugin('operators', "ctx.book$('BTC-USD').pipe(throttleTime(1000, ctx.scheduler), map(() => place(Date.now() % 7)))"),
      insetup: plugin('insetup', '((started) => ctx.every(1000).pipe(map((i) => place(i + started.getSeconds()))))(new Date())'),
      later: plugin('later', 'ctx.every(1000).pipe(mergeMap(async (i) => { await Promise.resolve(); return place(i + Math.round(performance.now() + Number(process.hrtime.bigint() % 2n))); }))'),
      stamped: plugin('stamped', "ctx.book$('BTC-USD').pipe(timestamp(), throttleTime(1000, ctx.scheduler), map((b) => place(b.timestamp % 7)))"),
      good: plugin('good', `ctx.every(1000).pipe(map((i) => { ${dateChecks} return place(i); }))`),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/: ok \(5 strategies, venue paper; 15 s simulated: operators \d+ intents?, insetup 15 intents, later 15 intents, stamped \d+ intents?, good 15 intents\)/);
    const warnings = r.stderr.trim().split('\n');
    expect(warnings.map((w) => /warning: strategy '(\w+)'/.exec(w)?.[1])).toEqual(['operators', 'insetup', 'later', 'stamped']);
    for (const w of warnings) {
      expect(w.startsWith(`${r.bot}: warning: strategy '`)).toBe(true);
      expect(w).toContain("the wall clock is the machine's time, not the bot's: in this rehearsal and in a backtest (virtual time) it is past every recorded event");
      expect(w).toContain('use ctx.clock.now() (epoch ms on the bot\'s clock; new Date(ctx.clock.now()) for a Date)');
      expect(w).toContain('strategies/README.md, "Time: the clock rules"');
    }
    const at = (name: string): string => `${join(tmp, `${name}.ts`)}:6:\\d+`;
    expect(warnings[0]).toMatch(new RegExp(`strategy 'operators' read the wall clock \\d+ times in the 15 s simulated run \\(Date\\.now\\(\\), by the plugin itself, at ${at('operators')}\\)`));
    expect(warnings[1]).toMatch(new RegExp(`strategy 'insetup' read the wall clock once in the 15 s simulated run \\(new Date\\(\\), by the plugin itself, at ${at('insetup')}\\)`));
    // Outside every strategy's scope (an async continuation): known by the plugin's frame on the stack.
    expect(warnings[2]).toMatch(new RegExp(`strategy 'later' read the wall clock 30 times in the 15 s simulated run \\(performance\\.now\\(\\) and process\\.hrtime\\.bigint\\(\\), by the plugin itself, at ${at('later')}\\)`));
    // A library on the plugin's direct behalf: rxjs's timestamp() on its default timestamp provider.
    expect(warnings[3]).toMatch(/strategy 'stamped' read the wall clock \d+ times in the 15 s simulated run \(Date\.now\(\), by an RxJS operator or scheduler on its default clock \(timestamp, timeInterval, debounceTime, \.\.\. without ctx\.scheduler\)\)/);
  });

  it('says nothing of strategies on the context\'s clock (the shipped market maker included)', async () => {
    const r = await validate({ mm: repoPath('strategies', 'market-maker.ts'), good: plugin('good2', `ctx.book$('BTC-USD').pipe(throttleTime(2000, ctx.scheduler), timestamp(ctx.scheduler), map(() => { ${dateChecks} return place(0); }))`) });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  });
});
