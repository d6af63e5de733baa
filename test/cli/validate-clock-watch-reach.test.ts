/**
 * What `rexbot validate`'s wall-clock watches reach beyond a strategy's synchronous code (the last gaps of
 * validate-clock-reads and validate-real-timers): a plugin's top-level code, which ran when validate loaded the
 * plugin before the watches began; a reference to a clock function saved at import (`const now = Date.now`); a read
 * after an `await` with no frame of the plugin's on the stack (RxJS delivering a promise's value, a helper module
 * resuming, a promise calling `Date.now` itself); and a `Date` saved at import, whose dates must still say
 * `d.constructor === SavedDate`. Each is a warning naming the strategy and where; none passed as "ok" silently or
 * failed the strategy. Through the real binary.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/shared.js';
import { validatePlugins } from '../helpers/validate-plugins.js';

const h = validatePlugins('validate-clock-reach', []);
afterAll(() => h.remove());
const api = JSON.stringify(repoPath('src', 'strategy', 'public-api.ts'));

/** A plugin named `name` with `top` on line 4 (its top level) and setup returning `body` on line 6. */
function plugin(name: string, top: string, body: string): string {
  const file = join(h.dir, `${name}.ts`);
  writeFileSync(
    file,
    `import { dec, defineStrategy, z } from ${api};\nimport { delay, map, mergeMap, timestamp } from 'rxjs'; import { later } from './helper.ts';\n` +
      `const place = (i: number) => ({ kind: 'place', key: 'k' + i, order: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.001'), limit: dec('29000') } }) as never;\n` +
      `${top}\nexport default defineStrategy({ name: '${name}', params: z.strictObject({}), setup(ctx) { void place; void delay; void map; void mergeMap; void timestamp; void later;\n` +
      `  return ${body};\n} });\n`,
  );
  return file;
}
// A module the plugins import, whose read comes after its own `await`: only it and Node's frames are on the stack.
writeFileSync(join(h.dir, 'helper.ts'), 'export async function later(): Promise<number> { await Promise.resolve(); return Date.now(); }\n');

const at = (name: string, line: number): string => `${join(h.dir, `${name}.ts`)}:${line}:\\d+`;

describe("rexbot validate's wall-clock watches", { timeout: 120_000 }, () => {
  it("see a plugin's top-level code and the clock functions it saved at import, at the plugin's line", async () => {
    const r = await h.validate({
      toplevel: plugin('toplevel', 'const started = Date.now(); const beat = setInterval(() => undefined, 1000);', 'ctx.every(1000).pipe(map((i) => { void beat; return place(i + (started % 2)); }))'),
      saved: plugin('saved', 'const now = Date.now; const { now: dateNow } = Date; const perfNow = performance.now.bind(performance);', 'ctx.every(1000).pipe(map((i) => place(i + ((now() + dateNow() + Math.round(perfNow())) % 2))))'),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/: ok \(2 strategies, venue paper; 15 s simulated: toplevel 15 intents, saved 15 intents\)/);
    // The top-level setInterval is the strategy's, cleared with the watch: nothing holds the process open after it.
    expect(r.stderr).not.toContain('held open');
    const warnings = r.stderr.trim().split('\n');
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(new RegExp(`strategy 'toplevel' started 1 wall-clock timer .*\\(e\\.g\\. setInterval of 1000 ms, by the plugin itself, at ${at('toplevel', 4)}\\)`));
    expect(warnings[1]).toMatch(new RegExp(`strategy 'toplevel' read the wall clock once .*\\(Date\\.now\\(\\), by the plugin itself, at ${at('toplevel', 4)}\\)`));
    expect(warnings[2]).toMatch(new RegExp(`strategy 'saved' read the wall clock 45 times .*\\(Date\\.now\\(\\) and performance\\.now\\(\\), by the plugin itself, at ${at('saved', 6)}\\)`));
  });

  it('see reads and timers after an await with no frame of the plugin on the stack', async () => {
    const r = await h.validate({
      piped: plugin('piped', '', 'ctx.every(1000).pipe(mergeMap(async (i) => { await Promise.resolve(); return i; }), timestamp(), map((t) => place(t.value)))'),
      delayed: plugin('delayed', '', 'ctx.every(1000).pipe(mergeMap(async (i) => { await Promise.resolve(); return i; }), delay(5), map(place))'),
      handed: plugin('handed', '', 'ctx.every(1000).pipe(mergeMap((i) => later().then((t) => place(i + (t % 2)))))'),
      thened: plugin('thened', '', 'ctx.every(1000).pipe(mergeMap((i) => Promise.resolve().then(Date.now).then((t) => place(i + (t % 2)))))'),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/: ok \(4 strategies, venue paper; 15 s simulated: piped 15 intents, delayed \d+ intents?, handed 15 intents, thened 15 intents\)/);
    const warnings = r.stderr.trim().split('\n');
    expect(warnings.map((w) => /warning: strategy '(\w+)' (started|read)/.exec(w)?.slice(1).join(' '))).toEqual(['delayed started', 'piped read', 'handed read', 'thened read']);
    expect(warnings[0]).toMatch(/strategy 'delayed' started \d+ wall-clock timers? .*\(e\.g\. setInterval of 5 ms, by an RxJS operator or interval\(\)\/timer\(\) on its default scheduler\)/);
    expect(warnings[1]).toMatch(/strategy 'piped' read the wall clock 15 times .*\(Date\.now\(\), by an RxJS operator or scheduler on its default clock/);
    expect(warnings[2]).toMatch(new RegExp(`strategy 'handed' read the wall clock 15 times .*\\(Date\\.now\\(\\), by the plugin itself, at ${at('helper', 1)}\\)`));
    expect(warnings[3]).toMatch(/strategy 'thened' read the wall clock 15 times in the 15 s simulated run \(Date\.now\(\), by the plugin itself\)/);
  });

  it('leave a Date saved at import a Date whose dates name it as their constructor, and say nothing of it', async () => {
    const r = await h.validate({
      dates: plugin(
        'dates',
        'const SavedDate = Date;',
        "ctx.every(1000).pipe(map((i) => { const d = new SavedDate(ctx.clock.now()); if (d.constructor !== SavedDate || new Date(0).constructor !== Date || Date.prototype.constructor !== Date || !(d instanceof Date) || d.getUTCFullYear() !== 2024) throw new Error('Date is not Date'); return place(i); }))",
      ),
    });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/: ok \(1 strategy, venue paper; 15 s simulated: dates 15 intents\)/);
  });
});
