/**
 * Bad configs and broken plugins produce clear errors and no orders: through the real CLI (`rexbot validate` and
 * `rexbot run` as child processes), through runBot in-process against the paper venue (whose simulator is
 * captured to prove it never received an order), and through a running kernel for strategies that break in setup
 * or later (isolated: the other strategy trades on; the failed one's open orders follow onStrategyFailure).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ConfigError } from '../../src/runtime/config/yaml-config.js';
import { loadBotConfig } from '../../src/runtime/bot-config.js';
import { runBot } from '../../src/runtime/bot-runner.js';
import type { RunningSimulator } from '../../src/runtime/simulator.js';
import { PluginError } from '../../src/strategy/strategy-errors.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { repoPath } from '../helpers/shared.js';
import { engineOpenOrders, stopWithoutCancelling, useE2E, waitFor, type E2E } from './e2e-harness.js';

// Every simulator runBot starts in this process, so a test can look at its engine after runBot gave up.
const { started } = vi.hoisted(() => ({ started: [] as RunningSimulator[] }));
vi.mock('../../src/runtime/simulator.js', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../src/runtime/simulator.js')>();
  return {
    ...mod,
    startSimulator: async (...args: Parameters<typeof mod.startSimulator>) => {
      const sim = await mod.startSimulator(...args);
      started.push(sim);
      return sim;
    },
  };
});

const fixture = (name: string) => repoPath('test', 'fixtures', 'configs', name);
const tmp = mkdtempSync(join(tmpdir(), 'rexbot-bad-config-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `node src/cli/bin.mjs ...args` as a child process: exit code and output. */
function cli(args: string[], cwd = repoPath()): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.REXBOT_API_KEY;
    delete env.REXBOT_API_SECRET;
    const child = spawn(process.execPath, [repoPath('src', 'cli', 'bin.mjs'), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The CLI in this process (`main(argv)` is what bin.mjs calls after registering tsx): exit code and what it wrote.
 * Cheaper than a child process per case; a few cases below also go through the real binary.
 */
async function inProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += chunk.toString()), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += chunk.toString()), true));
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** The config errors: what loadBotConfig reports (path, line, column) and what a user reads on the terminal. */
const configCases: { file: string; issues: { path: string; line?: number; col?: number; message: RegExp }[] }[] = [
  { file: 'yaml-syntax-error.yaml', issues: [{ path: '', line: 8, col: 1, message: /Flow sequence .* end with a \]/ }] },
  { file: 'unknown-field.yaml', issues: [{ path: 'strategies[0].parms', line: 8, col: 5, message: /unknown field "parms"; did you mean "params"\?/ }] },
  {
    file: 'wrong-type.yaml',
    issues: [
      { path: 'strategies[0].markets', line: 7, col: 14, message: /expected array, received string/ },
      { path: 'risk.maxOpenOrders', line: 9, col: 18, message: /expected number, received string/ },
    ],
  },
  { file: 'duplicate-names.yaml', issues: [{ path: 'strategies[1].name', message: /duplicate strategy name 'mm'/ }] },
  { file: 'live-without-credentials.yaml', issues: [{ path: 'credentials', message: /a live venue needs credentials/ }] },
];

/** `file:line:col path: message` as formatIssue writes it (file alone when the issue has no position). */
const issueLine = (file: string, i: { path: string; line?: number; col?: number }) =>
  `${file}${i.line === undefined ? '' : `:${i.line}:${i.col}`} ${i.path || 'YAML syntax'}: `;

