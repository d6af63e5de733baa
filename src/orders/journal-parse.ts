/**
 * Reading a journal (journal.ts, `rexbot report`): records, the good length, and which problems are tolerated — a
 * torn last line (a write cut by a crash) is; any other bad line is a {@link JournalCorruptError} naming file and
 * line. A file is read as a stream of lines (journal-lines.ts), a record at a time, never as one string: a
 * journal can outgrow the longest string V8 can make. {@link scanJournal} hands each record over as it is read and
 * keeps none (a bot's start folds them straight into its state); {@link readJournal} collects them.
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

/**
 * What reading a journal found, without the records (they went to the reader's callback): how many there were, how
 * many leading bytes are good, whether they end with a newline, the problems tolerated, and the bytes read.
 */
export interface JournalScan {
  records: number;
  goodBytes: number;
  terminated: boolean;
  warnings: string[];
  bytes: number;
}

/**
 * Turns lines into records, each handed to `onRecord` as soon as it is decoded: the one place that decides what a
 * line means (whichever way it was read, or written: compaction reads back each line it writes through it).
 */
export class JournalRecordSink implements JournalLineSink {
  /** Records handed over so far. */
  records = 0;
  readonly warnings: string[] = [];
  /** The unterminated last line was not a record: it is cut off. */
  torn = false;
  /** Lines skipped as cut off by a crash in the middle of a history copy (`history` files only). */
  readonly cut: string[] = [];
  readonly #file: string;
  readonly #onRecord: (record: JournalRecord) => void;
  readonly #history: boolean;

  /**
   * `file` names the file in errors and warnings. `history`: the file is a compaction history (journal-fs.ts's
   * appendHistory), where a copy cut by a crash left a torn line that the next copy closed with a newline — such a
   * line is skipped and said in {@link JournalRecordSink.cut} instead of stopping the read.
   */
  constructor(file: string, onRecord: (record: JournalRecord) => void, history = false) {
    this.#file = file;
    this.#onRecord = onRecord;
    this.#history = history;
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
      if (this.#history) {
        this.#cutCopy(lineNo, Buffer.byteLength(text));
        return;
      }
      throw new JournalCorruptError(this.#file, lineNo, (e as Error).message);
    }
    this.records++;
    this.#onRecord(record);
  }

  tooLong(lineNo: number, last: boolean, bytes: number, limit: number): void {
    // Cut off like any torn tail (as when the file was read whole): garbage left by a crash can be long.
    if (last) this.#tornTail(lineNo, bytes);
    else if (this.#history) this.#cutCopy(lineNo, bytes);
    else throw new JournalCorruptError(this.#file, lineNo, `a line of ${bytes} bytes, longer than any record can be (at most ${limit})`);
  }

  /** The result, for a file of `bytes` bytes of which `completeBytes` come before its unterminated last line. */
  result(bytes: number, completeBytes: number): JournalScan {
    // A complete last record without its newline is kept; `terminated` tells open() to add the newline.
    const terminated = this.torn || completeBytes === bytes;
    return { records: this.records, goodBytes: this.torn ? completeBytes : bytes, terminated, warnings: this.warnings, bytes };
  }

  #cutCopy(lineNo: number, bytes: number): void {
    this.cut.push(`${this.#file}:${lineNo}: skipping a line cut off by a crash while the journal was copied to its history (${bytes} bytes; the next copy holds its records)`);
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
  const records: JournalRecord[] = [];
  const sink = new JournalRecordSink(file, (r) => records.push(r));
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
  const { goodBytes, terminated, warnings } = sink.result(bytes, offset === text.length ? bytes : Buffer.byteLength(text.slice(0, offset)));
  return { records, goodBytes, terminated, warnings };
}

/**
 * Read the journal file at `path` a line at a time, handing each record to `onRecord` in file order and keeping
 * none: memory stays that of one read chunk and one line, whatever the file's size. `endBytes` reads only the
 * file's first bytes (what it held when it was opened). Throws as {@link readJournal}; the records handed over
 * before a corrupt line are then not the whole journal.
 *
 * @example
 * const state = new JournalState();
 * const { records, warnings } = scanJournal('var/mm-1.journal', (r) => state.apply(r));
 */
export function scanJournal(path: string, onRecord: (record: JournalRecord) => void, options: JournalReadOptions = {}, endBytes?: number): JournalScan {
  const sink = new JournalRecordSink(path, onRecord);
  const { bytes, completeBytes } = readJournalLines(path, sink, options, endBytes);
  return sink.result(bytes, completeBytes);
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
  const records: JournalRecord[] = [];
  const { goodBytes, terminated, warnings, bytes } = scanJournal(path, (r) => records.push(r), options);
  return { records, goodBytes, terminated, warnings, bytes };
}

/** {@link readJournal} without blocking the event loop while reading. */
export async function readJournalAsync(path: string, options: JournalReadOptions = {}): Promise<ParsedJournal & { bytes: number }> {
  const records: JournalRecord[] = [];
  const sink = new JournalRecordSink(path, (r) => records.push(r));
  const read = await readJournalLinesAsync(path, sink, options);
  const { goodBytes, terminated, warnings, bytes } = sink.result(read.bytes, read.completeBytes);
  return { records, goodBytes, terminated, warnings, bytes };
}
