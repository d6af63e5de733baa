/**
 * A queued job's files are checked where they are opened, not only before: a symbolic link inside the worker's root
 * swapped to a file outside between the check and the open is refused, and nothing outside is read or written. The
 * swap is made at a fixed point of the real run (right after the config's files were checked, after the worker's
 * own check of the config and output folder, or right before a folder of the output is made), never by timing.
 */
import { copyFile, mkdir, mkdtemp, readdir, realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openReader } from '../../../backtest/readers/index.js';
import { runBacktest } from '../../../backtest/run-backtest.js';
import { assertJobPaths } from '../../../backtest/sweep/allowed-roots.js';
import { confineFiles, makeJobFolder, readJobFile } from '../../../backtest/sweep/confined-files.js';
import { runSweepJob, type SweepJob } from '../../../backtest/sweep/sweep-job.js';
import { repoPath } from '../../helpers/shared.js';
import { readEvents } from '../readers/read-helpers.js';

/**
 * What runs right after runBacktest has checked the config's files (data, latency, recorded markets), and right
 * before each mkdir (with the path it is about to make).
 */
const hook = vi.hoisted(() => ({
  afterCheck: undefined as (() => Promise<void>) | undefined,
  beforeMkdir: undefined as ((path: string) => Promise<void>) | undefined,
}));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const mkdir = async (...args: Parameters<typeof real.mkdir>) => {
    await hook.beforeMkdir?.(String(args[0]));
    return real.mkdir(...args);
  };
  return { ...real, default: { ...real, mkdir }, mkdir };
});
vi.mock('../../../backtest/sweep/config-files.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../backtest/sweep/config-files.js')>();
  return {
    ...real,
    assertConfigFilesInside: async (...args: Parameters<typeof real.assertConfigFilesInside>) => {
      await real.assertConfigFilesInside(...args);
      await hook.afterCheck?.();
    },
  };
});

let dir = '';
afterEach(async () => {
  hook.afterCheck = undefined;
  hook.beforeMkdir = undefined;
  await rm(dir, { recursive: true, force: true });
});

const MARKETS = 'https://api.bittrex.com/v3/markets -> 1705320000.5: [{"symbol":"BTC-USD","baseCurrencySymbol":"BTC","quoteCurrencySymbol":"USD","minTradeSize":"0.0001","precision":3,"status":"ONLINE","createdAt":"2015-01-01T00:00:00Z"}]\n';

/**
 * A worker's root holding a one-minute backtest whose data, latency and recorded-market files are links to files
 * in the root, and the same files, all valid, in a folder outside.
 */
async function setUp() {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'rexbot-confined-')));
  const root = join(dir, 'root');
  const outside = join(dir, 'outside');
  for (const d of [root, outside, join(root, 'out-real'), join(outside, 'out')]) await mkdir(d);
  for (const d of [root, outside]) {
    await copyFile(repoPath('backtest', 'data', 'synthetic-btc-usd.jsonl.gz'), join(d, 'data.jsonl.gz'));
    await writeFile(join(d, 'latency.txt'), '5\n');
    await writeFile(join(d, 'markets.txt'), MARKETS);
    await writeFile(join(d, 'bt.yaml'), `bot: { name: confined }
venue:
  kind: backtest
  data: [{ format: rexbot, path: ${join(root, 'data-link.jsonl.gz')}, markets: [BTC-USD] }]
  latency: { orderEntry: { kind: file, path: ${join(root, 'latency-link.txt')} } }
  recordedMarkets: { file: ${join(root, 'markets-link.txt')}, symbols: [BTC-USD] }
  to: 2024-01-15T12:01:00Z
  balances: { USD: 100000, BTC: 1 }
strategies:
  - { name: mm, use: market-maker, markets: [BTC-USD], params: { spread: 0.0004, levels: 1, levelSpacing: 0.0002, size: 0.002 } }
`);
  }
  const links: Record<string, string> = { 'data-link.jsonl.gz': 'data.jsonl.gz', 'latency-link.txt': 'latency.txt', 'markets-link.txt': 'markets.txt', 'config-link.yaml': 'bt.yaml', out: 'out-real' };
  for (const [link, target] of Object.entries(links)) await symlink(join(root, target), join(root, link));
  /** Point the link `name` in the root at the file of the same role outside. */
  const swap = async (name: string) => {
    await rm(join(root, name));
    await symlink(join(outside, name === 'out' ? 'out' : links[name]!), join(root, name));
  };
  const job: SweepJob = { index: 0, configPath: join(root, 'config-link.yaml'), params: {}, outDir: join(root, 'out'), allowedRoots: [root] };
  return { root, outside, swap, job };
}

const refusal = (root: string, link: string, real: string) => `${join(root, link)} (really ${real}) is outside the folders this worker may use (${root}); it changed after it was checked`;

