/**
 * Graceful shutdown of `rexbot run` as a real process: SIGINT or SIGTERM stops the strategies, settles what is in
 * flight, cancels the open orders when `shutdown.cancelOpenOrders` says so (and leaves them resting when it does
 * not), flushes and closes the journal, and exits 0. The exchange is a simulator server in this test's process,
 * so the verdict comes from the engine; the bot reaches it over loopback HTTP and the hub as a live venue.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseJournal } from '../../src/orders/journal.js';
import { JournalState } from '../../src/orders/journal-state.js';
import { parseSimConfig } from '../../src/runtime/sim-config.js';
import { startSimulator, type RunningSimulator } from '../../src/runtime/simulator.js';
import { killAllChildren, startBotProcess } from '../crash/crash-processes.js';
import { repoPath } from '../helpers/shared.js';

const CREDENTIALS = { apiKey: 'a'.repeat(32), apiSecret: 'b'.repeat(64) };

let sim: RunningSimulator;
let dir: string;

beforeAll(async () => {
  const yaml = `
demo: { balances: { USD: "100000", BTC: "2" } }
driver: { kind: synthetic, seed: 3, markets: [BTC-USD], tickMs: 200, takers: { ratePerMinute: 0 } }
`;
  sim = await startSimulator(parseSimConfig(yaml, '<shutdown sim>', repoPath()), {
    env: { REXBOT_SIM_API_KEY: CREDENTIALS.apiKey, REXBOT_SIM_API_SECRET: CREDENTIALS.apiSecret },
  });
});
afterAll(async () => {
  await killAllChildren();
  await sim?.stop();
});
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A bot config quoting a one-level ladder on BTC-USD, with the given shutdown policy (and more strategies). */
function botConfig(name: string, cancelOpenOrders: boolean, more = ''): string {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-shutdown-'));
  const file = join(dir, 'bot.yaml');
  writeFileSync(
    file,
    `bot: { name: ${name} }
venue: { kind: live, restUrl: "${sim.server.restUrl}", hubUrl: "${sim.server.hubUrl}" }
credentials:
  apiKey: \${REXBOT_API_KEY}
  apiSecret: \${REXBOT_API_SECRET}
callsPerMinute: 6000
strategies:
  - { name: mm, use: market-maker, markets: [BTC-USD], params: { spread: "0.0004", levels: 1, size: "0.002", throttleMs: 200 } }
${more}journal: { dir: ${JSON.stringify(dir)} }
shutdown: { cancelOpenOrders: ${cancelOpenOrders} }
ops: { enabled: false }
log: { level: info }
`,
  );
  return file;
}

const open = () => sim.engine.openOrders(sim.demo.accountId).data;

