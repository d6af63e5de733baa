/**
 * Distributed sweeps against a real Redis (REDIS_URL or 127.0.0.1:6379, else a throwaway redis-server) with real
 * `rexbot worker` processes:
 * a worker SIGKILLed mid-job has its job run again by another and the result recorded exactly once; the same
 * sweep gives the same ranked results and reports on the queue as on local threads; bad params fail alone.
 * Each test has its own queue name and key prefix, deleted after. Skipped, saying why, when Redis is absent.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runSweep } from '../../../backtest/sweep/run-sweep.js';
import { parseSweepArg } from '../../../backtest/sweep/sweep-grid.js';
import { deleteKeys, redisServerInstalled, startThrowawayRedis, uniquePrefix } from '../../helpers/redis.js';
import { repoPath } from '../../helpers/shared.js';
import { startWorker, sweepTestRedis, type WorkerProcess } from './queue-helpers.js';

const redisForTests = await sweepTestRedis();
afterAll(() => redisForTests.stop());
if (!redisForTests.url) console.warn(redisForTests.why);
const haveRedis = redisForTests.url !== undefined;
const REDIS_URL = redisForTests.url ?? '';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A queue of the test's own: name, key prefix (deleted after) and a temp folder (removed after). */
async function ownQueue(test: string) {
  const prefix = uniquePrefix(`sweep-${test}`).replace(/:$/, '');
  const name = `q-${test}`;
  const dir = await mkdtemp(join(tmpdir(), `rexbot-qsweep-${test}-`));
  cleanups.push(async () => {
    await deleteKeys(prefix, REDIS_URL);
    await rm(dir, { recursive: true, force: true });
  });
  return { prefix, name, dir };
}

/** The Redis keys starting with `prefix` (BullMQ's job hashes among them). */
async function keysUnder(prefix: string): Promise<string[]> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    return (await client.keys(`${prefix}*`)).sort();
  } finally {
    client.disconnect();
  }
}

async function worker(q: { prefix: string; name: string }, args: string[], env?: Record<string, string>, redis = REDIS_URL): Promise<WorkerProcess> {
  const w = await startWorker(redis, ['--queue', q.name, '--prefix', q.prefix, ...args], env);
  cleanups.push(async () => void (await w.kill('SIGTERM')));
  return w;
}

