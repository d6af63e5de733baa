/**
 * config/paper-v1.yaml — the paper bot with `venue.dialect: v1` — run in-process as `rexbot run` runs it: the
 * simulator, then the bot over the legacy v1.1 REST interface and hub c2. It must quote and trade (a fill reaches
 * the portfolio), with the account's orders on the exchange the ones the bot believes open. A v1 config asking for
 * what v1.1 cannot carry (the Core hub) is refused before anything starts.
 */
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadBotConfig, venueDialect } from '../../src/runtime/bot-config.js';
import { runBot, type RunningBot } from '../../src/runtime/bot-runner.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { repoPath } from '../helpers/shared.js';

const tmp = mkdtempSync(join(tmpdir(), 'rexbot-paper-v1-'));
let bot: RunningBot | undefined;
afterAll(async () => {
  await bot?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

describe('config/paper-v1.yaml', () => {
  it('runs the paper bot over v1.1 and trades', async () => {
    const cfg = loadBotConfig(repoPath('config/paper-v1.yaml'));
    expect(venueDialect(cfg.venue)).toBe('v1');
    bot = await runBot(
      { ...cfg, journal: { ...cfg.journal, dir: tmp }, ops: { ...cfg.ops, enabled: false } },
      { logger: createLogger({ name: 'paper-v1', level: 'silent' }) },
    );
    expect(bot.gateway.venue).toBe('bittrex-v1');
    const engine = bot.simulator!.engine;
    // The bot's streams come from hub c2, authenticated as the demo account.
    const demo = bot.simulator!.demo;
    expect(bot.simulator!.server.v1Hub.connections().some((c) => c.markets.includes('USD-BTC'))).toBe(true);

    // Synthetic takers hit the bot's quotes: a fill reaches the portfolio.
    await vi.waitFor(() => expect(bot!.kernel.portfolio.position('BTC-USD', 'mm-btc').isZero()).toBe(false), { timeout: 30_000, interval: 100 });
    // Its quotes rest on the engine's book under the demo account.
    await vi.waitFor(() => {
      const open = engine.openOrders(demo.accountId).data;
      expect(open.length).toBeGreaterThan(0);
    }, { timeout: 30_000, interval: 100 });
    expect(demo.apiKey).not.toBe('');
    for (const a of engine.ledger.audit()) expect(a.discrepancy.isZero(), a.currency).toBe(true);
  }, 60_000);

  it('refuses a v1 config with the Core hub before anything starts', () => {
    const text = readFileSync(repoPath('config/paper-v1.yaml'), 'utf8').replace(/^transport: classic.*$/m, 'transport: core');
    const file = join(tmp, 'paper-v1-core.yaml');
    writeFileSync(file, text.replace('simulator: sim.yaml', `simulator: ${repoPath('config/sim.yaml')}`));
    expect(() => loadBotConfig(file)).toThrow(/dialect v1 streams over the classic SignalR hub c2 only/);
  });
});
