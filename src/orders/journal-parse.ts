/**
 * Reading a journal's text (journal.ts): records, the good length, and which problems are tolerated — a torn last
 * line (a write cut by a crash) is; any other bad line is a {@link JournalCorruptError} naming file and line.
 */
import { RexbotError } from '../core/errors.js';
import { decodeRecord, type JournalRecord } from './journal-records.js';

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
 * Parse a journal's text: its records, how many leading bytes are good, whether they end with a newline, and
 * tolerated problems. Throws {@link JournalCorruptError} for a bad line that is not the last one.
 */
export function parseJournal(
  file: string,
  text: string,
): { records: JournalRecord[]; goodBytes: number; terminated: boolean; warnings: string[] } {
  const records: JournalRecord[] = [];
  const warnings: string[] = [];
  let offset = 0;
  let lineNo = 0;
  while (offset < text.length) {
    lineNo++;
    const nl = text.indexOf('\n', offset);
    const last = nl < 0;
    const line = last ? text.slice(offset) : text.slice(offset, nl);
    const next = last ? text.length : nl + 1;
    if (line.trim() === '') {
      offset = next;
      continue;
    }
    let record: JournalRecord;
    try {
      record = decodeRecord(JSON.parse(line));
    } catch (e) {
      if (last) {
        // Records are written as `json\n` in one write, so an unterminated last line is a write cut by a crash.
        warnings.push(`${file}:${lineNo}: ignoring a torn last line (${line.length} bytes, partial write from a crash)`);
        break;
      }
      throw new JournalCorruptError(file, lineNo, (e as Error).message);
    }
    records.push(record);
    offset = next;
  }
  // A complete last record without its newline is kept; `terminated` tells open() to add the newline.
  const terminated = offset === 0 || text[offset - 1] === '\n';
  return { records, goodBytes: Buffer.byteLength(text.slice(0, offset)), terminated, warnings };
}
