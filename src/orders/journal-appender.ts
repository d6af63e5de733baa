/**
 * The journal's writing end: appends whole records and, when a write fails part-way (ENOSPC, EIO), cuts the file
 * back to its last good length and fsyncs before anything else may be written.
 *
 * Why (issue 9): a write cut by a full disk left a torn record; once space came back the next record was glued
 * onto it, the glued line held a batch of orders that really were sent, and the restart stopped on
 * JournalCorruptError with an order open on the exchange that nothing managed. The rule here: the file never
 * holds a torn record followed by more. After a failed write the tail is truncated and fsynced; if even that
 * fails, the appender stays "torn" and refuses every write (each one first retries the cut) until the cut holds.
 *
 * All file calls go through {@link JournalFs}, the seam tests use to inject failures at any byte.
 */
import { fsyncSync, ftruncateSync, writeSync } from 'node:fs';
import { RexbotError } from '../core/errors.js';
import { syncDirectory } from './journal-fs.js';

/** The file calls the journal makes while running (node:fs by default; tests inject failures). */
export interface JournalFs {
  /** As `fs.writeSync(fd, buf, offset, length)`: bytes written, possibly fewer than asked; throws on failure. */
  write(fd: number, buf: Buffer, offset: number, length: number): number;
  fsync(fd: number): void;
  truncate(fd: number, length: number): void;
  /** Make a new file's directory entry durable (journal-fs.ts's `syncDirectory` when absent). */
  syncDirectory?(path: string): void;
}

/** node:fs. */
export const nodeJournalFs: JournalFs = {
  write: (fd, buf, offset, length) => writeSync(fd, buf, offset, length),
  fsync: (fd) => fsyncSync(fd),
  truncate: (fd, length) => ftruncateSync(fd, length),
  syncDirectory: (path) => syncDirectory(path),
};

/**
 * File calls that keep nothing: for a run whose journal file is deleted when the run ends (a backtest), where
 * writing it would only cost a system call per group commit. The journal behaves as with a disk that never fails
 * (records are counted; durable appends resolve once "written"), except that it neither encodes the records it
 * would throw away (its size in bytes stays that of the (empty) file) nor folds them into {@link Journal.state},
 * which stays the file as opened: only a restart or a compaction would read that fold, and neither comes.
 */
export const discardingJournalFs: JournalFs = {
  write: (_fd, _buf, _offset, length) => length,
  fsync: () => {},
  truncate: () => {},
  // Nothing in the file will be read, and on ext4 a directory fsync also commits the disk's unwritten data (198 ms
  // in one backtest, right after its recording was written).
  syncDirectory: () => {},
};

/** A journal write that failed; nothing of it is in the file unless `torn` (then nothing may follow it). */
export class JournalWriteError extends RexbotError {
  /** The file could not be cut back: it may end in a partial record, and every write is refused until it can. */
  readonly torn: boolean;
  constructor(message: string, torn: boolean, cause?: unknown) {
    super('JOURNAL_WRITE_FAILED', message, cause === undefined ? undefined : { cause });
    this.torn = torn;
  }
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e?.code ? `${e.code}: ${e.message}` : String((e as Error)?.message ?? err);
}

/** Appends to one open journal file (opened with O_APPEND, so every write lands at the current end). */
export class JournalAppender {
  readonly #fs: JournalFs;
  readonly #fd: number;
  readonly #path: string;
  #good: number;
  #torn = false;
  #cutError = '';

  /** `goodBytes`: the file's length now, all of it whole records. */
  constructor(fs: JournalFs, fd: number, path: string, goodBytes: number) {
    this.#fs = fs;
    this.#fd = fd;
    this.#path = path;
    this.#good = goodBytes;
  }

  /** Bytes of whole records in the file. */
  get goodBytes(): number {
    return this.#good;
  }

  /** True while the file may end in a partial record that could not be cut off. */
  get torn(): boolean {
    return this.#torn;
  }

  /**
   * Write `buf` (whole records) and fsync when `durable`. On failure, cut the file back to its last good length
   * and fsync, then throw {@link JournalWriteError} (its `torn` says whether the cut failed too).
   */
  write(buf: Buffer, durable: boolean): void {
    if (this.#torn && !this.#cut()) {
      throw new JournalWriteError(`journal ${this.#path} ends in a partial record that cannot be cut off (${this.#cutError}); nothing may be written after it`, true);
    }
    try {
      let off = 0;
      while (off < buf.length) off += this.#fs.write(this.#fd, buf, off, buf.length - off);
      if (durable) this.#fs.fsync(this.#fd);
    } catch (err) {
      const cut = this.#cut();
      const what = cut ? 'cut back to its last whole record' : `and could not be cut back (${this.#cutError}): every write is refused until it can`;
      throw new JournalWriteError(`journal ${this.#path}: write failed (${describe(err)}), ${what}`, !cut, err);
    }
    this.#good += buf.length;
  }

  /** Truncate to the last good length and make it durable; false (and torn) when that fails. */
  #cut(): boolean {
    try {
      this.#fs.truncate(this.#fd, this.#good);
      this.#fs.fsync(this.#fd);
      this.#torn = false;
      return true;
    } catch (err) {
      this.#torn = true;
      this.#cutError = describe(err);
      return false;
    }
  }
}
