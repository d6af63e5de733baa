/**
 * Plugins import rexbot by its package name. A plugin in a user's own folder (an ESM package whose node_modules
 * links rexbot, as `npm install ../rexbot` or a `file:` dependency does) loads through the real CLI, and
 * `validate`'s type-check resolves the same imports; the repository's own examples use the same entry.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { typecheckPlugins } from '../../src/strategy/typecheck-plugins.js';
import { repoPath } from '../helpers/shared.js';

const dir = mkdtempSync(join(tmpdir(), 'rexbot-user-bot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'node_modules'));
symlinkSync(repoPath(), join(dir, 'node_modules', 'rexbot'), 'dir');
symlinkSync(repoPath('node_modules', 'rxjs'), join(dir, 'node_modules', 'rxjs'), 'dir');
writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', dependencies: { rexbot: `file:${repoPath()}`, rxjs: '^7' } }));
writeFileSync(join(dir, 'bot.yaml'), 'strategies:\n  - name: mine\n    use: ./mine.ts\n    markets: [BTC-USD]\n');

const plugin = (direction: string): string => `import { dec, defineStrategy, RSI, z, type Intent } from 'rexbot/strategy';
import { Decimal } from 'rexbot';
import { filter, map } from 'rxjs';

export default defineStrategy({
  name: 'mine',
  params: z.strictObject({ below: z.number().default(20) }),
  setup(ctx) {
    const rsi = new RSI(14);
    return ctx.trades$(ctx.markets[0]!).pipe(
      map((t) => rsi.update(t.rate)),
      filter((v): v is Decimal => v !== undefined && v.lt(ctx.params.below)),
      map((): Intent => ({ kind: 'place', key: 'rsi', order: { marketSymbol: 'BTC-USD', direction: '${direction}', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.001') } })),
    );
  },
});
`;

describe('the rexbot package entry', { timeout: 120_000 }, () => {
  it('loads a plugin of a user package that imports rexbot and rexbot/strategy, through the CLI', async () => {
    writeFileSync(join(dir, 'mine.ts'), plugin('BUY'));
    const { stdout } = await promisify(execFile)(process.execPath, [repoPath('src/cli/bin.mjs'), 'validate', 'bot.yaml'], { cwd: dir });
    expect(stdout).toMatch(/bot\.yaml: ok \(1 strategy/);
  });

  it("type-checks that plugin against the package's types (a typo is found, the imports resolve)", async () => {
    const file = join(dir, 'bad.ts');
    writeFileSync(file, plugin('BYU'));
    const r = await typecheckPlugins([file]);
    if (!r.checked) throw new Error(r.reason);
    expect(r.errors.map((e) => `${e.line}:${e.code}`)).toEqual(['13:2322']);
    expect(r.errors[0]!.message).toMatch(/"BYU"/);
  });

  it('the example strategies import only the package entry and type-check clean', async () => {
    const files = ['grid', 'ma-crossover', 'market-maker', 'breakout-bracket'].map((n) => repoPath('strategies', `${n}.ts`));
    const r = await typecheckPlugins(files);
    if (!r.checked) throw new Error(r.reason);
    expect(r.errors).toEqual([]);
  });
});
