/**
 * The loop every line-based reader shares: read the file in chunks of lines, let the format's parser say what
 * each line means, apply the bad-line policy, filter markets, count, and hand out events in batches. A format
 * only writes a {@link LineParser}.
 */
import { type LineRef, ReplayFormatError, handleBadLine } from '../../src/sim/driver/replay-error.js';
import { type NumberedLine, lineEnd, readLineBlocks } from './line-source.js';
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
   * Optional fast path: read the line `text[start, end)` where it lies in the reader's block of text, without a
   * string of its own. True when it was read (events put into `out`); false when it is left to {@link line}, having
   * put nothing into `out` and thrown nothing. What it reads it must read exactly as `line` would.
   */
  lineAt?(text: string, start: number, end: number, ref: LineRef, out: ParseSink): boolean;
  end?(out: ParseSink): void;
}

/** Where the lines come from when not the file in order: a reader may supply another order (see candles-csv). */
export type LineSource = (path: string, file: string) => AsyncIterable<NumberedLine[]>;

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
    async *batches() {
      if (started) throw new Error(`${file}: a reader is iterated once; open a new one to read again`);
      started = true;
      const parser = makeParser();
      /**
       * Parse the non-empty line `text[start, end)`, applying the bad-line policy: the parser's fast path first, where
       * the line lies (no string per line when it reads it), else the line's own text.
       */
      const parse = (text: string, start: number, end: number, line: number): void => {
        const ref: LineRef = { file, line };
        try {
          if (parser.lineAt === undefined || !parser.lineAt(text, start, end, ref, sink)) {
            parser.line(start === 0 && end === text.length ? text : text.slice(start, end), ref, sink);
          }
        } catch (err) {
          if (err instanceof UnreadableFileError) throw err;
          const error = err instanceof ReplayFormatError ? err : new ReplayFormatError(ref, err instanceof Error ? err.message : String(err), { cause: err });
          handleBadLine(error, opts, collected);
          summary.errors++;
          collected.length = 0; // onError has seen it; keeping them all would grow with a bad file
        }
      };
      // Batches are handed out as soon as full, even mid-block: fewer events alive at once means cheaper
      // young-generation GC (a batch of 4096 held to the chunk's end doubled the reader's GC time).
      if (source) {
        for await (const chunk of source(path, file)) {
          for (const { text, line } of chunk) {
            if (text.length > 0) parse(text, 0, text.length, line);
            if (batch.length >= BATCH_EVENTS) {
              const out = batch;
              batch = [];
              yield out;
            }
          }
        }
      } else {
        // The file in order, read in blocks: no object per line but its ref, and its text only for a parser without
        // `lineAt` or a line that `lineAt` leaves to `line`.
        for await (const { text, first, count, ends } of readLineBlocks(path, file)) {
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
      parser.end?.(sink);
      if (batch.length > 0) {
        const out = batch;
        batch = [];
        yield out;
      }
    },
  };
}
