import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { createRestClient } from '../../src/bittrex/rest/index.js';
import { createV1RestClient } from '../../src/bittrex/v1/rest/index.js';
import { repoPath } from '../helpers/shared.js';

/** Start `rexbot sim` as a real child process and wait for its ready line. */
async function startSimProcess(env: NodeJS.ProcessEnv): Promise<{ ready: Record<string, unknown>; stop: (signal?: NodeJS.Signals) => Promise<number | null>; stderr: () => string }> {
  const child = spawn(process.execPath, [repoPath('src/cli/bin.mjs'), 'sim', '--config', repoPath('config/sim.yaml'), '--port', '0'], {
    cwd: repoPath(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`rexbot sim exited ${code}: ${stderr}`)));
  });
  return {
    ready: JSON.parse(first) as Record<string, unknown>,
    stop: (signal = 'SIGTERM') => new Promise((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.kill(signal);
    }),
    stderr: () => stderr,
  };
}

describe('rexbot sim', () => {
  it('prints one ready line, serves a tradable market with the env key, and stops on SIGTERM', async () => {
    const key = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const secret = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
    const sim = await startSimProcess({ REXBOT_SIM_API_KEY: key, REXBOT_SIM_API_SECRET: secret });
    try {
      expect(sim.ready.ready).toBe(true);
      expect(sim.ready.rest).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v3$/);
      expect(sim.ready.hub).toMatch(/\/signalr$/);
      expect(sim.ready.coreHub).toMatch(/\/hub$/);
      // The secret came from the environment, so it is not printed.
      expect(JSON.stringify(sim.ready)).not.toContain(secret);
      const client = createRestClient({ baseUrl: sim.ready.rest as string, credentials: { apiKey: key, apiSecret: secret } });
      const balances = await client.balances.list();
      expect(balances.data.find((b) => b.currencySymbol === 'USD')?.total.toString()).toBe('100000');
      const book = await client.markets.orderBook('BTC-USD', { depth: 25 });
      expect(book.data.bid.length).toBeGreaterThan(0);
      expect(book.data.ask.length).toBeGreaterThan(0);
      expect(book.data.bid[0]!.rate.lt(book.data.ask[0]!.rate)).toBe(true);
      await client.close();
      // The same key on the legacy v1.1 interface, over the same engine (quote-first market names there).
      expect(sim.ready.restV1).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\.1$/);
      const v1 = createV1RestClient({ baseUrl: sim.ready.restV1 as string, credentials: { apiKey: key, apiSecret: secret } });
      expect((await v1.account.getBalance('USD')).Balance.toString()).toBe('100000');
      expect((await v1.public.getOrderBook('USD-BTC')).buy.length).toBeGreaterThan(0);
      await v1.close();
    } finally {
      expect(await sim.stop()).toBe(0);
    }
    // It ended by itself: its own shutdown closed its server, hub sockets and driver timers (exit-when-done.ts).
    expect(sim.stderr()).not.toContain('still held open');
  });

  it('generates a demo key and prints its secret once when none is configured; stops on SIGINT', async () => {
    const sim = await startSimProcess({ REXBOT_SIM_API_KEY: '', REXBOT_SIM_API_SECRET: '' });
    try {
      const demo = sim.ready.demo as { apiKey: string; apiSecret: string };
      expect(demo.apiKey).toMatch(/^[0-9a-f]{32}$/);
      expect(demo.apiSecret).toMatch(/^[0-9a-f]{32}$/);
      const client = createRestClient({ baseUrl: sim.ready.rest as string, credentials: { apiKey: demo.apiKey, apiSecret: demo.apiSecret } });
      expect((await client.account.get()).accountId).toBeDefined();
      await client.close();
    } finally {
      expect(await sim.stop('SIGINT')).toBe(0);
    }
    expect(sim.stderr()).not.toContain('still held open');
  });
});
