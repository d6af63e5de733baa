/**
 * The recorded-data reader interface: the one seam between data formats and the backtest (and the simulator's
 * replay driver). Every reader turns one file of its format into a stream of {@link MarketEvent}s in file order,
 * stamped with the time they happened (`at`, epoch ms) and the line they came from, without ever holding the
 * whole file: events arrive in batches through an async iterator, so a multi-gigabyte file is read in constant
 * memory. A bad line is a {@link ReplayFormatError} naming file and line; it is thrown (`onBadLine: 'fail'`, the
 * default) or reported through `onError` and skipped whole (`'skip'`) — never half-applied.
 *
 * Formats plug in by registering a {@link ReaderFactory} under a name (`rexbot`, `bittrex-v3-ws`, `tardis`,
 * `candles-csv`, `candles-json`, and the legacy `bittrex-v1-ws` from the v1.1 work). The backtest merges the
 * streams of several readers by time.
 */
import type { Candle } from '../../src/model/market.js';
import type { CandleInterval } from '../../src/model/enums.js';
import type { LineRef, ReaderOptions, ReplayFormatError } from '../../src/sim/driver/replay-error.js';
import type { ReplayEvent } from '../../src/sim/driver/replay-events.js';

export type { LineRef, ReaderOptions, ReplayFormatError };

/** A closed (or, when `final` is false, still forming) candle of one market and interval. */
export interface ReplayCandle {
  kind: 'candle';
  /** When the candle became known: its end for a closed candle (`startsAt` + interval). */
  at: number;
  marketSymbol: string;
  interval: CandleInterval;
  candle: Candle;
  /**
   * False for a candle still forming (a hub `candle` message: the current candle, sent at its start and on every
   * trade, stamped with its reception time). Absent or true for a closed candle (candle files).
   */
  final?: boolean;
  source: LineRef;
}

/**
 * One recorded market event: a REST book snapshot (with its Sequence), an `orderBook` delta, a `ticker`, a batch
 * of `trade`s, or a candle. Book and trade events use the v3 model whatever format they came from.
 */
export type MarketEvent = ReplayEvent | ReplayCandle;

/** What a reader reports when it has been read to the end. */
export interface ReaderSummary {
  /** Events produced. */
  events: number;
  /** Bad lines skipped (only with `onBadLine: 'skip'`). */
  errors: number;
  /** Well-formed content the backtest has no use for, counted by kind. */
  ignored: Record<string, number>;
}

/** A streaming reader of one recorded file. Iterate it once. */
export interface MarketDataReader {
  /** The file (or label) events are attributed to. */
  readonly source: string;
  /** The events in file order, in batches (a batch never spans a bad line's effects). */
  batches(): AsyncIterable<readonly MarketEvent[]>;
  /** Counts so far; complete once iteration has finished. */
  summary(): ReaderSummary;
  /**
   * Bytes of the file read so far out of its size on disk (compressed bytes for a gzip file); undefined until the
   * size is known. A run with no end time shows its progress from it.
   */
  progress?(): { read: number; total: number } | undefined;
}

/** Options shared by every reader factory; format-specific ones ride in `params`. */
export interface ReaderOpenOptions extends ReaderOptions {
  /** Restrict to these markets (v3 symbols, `BTC-USD`); all by default. */
  markets?: readonly string[] | undefined;
  /** Format-specific settings from the config (column mapping, interval, market symbol for single-market files). */
  params?: Readonly<Record<string, unknown>> | undefined;
}

/** Opens a reader for one file of a format. Must not read the file until iteration starts. */
export type ReaderFactory = (path: string, opts: ReaderOpenOptions) => MarketDataReader;
