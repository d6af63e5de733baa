/**
 * `rexbot validate` puts its wall-clock watches on before it loads the strategy plugins (so their top-level code is
 * watched) and takes them off when it is done — also when a plugin throws at import or its rehearsal fails: every
 * global it changed (the timers, `Date` and its prototype's `constructor`, `Date.now`, `performance.now`,
 * `process.hrtime`) is the original again, no strategy scope is tracked any more (a backtest after it in the same
 * process pays for none). In process, as a test runner or a
 * program embedding rexbot would call it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { validateCommand } from '../../src/cli/validate-command.js';
import { strategyScopesTracked } from '../../src/strategy/strategy-scope.js';
import { validatePlugins } from '../helpers/validate-plugins.js';

const h = validatePlugins('validate-watch-restore', ['map']);
afterAll(() => h.remove());

/** Everything the watches change, as found now. */
const globals = () => ({
  setTimeout: globalThis.setTimeout,
  setInterval: globalThis.setInterval,
  Date: globalThis.Date,
  dateConstructor: globalThis.Date.prototype.constructor,
  dateNow: globalThis.Date.now,
  performanceNow: globalThis.performance.now,
  hrtime: process.hrtime,
  hrtimeBigint: process.hrtime.bigint,
  scopesTracked: strategyScopesTracked(),
});

/** `rexbot validate --no-typecheck` on a bot running `plugin`, in this process; its exit code and what it wrote. */
async function validate(name: string, plugin: string): Promise<{ code: number; err: string }> {
  const bot = join(h.dir, `bot-${name}.yaml`);
  writeFileSync(bot, `strategies:\n  - { name: ${name}, use: ${JSON.stringify(plugin)}, markets: [BTC-USD] }\n`);
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
  return { code: await validateCommand.run(['--no-typecheck', bot]), err: err.join('') };
}

/** The harness's plugin `name` with an interval started and the clock read at import, then `rest`, at its top level. */
function importTime(name: string, rest: string): string {
  const file = h.plugin(name, 'ctx.every(1000).pipe(map(place))');
  writeFileSync(file, readFileSync(file, 'utf8').replace('export default', `setInterval(() => undefined, 1000); void Date.now(); ${rest}\nexport default`));
  return file;
}

describe('rexbot validate takes its watches off', { timeout: 60_000 }, () => {
  let before: ReturnType<typeof globals>;
  beforeEach(() => {
    before = globals();
  });
  afterEach(() => vi.restoreAllMocks());

  it('when a plugin throws at import, under the watches', async () => {
    const r = await validate('throws', importTime('throws', "throw new Error('no import for you');"));
    expect(r.code).toBe(1);
    expect(r.err).toContain('no import for you');
    expect(globals()).toEqual(before);
  });

  it('when the rehearsal fails, and when it passes with warnings of what the plugin did at import', async () => {
    const failed = await validate('fails', h.plugin('fails', "(() => { throw new Error('setup broke'); })()"));
    expect(failed.code).toBe(1);
    expect(failed.err).toContain('setup broke');
    expect(globals()).toEqual(before);
    const warned = await validate('ticks', importTime('ticks', ''));
    expect(warned.code).toBe(0);
    expect(warned.err).toContain("strategy 'ticks' started 1 wall-clock timer");
    expect(warned.err).toContain("strategy 'ticks' read the wall clock once");
    expect(globals()).toEqual(before);
  });
});
