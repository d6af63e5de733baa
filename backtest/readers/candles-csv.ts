/**
 * Reader of candle CSV files (format name `candles-csv`): one market and interval per file, for bar-level
 * backtests.
 *
 * **Format**: one candle per row, `,`-separated (param `delimiter`), double quotes allowed, a header line naming
 * the columns (or none: param `header: false`). Which column holds what is found from the header by the usual
 * names, or given by param `columns`, a map from candle field to column name (with a header) or 0-based index:
 *
 *     field        header names recognized (case-insensitive)                    without header
 *     startsAt     startsAt, starts_at, time, timestamp, ts, t, date, datetime, open_time   0
 *     open/high/low/close   open, o / high, h / low, l / close, c                1 / 2 / 3 / 4
 *     volume       volume, vol, v, base_volume (optional: 0 when absent)          5
 *     quoteVolume  quoteVolume, quote_volume, quote_asset_volume, bv (optional: 0)   —
 *
 *     time,open,high,low,close,volume,quote_volume
 *     2021-04-05T17:14:00.000Z,0.10258666,0.10258666,0.10258666,0.10258666,18341.56943758,1881.60034776
 *
 * `startsAt` is the candle's start: ISO 8601 (UTC when no zone is written) or an epoch number in the unit of param
 * `timeUnit` (`s`, `ms`, `us`, `ns`; `auto` by default tells it by magnitude). Prices and volumes are decimals.
 *
 * **Order**: oldest first or newest first; param `order` (`auto` by default, else `ascending` / `descending`).
 * `auto` compares the first two rows. A newest-first file is read backwards from its end in 256 KB chunks, so
 * its candles still come out oldest first in constant memory whatever its size, with their real line numbers. A
 * gzipped file cannot be read backwards: a newest-first `.gz` file must be gunzipped first (the reader says so).
 *
 * **Events**: one `candle` per row, with `final` absent (a closed candle) and stamped `at` = `startsAt` +
 * interval: a bar is known only once it has closed, so a strategy never sees a bar before its end. How a bar
 * fills orders (intrabar path, touch or trade-through) is the fill model's, not the reader's.
 *
 * **Errors**: a column named in `columns` (or a required one) missing from the header fails the file. A row with
 * too few fields, a bad time or decimal, a start off the interval's grid, a start not after the previous row's,
 * a price of 0 or below, a negative volume, `low > high` or open/close outside [low, high] (the venue's rule,
 * candles-common.ts) is a {@link ReplayFormatError} `file:line` naming the field, failed or skipped per `onBadLine`.
 *
 * **Params**: `market` and `interval` (`MINUTE_1`, `MINUTE_5`, `HOUR_1`, `DAY_1`) required; `columns`, `header`,
 * `delimiter`, `timeUnit`, `order`.
 */
import { ZERO } from '../../src/core/decimal.js';
import { type LineRef, ReplayFormatError } from '../../src/sim/driver/replay-error.js';
import { CandleSequence, candleSeries } from './candles-common.js';
import { type TimeUnit, decimalField, splitCsvLine, timeField } from './csv.js';
import { type LineParser, type ParseSink, UnreadableFileError, lineReader } from './line-reader.js';
import { type NumberedLine, type ReadMeter, isGzipFile, readLineChunks } from './line-source.js';
import { ReaderParams } from './params.js';
import type { MarketDataReader, ReaderFactory, ReaderOpenOptions } from './reader.js';
import { readLinesBackwards } from './reverse-lines.js';

const FIELDS = ['startsAt', 'open', 'high', 'low', 'close', 'volume', 'quoteVolume'] as const;
type Field = (typeof FIELDS)[number];
const REQUIRED: readonly Field[] = ['startsAt', 'open', 'high', 'low', 'close'];
const ALIASES: Record<Field, string[]> = {
  startsAt: ['startsat', 'starts_at', 'time', 'timestamp', 'ts', 't', 'date', 'datetime', 'open_time', 'opentime'],
  open: ['open', 'o'],
  high: ['high', 'h'],
  low: ['low', 'l'],
  close: ['close', 'c'],
  volume: ['volume', 'vol', 'v', 'base_volume'],
  quoteVolume: ['quotevolume', 'quote_volume', 'quote_asset_volume', 'bv', 'volume_quote'],
};
const POSITIONAL: Partial<Record<Field, number>> = { startsAt: 0, open: 1, high: 2, low: 3, close: 4, volume: 5 };

interface CsvSettings {
  header: boolean;
  columns: Partial<Record<Field, string | number>> | undefined;
  delimiter: string;
  timeUnit: TimeUnit;
  order: 'auto' | 'ascending' | 'descending';
}

/**
 * Open a candle CSV file.
 *
 * @example
 * openCandlesCsv('btc-usd-1m.csv', { params: { market: 'BTC-USD', interval: 'MINUTE_1' } });
 */
export const openCandlesCsv: ReaderFactory = (path: string, opts: ReaderOpenOptions): MarketDataReader => {
  const p = new ReaderParams('candles-csv', opts.params, ['market', 'interval', 'columns', 'header', 'delimiter', 'timeUnit', 'order']);
  const series = candleSeries(p);
  const settings: CsvSettings = {
    header: p.boolean('header', true),
    columns: readColumns(p),
    delimiter: p.string('delimiter') ?? ',',
    timeUnit: p.oneOf('timeUnit', ['auto', 's', 'ms', 'us', 'ns'], 'auto'),
    order: p.oneOf('order', ['auto', 'ascending', 'descending'], 'auto'),
  };
  const makeParser = (): LineParser => new CandleCsvParser(settings, new CandleSequence(series));
  return lineReader(path, opts, makeParser, path, (file, name, meter) => orderedLines(file, name, settings, meter));
};

