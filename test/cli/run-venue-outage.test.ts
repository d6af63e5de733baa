/**
 * `rexbot run` against a live venue that goes away: the bot waits to reconnect, as long as it takes, until a
 * signal stops it. Signal listeners do not keep Node's loop alive and the bot's wall-clock timers are unref'd, so
 * while the hub waited out its backoff nothing held the process: it ended mid-run (exit 13, Node's unsettled
 * top-level await) with nothing logged and its orders left open. Through the real binaries: the simulator runs as
 * its own process and is stopped under the bot.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAllChildren, startBotProcess, startSimProcess } from '../crash/crash-processes.js';

const CREDENTIALS = { apiKey: 'c'.repeat(32), apiSecret: 'd'.repeat(64) };
const dir = mkdtempSync(join(tmpdir(), 'rexbot-venue-outage-'));

afterAll(async () => {
  await killAllChildren();
  rmSync(dir, { recursive: true, force: true });
});

describe('rexbot run: the venue goes away', { timeout: 120_000 }, () => {
  it('keeps reconnecting until a signal, then stops and exits 0', async () => {
    writeFileSync(join(dir, 'sim.yaml'), 'driver: { kind: synthetic, seed: 5, markets: [BTC-USD], historyHours: 0, takers: { ratePerMinute: 0 } }\n');
    const sim = await startSimProcess(join(dir, 'sim.yaml'), CREDENTIALS);
    const config = join(dir, 'bot.yaml');
    writeFileSync(
      config,
      `bot: { name: outage }
venue: { kind: live, restUrl: "${sim.ready.rest}", hubUrl: "${sim.ready.hub}" }
credentials: { apiKey: "\${REXBOT_API_KEY}", apiSecret: "\${REXBOT_API_SECRET}" }
strategies:
  - { name: mm, use: market-maker, markets: [BTC-USD], params: { spread: "0.0004", levels: 1, size: "0.002", throttleMs: 200 } }
journal: { dir: ${JSON.stringify(dir)} }
shutdown: { cancelOpenOrders: false }
ops: { enabled: false }
log: { level: info, format: json }
`,
    );
    const bot = startBotProcess(config, { REXBOT_API_KEY: CREDENTIALS.apiKey, REXBOT_API_SECRET: CREDENTIALS.apiSecret });
    await bot.waitForLine((l) => l.strategy === 'mm' && typeof l.placed === 'number' && l.placed > 0, 'an order placed', 60_000);
    expect(await sim.stop()).toBe(0);
    // A second attempt comes only after the first backoff was waited out by a process still running.
    await bot.waitForLine((l) => l.msg === 'hub reconnecting' && Number(l.attempt) >= 2, 'a second reconnect attempt', 60_000);
    bot.kill('SIGTERM');
    await bot.waitForLine((l) => l.msg === 'stopped', "the 'stopped' line", 60_000);
    expect(await bot.exited, bot.tail()).toEqual({ code: 0, signal: null });
    expect(bot.lines.filter((l) => String(l.msg).includes('still held open'))).toEqual([]);
  });
});
