/**
 * `rexbot validate` catches what used to surface only in a run: a strategy whose setup() throws (rehearsed against
 * an in-process simulated market), a TypeScript plugin with a type error (`direction: 'BYU'`), and params with a
 * typo (placed at their YAML line, with "did you mean"). And every command answers --help with exit 0.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { repoPath } from '../helpers/shared.js';

// Inside the repository (git-ignored), so a plugin's bare `import ... from 'rxjs'` resolves as in a user's project.
const tmp = mkdtempSync(join(repoPath('test'), '.tmp-validate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function inProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => ((stdout += c.toString()), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => ((stderr += c.toString()), true));
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** A bot folder (an ESM package, as a user's own project is) with one plugin `mine.ts` and `bot.yaml`. */
function botFolder(name: string, plugin: string, yaml = 'strategies:\n  - name: mine\n    use: ./mine.ts\n    markets: [BTC-USD]\n'): string {
  const dir = mkdtempSync(join(tmp, `${name}-`));
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
  writeFileSync(join(dir, 'mine.ts'), plugin);
  writeFileSync(join(dir, 'bot.yaml'), yaml);
  return join(dir, 'bot.yaml');
}

const importLine = `import { defineStrategy, z } from ${JSON.stringify(repoPath('src', 'strategy', 'index.ts'))};\n`;

