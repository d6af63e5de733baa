/**
 * What the legacy v1.1 interface cannot do is refused when the config loads, not at the first order: a strategy
 * that declares venue features (`uses`) beyond LIMIT orders is refused on `venue.dialect: v1` at its YAML line,
 * by `rexbot validate` and by `rexbot run` before anything starts; the same strategy with LIMIT-only params, or on
 * v3, loads.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadBotConfig } from '../../src/runtime/bot-config.js';
import { loadBotPlugins } from '../../src/runtime/bot-plugins.js';
import { ConfigError } from '../../src/runtime/config/yaml-config.js';
import { repoPath } from '../helpers/shared.js';

const tmp = mkdtempSync(join(tmpdir(), 'rexbot-v1-refusal-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function config(name: string, dialect: 'v1' | 'v3', strategy: string): string {
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `bot: { name: ${name} }`,
      `venue: { kind: paper, dialect: ${dialect}, simulator: ${JSON.stringify(repoPath('config', 'sim.yaml'))} }`,
      'strategies:',
      strategy,
      `journal: { dir: ${JSON.stringify(join(tmp, name))} }`,
      'ops: { enabled: false }',
    ].join('\n'),
  );
  return file;
}

const bracket = '  - name: bb\n    use: breakout-bracket\n    markets: [BTC-USD]';
const maMarket = '  - name: ma\n    use: ma-crossover\n    markets: [BTC-USD]\n    params: { orderType: MARKET }';
const maLimit = '  - name: ma\n    use: ma-crossover\n    markets: [BTC-USD]\n    params: { orderType: LIMIT }';

async function refusal(file: string): Promise<ConfigError> {
  const err = await loadBotPlugins(loadBotConfig(file, {})).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ConfigError);
  return err as ConfigError;
}

describe('venue.dialect v1 refuses strategies that need more than LIMIT orders, at load', () => {
  it('a bracket strategy: conditional orders, at the strategy\'s use line', async () => {
    const e = await refusal(config('bracket-v1', 'v1', bracket));
    expect(e.issues).toHaveLength(1);
    expect(e.issues[0]).toMatchObject({ path: 'strategies[0].use', line: 5, col: 10 });
    expect(e.issues[0]!.message).toMatch(/^strategy 'bb' uses conditional orders \(brackets, stops, trailing stops\), which the v1\.1 interface cannot place/);
  });

  it('depends on the params: ma-crossover with MARKET orders is refused, with LIMIT orders it loads', async () => {
    expect((await refusal(config('ma-market-v1', 'v1', maMarket))).issues[0]!.message).toMatch(/uses MARKET orders/);
    await expect(loadBotPlugins(loadBotConfig(config('ma-limit-v1', 'v1', maLimit), {}))).resolves.toHaveLength(1);
  });

  it('on v3 the same strategies load', async () => {
    await expect(loadBotPlugins(loadBotConfig(config('bracket-v3', 'v3', bracket), {}))).resolves.toHaveLength(1);
    await expect(loadBotPlugins(loadBotConfig(config('ma-market-v3', 'v3', maMarket), {}))).resolves.toHaveLength(1);
  });

  it('rexbot validate and rexbot run say so before anything starts', async () => {
    const file = config('bracket-cli', 'v1', bracket);
    let stderr = '';
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => ((stderr += c.toString()), true));
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await main(['validate', '--no-dry-run', '--no-typecheck', file])).toBe(1);
      expect(await main(['run', file])).toBe(2);
    } finally {
      err.mockRestore();
      out.mockRestore();
    }
    expect(stderr.match(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5:10 strategies\\[0\\]\\.use: strategy 'bb' uses conditional orders`, 'g'))).toHaveLength(2);
  });
});
