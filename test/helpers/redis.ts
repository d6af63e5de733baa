/**
 * Redis for tests: the machine's server (`REDIS_URL`, default redis://127.0.0.1:6379) with one key prefix per test,
 * cleaned up after; and throwaway `redis-server` processes on a free loopback port for tests that stop and start
 * Redis (the machine's own server is never stopped). Tests that need Redis skip, saying why, when it is absent.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** The Redis the tests use. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Resolves true when a Redis at `url` answers PING within a second. */
export async function redisReachable(url = REDIS_URL): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** Why Redis tests are skipped, for the describe title and the log. */
export function skipReason(url = REDIS_URL): string {
  return `SKIPPED: no Redis answers at ${url} (start one, e.g. \`redis-server --port 6379\`, or set REDIS_URL)`;
}

/** A key prefix no other test uses. */
export function uniquePrefix(name: string): string {
  return `rexbot-test:${name}:${randomUUID()}:`;
}

/** Delete every key under `prefix`. */
export async function deleteKeys(prefix: string, url = REDIS_URL): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

/** All keys under `prefix` with their string values (tests look at what reached Redis). */
export async function dumpKeys(prefix: string, url = REDIS_URL): Promise<Record<string, string>> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  try {
    const out: Record<string, string> = {};
    const keys = await client.keys(`${prefix}*`);
    for (const k of keys) {
      const type = await client.type(k);
      // Each type read with its own command (GET on a hash is WRONGTYPE); hashes as sorted `field=value` pairs.
      if (type === 'set') out[k] = (await client.smembers(k)).sort().join(',');
      else if (type === 'hash') {
        const h = await client.hgetall(k);
        out[k] = Object.keys(h).sort().map((f) => `${f}=${h[f]}`).join(',');
      } else if (type === 'string') out[k] = (await client.get(k)) ?? '';
      else out[k] = `<${type}>`;
    }
    return out;
  } finally {
    client.disconnect();
  }
}

/** Whether a `redis-server` binary is on the PATH. */
export function redisServerInstalled(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A `redis-server` of the test's own, on loopback, without persistence. */
export interface ThrowawayRedis {
  readonly url: string;
  readonly port: number;
  /** SIGKILL it (connections drop at once). */
  kill(): Promise<void>;
  /** Start it again on the same port (empty). */
  start(): Promise<void>;
}

/** Start a throwaway redis-server on a free loopback port; resolves once it answers PING. */
export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const started = child;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`redis-server on port ${port} exited with code ${started.exitCode}`);
      if (await redisReachable(url)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  await start();
  return {
    url,
    port,
    start,
    kill: async () => {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      });
    },
  };
}
