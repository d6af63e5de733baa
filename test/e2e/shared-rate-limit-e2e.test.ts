/**
 * Two bot processes on ONE API key share its call budget through Redis (issue 13 item 2), end to end and in real
 * time, the way a user runs them: `rexbot sim` with the service's per-key limit on (60 calls a calendar minute,
 * 429 THROTTLED past it), two `rexbot run` processes with `rateLimit.shared` and the test-only order-spammer asking
 * for far more than 60 calls a minute each, and a redis-server of the test's own (the machine's Redis is never
 * stopped) that the test kills and starts again mid-run.
 *
 * What is proved, read from each bot's /metrics and log:
 * 1. at full demand (placements queued in both bots all along) neither bot ever receives a 429, in any phase and
 *    across the minute boundaries of steps 2 and 3, and cancels of BOTH bots keep going through (the reserve);
 * 2. Redis killed: both say so in their log and metrics (fallback gauge 1), go on trading on their local share,
 *    still without a 429;
 * 3. Redis started again: both say it is reachable, return to the shared budget at a minute boundary (gauge 0),
 *    still without a 429.
 * Each phase waits for conditions (a minute boundary passing, counters moving), never for a duration; a run takes
 * about three minutes because the budget is per real minute.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type BotProcess, killAllChildren, type SimProcess, startBotProcess, startSimProcess } from '../crash/crash-processes.js';
import { redisServerInstalled, startThrowawayRedis, type ThrowawayRedis } from '../helpers/redis.js';
import { repoPath } from '../helpers/shared.js';

const CREDENTIALS = { apiKey: '5eed5eed5eed5eed5eed5eed5eed5eed', apiSecret: 'b0a710adb0a710adb0a710adb0a710ad' };
const SIM_YAML = repoPath('test/fixtures/ratelimit/sim.yaml');
const BOT_YAML = repoPath('test/fixtures/ratelimit/bot.yaml');
const MINUTE = 60_000;
/** A phase may have to wait for the next minute boundary and then for the traffic after it. */
const PHASE = { timeout: 150_000, interval: 250 };

// The whole run uses a redis-server of its own (it is killed mid-run), so it needs the binary, not REDIS_URL.
const haveRedis = redisServerInstalled();
const why = haveRedis ? '' : ' — SKIPPED: no redis-server on the PATH (apt-get install redis-server)';
if (!haveRedis) console.warn(`shared-rate-limit e2e${why}`);

const tmp = mkdtempSync(join(tmpdir(), 'rexbot-shared-rl-'));
let redis: ThrowawayRedis | undefined;
afterAll(async () => {
  await killAllChildren();
  await redis?.kill();
  rmSync(tmp, { recursive: true, force: true });
});

/** A bot, its metrics URL and a scraper. */
interface Bot {
  name: string;
  proc: BotProcess;
  metricsUrl: string;
}