describe('bad configs', () => {
  it.each(configCases)('$file: loadBotConfig names file, line, column and field', ({ file, issues }) => {
    let error: unknown;
    try {
      loadBotConfig(fixture(file), {});
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const e = error as ConfigError;
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.file).toBe(fixture(file));
    expect(e.issues).toHaveLength(issues.length);
    issues.forEach((want, i) => {
      const got = e.issues[i]!;
      expect({ path: got.path, line: got.line, col: got.col }).toEqual({ path: want.path, line: want.line, col: want.col });
      expect(got.message).toMatch(want.message);
      expect(e.message).toContain(issueLine(fixture(file), want));
    });
  });

  it.each(configCases)('$file: `rexbot validate` and `rexbot run` refuse it with the same message, before starting anything', async ({ file, issues }) => {
    const rel = `test/fixtures/configs/${file}`;
    const before = started.length;
    const validate = await inProcess(['validate', rel]);
    const run = await inProcess(['run', rel]);
    expect(validate.code).toBe(1);
    expect(run.code).toBe(2);
    for (const i of issues) {
      expect(validate.stderr).toContain(issueLine(rel, i));
      expect(run.stderr).toContain(issueLine(rel, i));
    }
    expect(run.stderr).toMatch(/^rexbot run: invalid config /);
    // `run` stopped at the config: no simulator came up, so nothing can have traded.
    expect(started.length).toBe(before);
    expect(run.stdout).toBe('');
  });

  it('a good config validates', { timeout: 120_000 }, async () => {
    const r = await inProcess(['validate', 'test/fixtures/configs/good-paper.yaml']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toContain('ok (2 strategies, venue paper; 15 s simulated: ');
  });
});

/** Broken plugins: error code, and what the message must say. */
const pluginCases: { file: string; code: string; message: RegExp[] }[] = [
  {
    file: 'missing-plugin.yaml',
    code: 'PLUGIN_NOT_FOUND',
    message: [
      /strategy plugin 'market-makr': no strategy named 'market-makr' in .*strategies\/; did you mean 'market-maker'\? \(available: breakout-bracket, grid, ma-crossover, market-maker\)/,
      /named at .*missing-plugin\.yaml:\d+:\d+ strategies\[0\]\.use/,
    ],
  },
  {
    file: 'plugin-syntax-error.yaml',
    code: 'PLUGIN_LOAD_FAILED',
    message: [/strategy plugin \(.*test\/fixtures\/strategies\/syntax-error\.mjs\): failed to load: /],
  },
  {
    file: 'plugin-no-default-export.yaml',
    code: 'PLUGIN_NO_EXPORT',
    message: [/strategy plugin \(.*no-default-export\.ts\): no default export and no export named `strategy` \(write `export default defineStrategy/],
  },
];

describe('params a plugin refuses', () => {
  const rel = 'test/fixtures/configs/bad-params.yaml';
  const lines = [
    `${rel}:9:15 strategies[0].params.spread: must be greater than 0, got -0.002`,
    `${rel}:10:15 strategies[0].params.levels: Too small: expected number to be >=1`,
  ];

  it('runBot refuses them as a config error at their YAML lines, before the paper venue starts', async () => {
    const cfg = loadBotConfig(fixture('bad-params.yaml'), {});
    const before = started.length;
    const error = await runBot(
      { ...cfg, journal: { ...cfg.journal, dir: join(tmp, 'journal') }, ops: { ...cfg.ops, enabled: false } },
      { logger: createLogger({ level: 'silent' }) },
    ).then(async (bot) => { await bot.stop(); return undefined; }, (err: unknown) => err);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((i) => [i.path, i.line, i.col])).toEqual([
      ['strategies[0].params.spread', 9, 15],
      ['strategies[0].params.levels', 10, 15],
    ]);
    expect(started.length).toBe(before);
  });

  it('`rexbot validate` and `rexbot run` print them with file:line:col', async () => {
    const validate = await inProcess(['validate', rel]);
    const run = await inProcess(['run', rel]);
    expect(validate.code).toBe(1);
    expect(run.code).toBe(2);
    for (const l of lines) {
      expect(validate.stderr).toContain(l);
      expect(run.stderr).toContain(l);
    }
  });
});

describe('broken plugins', () => {
  it.each(pluginCases)('$file: runBot on the paper venue fails with $code before its simulator starts', async ({ file, code, message }) => {
    const cfg = loadBotConfig(fixture(file), {});
    const before = started.length;
    const error = await runBot(
      { ...cfg, journal: { ...cfg.journal, dir: join(tmp, 'journal') }, ops: { ...cfg.ops, enabled: false } },
      { logger: createLogger({ level: 'silent' }) },
    ).then(
      async (bot) => {
        await bot.stop();
        return undefined;
      },
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(PluginError);
    expect((error as PluginError).code).toBe(code);
    for (const m of message) expect((error as Error).message).toMatch(m);
    // Plugins load before anything starts: the paper venue never came up, so nothing can have traded.
    expect(started.length).toBe(before);
  });

  it.each(pluginCases)('$file: `rexbot validate` explains it', async ({ file, message }) => {
    const r = await inProcess(['validate', `test/fixtures/configs/${file}`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    for (const m of message) expect(r.stderr).toMatch(m);
  });

});

describe('through the real binary (node src/cli/bin.mjs, tsx loading the plugins)', () => {
  it.concurrent('`rexbot validate` refuses a YAML syntax error with file:line:col', async () => {
    const r = await cli(['validate', 'test/fixtures/configs/yaml-syntax-error.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(issueLine('test/fixtures/configs/yaml-syntax-error.yaml', configCases[0]!.issues[0]!));
  });

  it.concurrent('`rexbot run` refuses wrong types with file:line:col and field, exit 2', async () => {
    const r = await cli(['run', 'test/fixtures/configs/wrong-type.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'rexbot run: invalid config test/fixtures/configs/wrong-type.yaml:\n' +
        '  test/fixtures/configs/wrong-type.yaml:7:14 strategies[0].markets: Invalid input: expected array, received string\n' +
        '  test/fixtures/configs/wrong-type.yaml:9:18 risk.maxOpenOrders: Invalid input: expected number, received string\n',
    );
    expect(r.stdout).toBe('');
  });

  it.concurrent('`rexbot validate` explains a plugin with a syntax error (JavaScript, loaded by tsx)', async () => {
    const r = await cli(['validate', 'test/fixtures/configs/plugin-syntax-error.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(pluginCases[1]!.message[0]!);
  });

  it.concurrent('`rexbot run` exits 2 with the plugin error, without trading', async () => {
    // In a scratch folder: a paper run creates its journal folder beside the config before loading plugins.
    const dir = mkdtempSync(join(tmp, 'run-'));
    copyFileSync(fixture('missing-plugin.yaml'), join(dir, 'bot.yaml'));
    const r = await cli(['run', join(dir, 'bot.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^rexbot run: strategy plugin 'market-makr': no strategy named 'market-makr'/);
    expect(r.stdout).not.toMatch(/kernel running|"msg":"summary"/);
  });

  // Two runs of the real binary, the second one rehearsing the strategy: a loaded CI box needs room, not retries.
  it.concurrent('a TypeScript plugin outside an ESM package is refused with how to fix it', { timeout: 120_000 }, async () => {
    // A user's own folder: no package.json with "type": "module" governs it, so Node loads .ts as CommonJS.
    const dir = mkdtempSync(join(tmp, 'cjs-'));
    writeFileSync(join(dir, 'package.json'), '{"type": "commonjs"}\n');
    writeFileSync(
      join(dir, 'mine.ts'),
      `import { defineStrategy, z } from ${JSON.stringify(repoPath('src', 'strategy', 'index.ts'))};\n` +
        `export default defineStrategy({ name: 'mine', params: z.strictObject({}), setup(ctx) { return ctx.every(3_600_000) as never; } });\n`,
    );
    writeFileSync(join(dir, 'bot.yaml'), 'strategies:\n  - name: mine\n    use: ./mine.ts\n    markets: [BTC-USD]\n');
    const r = await cli(['validate', join(dir, 'bot.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/strategy plugin \(.*mine\.ts\): failed to load: .*loaded as CommonJS: rename it to \.mts, or put \{"type": "module"\} in a package\.json beside it/);
    // And the fix works.
    writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
    const fixed = await cli(['validate', '--no-typecheck', join(dir, 'bot.yaml')]);
    expect({ code: fixed.code, stderr: fixed.stderr }).toEqual({ code: 0, stderr: '' });
  });
});

describe('strategies that break while the bot runs are isolated', () => {
  const start = useE2E();

  const simYaml = `
demo: { balances: { USD: "100000", BTC: "2" } }
driver:
  kind: synthetic
  seed: 21
  markets: [BTC-USD]
  tickMs: 200
  makers: { halfSpreadBps: 10 }
  takers: { ratePerMinute: 60, clustering: 0 }
`;
  const mm = { name: 'mm', use: 'market-maker', markets: ['BTC-USD'], params: { spread: '0.0004', levels: 2, size: '0.002', throttleMs: 200 } };
  const eventsOf = (t: E2E, strategy: string, type: string, from = 0) => t.events.slice(from).filter((e) => e.strategy === strategy && e.type === type);

  it('a strategy that throws in setup: reported, no intent, and the market maker trades', async () => {
    const t = await start({ simYaml, strategies: [{ name: 'broken', use: '../fixtures/strategies/throws-in-setup.ts', markets: ['BTC-USD'] }, mm] });
    const broken = t.kernel.strategies.find((s) => s.name === 'broken')!;
    expect(broken.status).toBe('failed');
    expect(broken.failure?.phase).toBe('setup');
    expect(broken.failure?.message).toBe("strategy 'broken' failed during setup: setup exploded: no pricing model configured");
    expect(t.kernel.health()).toMatchObject({ healthy: false, strategies: { broken: 'failed', mm: 'running' } });

    await waitFor(() => {
      expect(eventsOf(t, 'mm', 'accepted').length).toBeGreaterThanOrEqual(4);
      expect(engineOpenOrders(t).length).toBeGreaterThan(0);
    });
    expect(t.events.filter((e) => e.strategy === 'broken')).toEqual([]);
    await stopWithoutCancelling(t, ['BTC-USD'], waitFor);
  });

  it.each([
    { policy: 'cancel' as const, left: 'cancelled' },
    { policy: 'keep' as const, left: 'left open' },
  ])('a strategy that errors later (onStrategyFailure: $policy): its intents stop, its order is $left, the market maker trades on', async ({ policy }) => {
    const t = await start({
      simYaml,
      onStrategyFailure: policy,
      strategies: [{ name: 'broken', use: '../fixtures/strategies/fails-after-accept.ts', markets: ['BTC-USD'], params: { quantity: '0.001', discount: '0.03' } }, mm],
    });
    const broken = t.kernel.strategies.find((s) => s.name === 'broken')!;
    // Its one order is accepted, and that is what breaks it.
    await waitFor(() => expect(broken.status).toBe('failed'));
    expect(broken.failure?.phase).toBe('run');
    expect(broken.failure?.message).toMatch(/exploded after its order was accepted/);
    expect(broken.intentCount).toBe(1);
    expect(t.kernel.health()).toMatchObject({ healthy: false, strategies: { broken: 'failed', mm: 'running' } });
    const orderId = eventsOf(t, 'broken', 'accepted').map((e) => (e as { order: { id: string } }).order.id)[0]!;
    expect(orderId).toBeDefined();

    // The market maker goes on: new ladders reach the exchange after the failure.
    const failedAt = t.events.length;
    await waitFor(() => expect(eventsOf(t, 'mm', 'accepted', failedAt).length).toBeGreaterThanOrEqual(2));

    if (policy === 'cancel') {
      await waitFor(() => {
        expect(t.sim.engine.getOrder(t.account, orderId).status).toBe('CLOSED');
        expect(engineOpenOrders(t).map((o) => o.id)).not.toContain(orderId);
      });
      expect(t.sim.engine.getOrder(t.account, orderId).fillQuantity?.toFixed()).toBe('0');
    } else {
      expect(t.sim.engine.getOrder(t.account, orderId).status).toBe('OPEN');
      await waitFor(() => expect(t.kernel.live.account!.order(orderId)?.status).toBe('OPEN'));
    }
    // Nothing more from the failed strategy, whatever happens to its order.
    expect(eventsOf(t, 'broken', 'submitted')).toHaveLength(1);
    await stopWithoutCancelling(t, ['BTC-USD'], waitFor);
  });
});
