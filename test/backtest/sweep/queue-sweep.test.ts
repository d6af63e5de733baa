/**
 * Distributed sweeps against a real Redis (REDIS_URL or 127.0.0.1:6379, else a throwaway redis-server) with real
 * `rexbot worker` processes:
 * a worker SIGKILLed mid-job has its job run again by another and the result recorded exactly once; the same
 * sweep gives the same ranked results and reports on the queue as on local threads; bad params fail alone.
 * Each test has its own queue name and key prefix, deleted after. Skipped, saying why, when Redis is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runSweepJobsOnQueue } from '../../../backtest/sweep/queue-sweep.js';
import { encodePayload } from '../../../src/bittrex/hub/codec.js';
import { encodeV1Payload } from '../../../src/wire/v1/hub/protocol.js';
import { runSweep } from '../../../backtest/sweep/run-sweep.js';
import type { SweepJob } from '../../../backtest/sweep/sweep-job.js';
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

/** A one-minute backtest config over `data` with `strategy` (YAML flow mapping). */
function backtestYaml(data: string, strategy = '{ name: mm, use: market-maker, markets: [BTC-USD], params: { spread: 0.0004, levels: 1, levelSpacing: 0.0002, size: 0.002 } }'): string {
  return `bot: { name: limits }
venue:
  kind: backtest
  data: [{ format: rexbot, path: ${JSON.stringify(data)}, markets: [BTC-USD] }]
  to: 2024-01-15T12:01:00Z
  balances: { USD: 100000, BTC: 1 }
strategies:
  - ${strategy}
`;
}

