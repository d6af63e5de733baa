/**
 * The Redis side of the per-key call budget shared by several bot processes (see shared-throttler.ts for the
 * rules). Everything that must be atomic across processes happens in one Lua script per call, so Redis runs it
 * as a single step: no two processes can both take the last slot of a minute.
 *
 * Keys (all under `<prefix><sha256(apiKey) in hex, first 32 chars>:`; the API key itself never reaches Redis):
 * - `used:<minute>`    calls granted in that calendar minute (minute = floor(epoch ms / 60000)),
 * - `members:<minute>` ids of the processes that asked the shared budget for a call in that minute,
 * - `pause`            epoch ms until which every process is paused after a 429.
 * Expiries are garbage collection only (real time, generous); every decision compares the values with the
 * caller's injected clock, so virtual time works.
 *
 * Why ioredis and a script of our own rather than rate-limiter-flexible: the budget needs a check-then-spend on a
 * cap computed in the same atomic step from the priority (the cancel reserve) and from how many declared processes
 * have joined the minute (the fallback guarantee), with windows that are calendar minutes of the caller's clock.
 * rate-limiter-flexible counts a refused consume as spent (its script increments first, then compares), has one
 * fixed number of points per limiter, starts its windows at the first consume, and registers one script name per
 * Redis client, so two limiters with different scripts cannot share a connection.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { BudgetClass, BudgetRule } from './budget-rule.js';

export { type BudgetClass, type BudgetRule, budgetRule } from './budget-rule.js';

/** Answer of {@link SharedBudgetStore.acquire}. */
export type AcquireResult =
  | { kind: 'granted'; used: number; cap: number }
  | { kind: 'spent'; used: number; cap: number; /** The cap is lowered because declared processes have not joined. */ partial: boolean }
  | { kind: 'paused'; until: number };

/** How long keys live in Redis after their last write (ms of real time; garbage collection only). */
const KEY_TTL_MS = 5 * 60_000;

/**
 * KEYS: used:<m>, members:<m>, pause. ARGV: member id, '1' for a cancel, callsPerMinute, fallbackShare,
 * maxProcesses, cancelReserve, now (ms), key ttl (ms).
 * Returns {1, used, cap} granted, {-1, used, cap, absent} spent, {0, pausedUntil} paused.
 */
const ACQUIRE_LUA = `
local pausedUntil = tonumber(redis.call('GET', KEYS[3]) or '0')
if pausedUntil > tonumber(ARGV[7]) then return {0, tostring(pausedUntil)} end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[8])
local absent = tonumber(ARGV[5]) - redis.call('SCARD', KEYS[2])
if absent < 0 then absent = 0 end
local cap = tonumber(ARGV[3]) - tonumber(ARGV[4]) * absent
if ARGV[2] ~= '1' then cap = cap - tonumber(ARGV[6]) end
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= cap then return {-1, used, cap, absent} end
used = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[8])
return {1, used, cap}
`;

/** KEYS: pause. ARGV: paused-until (epoch ms), ttl (ms). Keeps the later of the stored and the new value. */
const PAUSE_LUA = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > current then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0
`;

interface ScriptedRedis extends Redis {
  rexbotAcquire(...args: (string | number)[]): Promise<[number, number | string, number?, number?]>;
  rexbotPause(...args: (string | number)[]): Promise<number>;
}

/** The Redis namespace of one API key: a hash, so the key itself never appears in Redis or in logs. */
export function budgetKeyId(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 32);
}

/** Options of {@link SharedBudgetStore}. */
export interface SharedBudgetStoreOptions {
  /** `redis://[user:password@]host:port[/db]`. */
  url: string;
  /** The API key whose budget this is (hashed before use). */
  apiKey: string;
  /** This process's id in the member sets (unique per process). */
  memberId: string;
  /** Key prefix; default `rexbot:ratelimit:`. Tests use their own. */
  keyPrefix?: string;
  /** Give up on one Redis command after this many ms (real time: a network timeout). Default 1000. */
  commandTimeoutMs?: number;
}

/** Atomic operations on the shared budget of one API key in Redis. */
export class SharedBudgetStore {
  readonly #redis: ScriptedRedis;
  readonly #base: string;
  readonly #memberId: string;

  constructor(opts: SharedBudgetStoreOptions) {
    this.#base = `${opts.keyPrefix ?? 'rexbot:ratelimit:'}${budgetKeyId(opts.apiKey)}:`;
    this.#memberId = opts.memberId;
    // Fail fast instead of queueing: a command that cannot be sent now must not run later, when the decision
    // it was for is stale. Commands in flight when the connection drops fail too and are not re-sent.
    const redis = new Redis(opts.url, {
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      commandTimeout: opts.commandTimeoutMs ?? 1000,
      lazyConnect: false,
      // Keep reconnecting (capped at 1 s) for as long as the bot runs: the throttler comes back on its own.
      retryStrategy: (times) => Math.min(times * 100, 1000),
    });
    // Errors are reported through the commands that fail; without a listener ioredis prints every one.
    redis.on('error', () => undefined);
    redis.defineCommand('rexbotAcquire', { numberOfKeys: 3, lua: ACQUIRE_LUA });
    redis.defineCommand('rexbotPause', { numberOfKeys: 1, lua: PAUSE_LUA });
    this.#redis = redis as ScriptedRedis;
  }

  /** True while the connection is up (a command sent now is likely to be answered). */
  get ready(): boolean {
    return this.#redis.status === 'ready';
  }

  /** Register a listener for the connection coming (back) up. */
  onReady(fn: () => void): void {
    this.#redis.on('ready', fn);
  }

  /** Resolves true once connected, false when not within `timeoutMs` (real time). */
  waitReady(timeoutMs: number): Promise<boolean> {
    if (this.ready) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.#redis.off('ready', onReady);
        resolve(ok);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.#redis.on('ready', onReady);
    });
  }

  /** Ask for one call in `minute` (floor(epoch ms / 60000) of the caller's clock). */
  async acquire(minute: number, cls: BudgetClass, rule: BudgetRule, nowMs: number): Promise<AcquireResult> {
    const r = await this.#redis.rexbotAcquire(
      `${this.#base}used:${minute}`,
      `${this.#base}members:${minute}`,
      `${this.#base}pause`,
      this.#memberId,
      cls === 'cancel' ? '1' : '0',
      rule.callsPerMinute,
      rule.fallbackShare,
      rule.maxProcesses,
      rule.cancelReserve,
      Math.floor(nowMs),
      KEY_TTL_MS,
    );
    const [code, a, cap = 0, absent = 0] = r;
    if (code === 1) return { kind: 'granted', used: Number(a), cap };
    if (code === 0) return { kind: 'paused', until: Number(a) };
    return { kind: 'spent', used: Number(a), cap, partial: absent > 0 };
  }

  /** Pause every process of the key until `untilMs` (keeps a later pause already stored). */
  async pause(untilMs: number, nowMs: number): Promise<void> {
    await this.#redis.rexbotPause(`${this.#base}pause`, Math.ceil(untilMs), Math.max(0, Math.ceil(untilMs - nowMs)) + KEY_TTL_MS);
  }

  /** Round trip without side effects: resolves when Redis answers. */
  async ping(): Promise<void> {
    await this.#redis.ping();
  }

  /** Close the connection (no reconnect afterwards). */
  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
