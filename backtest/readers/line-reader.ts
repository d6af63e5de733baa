/**
 * The loop every line-based reader shares: read the file in chunks of lines, let the format's parser say what
 * each line means, apply the bad-line policy, filter markets, count, and hand out events in batches. A format
 * only writes a {@link LineParser}. Data cut off mid-file ({@link TruncatedDataError}: a gzip file without its end, a
 * JSON array without its close) fails under `fail`; under `skip` everything up to the cut is read, the cut is reported
 * once through `onError`, and a torn last record is counted as a skipped line.
 */
import { type LineRef, TruncatedDataError, ReplayFormatError, asReplayFormatError, handleBadLine } from '../../src/sim/driver/replay-error.js';
import { type NumberedLine, type ReadMeter, byteLineEnd, lineEnd, readByteSpans, readLineBlocks } from './line-source.js';
import type { MarketDataReader, MarketEvent, ReaderOpenOptions, ReaderSummary } from './reader.js';

/** Events per batch, roughly: a batch is handed out once it reaches this size (or the file ends). */
export const BATCH_EVENTS = 256;

/**
 * A file the reader cannot read at all (no header, not this format, columns missing): thrown whatever the
 * bad-line policy, since skipping lines cannot help.
 */
export class UnreadableFileError extends ReplayFormatError {}

/** Where a parser puts what a line means. */
export interface ParseSink {
  event(e: MarketEvent): void;
  /** Well-formed content without use for the backtest, by kind. */
  ignore(kind: string): void;
}

/**
 * What one format makes of its lines. `line` is called for every non-empty line in order; it must check the
 * whole line before it puts anything into `out` (throwing a {@link ReplayFormatError} or any error), so a bad
 * line never leaves some of its events behind. `end` flushes what a parser holds back (e.g. rows grouped by time).
 */
export interface LineParser {
  line(text: string, ref: LineRef, out: ParseSink): void;
  /**
   * Optional fast path: read the line that starts at `start` where it lies in the reader's block of bytes (UTF-8,
   * `view` over the same bytes), without decoding it. The line ends at the first `\n` from `start` on, or at
   * `limit` (the block's end; a `\r` just before the end is not part of the line): the parser finds that end as it
   * reads, so the reader does not scan for it first. Answers the index of that `\n` (or `limit`) when it read the
   * line (events put into `out`); -1 when the line is left to {@link line} (given the line decoded), having put
   * nothing into `out` and thrown nothing. What it reads it must read exactly as `line` would. A parser with it is
   * given the file's lines as bytes.
   */
  bytesAt?(bytes: Buffer, view: DataView, start: number, limit: number, ref: LineRef, out: ParseSink): number;
  end?(out: ParseSink): void;
}

/**
 * Where the lines come from when not the file in order: a reader may supply another order (see candles-csv). It
 * counts what it reads of the file into `meter`.
 */
export type LineSource = (path: string, file: string, meter: ReadMeter) => AsyncIterable<NumberedLine[]>;

/**
 * A {@link MarketDataReader} over the lines of `path`. `makeParser` is called when iteration starts, so a reader
 * can be opened cheaply and a parser keeps its per-file state (header, sequences, groups) to itself.
 *
 * @example
 * const reader = lineReader('x.csv', opts, () => ({ line(text, ref, out) { out.ignore('row'); } }));
 */