// Each case type-checks or rehearses strategies for real (seconds of CPU each): a loaded CI box needs room.
describe('rexbot validate', { timeout: 120_000 }, () => {
  it('fails a strategy whose setup() throws, naming it and the error', async () => {
    const r = await inProcess(['validate', '--no-typecheck', repoPath('test/fixtures/configs/good-paper.yaml')]);
    expect(r.code).toBe(0);
    const bot = botFolder('throws', `${importLine}export default defineStrategy({ name: 'mine', params: z.strictObject({}), setup() { throw new Error('no pricing model configured'); } });\n`);
    const bad = await inProcess(['validate', '--no-typecheck', bot]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/strategy 'mine' failed in a 15 s simulated run: no pricing model configured/);
  });

  it('fails a strategy that emits something that is not an intent within the rehearsal', async () => {
    const bot = botFolder(
      'not-intent',
      `${importLine}import { map } from 'rxjs';\n` +
        `export default defineStrategy({ name: 'mine', params: z.strictObject({}), setup(ctx) { return ctx.every(1000).pipe(map(() => ({ kind: 'plase' }))) as never; } });\n`,
    );
    const r = await inProcess(['validate', '--no-typecheck', bot]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/strategy 'mine' failed in a 15 s simulated run: .*plase/);
  });

  it('fails a strategy whose intents are malformed (a number for a quantity), naming the field, the key and the value', async () => {
    // A plain .js plugin has no type-check to catch this; a run would deny each such intent while the strategy went on.
    const bot = botFolder(
      'number-quantity',
      `${importLine}import { dec } from ${JSON.stringify(repoPath('src', 'core', 'decimal.ts'))};\nimport { map, take } from 'rxjs';\n` +
        `export default defineStrategy({ name: 'mine', params: z.strictObject({}), setup(ctx) { return ctx.book$('BTC-USD').pipe(take(1), map(() => ` +
        `({ kind: 'place', key: 'first', order: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: 0.002, limit: dec('1000') } }))) as never; } });\n`,
    );
    const r = await inProcess(['validate', '--no-typecheck', bot]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `${bot}: strategy 'mine' emitted 1 malformed intent in a 15 s simulated run, which rexbot run would deny (INVALID_INTENT), e.g. key 'first': intent.order.quantity must be a finite Decimal (dec('…')), got 0.002`,
    );
  });

  it("fails, without printing ok, a plugin's unhandled rejection in the rehearsal, saying where it was thrown", async () => {
    // As its own process: an unhandled rejection is the process's business (it ended validate after 'ok' was printed).
    const bot = botFolder(
      'async-subscribe',
      `${importLine}import { Observable } from 'rxjs';\n` +
        `export default defineStrategy({ name: 'mine', params: z.strictObject({}), setup(ctx) {\n` +
        `  return new Observable((out) => { const s = ctx.book$('BTC-USD').subscribe(async () => { await null; throw new Error('no pricing model'); }); return () => s.unsubscribe(); });\n` +
        `} });\n`,
    );
    const r = await promisify(execFile)(process.execPath, [repoPath('src/cli/bin.mjs'), 'validate', '--no-typecheck', bot], { cwd: repoPath(), timeout: 110_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
    );
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${bot}: an error escaped every strategy's isolation in the 15 s simulated run (an unhandled rejection or an uncaught exception, which stops rexbot run): ` +
        `no pricing model (at ${join(bot, '..', 'mine.ts')}:4:`,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1); // one line, however many times it was thrown
    expect(r.stderr).not.toMatch(/^\s+at /m); // a sentence, not a stack
  });

  it('fails, on a v1.1 venue, a strategy placing MARKET orders it did not declare in uses', async () => {
    // The rehearsal's simulator takes MARKET orders; a run over v1.1 had each refused, NOT_SUPPORTED_ON_V1_1.
    const plugin =
      `${importLine}import { dec } from ${JSON.stringify(repoPath('src', 'core', 'decimal.ts'))};\nimport { map, take } from 'rxjs';\n` +
      `export default defineStrategy({ name: 'mine', params: z.strictObject({}), setup(ctx) { return ctx.book$('BTC-USD').pipe(take(1), map(() => ` +
      `({ kind: 'place', key: 'buy-now', order: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.001') } }))) as never; } });\n`;
    const sim = JSON.stringify(repoPath('config', 'sim.yaml')); // the demo account's balances pay for the order
    const yaml = (dialect: string) => `venue: { kind: paper, simulator: ${sim}, dialect: ${dialect} }\nstrategies:\n  - name: mine\n    use: ./mine.ts\n    markets: [BTC-USD]\n`;
    const v1 = await inProcess(['validate', '--no-typecheck', botFolder('v1-market', plugin, yaml('v1'))]);
    expect(v1.code).toBe(1);
    expect(v1.stderr).toContain(
      "strategy 'mine' placed 1 order needing MARKET orders in a 15 s simulated run (e.g. key 'buy-now'), which this venue cannot place " +
        "(v1.1 places LIMIT orders only (/market/buylimit and /market/selllimit)): rexbot run would have each refused; " +
        "place what the venue takes, or declare uses: ['marketOrders'] in defineStrategy so such a config is refused at load",
    );
    const v3 = await inProcess(['validate', '--no-typecheck', botFolder('v3-market', plugin, yaml('v3'))]);
    expect({ code: v3.code, stderr: v3.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it("type-checks TypeScript plugins: direction 'BYU' is refused with file:line:col before any run", async () => {
    const bot = botFolder(
      'byu',
      `${importLine}import { of } from 'rxjs';\n` +
        `export default defineStrategy({\n  name: 'mine',\n  params: z.strictObject({}),\n  setup() {\n` +
        `    return of({ kind: 'place', key: 'k', order: { marketSymbol: 'BTC-USD', direction: 'BYU', type: 'LIMIT', quantity: '0.01', limit: '1000', timeInForce: 'GOOD_TIL_CANCELLED' } });\n  },\n});\n`,
    );
    const r = await inProcess(['validate', bot]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/strategy plugins do not type-check:\n {2}.*mine\.ts:\d+:\d+: TS2322 .*Type '"BYU"' is not assignable to type '"BUY" \| "SELL"'/);
  });

  it('places a params typo at its YAML line with a suggestion', async () => {
    const bot = botFolder(
      'typo',
      `${importLine}export default defineStrategy({ name: 'mine', params: z.strictObject({ spread: z.number().default(1), levels: z.number().default(1) }), setup(ctx) { return ctx.every(3_600_000) as never; } });\n`,
      'strategies:\n  - name: mine\n    use: ./mine.ts\n    markets: [BTC-USD]\n    params:\n      sprad: 0.002\n',
    );
    const r = await inProcess(['validate', bot]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bot}:6:7 strategies[0].params.sprad: unknown field "sprad"; did you mean "spread"?`);
  });

  it('places a params typo at its YAML line when the plugin wrote z.object, not z.strictObject', async () => {
    // zod's z.object drops a key it does not know: `slwo: 30` would have left slow at its default, silently.
    const bot = botFolder(
      'loose-typo',
      `${importLine}export default defineStrategy({ name: 'mine', params: z.object({ slow: z.number().default(20), fast: z.number().default(5) }), setup(ctx) { return ctx.every(3_600_000) as never; } });\n`,
      'strategies:\n  - name: mine\n    use: ./mine.ts\n    markets: [BTC-USD]\n    params:\n      slwo: 30\n',
    );
    const r = await inProcess(['validate', '--no-typecheck', '--no-dry-run', bot]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bot}:6:7 strategies[0].params.slwo: unknown field "slwo"; did you mean "slow"?`);
  });

  it("refuses a paper bot's market its simulator does not list, at its line, in validate and in run", async () => {
    // validate said 'ok ... setup not rehearsed' and run stopped with a stack trace once the simulator was up.
    const bot = botFolder(
      'paper-market',
      `${importLine}export default defineStrategy({ name: 'mine', params: z.strictObject({}), setup(ctx) { return ctx.every(3_600_000) as never; } });\n`,
      'venue: { kind: paper }\nstrategies:\n  - name: mine\n    use: ./mine.ts\n    markets: [BTC-USD, BTC-EUR]\n',
    );
    const issue = `${bot}:5:24 strategies[0].markets[1]: BTC-EUR is not a market of the paper simulator (its markets, from its defaults, no venue.simulator: ADA-USDT, BTC-USD,`;
    const validated = await inProcess(['validate', '--no-typecheck', bot]);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toBe('');
    expect(validated.stderr).toContain(issue);
    const run = await inProcess(['run', '--json', bot]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`rexbot run: invalid config ${bot}:\n  ${issue}`);
    expect(run.stdout).not.toContain('paper trading against the in-process simulator');
  });

  it('passes a good config and says what the rehearsal saw', async () => {
    const r = await inProcess(['validate', 'config/paper.yaml']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^config\/paper\.yaml: ok \(1 strategy, venue paper; 15 s simulated: mm-btc \d+ intents?\)\n$/);
  });
});

describe('--help', () => {
  it.each(['run', 'validate', 'sim', 'record', 'schema', 'version'])('rexbot %s --help prints its usage and exits 0', async (name) => {
    const r = await inProcess([name, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^usage: rexbot ${name}`));
    expect(r.stderr).toBe('');
  });
});
