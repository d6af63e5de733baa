/**
 * Where a distributed sweep's queue lives: the Redis URL, the BullMQ queue name and key prefix, shared by the
 * coordinator (`rexbot backtest --queue`) and the workers (`rexbot worker`). Only the queue path imports this.
 */
import { Redis } from 'ioredis';

/** The queue name both sides use unless told otherwise. */
export const DEFAULT_QUEUE_NAME = 'rexbot-sweep';
/** BullMQ's own default key prefix. */
export const DEFAULT_PREFIX = 'bull';

/** A sweep queue: which Redis, which queue, which key prefix. */
export interface SweepQueueTarget {
  /** redis://[user:password@]host:port[/db] or rediss://… for TLS. */
  redis: string;
  /** Queue name; default {@link DEFAULT_QUEUE_NAME}. */
  name?: string | undefined;
  /** Redis key prefix; default {@link DEFAULT_PREFIX}. */
  prefix?: string | undefined;
}

/** Connection options for ioredis and BullMQ. */
export interface RedisConnectionOptions {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: Record<string, never>;
  maxRetriesPerRequest: null;
}

/**
 * ioredis options for `url`; throws saying what is wrong with it. `maxRetriesPerRequest: null` because BullMQ
 * workers block on Redis and must retry forever rather than fail a command.
 */
export function redisOptions(url: string): RedisConnectionOptions {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // Not the text itself: it may hold a password.
    throw new Error('--redis: not a URL; expected redis://[user:password@]HOST:PORT[/DB]');
  }
  // Said with the password hidden (redactedUrl): errors reach the terminal and the coordinator's table.
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error(`--redis ${redactedUrl(url)}: expected redis:// or rediss://, got ${u.protocol}//`);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new Error(`--redis ${redactedUrl(url)}: database ${u.pathname.slice(1)} is not a whole number`);
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    db,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

/** `url` without its password, for logs. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

/** Resolves when Redis at `url` answers PING within `timeoutMs`; throws a clear error otherwise. */
export async function assertRedisReachable(url: string, timeoutMs = 3000): Promise<void> {
  const client = new Redis({ ...redisOptions(url), lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  let lastError: unknown;
  client.on('error', (e: unknown) => {
    lastError = e;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (e) {
    const why = (lastError ?? e) instanceof Error ? ((lastError ?? e) as Error).message : String(lastError ?? e);
    throw new Error(`cannot reach Redis at ${redactedUrl(url)}: ${why}`);
  } finally {
    client.disconnect();
  }
}

/** The id of the last entry of the Redis stream `key` at `url`, or '0-0' when it is empty or absent. */
export async function lastStreamId(url: string, key: string): Promise<string> {
  const client = new Redis({ ...redisOptions(url), maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  try {
    const last = await client.xrevrange(key, '+', '-', 'COUNT', 1);
    return last[0]?.[0] ?? '0-0';
  } finally {
    client.disconnect();
  }
}
