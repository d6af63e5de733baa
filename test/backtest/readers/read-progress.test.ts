/**
 * Every reader tells how much of its file it has read (bytes on disk, compressed ones for gzip): nothing before
 * it starts, never less than before, the whole file at the end. A backtest with no end time shows its progress
 * from it, and a run over a large file sees it climb between batches.
 */
import { statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openReader, type MarketDataReader } from '../../../backtest/readers/index.js';
import { recordingLine } from '../../bench/backtest/write-recording.js';
import { syntheticEvents } from '../synthetic-events.js';
import { tempFiles } from './read-helpers.js';

const DIR = 'test/fixtures/backtest-readers';
const CANDLES = { market: 'VET-USDT', interval: 'MINUTE_1' };

/** The reader's progress after each batch, and at the end. */
async function follow(reader: MarketDataReader): Promise<Array<{ read: number; total: number } | undefined>> {
  const seen = [reader.progress?.()];
  for await (const _ of reader.batches()) seen.push(reader.progress?.());
  seen.push(reader.progress?.());
  return seen;
}

function expectWholeFile(seen: Array<{ read: number; total: number } | undefined>, path: string): void {
  const size = statSync(path).size;
  expect(seen[0]).toBeUndefined();
  const known = seen.filter((p) => p !== undefined);
  for (let i = 1; i < known.length; i++) expect(known[i]!.read).toBeGreaterThanOrEqual(known[i - 1]!.read);
  for (const p of known) expect(p).toMatchObject({ total: size });
  expect(seen.at(-1)).toEqual({ read: size, total: size });
}

describe('how much of its file a reader has read', () => {
  const tmp = tempFiles();
  afterEach(() => tmp.cleanup());

  it.each([
    ['rexbot', 'backtest/data/synthetic-btc-usd.jsonl.gz', {}],
    ['rexbot', 'backtest/data/bittrex-v3-2021-06-14.jsonl.gz', {}],
    ['bittrex-v3-ws', 'test/fixtures/v3-capture/BITTREX.ws.1.0', {}],
    ['tardis', `${DIR}/bittrex_incremental_book_L2_2021-06-14_BTC-EUR.csv.gz`, {}],
    ['tardis', `${DIR}/bittrex_trades_2021-04-05.csv.gz`, {}],
    ['candles-csv', `${DIR}/VET-USDT_MINUTE_1.csv`, { params: CANDLES }],
    ['candles-csv', `${DIR}/VET-USDT_MINUTE_1.desc.csv`, { params: CANDLES }],
    ['candles-json', `${DIR}/VET-USDT_MINUTE_1.v3.json`, { params: CANDLES }],
    ['bittrex-v1-ws', 'test/fixtures/v1-capture/BITTREX.ws.21.0', {}],
  ] as const)('%s reads all of %s, counted as it goes', async (format, path, opts) => {
    expectWholeFile(await follow(openReader(format, path, opts)), path);
  });

  it('climbs through a file of many reads, plain and gzipped', async () => {
    let text = `${JSON.stringify({ format: 'rexbot-recording', version: 1, startedAt: 0, channels: [], source: { hub: 'x', rest: 'x', transport: 'classic' } })}\n`;
    const seq = { n: 0 };
    for (const e of syntheticEvents({ seed: 3, count: 30_000, start: Date.parse('2024-01-01T00:00:00Z') })) text += `${recordingLine(e, seq)}\n`;
    for (const name of ['big.jsonl', 'big.jsonl.gz']) {
      const path = tmp.write(name, text);
      const seen = await follow(openReader('rexbot', path));
      expectWholeFile(seen, path);
      // Read in 1 MB pieces: some batch was handed out with part of the file still unread.
      if (name === 'big.jsonl') expect(seen.some((p) => p !== undefined && p.read > 0 && p.read < p.total)).toBe(true);
    }
  });
});