describe('a queued job\'s files, checked where they are opened', () => {
  it('runs with every file a link to one inside the root', { timeout: 60_000 }, async () => {
    const { job } = await setUp();
    expect(await runSweepJob(job, runBacktest)).toMatchObject({ ok: true });
  });

  it.each([
    ['data file', 'data-link.jsonl.gz', 'data.jsonl.gz'],
    ['latency file', 'latency-link.txt', 'latency.txt'],
    ['recorded-markets file', 'markets-link.txt', 'markets.txt'],
  ])('a %s swapped to one outside after the check is refused when opened', { timeout: 60_000 }, async (_what, link, file) => {
    const { root, outside, swap, job } = await setUp();
    hook.afterCheck = () => swap(link);
    const result = await runSweepJob(job, runBacktest);
    expect(result).toMatchObject({ ok: false, error: refusal(root, link, join(outside, file)) });
  });

  it('a config swapped after the worker checked it is refused when read', { timeout: 60_000 }, async () => {
    const { root, outside, swap, job } = await setUp();
    await assertJobPaths(job, [root]);
    await swap('config-link.yaml');
    expect(await runSweepJob(job, runBacktest)).toMatchObject({ ok: false, error: refusal(root, 'config-link.yaml', join(outside, 'bt.yaml')) });
  });

  it('an output folder swapped after the worker checked it gets no report: nothing is written outside', { timeout: 60_000 }, async () => {
    const { root, outside, swap, job } = await setUp();
    await assertJobPaths(job, [root]);
    await swap('out');
    const result = await runSweepJob(job, runBacktest);
    expect(result).toMatchObject({ ok: false, error: refusal(root, 'out', join(outside, 'out')) });
    expect(await readdir(join(outside, 'out'))).toEqual([]);
  });

  it('a folder of the output made through a link swapped just before is removed again: none is left outside', { timeout: 60_000 }, async () => {
    const { root, outside, job } = await setUp();
    // run/0 is still to be made, under `out` (a link to out-real); out-real is swapped for a link to a folder
    // outside right before the first folder under the root is made
    hook.beforeMkdir = async (path) => {
      if (!path.startsWith(root)) return;
      hook.beforeMkdir = undefined;
      await rename(join(root, 'out-real'), join(root, 'out-moved'));
      await symlink(join(outside, 'out'), join(root, 'out-real'));
    };
    const result = await runSweepJob({ ...job, outDir: join(root, 'out', 'run', '0') }, runBacktest);
    expect(await readdir(join(outside, 'out'))).toEqual([]);
    expect(result).toMatchObject({ ok: false, error: refusal(root, join('out-real', 'run'), join(outside, 'out', 'run')) });
  });

  it('the folders of the output are made, each under the real path of the one above', async () => {
    const { root } = await setUp();
    await confineFiles([root], () => makeJobFolder(join(root, 'out', 'run', '0')));
    expect((await stat(join(root, 'out-real', 'run', '0'))).isDirectory()).toBe(true);
    // already there: nothing to make, and still checked
    await confineFiles([root], () => makeJobFolder(join(root, 'out', 'run', '0')));
    await writeFile(join(root, 'plain'), '');
    await expect(confineFiles([root], () => makeJobFolder(join(root, 'plain')))).rejects.toThrow(`${join(root, 'plain')} is not a folder`);
    // a root not made yet (a --map share): the folders on the way to it are made too, none beside it
    const share = join(dir, 'share', 'out');
    await confineFiles([share], () => makeJobFolder(join(share, 'run')));
    expect((await stat(join(share, 'run'))).isDirectory()).toBe(true);
    await expect(confineFiles([share], () => makeJobFolder(join(dir, 'share', 'other', 'run')))).rejects.toThrow(`${join(dir, 'share', 'other')} is outside the folders`);
    expect(await readdir(join(dir, 'share'))).toEqual(['out']);
  });

  it('outside a job nothing is checked: a local run reads through the same links', async () => {
    const { root, outside, swap } = await setUp();
    await swap('latency-link.txt');
    expect(readJobFile(join(root, 'latency-link.txt'))).toBe('5\n');
    await expect(confineFiles([root], async () => readJobFile(join(root, 'latency-link.txt')))).rejects.toThrow(refusal(root, 'latency-link.txt', join(outside, 'latency.txt')));
    await swap('data-link.jsonl.gz');
    expect((await readEvents(openReader('rexbot', join(root, 'data-link.jsonl.gz')))).summary.events).toBeGreaterThan(0);
    await expect(confineFiles([root], () => readEvents(openReader('rexbot', join(root, 'data-link.jsonl.gz'))))).rejects.toThrow(
      refusal(root, 'data-link.jsonl.gz', join(outside, 'data.jsonl.gz')),
    );
  });
});
