/**
 * Reading a journal (journal.ts, `rexbot report`): records, the good length, and which problems are tolerated — a
 * torn last line (a write cut by a crash) is; any other bad line is a {@link JournalCorruptError} naming file and
 * line. A file is read as a stream of lines (journal-lines.ts), a record at a time, never as one string: a
 * journal can outgrow the longest string V8 can make.
 */
import { RexbotError } from '../core/errors.js';
import { type JournalLineSink, type JournalReadOptions, readJournalLines, readJournalLinesAsync } from './journal-lines.js';
import { decodeRecord, type JournalRecord } from './journal-records.js';

export type { JournalReadOptions } from './journal-lines.js';

/** A journal line that is neither a valid record nor a torn last line. */
export class JournalCorruptError extends RexbotError {
  readonly file: string;
  readonly line: number;
  constructor(file: string, line: number, problem: string) {
    super('JOURNAL_CORRUPT', `${file}:${line}: ${problem}`);
    this.file = file;
    this.line = line;
  }
}

/**
 * A journal read: its records in file order, how many leading bytes are good (a torn last line is after them),
 * whether they end with a newline, and the problems tolerated.
 */
export interface ParsedJournal {
  records: JournalRecord[];
  goodBytes: number;
  terminated: boolean;
  warnings: string[];
}

/** Turns lines into records: the one place that decides what a line means (whichever way it was read). */
class RecordSink implements JournalLineSink {
  readonly records: JournalRecord[] = [];
  readonly warnings: string[] = [];
  /** The unterminated last line was not a record: it is cut off. */
  torn = false;
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  line(text: string, lineNo: number, last: boolean): void {
    // A record starts with '{'; only other lines need the blank test (trim: what counted as blank before).
    if (text.charCodeAt(0) !== 0x7b && text.trim() === '') return;
    let record: JournalRecord;
    try {
      record = decodeRecord(JSON.parse(text));
    } catch (e) {
      if (last) {
        this.#tornTail(lineNo, Buffer.byteLength(text));
        return;
      }
      throw new JournalCorruptError(this.#file, lineNo, (e as Error).message);
    }
    this.records.push(record);
  }

  tooLong(lineNo: number, last: boolean, bytes: number, limit: number): void {
    // Cut off like any torn tail (as when the file was read whole): garbage left by a crash can be long.
    if (last) this.#tornTail(lineNo, bytes);
    else throw new JournalCorruptError(this.#file, lineNo, `a line of ${bytes} bytes, longer than any record can be (at most ${limit})`);
  }

  /** The result, for a file of `bytes` bytes of which `completeBytes` come before its unterminated last line. */
  result(bytes: number, completeBytes: number): ParsedJournal {
    // A complete last record without its newline is kept; `terminated` tells open() to add the newline.
    const terminated = this.torn || completeBytes === bytes;
    return { records: this.records, goodBytes: this.torn ? completeBytes : bytes, terminated, warnings: this.warnings };
  }

  #tornTail(lineNo: number, bytes: number): void {
    // Records are written as `json\n` in one write, so an unterminated last line is a write cut by a crash.
    this.warnings.push(`${this.#file}:${lineNo}: ignoring a torn last line (${bytes} bytes, partial write from a crash)`);
    this.torn = true;
  }
}

/**
 * Parse a journal's text (`file` names it in errors). Throws {@link JournalCorruptError} for a bad line that is not
 * the last one. For a file, {@link readJournal} reads it without making it one string.
 */
export function parseJournal(file: string, text: string): ParsedJournal {
  const sink = new RecordSink(file);
  let offset = 0;
  let lineNo = 0;
  while (offset < text.length) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) {
      sink.line(text.slice(offset), ++lineNo, true);
      break;
    }
    sink.line(text.slice(offset, nl), ++lineNo, false);
    offset = nl + 1;
  }
  // `offset` is where an unterminated last line starts, or the end.
  const bytes = Buffer.byteLength(text);
  return sink.result(bytes, offset === text.length ? bytes : Buffer.byteLength(text.slice(0, offset)));
}

/**
 * Read the journal file at `path` (as {@link parseJournal} its text, a line at a time) — plus the file's size in
 * bytes. Throws the fs error for a file that cannot be read (ENOENT when missing), {@link JournalCorruptError} for a
 * bad line that is not the last one.
 *
 * @example
 * const { records, warnings } = readJournal('var/mm-1.journal');
 */
export function readJournal(path: string, options: JournalReadOptions = {}): ParsedJournal & { bytes: number } {
  const sink = new RecordSink(path);
  const { bytes, completeBytes } = readJournalLines(path, sink, options);
  return { ...sink.result(bytes, completeBytes), bytes };
}

/** {@link readJournal} without blocking the event loop while reading. */
export async function readJournalAsync(path: string, options: JournalReadOptions = {}): Promise<ParsedJournal & { bytes: number }> {
  const sink = new RecordSink(path);
  const { bytes, completeBytes } = await readJournalLinesAsync(path, sink, options);
  return { ...sink.result(bytes, completeBytes), bytes };
}