export function lineReader(
  path: string,
  opts: ReaderOpenOptions,
  makeParser: () => LineParser,
  file: string = path,
  source?: LineSource,
): MarketDataReader {
  const summary: ReaderSummary = { events: 0, errors: 0, ignored: {} };
  const markets = opts.markets && opts.markets.length > 0 ? new Set(opts.markets.map((m) => m.toUpperCase())) : undefined;
  const collected: ReplayFormatError[] = [];
  const meter: ReadMeter = { read: 0, total: 0 };
  let started = false;
  let batch: MarketEvent[] = [];
  const sink: ParseSink = {
    event(e) {
      if (markets && !markets.has(e.marketSymbol.toUpperCase())) {
        sink.ignore('other-market');
        return;
      }
      batch.push(e);
      summary.events++;
    },
    ignore(kind) {
      summary.ignored[kind] = (summary.ignored[kind] ?? 0) + 1;
    },
  };
  return {
    source: file,
    summary: () => ({ ...summary, ignored: { ...summary.ignored } }),
    progress: () => (meter.total > 0 ? { read: Math.min(meter.read, meter.total), total: meter.total } : undefined),
    async *batches() {
      if (started) throw new Error(`${file}: a reader is iterated once; open a new one to read again`);
      started = true;
      const parser = makeParser();
      /** Apply the bad-line policy to what reading the line at `ref` threw. */
      const fail = (err: unknown, ref: LineRef): void => {
        if (err instanceof UnreadableFileError) throw err;
        const error = asReplayFormatError(err, ref);
        handleBadLine(error, opts, collected);
        summary.errors++;
        collected.length = 0; // onError has seen it; keeping them all would grow with a bad file
      };
      /** Parse the non-empty line `text[start, end)` the general way, applying the bad-line policy. */
      const parse = (text: string, start: number, end: number, line: number): void => {
        const ref: LineRef = { file, line };
        try {
          parser.line(start === 0 && end === text.length ? text : text.slice(start, end), ref, sink);
        } catch (err) {
          fail(err, ref);
        }
      };
      /**
       * Read the line at `start` of `bytes[0, limit)`: the parser's byte path, else (found its end) the line decoded
       * the general way if it is not empty. Answers where the line ends (its `\n`, or `limit`).
       */
      const parseBytes = (bytes: Buffer, view: DataView, start: number, limit: number, line: number): number => {
        const ref: LineRef = { file, line };
        let nl = -1;
        try {
          nl = parser.bytesAt!(bytes, view, start, limit, ref, sink);
          if (nl >= 0) return nl;
          nl = bytes.indexOf(10, start);
          if (nl < 0) nl = limit;
          const end = byteLineEnd(bytes, start, nl);
          if (end > start) parser.line(bytes.toString('utf8', start, end), ref, sink);
        } catch (err) {
          fail(err, ref);
        }
        return nl;
      };
      // Batches are handed out as soon as full, even mid-block: fewer events alive at once means cheaper
      // young-generation GC (a batch of 4096 held to the chunk's end doubled the reader's GC time).
      try {
        if (source) {
          for await (const chunk of source(path, file, meter)) {
            for (const { text, line } of chunk) {
              if (text.length > 0) parse(text, 0, text.length, line);
              if (batch.length >= BATCH_EVENTS) {
                const out = batch;
                batch = [];
                yield out;
              }
            }
          }
        } else if (parser.bytesAt !== undefined) {
          // The file in order, in spans of bytes: no object per line but its ref, no text for the lines the parser's
          // byte path reads, and no scan for their ends (the byte path finds a line's end as it reads it).
          for await (const span of readByteSpans(path, file, undefined, meter)) {
            const { bytes, view, first } = span;
            const limit = bytes.length;
            let start = 0;
            let k = 0;
            while (start < limit) {
              start = parseBytes(bytes, view, start, limit, first + k) + 1;
              k++;
              if (batch.length >= BATCH_EVENTS) {
                const out = batch;
                batch = [];
                yield out;
              }
            }
            span.count = k;
          }
        } else {
          // The file in order, read in blocks of text: no object per line but its ref and its text.
          for await (const { text, first, count, ends } of readLineBlocks(path, file, undefined, meter)) {
            let start = 0;
            for (let k = 0; k < count; k++) {
              const nl = ends[k]!;
              const end = lineEnd(text, start, nl);
              if (end > start) parse(text, start, end, first + k);
              start = nl + 1;
              if (batch.length >= BATCH_EVENTS) {
                const out = batch;
                batch = [];
                yield out;
              }
            }
          }
        }
      } catch (err) {
        // Data cut off mid-file (a writer killed): what came before the cut is as good as any file's.
        if (!(err instanceof TruncatedDataError) || (opts.onBadLine ?? 'fail') === 'fail') throw err;
        opts.onError?.(err.skipped());
        if (err.torn) summary.errors++;
      }
      parser.end?.(sink);
      if (batch.length > 0) {
        const out = batch;
        batch = [];
        yield out;
      }
    },
  };
}
