/**
 * `rexbot worker` and `rexbot backtest --queue` as a user runs them: bad command lines exit 2 with the reason,
 * an unreachable Redis exits 1 saying where; a queued sweep through the real CLI, with a real worker, shows
 * which worker runs each job and prints the ranked table; a local sweep never loads bullmq nor ioredis (the
 * shared rate budget's client, loaded only when a bot's `rateLimit.shared` asks for it).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { repoPath } from '../helpers/shared.js';
import { startWorker, sweepTestRedis } from '../backtest/sweep/queue-helpers.js';

const redisForTests = await sweepTestRedis();
afterAll(() => redisForTests.stop());
if (!redisForTests.url) console.warn(redisForTests.why);
const haveRedis = redisForTests.url !== undefined;
const REDIS_URL = redisForTests.url ?? '';

const cli = async (args: string[], nodeArgs: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...nodeArgs, repoPath('src/cli/bin.mjs'), ...args], { cwd: repoPath(), timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const tmp = async () => {
  const d = await mkdtemp(join(tmpdir(), 'rexbot-worker-cli-'));
  cleanups.push(() => rm(d, { recursive: true, force: true }));
  return d;
};

describe('rexbot worker / backtest --queue command lines', () => {
  it('says what is wrong, exit 2; --help exits 0', async () => {
    const help = await cli(['worker', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--concurrency N');
    for (const [args, msg] of [
      [['worker'], "give the queue's Redis"],
      [['worker', '--redis', 'http://x:1'], 'expected redis:// or rediss://'],
      [['worker', '--redis', 'redis://127.0.0.1:6379', '--concurrency', '0'], '--concurrency must be a whole number ≥ 1'],
      [['worker', '--redis', 'redis://127.0.0.1:6379', '--queue', 'a:b'], "has no ':'"],
      [['worker', '--redis', 'redis://127.0.0.1:6379', '--map', 'data=/srv/data'], '--map data=/srv/data: data is not an absolute path'],
      [['worker', '--redis', 'redis://127.0.0.1:6379', '--job-timeout', 'soon'], '--job-timeout must be a number of seconds ≥ 0 (0 for no limit), got soon'],
      [['worker', '--redis', 'redis://127.0.0.1:6379', '--job-timeout', '3000000'], '--job-timeout 3000000: at most 2147483 s (24 days); 0 for no limit'],
      [['worker', '--redis', 'redis://127.0.0.1:6379', '--root', '/nonexistent/rexbot-root'], '--root /nonexistent/rexbot-root: no such folder'],
      [['worker', '--redis', 'redis://127.0.0.1:6379', '--root', 'package.json'], '--root package.json: not a folder'],
      [['backtest', 'config/backtest.yaml', '--queue', 'redis://127.0.0.1:6379'], 'give --sweep key=v1,v2 too'],
      [['backtest', 'config/backtest.yaml', '--sweep', 'spread=1', '--queue-name', 'x'], 'go with --queue'],
    ] as const) {
      const r = await cli([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(msg);
    }
  });

  it('an unreachable Redis: exit 1 saying where, for the worker and the coordinator', async () => {
    // port 1 on loopback: nothing listens there, the connection is refused at once
    const w = await cli(['worker', '--redis', 'redis://127.0.0.1:1']);
    expect(w.code).toBe(1);
    expect(w.stderr).toContain('cannot reach Redis at redis://127.0.0.1:1');
    const b = await cli(['backtest', 'config/backtest.yaml', '--sweep', 'spread=0.001', '--queue', 'redis://user:secret@127.0.0.1:1', '--out', await tmp()]);
    expect(b.code).toBe(1);
    expect(b.stderr).toContain('cannot reach Redis at redis://user:***@127.0.0.1:1');
    expect(b.stderr).not.toContain('secret');
  });

  it('a local sweep loads neither bullmq nor ioredis', { timeout: 120_000 }, async () => {
    // a resolve hook that refuses the queue package, in the coordinator's process and its worker threads
    const hook = `data:text/javascript,${encodeURIComponent(
      'import{register}from"node:module";register("data:text/javascript,"+encodeURIComponent("export async function resolve(s,c,n){if(s===\\"bullmq\\"||s===\\"ioredis\\")throw new Error(\\"loaded \\"+s);return n(s,c)}"));',
    )}`;
    const out = await tmp();
    const r = await cli(['backtest', 'config/backtest.yaml', '--sweep', 'spread=0.0001,0.0003', '--sweep', 'venue.to=2024-01-15T12:01:00Z', '--jobs', '2', '--out', out], ['--import', hook]);
    expect(r.stderr).not.toContain('loaded ');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`index: ${join(out, 'index.html')}`);
  });
});

describe.skipIf(!haveRedis)(haveRedis ? 'rexbot backtest --queue with a real worker' : redisForTests.why, () => {
  it('shows which worker runs each job and prints the ranked table; a bad value fails in its row', { timeout: 120_000 }, async () => {
    const prefix = uniquePrefix('sweep-cli').replace(/:$/, '');
    cleanups.push(() => deleteKeys(prefix, REDIS_URL));
    const out = await tmp();
    const w = await startWorker(REDIS_URL, ['--queue', 'cli', '--prefix', prefix, '--concurrency', '2', '--root', repoPath(), '--root', out]);
    cleanups.push(async () => void (await w.kill('SIGTERM')));
    expect(w.log()).toContain(`at once; jobs may use files under ${repoPath()}, ${out} (--root); a job is stopped after 3600 s (--job-timeout)`);
    const r = await cli([
      'backtest', 'config/backtest.yaml', '--sweep', 'spread=0.0001,0.0003', '--sweep', 'size=0.002,abc', '--sweep', 'venue.to=2024-01-15T12:01:00Z',
      '--metric', 'netPnl', '--queue', REDIS_URL, '--queue-name', 'cli', '--queue-prefix', prefix, '--out', out,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('sweep of 4 runs on the workers of queue cli');
    expect(r.stderr.match(/^job \d .* running on \S+:\d+$/gm)).toHaveLength(4);
    expect(r.stderr).toContain(`(${w.log().match(/rexbot worker (\S+): ready/)![1]})`);
    expect(r.stdout.match(/FAILED: .*params\.size/g)).toHaveLength(2);
    expect(r.stdout).toContain(`index: ${join(out, 'index.html')}`);
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8')) as { results: Array<{ ok: boolean }> };
    expect(index.results.map((x) => x.ok)).toEqual([true, true, false, false]);
    expect(await w.kill('SIGTERM')).toBe(0);
    expect(w.log()).toContain('SIGTERM: finishing the jobs in hand');
    // It ended by itself: its queue connections and threads were closed by its own shutdown (exit-when-done.ts).
    expect(w.log()).not.toContain('still held open');
  });

  it('SIGTERM while a job runs: the job is finished and reported, then the worker exits 0 by itself', { timeout: 120_000 }, async () => {
    const prefix = uniquePrefix('sweep-cli-busy').replace(/:$/, '');
    cleanups.push(() => deleteKeys(prefix, REDIS_URL));
    const out = await tmp();
    const w = await startWorker(REDIS_URL, ['--queue', 'busy', '--prefix', prefix, '--concurrency', '1', '--root', repoPath(), '--root', out]);
    cleanups.push(async () => void (await w.kill('SIGKILL')));
    const sweep = cli(['backtest', 'config/backtest.yaml', '--sweep', 'spread=0.0001', '--queue', REDIS_URL, '--queue-name', 'busy', '--queue-prefix', prefix, '--out', out]);
    await vi.waitFor(() => expect(w.log()).toMatch(/: job \S+ started /), { timeout: 60_000, interval: 50 });
    expect(await w.kill('SIGTERM')).toBe(0);
    const log = w.log();
    expect(log.indexOf('SIGTERM: finishing the jobs in hand')).toBeGreaterThan(log.search(/: job \S+ started /));
    expect(log).toMatch(/: job \S+ done, net PnL \S+\n[^\n]*: stopped\n$/);
    expect(log).not.toContain('still held open');
    // The job's result reached the coordinator, which ends with the table.
    const r = await sweep;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`index: ${join(out, 'index.html')}`);
  });
});
