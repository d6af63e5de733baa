/** `rateLimit` in the bot config: the shared budget's numbers are checked where the user wrote them. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBotConfig } from '../../../src/runtime/bot-config.js';

const dir = mkdtempSync(join(tmpdir(), 'rexbot-rate-limit-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, rateLimit: string, callsPerMinute = 60): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    ['strategies:', '  - name: mm', '    use: market-maker', '    markets: [BTC-USD]', `callsPerMinute: ${callsPerMinute}`, 'rateLimit:', rateLimit, ''].join('\n'),
  );
  return file;
}

describe('rateLimit config', () => {
  it('defaults to no sharing, and reads the shared budget settings', () => {
    expect(loadBotConfig(write('none.yaml', '  maxProcesses: 2')).rateLimit.shared).toBeUndefined();
    const cfg = loadBotConfig(write('ok.yaml', '  shared: ${RL_REDIS}\n  maxProcesses: 3\n  fallbackShare: 20\n  cancelReserve: 5'), { RL_REDIS: 'redis://127.0.0.1:6379' });
    expect(cfg.rateLimit).toEqual({ shared: 'redis://127.0.0.1:6379', maxProcesses: 3, fallbackShare: 20, cancelReserve: 5, boundaryGuardMs: 250 });
  });

  it('refuses a fallback share that would let the processes together exceed the key budget, naming file and line', () => {
    const file = write('over.yaml', '  shared: redis://127.0.0.1:6379\n  maxProcesses: 3\n  fallbackShare: 21');
    expect(() => loadBotConfig(file)).toThrow(`${file}:9:18 rateLimit.fallbackShare: 21 calls x 3 processes exceeds the key's 60 calls a minute`);
  });

  it('refuses a cancel reserve as large as the budget and a URL that is not redis://', () => {
    expect(() => loadBotConfig(write('reserve.yaml', '  shared: redis://h:1\n  cancelReserve: 10', 10))).toThrow(/rateLimit\.cancelReserve: must be below callsPerMinute \(10\)/);
    expect(() => loadBotConfig(write('url.yaml', '  shared: http://h:1'))).toThrow(/rateLimit\.shared: a redis:\/\/ or rediss:\/\/ URL/);
  });
});