/** The value of one series in Prometheus text (0 when absent). */
function series(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

interface Reading {
  throttled: number;
  fallback: number;
  cancels: number;
  places: number;
  queuedPlaces: number;
}

async function read(bot: Bot): Promise<Reading> {
  const text = await (await fetch(bot.metricsUrl)).text();
  return {
    throttled: series(text, 'rexbot_throttler_throttled_total'),
    fallback: series(text, 'rexbot_throttler_shared_fallback'),
    cancels: series(text, 'rexbot_throttler_shared_calls_started_total', { priority: 'cancel' }),
    places: series(text, 'rexbot_throttler_shared_calls_started_total', { priority: 'place' }),
    queuedPlaces: series(text, 'rexbot_throttler_queue_depth', { priority: 'place' }),
  };
}

async function startBot(name: string, sim: SimProcess, redisUrl: string): Promise<Bot> {
  const proc = startBotProcess(BOT_YAML, {
    REXBOT_RL_NAME: name,
    REXBOT_RL_REST: sim.ready.rest,
    REXBOT_RL_HUB: sim.ready.hub,
    REXBOT_RL_REDIS: redisUrl,
    REXBOT_RL_JOURNAL_DIR: tmp,
    REXBOT_API_KEY: CREDENTIALS.apiKey,
    REXBOT_API_SECRET: CREDENTIALS.apiSecret,
  });
  const ops = await proc.waitForLine((l) => l.msg === 'ops endpoint', `${name} ops endpoint`, 120_000);
  return { name, proc, metricsUrl: String(ops.metrics) };
}

/** No 429 so far: in the metrics and in the log. */
async function expectNo429(bots: Bot[]): Promise<void> {
  for (const bot of bots) {
    expect((await read(bot)).throttled, `${bot.name} received a 429`).toBe(0);
    expect(bot.proc.lines.filter((l) => l.msg === 'rest request throttled'), `${bot.name} logged a 429`).toEqual([]);
  }
}

/**
 * Wait for a minute boundary to pass (unless `boundary` is false), then for both bots to start cancels AND
 * placements after it, with placements still queued (full demand). Returns the readings at the end.
 */
async function trafficAcrossBoundary(bots: Bot[], what: string, boundary = true): Promise<Reading[]> {
  const minute = Math.floor(Date.now() / MINUTE);
  if (boundary) await vi.waitFor(() => expect(Math.floor(Date.now() / MINUTE), `${what}: waiting for the minute to turn`).toBeGreaterThan(minute), PHASE);
  const before = await Promise.all(bots.map(read));
  let after: Reading[] = [];
  await vi.waitFor(async () => {
    after = await Promise.all(bots.map(read));
    bots.forEach((bot, i) => {
      expect(after[i]!.cancels, `${what}: ${bot.name} cancels after the boundary`).toBeGreaterThan(before[i]!.cancels);
      expect(after[i]!.places, `${what}: ${bot.name} placements after the boundary`).toBeGreaterThan(before[i]!.places);
      expect(after[i]!.queuedPlaces, `${what}: ${bot.name} at full demand`).toBeGreaterThan(0);
    });
  }, PHASE);
  return after;
}

describe.skipIf(!haveRedis)(`two bot processes on one API key share its budget through Redis${why}`, () => {
  it('no 429 at full demand, cancels of both go through, and Redis stopped and started mid-run', { timeout: 600_000 }, async () => {
    redis = await startThrowawayRedis();
    const sim = await startSimProcess(SIM_YAML, CREDENTIALS);
    const bots = await Promise.all([startBot('rl-a', sim, redis.url), startBot('rl-b', sim, redis.url)]);
    for (const bot of bots) {
      await bot.proc.waitForLine((l) => l.msg === 'sharing the API key call budget through Redis', `${bot.name} shared budget`);
    }

    // 1. Shared budget at full demand.
    await vi.waitFor(async () => {
      for (const r of await Promise.all(bots.map(read))) expect(r.queuedPlaces).toBeGreaterThan(0);
    }, PHASE);
    // The minute boundary under the shared budget is crossed in step 3, after the return from the fallback.
    await trafficAcrossBoundary(bots, 'shared', false);
    await expectNo429(bots);
    for (const r of await Promise.all(bots.map(read))) expect(r.fallback).toBe(0);

    // 2. Redis dies: both fall back to their own share (30 a minute each) and say so.
    await redis.kill();
    for (const bot of bots) {
      await bot.proc.waitForLine((l) => typeof l.msg === 'string' && l.msg.startsWith('shared rate budget unreachable'), `${bot.name} fallback warning`);
    }
    await vi.waitFor(async () => {
      for (const r of await Promise.all(bots.map(read))) expect(r.fallback).toBe(1);
    }, PHASE);
    await trafficAcrossBoundary(bots, 'fallback');
    await expectNo429(bots);

    // 3. Redis is back: both notice, and return to the shared budget at a boundary.
    await redis.start();
    for (const bot of bots) {
      await bot.proc.waitForLine((l) => l.msg === 'shared rate budget reachable again (Redis): back on it from the next minute', `${bot.name} Redis back`, 60_000);
    }
    for (const bot of bots) {
      await bot.proc.waitForLine((l) => l.msg === 'back on the shared rate budget (Redis)', `${bot.name} back on the shared budget`, 150_000);
    }
    await vi.waitFor(async () => {
      for (const r of await Promise.all(bots.map(read))) expect(r.fallback).toBe(0);
    }, PHASE);
    // They came back at a boundary already: the traffic after it is on the shared budget.
    await trafficAcrossBoundary(bots, 'shared again', false);
    await expectNo429(bots);

    for (const bot of bots) bot.proc.kill('SIGTERM');
    await Promise.all(bots.map((b) => b.proc.exited));
    await sim.stop();
  });
});