function readColumns(p: ReaderParams): CsvSettings['columns'] {
  const raw = p.raw('columns');
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) p.fail('columns', 'must map candle fields to column names or indices');
  for (const [k, v] of Object.entries(raw)) {
    if (!(FIELDS as readonly string[]).includes(k)) p.fail('columns', `names unknown field "${k}" (fields: ${FIELDS.join(', ')})`);
    if (!(typeof v === 'string' && v.length > 0) && !(typeof v === 'number' && Number.isSafeInteger(v) && v >= 0)) {
      p.fail('columns', `.${k} must be a column name or a 0-based index`);
    }
  }
  return raw as CsvSettings['columns'];
}

/** Column index of each field, from the header (or none) and the `columns` param. */
function resolveColumns(settings: CsvSettings, headerNames: string[] | undefined, ref: LineRef): Partial<Record<Field, number>> {
  const out: Partial<Record<Field, number>> = {};
  const names = headerNames?.map((n) => n.trim().toLowerCase());
  for (const field of FIELDS) {
    const given = settings.columns?.[field];
    let index: number | undefined;
    if (typeof given === 'number') index = given;
    else if (typeof given === 'string') {
      index = names?.indexOf(given.trim().toLowerCase());
      if (index === undefined || index < 0) throw new UnreadableFileError(ref, `has no column "${given}" (params.columns.${field})`);
    } else if (settings.columns === undefined) {
      if (names) {
        const i = names.findIndex((n) => ALIASES[field].includes(n));
        index = i >= 0 ? i : undefined;
      } else index = POSITIONAL[field];
    }
    if (index !== undefined) out[field] = index;
    else if (REQUIRED.includes(field)) {
      if (!names) throw new UnreadableFileError(ref, `params.columns must give ${field}`);
      throw new UnreadableFileError(ref, `has no ${field} column (header: ${names.join(',')}); name it in params.columns`, { withoutText: `has no ${field} column; name it in params.columns` });
    }
  }
  return out;
}

/**
 * The lines oldest row first: the file as is, or — when it is newest first — its header line and then its rows
 * read backwards from the end. The order is told from the first two rows (unless `order` says it).
 */
async function* orderedLines(path: string, file: string, settings: CsvSettings, meter: ReadMeter): AsyncGenerator<NumberedLine[], void, undefined> {
  let descending = settings.order === 'descending';
  let header: NumberedLine | undefined;
  if (settings.order === 'auto') {
    const rows: NumberedLine[] = [];
    scan: for await (const chunk of readLineChunks(path, file)) {
      for (const l of chunk) {
        if (l.text.length === 0) continue;
        if (settings.header && !header) header = l;
        else rows.push(l);
        if (rows.length === 2) break scan;
      }
    }
    if (rows.length === 2) {
      try {
        const cols = resolveColumns(settings, header ? splitCsvLine(header.text, settings.delimiter) : undefined, { file, line: header?.line ?? 1 });
        const time = (l: NumberedLine) => timeField(splitCsvLine(l.text, settings.delimiter)[cols.startsAt!], 'startsAt', { file, line: l.line }, settings.timeUnit);
        descending = time(rows[1]!) < time(rows[0]!);
      } catch {
        // Unreadable rows or header: read forwards and let the parser report them where they are.
      }
    }
  }
  if (!descending) {
    yield* readLineChunks(path, file, undefined, meter);
    return;
  }
  if (await isGzipFile(path, file)) {
    throw new UnreadableFileError({ file, line: 2 }, 'rows are newest first and the file is gzipped, which cannot be read backwards: gunzip it first');
  }
  if (settings.header) {
    for await (const chunk of readLineChunks(path, file)) {
      header = chunk.find((l) => l.text.length > 0);
      if (header) break;
    }
    if (header) yield [header];
  }
  yield* readLinesBackwards(path, file, (header?.line ?? 0) + 1, meter);
}

class CandleCsvParser implements LineParser {
  readonly #s: CsvSettings;
  readonly #seq: CandleSequence;
  #cols: Partial<Record<Field, number>> | undefined;
  #width = 0;

  constructor(settings: CsvSettings, seq: CandleSequence) {
    this.#s = settings;
    this.#seq = seq;
  }

  line(text: string, ref: LineRef, out: ParseSink): void {
    if (!this.#cols) {
      const names = this.#s.header ? splitCsvLine(text, this.#s.delimiter, ref) : undefined;
      this.#cols = resolveColumns(this.#s, names, ref);
      this.#width = Math.max(...Object.values(this.#cols)) + 1;
      if (names) return;
    }
    const f = splitCsvLine(text, this.#s.delimiter, ref);
    if (f.length < this.#width) throw new ReplayFormatError(ref, `has ${f.length} fields, needs at least ${this.#width}`);
    const c = this.#cols;
    const opt = (field: Field) => (c[field] === undefined || f[c[field]!]!.trim() === '' ? ZERO : decimalField(f[c[field]!], field, ref));
    const values = {
      startsAt: timeField(f[c.startsAt!], 'startsAt', ref, this.#s.timeUnit),
      open: decimalField(f[c.open!], 'open', ref),
      high: decimalField(f[c.high!], 'high', ref),
      low: decimalField(f[c.low!], 'low', ref),
      close: decimalField(f[c.close!], 'close', ref),
      volume: opt('volume'),
      quoteVolume: opt('quoteVolume'),
    };
    out.event(this.#seq.event(values, ref));
  }
}
