/**
 * A queued job's files are checked where they are opened, not only before: a symbolic link inside the worker's root
 * swapped to a file outside between the check and the open is refused, and nothing outside is read or written. The
 * swap is made at a fixed point of the real run (right after the config's files were checked, or after the
 * worker's own check of the config and output folder), never by timing.
 */
import { copyFile, mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openReader } from '../../../backtest/readers/index.js';
import { runBacktest } from '../../../backtest/run-backtest.js';
import { assertJobPaths } from '../../../backtest/sweep/allowed-roots.js';
import { confineFiles, readJobFile } from '../../../backtest/sweep/confined-files.js';
import { runSweepJob, type SweepJob } from '../../../backtest/sweep/sweep-job.js';
import { repoPath } from '../../helpers/shared.js';
import { readEvents } from '../readers/read-helpers.js';

/** What runs right after runBacktest has checked the config's files (data, latency, recorded markets). */
const hook = vi.hoisted(() => ({ afterCheck: undefined as (() => Promise<void>) | undefined }));
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
    const tmp = `report.json.${process.pid}.tmp`;
    expect(result).toMatchObject({ ok: false, error: `could not write ${join(root, 'out', 'report.json')}: ${refusal(root, join('out', tmp), join(outside, 'out', tmp))}` });
    expect(await readdir(join(outside, 'out'))).toEqual([]);
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
