/**
 * The strategy reference (strategies/README.md) shows only code that is tested: every code block of the page is a
 * verbatim excerpt of an example file; the example files type-check; and the examples run for a few simulated
 * minutes against an in-process simulated market (validate's rehearsal) without failing — the quote ladder and a
 * plugin emitting one intent of each kind actually emit.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBotConfig } from '../../src/runtime/bot-config.js';
import { dryRun } from '../../src/runtime/dry-run.js';
import { typecheckPlugins } from '../../src/strategy/typecheck-plugins.js';
import { repoPath } from '../helpers/shared.js';

const examplesDir = repoPath('strategies', 'examples');
const examples = readdirSync(examplesDir).filter((f) => f.endsWith('.ts')).map((f) => join(examplesDir, f));
const page = readFileSync(repoPath('strategies', 'README.md'), 'utf8');
const tmp = mkdtempSync(join(tmpdir(), 'rexbot-reference-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('strategies/README.md', { timeout: 180_000 }, () => {
  it('every ts code block is an excerpt of an example file', () => {
    const sources = [...examples, ...['grid', 'ma-crossover', 'market-maker', 'breakout-bracket'].map((n) => repoPath('strategies', `${n}.ts`))].map((f) =>
      readFileSync(f, 'utf8'),
    );
    const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    for (const block of blocks) expect(sources.some((s) => s.includes(block)), `not found in the examples:\n${block}`).toBe(true);
  });

  it('the example files type-check', async () => {
    const r = await typecheckPlugins(examples);
    if (!r.checked) throw new Error(r.reason);
    expect(r.errors).toEqual([]);
  });

  it('the examples run against a simulated market without failing; the ladder and every intent kind are emitted', async () => {
    // A plugin emitting each intent of intents.ts once the book is there (denials are fine: they are events).
    writeFileSync(join(tmp, 'package.json'), '{"type": "module"}\n');
    writeFileSync(
      join(tmp, 'every-kind.ts'),
      `import { defineStrategy, z } from ${JSON.stringify(repoPath('src', 'strategy', 'public-api.ts'))};\n` +
        `import { everyKind } from ${JSON.stringify(join(examplesDir, 'intents.ts'))};\n` +
        `import { from, mergeMap, take } from 'rxjs';\n` +
        `export default defineStrategy({ name: 'every-kind', params: z.strictObject({}), setup: (ctx) => ctx.book$('BTC-USD').pipe(take(1), mergeMap(() => from(everyKind))) });\n`,
    );
    const yaml = [
      'strategies:',
      `  - { name: rsi, use: ${join(examplesDir, 'rsi-reversion.ts')}, markets: [BTC-USD], params: { period: 5, oversold: 45, overbought: 55 } }`,
      `  - { name: ladder, use: ${join(examplesDir, 'quote-ladder.ts')}, markets: [BTC-USD] }`,
      `  - { name: every-kind, use: ./every-kind.ts, markets: [BTC-USD] }`,
      '',
    ].join('\n');
    writeFileSync(join(tmp, 'bot.yaml'), yaml);
    const r = await dryRun(loadBotConfig(join(tmp, 'bot.yaml')), { ms: 120_000 });
    expect(r.skipped).toBeUndefined();
    // every-kind completes after its seven intents ('stopped'); the others keep running.
    expect(r.strategies.map((s) => [s.name, s.status, s.error])).toEqual([
      ['rsi', 'running', undefined],
      ['ladder', 'running', undefined],
      ['every-kind', 'stopped', undefined],
    ]);
    const intents = Object.fromEntries(r.strategies.map((s) => [s.name, s.intents]));
    expect(intents['every-kind']).toBe(7);
    expect(intents['ladder']).toBeGreaterThan(10);
  });
});
