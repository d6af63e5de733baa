/**
 * A bot over v1.1 gets each market's real rate precision, not a guess (see the WIRE note in v1-gateway.ts): v1.1
 * publishes none, so a paper v1 bot takes the simulator's own (its v3 /markets, the same engine), and a config may
 * state it (`venue.precision`), validated at its YAML line. A live v1 venue must say it one way or the other.
 * The fixture strategy quotes a whole number plus one tick of the precision it was given, so the limit the engine
 * holds shows that precision, and that the venue accepted an order at it over /api/v1.1.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { loadBotConfig } from '../../src/runtime/bot-config.js';
import { runBot, type RunningBot } from '../../src/runtime/bot-runner.js';
import { ConfigError } from '../../src/runtime/config/yaml-config.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { repoPath } from '../helpers/shared.js';

const tmp = mkdtempSync(join(tmpdir(), 'rexbot-v1-precision-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let bot: RunningBot | undefined;
afterEach(async () => {
  await bot?.stop();
  bot = undefined;
});

const sim = JSON.stringify(repoPath('config', 'sim.yaml'));
const strategy = ['strategies:', '  - name: tick', `    use: ${JSON.stringify(repoPath('test', 'fixtures', 'strategies', 'quotes-finest-tick.ts'))}`, '    markets: [BTC-USD]'];

function config(name: string, venue: string[]): string {
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(file, [`bot: { name: ${name} }`, ...venue, ...strategy, `journal: { dir: ${JSON.stringify(join(tmp, name))} }`, 'ops: { enabled: false }'].join('\n'));
  return file;
}

const paperV1 = (...extra: string[]) => ['venue:', '  kind: paper', `  simulator: ${sim}`, '  dialect: v1', ...extra];
const liveV1 = (...extra: string[]) => ['venue:', '  kind: live', '  restUrl: http://127.0.0.1:1/api/v1.1', '  hubUrl: http://127.0.0.1:1/signalr', '  dialect: v1', ...extra];
const silent = () => createLogger({ name: 'v1-precision', level: 'silent' });

/** The bot's one resting order on the engine, once it is there. */
async function restingLimit(b: RunningBot): Promise<string> {
  const { engine, demo } = b.simulator!;
  return vi.waitFor(() => {
    const open = engine.openOrders(demo.accountId).data;
    expect(open).toHaveLength(1);
    return open[0]!.limit!.toFixed();
  }, { timeout: 30_000, interval: 50 });
}

function refusal(file: string): ConfigError {
  const err = (() => {
    try {
      loadBotConfig(file, {});
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  expect(err).toBeInstanceOf(ConfigError);
  return err as ConfigError;
}

describe('a v1 bot\'s rate precision', () => {
  it('paper: the engine\'s own (3 for BTC-USD), and an order at it is accepted over /api/v1.1', async () => {
    bot = await runBot(loadBotConfig(config('paper-default', paperV1()), {}), { logger: silent() });
    const engine = bot.simulator!.engine;
    expect(engine.markets().find((m) => m.symbol === 'BTC-USD')!.precision).toBe(3);
    expect((await bot.gateway.markets()).find((m) => m.symbol === 'BTC-USD')!.precision).toBe(3);
    const limit = await restingLimit(bot);
    expect(limit).toMatch(/^\d+\.001$/); // a whole number plus the 0.001 tick: placed with 3 decimals, accepted
  });

  it('venue.precision is used: 2 decimals stated, the bot quotes in hundredths', async () => {
    bot = await runBot(loadBotConfig(config('paper-stated', paperV1('  precision: { BTC-USD: 2 }')), {}), { logger: silent() });
    expect((await bot.gateway.markets()).find((m) => m.symbol === 'BTC-USD')!.precision).toBe(2);
    expect(await restingLimit(bot)).toMatch(/^\d+\.01$/);
  });

  it('venue.precision finer than the venue allows is refused before the bot trades, naming the market', async () => {
    const err = await runBot(loadBotConfig(config('paper-too-fine', paperV1('  precision: { BTC-USD: 5 }')), {}), { logger: silent() }).then(
      (b) => {
        bot = b;
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(String(err)).toMatch(/precision\.BTC-USD: 5 decimals is finer than the 3 the venue allows .*RATE_PRECISION_NOT_ALLOWED/);
  });
});

describe('venue.precision in the YAML', () => {
  it('a value v1.1 cannot carry is refused at its line', () => {
    const e = refusal(config('nine', paperV1('  precision:', '    BTC-USD: 9')));
    expect(e.issues).toEqual([expect.objectContaining({ path: 'venue.precision.BTC-USD', line: 7, message: 'at most 8: v1.1 rates carry 8 decimals' })]);
    expect(refusal(config('half', paperV1('  precision:', '    BTC-USD: 2.5'))).issues[0]).toMatchObject({ path: 'venue.precision.BTC-USD', line: 7, message: 'a whole number of decimals' });
    expect(refusal(config('negative', paperV1('  precision:', '    BTC-USD: -1'))).issues[0]).toMatchObject({ path: 'venue.precision.BTC-USD', line: 7 });
  });

  it('a key that is not a market symbol is refused', () => {
    const e = refusal(config('lower', paperV1('  precision:', '    btc-usd: 3')));
    expect(e.issues[0]!.path).toMatch(/^venue\.precision/);
    expect(e.message).toMatch(/market symbol like BTC-USD/);
  });

  it('is for dialect v1 only: v3 publishes the precision itself', () => {
    const e = refusal(config('v3', ['venue:', '  kind: paper', `  simulator: ${sim}`, '  precision: { BTC-USD: 3 }']));
    expect(e.issues).toEqual([expect.objectContaining({ path: 'venue.precision', line: 5, message: "is for venue.dialect v1 only: v3 publishes each market's precision itself" })]);
  });

  it('a live v1 venue must state each strategy market\'s precision, or where the engine publishes it', () => {
    const e = refusal(config('live-bare', liveV1()));
    expect(e.issues).toEqual([expect.objectContaining({ path: 'strategies[0].markets[0]', line: 10 })]);
    expect(e.issues[0]!.message).toMatch(/^v1\.1 publishes no rate precision for BTC-USD .*give venue\.precision\.BTC-USD .* or venue\.v3RestUrl/);
    const creds = (f: string) => { writeFileSync(f, `${readFileSync(f, 'utf8')}\ncredentials: { apiKey: k, apiSecret: s }`); return f; };
    expect(loadBotConfig(creds(config('live-stated', liveV1('  precision: { BTC-USD: 3 }'))), {}).venue).toMatchObject({ precision: { 'BTC-USD': 3 } });
    expect(loadBotConfig(creds(config('live-v3', liveV1('  v3RestUrl: http://127.0.0.1:1/v3'))), {}).venue).toMatchObject({ v3RestUrl: 'http://127.0.0.1:1/v3' });
  });
});
