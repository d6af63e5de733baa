/**
 * A bot whose every strategy has failed has nothing left to do: by default it says why, cancels its open orders
 * and stops (the run command then exits 1); with `onAllStrategiesFailed: keep` it stays up. Against the paper
 * venue (the in-process simulator over real HTTP and hub connections).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { loadBotConfig } from '../../src/runtime/bot-config.js';
import { runBot, type RunningBot } from '../../src/runtime/bot-runner.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { repoPath } from '../helpers/shared.js';

const tmp = mkdtempSync(join(tmpdir(), 'rexbot-all-failed-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let bot: RunningBot | undefined;
afterEach(async () => {
  await bot?.stop();
  bot = undefined;
});

/** A logger whose JSON lines are kept for the test to read. */
function capture(): { logger: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level: 'info', destination: out }), lines };
}

function config(name: string, policy: 'stop' | 'keep'): string {
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `bot: { name: ${name} }`,
      `venue: { kind: paper, simulator: ${JSON.stringify(repoPath('config', 'sim.yaml'))} }`,
      'strategies:',
      '  - name: breaks',
      `    use: ${JSON.stringify(repoPath('test', 'fixtures', 'strategies', 'fails-after-accept.ts'))}`,
      '    markets: [BTC-USD]',
      'onStrategyFailure: keep       # the failed strategy\'s order stays... unless the whole bot stops',
      `onAllStrategiesFailed: ${policy}`,
      `journal: { dir: ${JSON.stringify(join(tmp, name))} }`,
      'ops: { enabled: false }',
      'shutdown: { cancelOpenOrders: false }',
    ].join('\n'),
  );
  return file;
}

describe('when no strategy is left running', () => {
  it('stop (default): one error line with the reason, open orders cancelled, the bot stops', async () => {
    const { logger, lines } = capture();
    bot = await runBot(loadBotConfig(config('stops', 'stop'), {}), { logger });
    const running = bot;
    const reason = await running.failed;
    expect(reason).toMatch(/^no strategy is running: strategy 'breaks' failed during run: exploded after its order was accepted$/);
    // It had one resting order; stopping cancelled it although onStrategyFailure and shutdown both say keep.
    const sim = running.simulator!;
    expect(sim.engine.closedOrders(sim.demo.accountId).map((o) => o.status)).toEqual(['CLOSED']);
    expect(sim.engine.openOrders(sim.demo.accountId).data).toEqual([]);
    expect(running.kernel.health().state).toBe('stopped');
    // The failure is logged once by the strategy runner, the consequence once by the runtime.
    expect(lines.filter((l) => l.msg === 'strategy failed; its intents are stopped')).toHaveLength(1);
    expect(lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('no strategy is running'))).toHaveLength(1);
    expect(lines.at(-1)?.msg).toBe('stopped');
  });

  it('keep: the bot stays up, unhealthy, and says so', async () => {
    const { logger, lines } = capture();
    bot = await runBot(loadBotConfig(config('keeps', 'keep'), {}), { logger });
    const running = bot;
    let failed = false;
    void running.failed.then(() => (failed = true));
    await vi.waitFor(() => expect(running.kernel.strategies[0]?.status).toBe('failed'), { timeout: 20_000, interval: 25 });
    expect(lines.filter((l) => typeof l.msg === 'string' && l.msg.includes('(onAllStrategiesFailed: keep, so the bot stays up)'))).toHaveLength(1);
    expect(running.kernel.health()).toMatchObject({ healthy: false, state: 'running' });
    // The failed strategy's order is kept (onStrategyFailure: keep) and the bot did not stop itself.
    const sim = running.simulator!;
    expect(sim.engine.openOrders(sim.demo.accountId).data).toHaveLength(1);
    expect(failed).toBe(false);
  });
});
