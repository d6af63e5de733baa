/**
 * Reader of candle JSON files (format name `candles-json`): one market and interval per file, for bar-level
 * backtests. Streams the array element by element (json-array.ts), so the file may be of any size.
 *
 * **Format**: a JSON array of candles, oldest first, or an object holding that array (its first array value, as in
 * the v1.1 envelope `{"success":true,"message":"","result":[...]}`). Each candle is either
 *
 * - the v3 Candle resource (`GET /v3/markets/{m}/candles/{interval}/historical/...`):
 *   `{"startsAt":"2021-04-05T17:14:00Z","open":"0.1025","high":…,"low":…,"close":…,"volume":…,"quoteVolume":…}`
 *   (decimals as strings, or numbers), or
 * - the v1.1/v2 candle (`GetTicks`): `{"O":0.1025,"H":…,"L":…,"C":…,"V":18341.5,"T":"2021-04-05T17:14:00","BV":1881.6}`
 *   where `T` is the start in UTC (no zone written), `V` the volume in the market's base currency (v3 `volume`) and
 *   `BV` the volume in its quote currency (v1.1 called the quote currency "base"; v3 `quoteVolume`).
 *
 * Numbers are read through their shortest decimal form, so `0.10258666` stays exactly that.
 *
 * **Events**: one `candle` per element, a closed candle stamped `at` = `startsAt` + interval (a strategy never sees
 * a bar before its end). The fill rules of bars are the fill model's.
 *
 * **Errors**: a file that is not an array (or an object holding one) fails. An element that is not JSON, is neither
 * candle shape, has a bad time or decimal, starts off the interval's grid or not after the previous candle (the array
 * must be oldest first), or is not a consistent candle is a {@link ReplayFormatError} `file:line` (the line the
 * element starts on), failed or skipped per `onBadLine`. A file cut off mid-file (its writer killed: a gzip stream
 * without its end, or text that stops inside the array) is read as every reader reads one: under `skip` every
 * candle complete before the cut, the cut reported once (`file:line`, the last complete element and the torn one),
 * under `fail` an error saying where (json-array.ts's ArrayCutOffError).
 *
 * **Params**: `market` and `interval` (`MINUTE_1`, `MINUTE_5`, `HOUR_1`, `DAY_1`) required.
 */
import { type Decimal, ZERO } from '../../src/core/decimal.js';
import { type LineRef, ReplayFormatError } from '../../src/sim/driver/replay-error.js';
import { type CandleValues, CandleSequence, candleSeries } from './candles-common.js';
import { decimalField, timeField } from './csv.js';
import { readJsonArray } from './json-array.js';
import { type LineParser, type ParseSink, lineReader } from './line-reader.js';
import { ReaderParams } from './params.js';
import type { MarketDataReader, ReaderFactory, ReaderOpenOptions } from './reader.js';

/**
 * Open a candle JSON file.
 *
 * @example
 * openCandlesJson('btc-usd-1h.json', { params: { market: 'BTC-USD', interval: 'HOUR_1' } });
 */
export const openCandlesJson: ReaderFactory = (path: string, opts: ReaderOpenOptions): MarketDataReader => {
  const series = candleSeries(new ReaderParams('candles-json', opts.params, ['market', 'interval']));
  return lineReader(path, opts, () => new CandleJsonParser(new CandleSequence(series)), path, readJsonArray);
};

class CandleJsonParser implements LineParser {
  readonly #seq: CandleSequence;

  constructor(seq: CandleSequence) {
    this.#seq = seq;
  }

  line(text: string, ref: LineRef, out: ParseSink): void {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (err) {
      throw new ReplayFormatError(ref, `candle is not JSON: ${(err as Error).message}`, { withoutText: 'candle is not JSON' });
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ReplayFormatError(ref, `candle is not a JSON object: ${text.slice(0, 80)}`, { withoutText: 'candle is not a JSON object' });
    out.event(this.#seq.event(candleValues(v as Record<string, unknown>, ref), ref));
  }
}

/** The values of a v3 or v1.1 candle object. */
function candleValues(o: Record<string, unknown>, ref: LineRef): CandleValues {
  if ('startsAt' in o) {
    return {
      startsAt: time(o, 'startsAt', ref),
      open: num(o, 'open', ref), high: num(o, 'high', ref), low: num(o, 'low', ref), close: num(o, 'close', ref),
      volume: 'volume' in o ? num(o, 'volume', ref) : ZERO,
      quoteVolume: 'quoteVolume' in o ? num(o, 'quoteVolume', ref) : ZERO,
    };
  }
  if ('T' in o) {
    return {
      startsAt: time(o, 'T', ref),
      open: num(o, 'O', ref), high: num(o, 'H', ref), low: num(o, 'L', ref), close: num(o, 'C', ref),
      volume: 'V' in o ? num(o, 'V', ref) : ZERO,
      quoteVolume: 'BV' in o ? num(o, 'BV', ref) : ZERO,
    };
  }
  throw new ReplayFormatError(ref, 'is neither a v3 candle (startsAt, open, ...) nor a v1.1 candle (T, O, H, L, C, V, BV)');
}

/** A decimal given as a string or a number (read through its shortest decimal form). */
function num(o: Record<string, unknown>, key: string, ref: LineRef): Decimal {
  const v = o[key];
  return decimalField(typeof v === 'number' ? String(v) : (v as string | undefined), key, ref);
}

/** A time: ISO 8601 or an epoch number (unit told by magnitude). */
function time(o: Record<string, unknown>, key: string, ref: LineRef): number {
  const v = o[key];
  return timeField(typeof v === 'number' || typeof v === 'string' ? String(v) : undefined, key, ref);
}
