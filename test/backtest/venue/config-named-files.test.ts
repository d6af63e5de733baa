/**
 * The files a backtest config names besides itself — measured latencies (`venue.latency.<which>.path`) and the
 * recorded markets list (`venue.recordedMarkets.file`): a FIFO is refused without waiting for a writer, a file far
 * larger than any real one of its kind without being read whole (there was no cap), and either error starts with
 * the config field and the file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBacktest } from '../../../backtest/run-backtest.js';
import { createLatency, MAX_LATENCY_FILE_BYTES } from '../../../backtest/venue/latency.js';
import { MAX_RECORDED_MARKETS_BYTES } from '../../../src/sim/driver/recorded-markets.js';
import { repoPath } from '../../helpers/shared.js';

const MARKETS = 'https://api.bittrex.com/v3/markets -> 1705320000.5: [{"symbol":"BTC-USD","baseCurrencySymbol":"BTC","quoteCurrencySymbol":"USD","minTradeSize":"0.0001","precision":3,"status":"ONLINE","createdAt":"2015-01-01T00:00:00Z"}]\n';

/** A one-minute backtest config whose recorded markets are `markets`. */
const backtestYaml = (dir: string, markets: string) => `bot: { name: named-files }
venue:
  kind: backtest
  data: [{ format: rexbot, path: ${join(dir, 'data.jsonl.gz')}, markets: [BTC-USD] }]
  recordedMarkets: { file: ${markets}, symbols: [BTC-USD] }
  to: 2024-01-15T12:01:00Z
  balances: { USD: 100000, BTC: 1 }
strategies:
  - { name: mm, use: market-maker, markets: [BTC-USD], params: { spread: 0.0004, levels: 1, levelSpacing: 0.0002, size: 0.002 } }
`;

describe('files a backtest config names', () => {
  let dir: string | undefined;
  const tmp = () => (dir ??= mkdtempSync(join(tmpdir(), 'rexbot-named-files-')));
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const fileLatency = (path: string) => ({ kind: 'file' as const, path, order: 'cycle' as const, seed: 1 });

  it('a latency file that is a FIFO is refused at once, naming the field and the file', () => {
    const fifo = join(tmp(), 'latency.fifo');
    execFileSync('mkfifo', [fifo]);
    // In a child process, killed on a timer: a blocking read could not be interrupted in this one.
    const script = `import { createLatency } from ${JSON.stringify(repoPath('backtest/venue/latency.ts'))};
      try { createLatency({ kind: 'file', path: process.argv[1], order: 'cycle', seed: 1 }, '/', 'orderEntry'); process.stdout.write('read'); }
      catch (e) { process.stdout.write(e.message); }`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, fifo], { cwd: repoPath(), encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
    expect(r.signal).toBeNull();
    expect(r.stdout).toBe(`venue.latency.orderEntry.path: ${fifo}: is a FIFO (named pipe), not a file`);
  });

  it('a latency file far larger than any measurement set is refused without reading it; a normal one is read', () => {
    const big = join(tmp(), 'big.txt');
    writeFileSync(big, '5\n');
    truncateSync(big, MAX_LATENCY_FILE_BYTES + 1); // sparse
    expect(() => createLatency(fileLatency(big), '/', 'cancel')).toThrow(`venue.latency.cancel.path: ${big}: is ${MAX_LATENCY_FILE_BYTES + 1} bytes, more than ${MAX_LATENCY_FILE_BYTES} (is it the right file?)`);
    const ok = join(tmp(), 'ok.txt');
    writeFileSync(ok, '5\n7\n');
    const latency = createLatency(fileLatency(ok), '/', 'cancel');
    expect([latency.next(), latency.next(), latency.next()]).toEqual([5, 7, 5]);
  });

  it('a recorded-markets file that is a FIFO is refused by rexbot backtest, naming the field and the file', () => {
    const d = tmp();
    copyFileSync(repoPath('backtest', 'data', 'synthetic-btc-usd.jsonl.gz'), join(d, 'data.jsonl.gz'));
    const fifo = join(d, 'markets.fifo');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(join(d, 'bt.yaml'), backtestYaml(d, fifo));
    // One process, killed outright on timeout (as config-file.test.ts runs rexbot backtest on a FIFO config).
    const r = spawnSync(process.execPath, [repoPath('src/cli/bin.mjs'), 'backtest', join(d, 'bt.yaml'), '--out', join(d, 'out')], { cwd: repoPath(), encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
    expect(r.signal).toBeNull();
    expect(r.stderr).toContain(`venue.recordedMarkets.file: ${fifo}: is a FIFO (named pipe), not a file`);
    expect(r.status).toBe(1);
  });

  it('a recorded-markets file far larger than any markets list is refused without reading it; a normal one is read', { timeout: 60_000 }, async () => {
    const d = tmp();
    copyFileSync(repoPath('backtest', 'data', 'synthetic-btc-usd.jsonl.gz'), join(d, 'data.jsonl.gz'));
    const big = join(d, 'big.txt');
    writeFileSync(big, MARKETS);
    truncateSync(big, MAX_RECORDED_MARKETS_BYTES + 1); // sparse: line 1 is a valid list
    writeFileSync(join(d, 'big.yaml'), backtestYaml(d, big));
    await expect(runBacktest({ configPath: join(d, 'big.yaml') })).rejects.toThrow(
      `venue.recordedMarkets.file: ${big}: is ${MAX_RECORDED_MARKETS_BYTES + 1} bytes, more than ${MAX_RECORDED_MARKETS_BYTES} (is it the right file?)`,
    );
    const ok = join(d, 'ok.txt');
    writeFileSync(ok, MARKETS);
    writeFileSync(join(d, 'ok.yaml'), backtestYaml(d, ok));
    await expect(runBacktest({ configPath: join(d, 'ok.yaml') })).resolves.toMatchObject({ stats: { events: expect.any(Number) } });
  });
});