describe('rexbot run: graceful shutdown', () => {
  it.each([
    { signal: 'SIGINT' as const, cancelOpenOrders: true },
    { signal: 'SIGTERM' as const, cancelOpenOrders: false },
  ])('$signal with cancelOpenOrders $cancelOpenOrders: exits 0, orders as configured, journal closed and consistent', async ({ signal, cancelOpenOrders }) => {
    // Nothing of an earlier case is left on the exchange.
    sim.engine.cancelAll(sim.demo.accountId);
    const closed = () => sim.engine.closedOrders(sim.demo.accountId, { pageSize: 200 });
    const earlier = new Set(closed().map((o) => o.id));
    const file = botConfig(`shutdown-${signal.toLowerCase()}`, cancelOpenOrders);
    const bot = startBotProcess(file, { REXBOT_API_KEY: CREDENTIALS.apiKey, REXBOT_API_SECRET: CREDENTIALS.apiSecret });
    await bot.waitForLine((l) => l.msg === 'kernel running', 'kernel running', 60_000);
    await vi.waitFor(() => expect(open()).toHaveLength(2), { timeout: 20_000, interval: 50 });

    bot.kill(signal);
    const exit = await bot.exited;
    expect(exit.code, `exit code; last lines:\n${bot.tail()}`).toBe(0);
    expect(bot.lines.some((l) => l.msg === 'stopped')).toBe(true);
    // It ended by itself: nothing of rexbot's own (hub, REST, journal) outlived the shutdown (exit-when-done.ts).
    expect(bot.lines.filter((l) => String(l.msg).includes('still held open'))).toEqual([]);

    // The exchange: the quotes are gone, or still resting, as configured.
    if (cancelOpenOrders) expect(open()).toEqual([]);
    else expect(open()).toHaveLength(2);

    // The journal on disk is whole (it opens without a torn line) and knows every order the exchange has.
    const journals = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
    expect(journals).toHaveLength(1);
    const path = join(dir, journals[0]!);
    const parsed = parseJournal(path, readFileSync(path, 'utf8'));
    expect(parsed.warnings).toEqual([]);
    const state = JournalState.from(parsed.records);
    const exchange = [...open(), ...closed().filter((o) => !earlier.has(o.id))];
    expect(exchange.length).toBeGreaterThanOrEqual(2);
    for (const o of exchange) expect(state.orders.has(o.clientOrderId ?? ''), `order ${o.id} journaled`).toBe(true);
    // With the quotes cancelled, the journal says every order is finished: nothing for a restart to look up.
    if (cancelOpenOrders) expect(state.unresolved()).toEqual([]);
  });

  it('a plugin\'s unhandled rejection stops the bot as a signal would (orders cancelled, exit 1, saying why)', async () => {
    sim.engine.cancelAll(sim.demo.accountId);
    const file = botConfig('shutdown-stray', true, '');
    const trigger = join(dir, 'trigger');
    const yaml = readFileSync(file, 'utf8').replace(
      'journal:',
      `  - { name: careless, use: ${JSON.stringify(repoPath('test', 'fixtures', 'strategies', 'stray-rejection.ts'))}, markets: [BTC-USD], params: { trigger: ${JSON.stringify(trigger)} } }\njournal:`,
    );
    writeFileSync(file, yaml);
    const bot = startBotProcess(file, { REXBOT_API_KEY: CREDENTIALS.apiKey, REXBOT_API_SECRET: CREDENTIALS.apiSecret });
    await bot.waitForLine((l) => l.msg === 'kernel running', 'kernel running', 60_000);
    await vi.waitFor(() => expect(open()).toHaveLength(2), { timeout: 20_000, interval: 50 });

    writeFileSync(trigger, '');
    const exit = await bot.exited;
    expect(exit.code, `exit code; last lines:\n${bot.tail()}`).toBe(1);
    expect(bot.lines.some((l) => /^unexpected error outside every strategy's isolation/.test(String(l.msg)))).toBe(true);
    expect(bot.lines.some((l) => l.msg === 'stopped')).toBe(true);
    expect(open()).toEqual([]);
  });

  it('a handler that holds the process for seconds is reported: event loop blocked, for how long', async () => {
    const file = botConfig('shutdown-blocked', true, '');
    const trigger = join(dir, 'trigger');
    const yaml = readFileSync(file, 'utf8').replace(
      'journal:',
      `  - { name: slow, use: ${JSON.stringify(repoPath('test', 'fixtures', 'strategies', 'blocks-once.ts'))}, markets: [BTC-USD], params: { trigger: ${JSON.stringify(trigger)}, ms: 4000 } }\njournal:`,
    );
    writeFileSync(file, yaml);
    const bot = startBotProcess(file, { REXBOT_API_KEY: CREDENTIALS.apiKey, REXBOT_API_SECRET: CREDENTIALS.apiSecret });
    await bot.waitForLine((l) => l.msg === 'kernel running', 'kernel running', 60_000);
    writeFileSync(trigger, '');
    const blocked = await bot.waitForLine((l) => /^event loop blocked for /.test(String(l.msg)), 'event loop blocked', 60_000);
    expect((blocked as { blockedMs?: number }).blockedMs).toBeGreaterThanOrEqual(2000);
    bot.kill('SIGINT');
    expect((await bot.exited).code).toBe(0);
  });

  it('an ops port it cannot have stops the run before anything trades (exit 1, saying why)', async () => {
    sim.engine.cancelAll(sim.demo.accountId);
    const before = sim.engine.closedOrders(sim.demo.accountId, { pageSize: 200 }).length;
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    try {
      const port = (busy.address() as AddressInfo).port;
      const file = botConfig('shutdown-ops-busy', true);
      writeFileSync(file, readFileSync(file, 'utf8').replace('ops: { enabled: false }', `ops: { enabled: true, host: 127.0.0.1, port: ${port} }`));
      const bot = startBotProcess(file, { REXBOT_API_KEY: CREDENTIALS.apiKey, REXBOT_API_SECRET: CREDENTIALS.apiSecret });
      const exit = await bot.exited;
      expect(exit.code, `exit code; last lines:\n${bot.tail()}`).toBe(1);
      expect(bot.tail()).toMatch(/ops endpoint 127\.0\.0\.1:\d+ could not be opened .*EADDRINUSE.*nothing was started/);
      expect(bot.lines.some((l) => l.msg === 'kernel running')).toBe(false);
      expect(open()).toEqual([]);
      expect(sim.engine.closedOrders(sim.demo.accountId, { pageSize: 200 })).toHaveLength(before);
    } finally {
      await new Promise((r) => busy.close(r));
    }
  });
});
