/** The options and results of the order journal's public calls (journal.ts). */
import type { JournalFs, JournalWriteError } from './journal-appender.js';
import type { JournalReadOptions } from './journal-lines.js';

/** Options of `Journal.open`. */
export interface JournalOptions {
  /**
   * Told about a torn last line that was dropped or a leftover compaction file that was deleted (default:
   * ignored; the messages are also in `warnings`).
   */
  onWarning?: (message: string) => void;
  /**
   * Before a compaction replaces the journal, append the old journal to this file: an audit trail of every
   * record, never read by the bot (default: none — what was compacted away is gone).
   */
  historyPath?: string | undefined;
  /**
   * fsync durable appends (default true). A backtest turns it off: its journal is the record of a simulated run,
   * there is no crash to recover from, and a disk flush per group commit would dominate its run time.
   */
  fsync?: boolean | undefined;
  /** The file calls made while running (default node:fs): the seam where tests inject a full disk. */
  fs?: JournalFs;
  /** How the file is read on open (default: 4 MiB chunks, lines of at most 64 MiB): a seam for tests. */
  read?: JournalReadOptions | undefined;
}

/** A change in whether the journal can be written (see `Journal.onHealth`). */
export type JournalHealthEvent = { kind: 'failed'; error: JournalWriteError } | { kind: 'recovered' };

/** Size of the journal file. */
export interface JournalSize {
  records: number;
  bytes: number;
}

/** What one compaction did. */
export interface CompactionResult {
  before: JournalSize;
  after: JournalSize;
}

/** Options of `Journal.autoCompact`. */
export interface AutoCompactOptions {
  /** Compact once the file reaches this many bytes (and twice its size after the last compaction). */
  thresholdBytes: number;
  /** Epoch ms for the checkpoint record. */
  now: () => number;
  onCompacted?: (result: CompactionResult) => void;
  /** A compaction failed; the journal goes on appending to the old file. */
  onError?: (err: unknown) => void;
}
