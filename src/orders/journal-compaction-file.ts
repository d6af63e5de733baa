/**
 * Putting a compacted journal on disk (journal.ts's `compact`; journal-compaction.ts chooses the records): written to
 * `<journal>.compact` and fsynced, the old journal appended to the history file if there is one, then renamed over
 * the journal and the directory fsynced. Rename is atomic, so a crash at any point leaves the complete old journal
 * (the leftover `.compact` file is deleted unread on the next open) or the complete new one, never a mix.
 *
 * The file is written a few MiB at a time, never as one string: a journal whose needed part outgrew the longest
 * string V8 makes (~512 MiB) must still compact. Each line is read back as the next start will read it, before it
 * is written: a record the decoder refused would stop that start, so it fails the compaction instead (the old
 * journal stays), and the fold of the lines read back is the journal's state from then on.
 */
import { closeSync, openSync, renameSync, rmSync } from 'node:fs';
import { type JournalFs, nodeJournalFs } from './journal-appender.js';
import { appendHistory, syncDirectory } from './journal-fs.js';
import { JournalRecordSink } from './journal-parse.js';
import { encodeRecord, type JournalRecord } from './journal-records.js';
import { JournalState } from './journal-state.js';

/** Characters of encoded records gathered before a write (a record is a few hundred). */
export const COMPACTION_WRITE_CHUNK_CHARS = 4 * 2 ** 20;

/** The temporary file a compaction writes before renaming it over the journal at `path`. */
export function compactionTempPath(path: string): string {
  return `${path}.compact`;
}

/** A compacted journal in place of the old one. */
export interface CompactedJournal {
  /** The new file, open for appending (the old one's descriptor is the caller's to close). */
  fd: number;
  /** Its records read back and folded. */
  state: JournalState;
  records: number;
  bytes: number;
}

/** Where the compacted journal goes. */
export interface CompactedJournalTarget {
  /** The journal it replaces. */
  path: string;
  /** The old journal is appended here before it is replaced (an audit trail). */
  historyPath?: string | undefined;
  /** Characters gathered per write (default {@link COMPACTION_WRITE_CHUNK_CHARS}): a seam for tests. */
  chunkChars?: number | undefined;
  /** The new file's writes and fsync go through this (the journal's own seam; node:fs by default). */
  fs?: JournalFs | undefined;
}

/**
 * Write `records` as the journal at `target.path`, atomically (see the module note). Throws if writing, reading
 * back or renaming fails; the temporary file is then removed and the old journal is untouched.
 *
 * @example
 * const { fd, state, bytes } = writeCompactedJournal({ path: 'var/mm-1.journal' }, compactRecords(state, now));
 */
export function writeCompactedJournal(target: CompactedJournalTarget, records: Iterable<JournalRecord>): CompactedJournal {
  const { path, historyPath } = target;
  const chunkChars = target.chunkChars ?? COMPACTION_WRITE_CHUNK_CHARS;
  const fs = target.fs ?? nodeJournalFs;
  const tmp = compactionTempPath(path);
  const state = new JournalState();
  // Named as the file it is written to: a refused record is `<journal>.compact:<line>`.
  const readBack = new JournalRecordSink(tmp, (r) => state.apply(r));
  rmSync(tmp, { force: true });
  const fd = openSync(tmp, 'a+');
  let bytes = 0;
  try {
    let lines: string[] = [];
    let chars = 0;
    let lineNo = 0;
    const write = (): void => {
      const buf = Buffer.from(lines.join(''), 'utf8');
      for (let off = 0; off < buf.length; ) off += fs.write(fd, buf, off, buf.length - off);
      bytes += buf.length;
      lines = [];
      chars = 0;
    };
    for (const r of records) {
      const line = encodeRecord(r);
      readBack.line(line, ++lineNo, false);
      lines.push(`${line}\n`);
      chars += line.length + 1;
      if (chars >= chunkChars) write();
    }
    if (chars > 0) write();
    fs.fsync(fd);
    if (historyPath !== undefined) appendHistory(historyPath, path);
    // The one step that switches: rename is atomic, so the journal is the old file or the new one, whole.
    renameSync(tmp, path);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  syncDirectory(path);
  return { fd, state, records: readBack.records, bytes };
}
