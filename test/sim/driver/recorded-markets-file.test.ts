/**
 * What may be read as a recorded-markets file (`exchange.recordedMarkets.file`): a regular file of at most
 * MAX_RECORDED_MARKETS_BYTES, as a config is. It was read whole with readFileSync: a FIFO held the process for good
 * wherever the config check had not refused it first (engineConfigOf, marketsFromRecordedList called directly), and
 * a huge file was read into memory. Both are now an error naming the file (and the field, where a config named it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RECORDED_MARKETS_BYTES, marketsFromRecordedList } from '../../../src/sim/driver/recorded-markets.js';
import { parseSimConfig } from '../../../src/runtime/sim-config.js';
import { repoPath } from '../../helpers/shared.js';

const MARKETS = 'https://api.bittrex.com/v3/markets -> 1705320000.5: [{"symbol":"BTC-EUR","baseCurrencySymbol":"BTC","quoteCurrencySymbol":"EUR","minTradeSize":"0.0001","precision":3,"status":"ONLINE","createdAt":"2015-01-01T00:00:00Z"}]\n';
const simYaml = (file: string) => `exchange:\n  recordedMarkets: { file: ${JSON.stringify(file)}, symbols: [BTC-EUR] }\n`;

describe('a recorded-markets file', () => {
  let dir: string | undefined;
  const tmp = () => (dir ??= mkdtempSync(join(tmpdir(), 'rexbot-recorded-markets-')));
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('a FIFO is refused at once, naming it (and the config field), instead of waiting for a writer forever', () => {
    const fifo = join(tmp(), 'markets.fifo');
    const ok = join(tmp(), 'markets.txt');
    writeFileSync(ok, MARKETS);
    // In a child process, killed on a timer: the blocking read this replaced could not be interrupted in this one.
    // engineConfigOf is given a config checked while its file was a regular one, which is a FIFO by the time it is read.
    const script = `import { marketsFromRecordedList } from ${JSON.stringify(repoPath('src/sim/driver/recorded-markets.ts'))};
      import { engineConfigOf, parseSimConfig } from ${JSON.stringify(repoPath('src/runtime/sim-config.ts'))};
      import { execFileSync } from 'node:child_process';
      import { rmSync } from 'node:fs';
      const [fifo, ok, yaml] = process.argv.slice(1);
      const cfg = parseSimConfig(yaml, 'sim.yaml', '/');
      rmSync(ok);
      execFileSync('mkfifo', [ok]);
      for (const f of [() => marketsFromRecordedList(fifo), () => engineConfigOf(cfg)]) {
        try { f(); process.stdout.write('read\\n'); } catch (e) { process.stdout.write(e.message + '\\n'); }
      }`;
    execFileSync('mkfifo', [fifo]);
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, fifo, ok, simYaml(ok)], { cwd: repoPath(), encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
    expect(r.signal).toBeNull();
    expect(r.stdout).toBe(
      `${fifo}: cannot read file: it is a FIFO (named pipe), not a file\n` +
        `exchange.recordedMarkets.file: ${ok}: cannot read file: it is a FIFO (named pipe), not a file\n`,
    );
  });

  it('a file far larger than any markets list is refused without reading it, naming it; a normal one is read', () => {
    const big = join(tmp(), 'big.txt');
    writeFileSync(big, MARKETS);
    truncateSync(big, MAX_RECORDED_MARKETS_BYTES + 1); // sparse: what follows line 1 is NUL bytes
    const why = `cannot read file: it is ${MAX_RECORDED_MARKETS_BYTES + 1} bytes; a recorded-markets file is at most ${MAX_RECORDED_MARKETS_BYTES} (is it the right file?)`;
    expect(() => marketsFromRecordedList(big)).toThrow(`${big}: ${why}`);
    expect(() => parseSimConfig(simYaml(big), 'sim.yaml', '/')).toThrow(`sim.yaml:2:28 exchange.recordedMarkets.file: ${big}: ${why}`);

    const ok = join(tmp(), 'ok.txt');
    writeFileSync(ok, MARKETS);
    expect(marketsFromRecordedList(ok).markets.map((m) => m.symbol)).toEqual(['BTC-EUR']);
    expect(parseSimConfig(simYaml(ok), 'sim.yaml', '/').exchange.recordedMarkets?.file).toBe(ok);
  });
});
