import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  availableStrategies,
  isPathReference,
  loadConfiguredStrategy,
  loadStrategy,
  REPO_STRATEGIES_DIR,
  resolveStrategyPath,
} from '../../src/strategy/load-strategy.js';
import { PluginError, type PluginErrorCode } from '../../src/strategy/strategy-errors.js';
import { repoPath } from '../helpers/shared.js';

const fixtures = repoPath('test/strategy/fixtures');
const defineUrl = pathToFileURL(repoPath('src/strategy/index.ts')).href;
let dir: string;

/** Broken plugins are written at test time (a .ts syntax error under test/ would break `tsc --noEmit`). */
const broken: Record<string, string> = {
  'syntax-error.ts': `export default defineStrategy({ name: 'oops', params: , setup() {} });\n`,
  'throws-on-import.mjs': `throw new Error('cannot reach the pricing service');\n`,
  'missing-dependency.mjs': `import { nope } from 'rexbot-no-such-package';\nexport default nope;\n`,
  'no-export.ts': `export const helper = 1;\n`,
  'plain-object.ts': `export default { name: 'fake', params: {}, setup: () => null };\n`,
  'named-not-definition.mjs': `export const strategy = () => 'not a definition';\n`,
  'bad-definition.mts': `import { defineStrategy, z } from '${defineUrl}';\nexport default defineStrategy({ name: 'bad name!', params: z.object({}), setup: () => null });\n`,
  'strict-params.ts': [
    `import { defineStrategy, decimalParam, z } from '${defineUrl}';`,
    `export default defineStrategy({`,
    `  name: 'strict-params',`,
    `  params: z.strictObject({ spread: decimalParam({ positive: true }), levels: z.number().int().min(1).default(2) }),`,
    `  setup: () => { (globalThis as Record<string, unknown>).strictParamsSetupCalled = true; return undefined as never; },`,
    `});`,
  ].join('\n'),
  'notes.txt': 'not a plugin',
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-plugins-'));
  for (const [file, source] of Object.entries(broken)) writeFileSync(join(dir, file), source);
  mkdirSync(join(dir, 'a-folder.ts'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function failure(promise: Promise<unknown>): Promise<PluginError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(PluginError);
    return e as PluginError;
  }
  throw new Error('expected a PluginError');
}

describe('loadStrategy: good plugins', () => {
  it.each([
    ['echo.ts', 'echo'],
    ['named-export.mts', 'named-export'],
    ['plain-js.js', 'plain-js'],
    ['plain-mjs.mjs', 'plain-mjs'],
  ])('loads %s by absolute path', async (file, name) => {
    const loaded = await loadStrategy(join(fixtures, file));
    expect(loaded.definition.name).toBe(name);
    expect(loaded.path).toBe(join(fixtures, file));
  });

  it('resolves relative paths against baseDir (default: the working directory)', async () => {
    expect((await loadStrategy('./echo.ts', { baseDir: fixtures })).definition.name).toBe('echo');
    expect((await loadStrategy('fixtures/echo', { baseDir: repoPath('test/strategy') })).path).toBe(join(fixtures, 'echo.ts'));
    expect((await loadStrategy(relative(process.cwd(), join(fixtures, 'plain-mjs.mjs')))).definition.name).toBe('plain-mjs');
  });

  it('resolves bare names in a strategies folder, trying .ts, .mts, .js, .mjs', async () => {
    expect(resolveStrategyPath('named-export', { strategiesDir: fixtures })).toBe(join(fixtures, 'named-export.mts'));
    expect((await loadStrategy('plain-mjs', { strategiesDir: fixtures })).definition.name).toBe('plain-mjs');
    expect(availableStrategies(fixtures)).toEqual(['echo', 'named-export', 'plain-js', 'plain-mjs']);
  });

  it("resolves names in the repository's strategies/ folder by default", async () => {
    expect(availableStrategies()).toEqual(expect.arrayContaining(['breakout-bracket', 'grid', 'ma-crossover', 'market-maker']));
    for (const name of ['market-maker', 'ma-crossover', 'breakout-bracket', 'grid']) {
      const { definition, path } = await loadStrategy(name);
      expect(definition.name).toBe(name);
      expect(path).toBe(join(REPO_STRATEGIES_DIR, `${name}.ts`));
    }
  });

  it('tells names from paths', () => {
    expect(isPathReference('grid')).toBe(false);
    expect(isPathReference('market-maker')).toBe(false);
    for (const ref of ['./grid', '../x/grid.ts', '/abs/grid.ts', 'grid.ts', 'sub/grid']) expect(isPathReference(ref)).toBe(true);
  });

  it('validates params with the plugin schema and uses the instance name', async () => {
    const s = await loadConfiguredStrategy({ use: join(fixtures, 'echo.ts'), name: 'echo-btc', params: { limit: '101.5' } });
    expect(s.name).toBe('echo-btc');
    expect(s.params).toMatchObject({ levels: 1 });
    expect((s.params as { limit: { toString(): string } }).limit.toString()).toBe('101.5');
  });
});

describe('loadStrategy: broken plugins produce one PluginError and nothing else', () => {
  const cases: [string, () => Promise<unknown>, PluginErrorCode, RegExp[]][] = [
    ['a missing file', () => loadStrategy(join(dir, 'nope.ts')), 'PLUGIN_NOT_FOUND', [/^strategy plugin \(.*nope\.ts\): no such file$/]],
    ['a missing extension-less path', () => loadStrategy('./nope', { baseDir: dir }), 'PLUGIN_NOT_FOUND', [/no such file \(also tried \.ts, \.mts, \.js, \.mjs\)/]],
    ['a folder named like a plugin', () => loadStrategy(join(dir, 'a-folder.ts')), 'PLUGIN_NOT_FOUND', [/no such file/]],
    [
      'an unknown name',
      () => loadStrategy('market-makr', { strategiesDir: fixtures }),
      'PLUGIN_NOT_FOUND',
      [/^strategy plugin 'market-makr': no strategy named 'market-makr' in .*fixtures\/ \(available: echo, named-export, plain-js, plain-mjs\)$/],
    ],
    [
      'a name close to one there is',
      () => loadStrategy('ech0', { strategiesDir: fixtures }),
      'PLUGIN_NOT_FOUND',
      [/no strategy named 'ech0' in .*fixtures\/; did you mean 'echo'\? \(available: echo, /],
    ],
    ['an empty reference', () => loadStrategy(''), 'PLUGIN_NOT_FOUND', [/a strategy reference must be a name or a path, got ""/]],
    ['an unsupported file type', () => loadStrategy(join(dir, 'notes.txt')), 'PLUGIN_UNSUPPORTED_FILE', [/notes\.txt\): unsupported file type '\.txt' \(a plugin is \.ts, \.mts, \.js, \.mjs\)/]],
    ['a syntax error', () => loadStrategy(join(dir, 'syntax-error.ts')), 'PLUGIN_LOAD_FAILED', [/syntax-error\.ts\): failed to load: /, /syntax-error\.ts:1:\d+/, /^[^\u001b]*$/]],
    ['a throw at import', () => loadStrategy(join(dir, 'throws-on-import.mjs')), 'PLUGIN_LOAD_FAILED', [/throws-on-import\.mjs\): failed to load: cannot reach the pricing service$/]],
    ['a missing dependency', () => loadStrategy(join(dir, 'missing-dependency.mjs')), 'PLUGIN_LOAD_FAILED', [/failed to load: .*rexbot-no-such-package/]],
    ['no export', () => loadStrategy(join(dir, 'no-export.ts')), 'PLUGIN_NO_EXPORT', [/no-export\.ts\): no default export and no export named `strategy`/]],
    [
      'a plain object export',
      () => loadStrategy(join(dir, 'plain-object.ts')),
      'PLUGIN_INVALID_EXPORT',
      [/plain-object\.ts\): the default export is a plain object, not a strategy definition \(wrap it in defineStrategy/],
    ],
    ['a named export that is not a definition', () => loadStrategy(join(dir, 'named-not-definition.mjs')), 'PLUGIN_INVALID_EXPORT', [/the export `strategy` is a function, not a strategy definition/]],
    [
      'a malformed definition',
      () => loadStrategy(join(dir, 'bad-definition.mts')),
      'PLUGIN_INVALID_DEFINITION',
      [/^strategy plugin 'bad name!' \(.*bad-definition\.mts\): name must match/],
    ],
    [
      'params failing validation',
      () => loadConfiguredStrategy({ use: join(dir, 'strict-params.ts'), name: 'sp-1', params: { spread: '0', levels: 1.5, colour: 'red' } }),
      'PLUGIN_INVALID_PARAMS',
      [
        /^strategy plugin 'sp-1' \(.*strict-params\.ts\): invalid params: /,
        /params\.spread: must be greater than 0, got 0/,
        /params\.levels: Invalid input: expected int, received number/,
        /params: Unrecognized key: "colour"/,
      ],
    ],
    ['missing required params', () => loadConfiguredStrategy({ use: join(dir, 'strict-params.ts') }), 'PLUGIN_INVALID_PARAMS', [/invalid params: params\.spread: required$/]],
  ];

  it.each(cases)('%s', async (_label, attempt, code, messages) => {
    const error = await failure(attempt());
    if (process.env.SHOW_PLUGIN_ERRORS) console.log(error.message);
    expect(error.code).toBe(code);
    for (const m of messages) expect(error.message).toMatch(m);
    if (code !== 'PLUGIN_NOT_FOUND' || !error.message.includes('no strategy named')) {
      if (!error.message.includes('reference must be')) expect(error.path).toBeDefined();
    }
    if (code === 'PLUGIN_LOAD_FAILED') expect(error.cause).toBeDefined();
  });

  it('never calls setup of a plugin whose params are invalid', async () => {
    await failure(loadConfiguredStrategy({ use: join(dir, 'strict-params.ts'), params: { spread: '-1' } }));
    expect((globalThis as Record<string, unknown>).strictParamsSetupCalled).toBeUndefined();
  });
});