describe.skipIf(!haveRedis)(haveRedis ? 'a sweep on a Redis queue' : redisForTests.why, () => {
  it('a worker SIGKILLed mid-job: the job runs again on another and its result is recorded exactly once', { timeout: 90_000 }, async () => {
    const q = await ownQueue('kill');
    const holdDir = join(q.dir, 'hold');
    await rm(holdDir, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(holdDir));
    const env = { REXBOT_TEST_HOLD_DIR: holdDir, REXBOT_TEST_HOLD_INDEX: '1' };
    // short lock and stalled check so a dead worker's job is taken again in about two seconds
    const opts = ['--handler', repoPath('test/backtest/sweep/hold-handler.ts'), '--lock-ms', '1500', '--stalled-ms', '300', '--root', repoPath(), '--root', q.dir];
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
    await worker(q, ['--concurrency', '2', '--root', repoPath(), '--root', q.dir]);
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
    await worker(q, ['--handler', repoPath('test/backtest/sweep/hold-handler.ts'), '--root', repoPath(), '--root', q.dir], { REXBOT_TEST_HOLD_DIR: holdDir, REXBOT_TEST_HOLD_INDEX: '1' }, redis.url);
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

  it('a job whose config, data, plugin or output folder is outside the worker\'s --root fails saying so, reads, loads and writes nothing there; the worker goes on', { timeout: 90_000 }, async () => {
    const q = await ownQueue('roots');
    const root = join(q.dir, 'root');
    const outside = join(q.dir, 'outside');
    await mkdir(root);
    await mkdir(outside);
    await copyFile(repoPath('backtest', 'data', 'synthetic-btc-usd.jsonl.gz'), join(root, 'data.jsonl.gz'));
    await writeFile(join(root, 'bt.yaml'), backtestYaml('data.jsonl.gz'));
    await writeFile(join(outside, 'bt.yaml'), backtestYaml(join(root, 'data.jsonl.gz')));
    const secret = join(outside, 'secret.csv');
    await writeFile(secret, 'TOP-SECRET first line\n');
    // a plugin outside: imported, it would leave a file beside it
    const evil = join(outside, 'evil.mjs');
    await writeFile(evil, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(join(outside, 'ran'))}, '');\nexport default {};\n`);
    await symlink(join(outside, 'bt.yaml'), join(root, 'link.yaml'));
    await symlink(secret, join(root, 'secret-link.csv'));
    execFileSync('mkfifo', [join(root, 'feed.jsonl'), join(root, 'fifo.yaml')]);
    await worker(q, ['--root', root]);
    const config = join(root, 'bt.yaml');
    const job = (index: number, over: Partial<SweepJob>): SweepJob => ({ index, configPath: config, params: {}, outDir: join(root, 'out', String(index)), ...over });
    const jobs = [
      job(0, { configPath: join(outside, 'bt.yaml') }),
      job(1, { configPath: `${root}/../outside/bt.yaml` }),
      job(2, { configPath: join(root, 'link.yaml') }),
      job(3, { params: { 'venue.data.0.format': 'tardis', 'venue.data.0.path': secret } }),
      job(4, { params: { 'venue.data.0.format': 'tardis', 'venue.data.0.path': 'secret-link.csv' } }),
      job(5, { outDir: join(outside, 'out') }),
      job(6, { params: { 'venue.data.0.path': 'feed.jsonl' } }),
      job(7, { configPath: join(root, 'fifo.yaml') }),
      job(8, { params: { 'strategies.0.use': evil } }),
      // a bare param name loads the plugins to see which takes it: the one just pointed outside is not loaded
      job(9, { params: { 'strategies.0.use': evil, spread: 0.001 } }),
      job(10, { params: { 'venue.latency.orderEntry': { kind: 'file', path: secret } } }),
      job(11, {}),
    ];
    const results = await runSweepJobsOnQueue(jobs, { redis: REDIS_URL, name: q.name, prefix: q.prefix });
    const errors = results.map((r) => (r.ok ? 'ok' : r.error));
    const folders = `is outside the folders this worker may use (${root}); start the worker with --root for it`;
    expect(errors).toEqual([
      `config ${join(outside, 'bt.yaml')} ${folders}`,
      `config ${root}/../outside/bt.yaml (really ${join(outside, 'bt.yaml')}) ${folders}`,
      `config ${join(root, 'link.yaml')} (really ${join(outside, 'bt.yaml')}) ${folders}`,
      `venue.data[0].path ${secret} ${folders}`,
      `venue.data[0].path ${join(root, 'secret-link.csv')} (really ${secret}) ${folders}`,
      `output folder ${join(outside, 'out')} ${folders}`,
      `${join(root, 'feed.jsonl')}:1: is a FIFO (named pipe), not a file`,
      `config ${join(root, 'fifo.yaml')} is a FIFO (named pipe), not a file`,
      `strategies[0].use ${evil} ${folders}`,
      `strategies[0].use ${evil} ${folders}`,
      `venue.latency.orderEntry.path ${secret} ${folders}`,
      'ok',
    ]);
    // nothing was written outside, and no line of the file outside reached an error
    expect((await readdir(outside)).sort()).toEqual(['bt.yaml', 'evil.mjs', 'secret.csv']);
    expect(errors.join('\n')).not.toContain('TOP-SECRET');
  });

  it('a job that names a file inside the worker\'s --root as data gets its file:line and reason, never the file\'s text', { timeout: 90_000 }, async () => {
    const q = await ownQueue('quote');
    await copyFile(repoPath('backtest', 'data', 'synthetic-btc-usd.jsonl.gz'), join(q.dir, 'data.jsonl.gz'));
    await writeFile(join(q.dir, 'bt.yaml'), backtestYaml('data.jsonl.gz'));
    // e.g. a checkout's .env: its first line is no Tardis header, and no reader may tell it to the queue
    await writeFile(join(q.dir, '.env'), 'API_SECRET=TOP-SECRET-1\n');
    // a Tardis file whose bad rows are skipped: the report says where, not what the rows held
    await writeFile(
      join(q.dir, 'book.csv'),
      'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount\n' +
        'bittrex,BTC-USD,1705320000000000,1705320000000000,true,bid,42000,1\n' +
        'bittrex,BTC-USD,1705320000000000,1705320000000000,true,TOP-SECRET-2,42001,1\n' +
        'bittrex,BTC-USD,1705320000000000,1705320000000000,TOP-SECRET-3,ask,42002,1\n',
    );
    // candles whose bad values (a price, a time) are numbers the reader parsed: told by field, never by value
    await writeFile(join(q.dir, 'bars.csv'), 'time,open,high,low,close\n2024-01-15T11:59:00Z,30000,30010,29990,30005\n2024-01-15T12:00:00Z,-98765.4321,30010,29990,30005\n');
    await writeFile(join(q.dir, 'late.csv'), 'time,open,high,low,close\n2024-01-15T11:58:00Z,30000,30010,29990,30005\n2024-01-15T11:59:00Z,30000,30010,29990,30005\n2024-01-15T11:47:00Z,30000,30010,29990,30005\n');
    // wire values the readers decode (a recording's order-book snapshot, a v3 capture's hub message): told by field
    const header = '{"format":"rexbot-recording","version":1,"startedAt":1705320005000,"channels":[],"source":{"hub":"http://127.0.0.1:1/signalr","rest":"http://127.0.0.1:1/v3","transport":"classic"}}';
    const snapshot = '{"t":1705320005100,"snapshot":"/markets/BTC-USD/orderbook?depth=25","channel":"orderbook_BTC-USD_25","sequence":88,"body":{"bid":[{"quantity":"-24680.1357","rate":"30000"}],"ask":[]}}';
    await writeFile(join(q.dir, 'rec.jsonl'), `${header}\n${snapshot}\n`);
    const orderBook = encodePayload({ marketSymbol: 'BTC-USD', depth: 25, sequence: 7, bidDeltas: [{ quantity: '1', rate: '-13579.8642' }], askDeltas: [] });
    await writeFile(join(q.dir, 'BITTREX.ws.1.0'), `1705320005.1: {"C":"d-1","M":[{"H":"C3","M":"orderBook","A":["${orderBook}"]}]}\n`);
    // a v1.1 capture whose market name the v1.1 mapping refuses (no wire decoder's error): told by field too
    const uE = encodeV1Payload({ MarketName: 'TOP-SECRET-9-X', Nonce: 9, Buys: [], Sells: [], Fills: [] });
    await writeFile(join(q.dir, 'BITTREX.ws.21.0'), `1705320005.1: {"C":"d-1","M":[{"H":"C2","M":"uE","A":["${uE}"]}]}\n`);
    await worker(q, ['--root', q.dir]);
    const job = (index: number, data: Record<string, unknown>): SweepJob => ({ index, configPath: join(q.dir, 'bt.yaml'), params: { 'venue.data.0': data }, outDir: join(q.dir, 'out', String(index)) });
    // the candles beside the recording
    const bars = (index: number, path: string): SweepJob => ({ ...job(index, {}), params: { 'venue.data.1': { format: 'candles-csv', path, params: { market: 'BTC-USD', interval: 'MINUTE_1' } } } });
    const results = await runSweepJobsOnQueue(
      [
        job(0, { format: 'tardis', path: '.env', markets: ['BTC-USD'] }),
        job(1, { format: 'tardis', path: 'book.csv', markets: ['BTC-USD'], onBadLine: 'skip' }),
        // the same file as measured latencies
        { index: 2, configPath: join(q.dir, 'bt.yaml'), params: { 'venue.latency.orderEntry': { kind: 'file', path: '.env' } }, outDir: join(q.dir, 'out', '2') },
        bars(3, 'bars.csv'),
        bars(4, 'late.csv'),
        job(5, { format: 'rexbot', path: 'rec.jsonl', markets: ['BTC-USD'] }),
        job(6, { format: 'bittrex-v3-ws', path: 'BITTREX.ws.1.0', markets: ['BTC-USD'] }),
        job(7, { format: 'bittrex-v1-ws', path: 'BITTREX.ws.21.0', markets: ['BTC-USD'] }),
      ],
      { redis: REDIS_URL, name: q.name, prefix: q.prefix },
    );
    expect(results[0]).toMatchObject({ ok: false, error: `${join(q.dir, '.env')}:1: is not a Tardis incremental_book_L2 or trades header (the file's text left out)` });
    expect(results[1]).toMatchObject({ ok: true });
    expect(results[2]).toMatchObject({ ok: false, error: `${join(q.dir, '.env')}:1: a latency is not a number of milliseconds ≥ 0 (the file's text left out)` });
    expect(results[3]).toMatchObject({ ok: false, error: `${join(q.dir, 'bars.csv')}:3: open is negative (the file's text left out)` });
    expect(results[4]).toMatchObject({ ok: false, error: `${join(q.dir, 'late.csv')}:4: starts not after the previous candle: rows must be in time order (the file's text left out)` });
    expect(results[5]).toMatchObject({ ok: false, error: `${join(q.dir, 'rec.jsonl')}:2: orderBook snapshot: bid[0].quantity is negative (the file's text left out)` });
    expect(results[6]).toMatchObject({ ok: false, error: `${join(q.dir, 'BITTREX.ws.1.0')}:1: orderBook message: bidDeltas[0].rate is not positive (the file's text left out)` });
    expect(results[7]).toMatchObject({ ok: false, error: `${join(q.dir, 'BITTREX.ws.21.0')}:1: MarketName is not a v1.1 market name (the file's text left out)` });
    const report = await readFile(join(q.dir, 'out', '1', 'report.json'), 'utf8');
    expect((JSON.parse(report) as { dataWarnings?: string[] }).dataWarnings).toEqual([
      `${join(q.dir, 'book.csv')}: 2 bad lines skipped (onBadLine: skip): ${join(q.dir, 'book.csv')}:3: side is not bid or ask (the file's text left out); ${join(q.dir, 'book.csv')}:4: is_snapshot is not true or false (the file's text left out)`,
    ]);
    const told = JSON.stringify(results) + report + (await readFile(join(q.dir, 'out', '1', 'report.html'), 'utf8'));
    expect(told).not.toContain('TOP-SECRET');
    expect(told).not.toMatch(/98765|11:47|24680|13579/);
  });

  it('a job past --job-timeout fails saying so and its thread is terminated: the next job runs on the one thread there is', { timeout: 90_000 }, async () => {
    const q = await ownQueue('timeout');
    // blocks-once holds its thread in Atomics.wait (for ~24 days) once its trigger file exists: only terminating
    // the thread ends the job; a job merely abandoned would keep the worker's single thread for good
    const trigger = join(q.dir, 'bt.yaml');
    const strategy = (file: string) => `{ name: hold, use: ${JSON.stringify(repoPath('test', 'fixtures', 'strategies', 'blocks-once.ts'))}, markets: [BTC-USD], params: { trigger: ${JSON.stringify(file)}, ms: 2147483647 } }`;
    await writeFile(trigger, backtestYaml(repoPath('backtest', 'data', 'synthetic-btc-usd.jsonl.gz'), strategy(trigger)));
    // The job after it must finish inside the same limit on a new thread, whatever the machine: no plugin to load, a
    // minute of data (well under a second's work on a slow host), against a limit of 20 s.
    await writeFile(join(q.dir, 'quiet.yaml'), backtestYaml(repoPath('backtest', 'data', 'synthetic-btc-usd.jsonl.gz')));
    const w = await worker(q, ['--concurrency', '1', '--job-timeout', '20', '--root', q.dir, '--root', repoPath('backtest', 'data'), '--root', repoPath('test', 'fixtures', 'strategies')]);
    const recorded: number[] = [];
    const results = await runSweepJobsOnQueue(
      [
        { index: 0, configPath: trigger, params: {}, outDir: join(q.dir, 'out', '0') },
        { index: 1, configPath: join(q.dir, 'quiet.yaml'), params: {}, outDir: join(q.dir, 'out', '1') },
      ],
      { redis: REDIS_URL, name: q.name, prefix: q.prefix, onResult: (r) => recorded.push(r.index) },
    );
    expect(recorded).toEqual([0, 1]);
    expect(results.map((r) => (r.ok ? 'ok' : r.error))).toEqual(['timed out after 20 s (rexbot worker --job-timeout): its worker thread was terminated', 'ok']);
    expect(w.log()).toContain('failed: timed out after 20 s');
  });
});
