/**
 * The reader registry: every data format the backtest reads, by the name a config's `venue.data[].format` uses.
 * Adding a format is one line here (the legacy v1.1 capture reader registers `bittrex-v1-ws` the same way).
 * See FORMATS.md beside this file for what each format looks like.
 */
import { openBittrexV1Capture } from './bittrex-v1-ws.js';
import { openBittrexV3Capture } from './bittrex-v3-ws.js';
import { openCandlesCsv } from './candles-csv.js';
import { openCandlesJson } from './candles-json.js';
import type { MarketDataReader, ReaderFactory, ReaderOpenOptions } from './reader.js';
import { openRexbotRecording } from './rexbot.js';
import { openTardisCsv } from './tardis.js';

export type * from './reader.js';
export { ReplayFormatError } from '../../src/sim/driver/replay-error.js';
export { UnreadableFileError } from './line-reader.js';

/** Reader factories by format name. */
export const readerFactories: Readonly<Record<string, ReaderFactory>> = {
  rexbot: openRexbotRecording,
  'bittrex-v3-ws': openBittrexV3Capture,
  'bittrex-v1-ws': openBittrexV1Capture,
  tardis: openTardisCsv,
  'candles-csv': openCandlesCsv,
  'candles-json': openCandlesJson,
};

/** The known format names, sorted (for error messages and `--help`). */
export function readerFormats(): string[] {
  return Object.keys(readerFactories).sort();
}

/**
 * Open a reader of `format` for the file at `path`. Throws a RangeError naming the known formats for an unknown one.
 * Nothing is read until the reader's `batches()` is iterated.
 *
 * @example
 * const reader = openReader('bittrex-v3-ws', 'data/BITTREX.ws.1.0', { markets: ['BTC-EUR'], onBadLine: 'skip' });
 */
export function openReader(format: string, path: string, opts: ReaderOpenOptions = {}): MarketDataReader {
  const factory = Object.hasOwn(readerFactories, format) ? readerFactories[format] : undefined;
  if (!factory) throw new RangeError(`unknown data format "${format}"; known: ${readerFormats().join(', ')}`);
  return factory(path, opts);
}

/**
 * Read a whole file with a reader and return how many events it produced (the read-and-parse baseline the
 * backtest bench compares its pipeline against).
 *
 * @example
 * await readAll('tardis', 'book.csv.gz'); // 1000000
 */
export async function readAll(format: string, path: string, opts: ReaderOpenOptions = {}): Promise<number> {
  const reader = openReader(format, path, opts);
  let n = 0;
  for await (const batch of reader.batches()) n += batch.length;
  return n;
}