describe.skipIf(!haveRedis)(haveRedis ? 'a sweep on a Redis queue' : redisForTests.why, () => {
  it('a worker SIGKILLed mid-job: the job runs again on another and its result is recorded exactly once', { timeout: 90_000 }, async () => {
    const q = await ownQueue('kill');
    const holdDir = join(q.dir, 'hold');
    await rm(holdDir, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(holdDir));
    const env = { REXBOT_TEST_HOLD_DIR: holdDir, REXBOT_TEST_HOLD_INDEX: '1' };
    // short lock and stalled check so a dead worker's job is taken again in about two seconds
    const opts = ['--handler', repoPath('test/backtest/sweep/hold-handler.ts'), '--lock-ms', '1500', '--stalled-ms', '300'];
    const workers = [await worker(q, opts, env), await worker(q, opts, env)];
    const recorded: number[] = [];
    const ranOn: string[] = [];
    const sweep = runSweep({
      configPath: 'config/none.yaml',
      axes: [parseSweepArg('spread=0.001,0.002,-1,0.004')],
      outDir: join(q.dir, 'out'),
      metric: 'netPnl',
      queue: { redis: REDIS_URL, name: q.name, prefix: q.prefix, onStart: (job, w) => job.index === 1 && ranOn.push(w) },
      onResult: (r) => recorded.push(r.index),
    });
    // the worker holding job 1 is known by its marker file
    const holder = await vi.waitFor(
      async () => {
        const f = (await readdir(holdDir)).find((n) => n.startsWith('start-1-'));
        if (!f) throw new Error('job 1 not started yet');
        return Number(f.slice('start-1-'.length));
      },
      { timeout: 30_000, interval: 20 },
    );
    const victim = workers.find((w) => w.pid === holder)!;
    expect(victim, `job 1 runs in a worker process we started (pid ${holder})`).toBeDefined();
    expect(await victim.kill('SIGKILL')).toBe('SIGKILL');
    // only now may job 1 finish: the dead worker cannot have completed it
    await writeFile(join(holdDir, 'release'), '');
    const { ranked, index } = await sweep;

    const survivor = workers.find((w) => w !== victim)!;
    expect(ranked.map((r) => r.index).sort()).toEqual([0, 1, 2, 3]);
    expect(recorded.sort()).toEqual([0, 1, 2, 3]);
    expect(ranked.map((r) => [r.params.spread, r.ok])).toEqual([
      [0.004, true],
      [0.002, true],
      [0.001, true],
      [-1, false],
    ]);
    const bad = ranked[3]!;
    expect(!bad.ok && bad.error).toBe('params.spread: must be ≥ 0, got -1');
    // job 1 started twice (killed, then on the survivor), every other job once
    const starts = (await readdir(holdDir)).filter((n) => n.startsWith('start-')).sort();
    expect(starts.filter((n) => n.startsWith('start-1-')).sort()).toEqual([`start-1-${victim.pid}`, `start-1-${survivor.pid}`].sort());
    for (const i of [0, 2, 3]) expect(starts.filter((n) => n.startsWith(`start-${i}-`))).toHaveLength(1);
    expect(ranOn).toHaveLength(2);
    const json = JSON.parse(await readFile(join(q.dir, 'out', 'index.json'), 'utf8')) as { results: Array<{ index: number; ok: boolean }> };
    expect(json.results.map((r) => r.index)).toEqual([3, 1, 0, 2]);
    expect(existsSync(index)).toBe(true);
    // the sweep's jobs are gone from Redis
    expect(await keysUnder(`${q.prefix}:${q.name}:sweep-`)).toEqual([]);
  });

  it('with no worker yet it says how to start one; interrupted, it takes its waiting jobs off the queue', { timeout: 30_000 }, async () => {
    const q = await ownQueue('abort');
    const notices: string[] = [];
    const interrupt = new AbortController();
    const sweep = runSweep({
      configPath: 'config/none.yaml',
      axes: [parseSweepArg('spread=0.001,0.002,0.004')],
      outDir: join(q.dir, 'out'),
      metric: 'netPnl',
      queue: { redis: REDIS_URL, name: q.name, prefix: q.prefix, signal: interrupt.signal, onNotice: (m) => notices.push(m) },
    });
    await vi.waitFor(() => expect(notices.join('\n')).toContain(`no worker is connected to queue ${q.name}`), { timeout: 20_000, interval: 20 });
    expect(notices[0]).toContain(`start \`rexbot worker --redis ${REDIS_URL} --queue ${q.name}\``);
    // the jobs are queued now: three job hashes under the queue's keys
    const jobKeys = () => keysUnder(`${q.prefix}:${q.name}:sweep-`);
    expect(await jobKeys()).toHaveLength(3);
    interrupt.abort();
    await expect(sweep).rejects.toThrow('sweep interrupted; its jobs not yet taken were removed from the queue');
    expect(await jobKeys()).toEqual([]);
  });

  it('the same sweep gives the same ranked results and reports on the queue as on local threads', { timeout: 120_000 }, async () => {
    const q = await ownQueue('same');
    // two minutes of the example recording keep it short; the bad size fails in its row, the rest go on
    const axes = () => [parseSweepArg('spread=0.0001,0.0003'), parseSweepArg('size=0.002,abc'), parseSweepArg('venue.to=2024-01-15T12:02:00Z')];
    const config = repoPath('config/backtest.yaml');
    const local = await runSweep({ configPath: config, axes: axes(), outDir: join(q.dir, 'local'), metric: 'netPnl', threads: 2 });
    await worker(q, ['--concurrency', '2']);
    const queued = await runSweep({ configPath: config, axes: axes(), outDir: join(q.dir, 'queued'), metric: 'netPnl', queue: { redis: REDIS_URL, name: q.name, prefix: q.prefix } });
    const strip = (r: (typeof local.ranked)[number]) => (r.ok ? { ...r, outDir: undefined, html: undefined, wallMs: undefined } : r);
    expect(queued.ranked.map(strip)).toEqual(local.ranked.map(strip));
    expect(local.ranked.map((r) => r.ok)).toEqual([true, true, false, false]);
    const indexOf = async (d: string) => (JSON.parse(await readFile(join(q.dir, d, 'index.json'), 'utf8')) as { results: unknown }).results;
    expect(await indexOf('queued')).toEqual(await indexOf('local'));
    for (const r of local.ranked.filter((x) => x.ok)) {
      const folder = r.outDir.slice(join(q.dir, 'local').length + 1);
      expect(await readFile(join(q.dir, 'queued', folder, 'report.json'), 'utf8')).toBe(await readFile(join(r.outDir, 'report.json'), 'utf8'));
    }
  });

  it('a worker that sees the files elsewhere (--map) runs the real backtest there and reports the coordinator\'s paths', { timeout: 90_000 }, async () => {
    const q = await ownQueue('map');
    // the coordinator's checkout is <tmp>/coord-repo (absent here); the worker has it at the real repository, and
    // the coordinator's --out <tmp>/coord-out at <tmp>/worker-out, as if both were one share mounted in two places
    const coordRepo = join(q.dir, 'coord-repo');
    await worker(q, ['--map', `${coordRepo}=${repoPath()}`, '--map', `${join(q.dir, 'coord-out')}=${join(q.dir, 'worker-out')}`]);
    const { ranked } = await runSweep({
      configPath: join(coordRepo, 'config', 'backtest.yaml'),
      axes: [parseSweepArg('spread=0.0003'), parseSweepArg('venue.to=2024-01-15T12:01:00Z')],
      outDir: join(q.dir, 'coord-out'),
      metric: 'netPnl',
      queue: { redis: REDIS_URL, name: q.name, prefix: q.prefix },
    });
    const r = ranked[0]!;
    if (!r.ok) throw new Error(r.error);
    expect(r.html.startsWith(join(q.dir, 'coord-out') + '/')).toBe(true);
    expect(existsSync(join(q.dir, 'worker-out', r.html.slice(join(q.dir, 'coord-out').length + 1)))).toBe(true);
    expect(existsSync(join(q.dir, 'coord-out', 'index.html'))).toBe(true);
  });

  it.skipIf(!redisServerInstalled())('Redis killed and restarted empty mid-sweep: every job gets one row, lost ones say so; the worker goes on', { timeout: 90_000 }, async () => {
    // a redis-server of the test's own: the machine's is never stopped
    const redis = await startThrowawayRedis();
    cleanups.push(() => redis.kill());
    const q = await ownQueue('restart');
    const holdDir = join(q.dir, 'hold');
    await import('node:fs/promises').then((fs) => fs.mkdir(holdDir));
    await worker(q, ['--handler', repoPath('test/backtest/sweep/hold-handler.ts')], { REXBOT_TEST_HOLD_DIR: holdDir, REXBOT_TEST_HOLD_INDEX: '1' }, redis.url);
    const notices: string[] = [];
    const run = (tag: string) =>
      runSweep({
        configPath: 'config/none.yaml',
        axes: [parseSweepArg('spread=0.001,0.002,0.004')],
        outDir: join(q.dir, tag),
        metric: 'netPnl',
        queue: { redis: redis.url, name: q.name, prefix: q.prefix, pollMs: 200, onNotice: (m) => notices.push(m) },
      });
    const sweep = run('first');
    await vi.waitFor(async () => expect((await readdir(holdDir)).some((n) => n.startsWith('start-1-'))).toBe(true), { timeout: 30_000, interval: 20 });
    await redis.kill();
    await redis.start();
    await writeFile(join(holdDir, 'release'), '');
    const { ranked } = await sweep;
    expect(ranked.map((r) => r.index).sort()).toEqual([0, 1, 2]);
    for (const r of ranked) if (!r.ok) expect(r.error).toMatch(/disappeared from the queue \(Redis restarted without persistence/);
    expect(ranked.some((r) => !r.ok)).toBe(true);
    // the same worker reconnected: a sweep after the restart completes on it
    const again = await run('again');
    expect(again.ranked.map((r) => [r.params.spread, r.ok])).toEqual([
      [0.004, true],
      [0.002, true],
      [0.001, true],
    ]);
  });
});
