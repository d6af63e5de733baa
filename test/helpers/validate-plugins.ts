/**
 * Strategy plugins written on the fly and `rexbot validate` run on them through the real binary: the harness of the
 * rehearsal's watch tests (wall-clock timers, wall-clock reads). The plugins live inside the repository (in a
 * git-ignored `test/.tmp-*` folder), so a plugin's bare `import ... from 'rxjs'` resolves as in a user's project.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoPath } from './shared.js';

/** What `rexbot validate` said, and the bot file it validated. */
export interface ValidateResult {
  code: number;
  stdout: string;
  stderr: string;
  bot: string;
}

/** Plugins in a folder of their own, and `rexbot validate` on a bot of them. */
export interface ValidatePlugins {
  /** The folder the plugins and bot files are written to. */
  readonly dir: string;
  /**
   * A plugin named `name` whose setup returns `body`, on line 6 of its file, with `ctx`, `place(i)` (an intent) and
   * the harness's rxjs imports in scope; returns its path.
   */
  plugin(name: string, body: string): string;
  /** `rexbot validate --no-typecheck` on a bot running each plugin (by name) on BTC-USD; throws if it does not exit. */
  validate(strategies: Record<string, string>): Promise<ValidateResult>;
  /** Remove the folder. */
  remove(): void;
}

/**
 * A plugin folder named after `prefix`, whose plugins import `rxjsImports` from rxjs.
 *
 * @example
 * const h = validatePlugins('timers', ['interval', 'map']);
 * afterAll(() => h.remove());
 * const r = await h.validate({ ticker: h.plugin('ticker', 'interval(1000).pipe(map(place))') });
 */
export function validatePlugins(prefix: string, rxjsImports: readonly string[]): ValidatePlugins {
  const tmp = mkdtempSync(join(repoPath('test'), `.tmp-${prefix}-`));
  writeFileSync(join(tmp, 'package.json'), '{"type": "module"}\n');
  const api = JSON.stringify(repoPath('src', 'strategy', 'public-api.ts'));
  return {
    dir: tmp,
    plugin(name, body) {
      const file = join(tmp, `${name}.ts`);
      writeFileSync(
        file,
        `import { dec, defineStrategy, z } from ${api};\nimport { ${rxjsImports.join(', ')} } from 'rxjs';\n` +
          `const place = (i: number) => ({ kind: 'place', key: 'k' + i, order: { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.001'), limit: dec('29000') } }) as never;\n` +
          `export default defineStrategy({ name: '${name}', params: z.strictObject({}), setup(ctx) {\n  void place; ${rxjsImports.map((i) => `void ${i};`).join(' ')}\n  return ${body};\n} });\n`,
      );
      return file;
    },
    async validate(strategies) {
      const bot = join(tmp, `bot-${Object.keys(strategies).join('-')}.yaml`);
      writeFileSync(bot, `strategies:\n${Object.entries(strategies).map(([name, file]) => `  - { name: ${name}, use: ${JSON.stringify(file)}, markets: [BTC-USD] }\n`).join('')}`);
      try {
        const { stdout, stderr } = await promisify(execFile)(process.execPath, [repoPath('src/cli/bin.mjs'), 'validate', '--no-typecheck', bot], { cwd: repoPath(), timeout: 90_000 });
        return { code: 0, stdout, stderr, bot };
      } catch (err) {
        const e = err as { code: number | null; killed?: boolean; stdout: string; stderr: string };
        if (e.killed) throw new Error(`rexbot validate did not exit; it said:\n${e.stdout}${e.stderr}`);
        return { code: e.code ?? -1, stdout: e.stdout, stderr: e.stderr, bot };
      }
    },
    remove: () => rmSync(tmp, { recursive: true, force: true }),
  };
}
