/**
 * The order journal: an append-only JSON-lines file that records every order request before it leaves, and what
 * became of it, so that a bot killed at any point can tell on restart which orders it may have placed.
 *
 * Durability: {@link Journal.appendDurable} resolves only after the record was written AND fsynced — the order
 * manager awaits it before calling the gateway, so a request can never reach the exchange without its
 * clientOrderId on disk. Records appended in the same tick share one write and one fsync (group commit), which
 * keeps a burst of intents (a quote ladder, a bench loop) from paying one disk flush each. Follow-up records
 * (sent, ack, fill, closed) use {@link Journal.append}: written at the end of the tick without waiting for a
 * flush, because losing one only means a lookup on restart, never a duplicate order.
 *
 * A failed write (a full disk) never leaves a torn record for the next one to be glued onto: the appender
 * (journal-appender.ts) cuts the file back to its last whole record, or refuses every write until it can; the
 * durable appends of that write reject (their orders are not sent), follow-up records wait for the next write, and
 * {@link Journal.onHealth} tells the kernel, which halts trading until a person resumes it.
 *
 * Crash tolerance on open: a torn last line (a partial write cut by a crash) is ignored with a warning and cut
 * off the file, so earlier records are never lost and later appends start on a clean line; any other line
 * that is not a valid record is a {@link JournalCorruptError} naming the file and line — the journal is the
 * bot's memory of money in flight and must not be silently skipped. The file is read a line at a time
 * (journal-lines.ts), never as one string, so a journal of any size opens (one that never compacts keeps growing).
 *
 * Compaction ({@link Journal.compact}): the file is rewritten with only what a restart needs (see
 * journal-compaction.ts), atomically (journal-compaction-file.ts) — written a chunk at a time to `<path>.compact`,
 * fsynced, renamed over the journal, directory fsynced — so a crash leaves either the complete old journal or the
 * complete new one; a `.compact` file found on open is a compaction that never reached its rename and is deleted
 * unread. No append can be lost to it: the journal folds every record it writes into a {@link JournalState}, and
 * compaction first flushes the group commit and then rewrites and swaps the file in one synchronous step, so no
 * append can be queued, written or fsynced in between (JavaScript runs nothing else meanwhile); appends made after
 * it go to the new file.
 *
 * Start reads the file once and keeps none of its records: {@link Journal.open} folds each into the journal's
 * {@link JournalState} as it is read, and that fold is what resuming reads ({@link Journal.takeStateAtOpen}). Memory
 * is the fold's (each request the file names, the fills, the newest limits), never the records': a journal that
 * grew to gigabytes without compacting opens in the memory its fold takes. {@link Journal.replayed}, for tools and
 * tests, reads the records again from the file when asked.
 */
import { closeSync, fsyncSync, ftruncateSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { RexbotError } from '../core/errors.js';
import { compactRecords } from './journal-compaction.js';
import { compactionTempPath, writeCompactedJournal } from './journal-compaction-file.js';
import { discardingJournalFs, JournalAppender, type JournalFs, JournalWriteError, nodeJournalFs } from './journal-appender.js';
import { syncDirectory, writeAll } from './journal-fs.js';
import { type JournalReadOptions, type JournalScan, scanJournal } from './journal-parse.js';
import { encodeRecord, type JournalRecord } from './journal-records.js';

export { compactionTempPath } from './journal-compaction-file.js';
export { JournalCorruptError, parseJournal, readJournal, readJournalAsync, scanJournal, type JournalReadOptions, type JournalScan, type ParsedJournal } from './journal-parse.js';
import { JournalState } from './journal-state.js';
import type { AutoCompactOptions, CompactionResult, JournalHealthEvent, JournalOptions, JournalSize } from './journal-options.js';

export type { AutoCompactOptions, CompactionResult, JournalHealthEvent, JournalOptions, JournalSize } from './journal-options.js';

interface Pending {
  line: string;
  durable: boolean;
  record: JournalRecord;
}

const EMPTY = Buffer.alloc(0);
const SETTLED: Promise<void> = Promise.resolve();

/**
 * An open journal file.
 *
 * @example
 * const journal = Journal.open('var/mm-1.journal');
 * const state = journal.takeStateAtOpen();                        // what the last run wrote, folded
 * await journal.appendDurable({ t: 'order', at, clientOrderId, strategy, intentKey, role: 'order', order });
 * await gateway.placeOrder({ ...order, clientOrderId });          // only now may the request leave
 * journal.append({ t: 'ack', at, id: clientOrderId, orderId });
 */
export class Journal {
  /** The file. */
  readonly path: string;
  /** Problems tolerated while opening (a torn last line). */
  readonly warnings: readonly string[];
  #fd: number | undefined;
  readonly #fs: JournalFs;
  #appender: JournalAppender;
  /** The last write failure, until a write succeeds again. */
  #failure: JournalWriteError | undefined;
  #writeErrors = 0;
  readonly #healthListeners = new Set<(e: JournalHealthEvent) => void>();
  #queue: Pending[] = [];
  #waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  #scheduled = false;
  #written = 0;
  /** Bytes of the file as opened (a torn tail cut, a newline added): where {@link Journal.replayed} stops reading. */
  readonly #openBytes: number;
  /** A compaction replaced the file: the records it held at open are no longer in it. */
  #replaced = false;
  #readOptions: JournalReadOptions = {};
  /** False once anything was appended or compacted: {@link Journal.state} is then no longer the file as opened. */
  #atOpen = true;
  /** Every record in the file, folded: what a compaction writes back. */
  #state: JournalState;
  #size: JournalSize;
  readonly #historyPath: string | undefined;
  #fsync = true;
  /**
   * On {@link discardingJournalFs} nothing is written: records are counted but neither encoded nor folded. The fold
   * is what a restart or a compaction reads, and a discarding journal has neither: its file is deleted unread.
   */
  #discard = false;
  #auto: AutoCompactOptions | undefined;
  #autoScheduled = false;
  #autoNextBytes = 0;
  readonly #flushTask = (): void => this.flush();

  private constructor(path: string, fd: number, state: JournalState, records: number, warnings: string[], bytes: number, historyPath: string | undefined, fs: JournalFs) {
    this.path = path;
    this.#fd = fd;
    this.#fs = fs;
    this.#appender = new JournalAppender(fs, fd, path, bytes);
    this.warnings = warnings;
    this.#state = state;
    this.#openBytes = bytes;
    this.#size = { records, bytes };
    this.#historyPath = historyPath;
  }

  /**
   * Open (or create) the journal at `path` and replay it. Throws {@link JournalCorruptError} for a corrupt line
   * other than a torn last one.
   */
  static open(path: string, options: JournalOptions = {}): Journal {
    mkdirSync(dirname(path), { recursive: true });
    const early: string[] = [];
    const tmp = compactionTempPath(path);
    try {
      // Written but never renamed: a compaction cut by a crash. The journal itself is still the complete old one.
      rmSync(tmp);
      early.push(`${tmp}: deleted a compaction that never completed (the journal before it is intact)`);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    const state = new JournalState();
    let parsed: JournalScan = { records: 0, goodBytes: 0, terminated: true, warnings: [], bytes: 0 };
    let existed = true;
    try {
      // A line at a time, never the whole file as one string (a journal can outgrow the longest string V8 makes),
      // and each record folded as it is read, never kept: the fold is all a start needs.
      parsed = scanJournal(path, (r) => state.apply(r), options.read);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      existed = false;
    }
    const { goodBytes, terminated } = parsed;
    const warnings = [...early, ...parsed.warnings];
    for (const w of warnings) options.onWarning?.(w);
    const fd = openSync(path, 'a+');
    if (goodBytes < parsed.bytes) {
      // Cut the torn tail so the next record starts on a line of its own.
      ftruncateSync(fd, goodBytes);
      fsyncSync(fd);
    }
    if (!terminated) {
      // A complete last record whose newline the crash cut off: terminate it before appending.
      writeAll(fd, Buffer.from('\n'));
      fsyncSync(fd);
    }
    const fs = options.fs ?? nodeJournalFs;
    if (!existed || early.length > 0) (fs.syncDirectory ?? syncDirectory)(path);
    const journal = new Journal(path, fd, state, parsed.records, warnings, goodBytes + (terminated ? 0 : 1), options.historyPath, fs);
    journal.#fsync = options.fsync ?? true;
    journal.#readOptions = options.read ?? {};
    journal.#discard = fs === discardingJournalFs;
    return journal;
  }

  /**
   * Records the file held when it was opened, in file order (a torn last line not among them), read again from the
   * file on every call: open keeps none (see the module note), so this costs a read of the file as opened and
   * memory for all of its records — for tools and tests; a bot resumes from {@link Journal.takeStateAtOpen}.
   * Appends made since do not change it (the file is read only as far as it reached at open). Throws
   * JOURNAL_CHANGED once a compaction replaced the file: those records are no longer in it.
   *
   * @example
   * const kinds = Journal.open('var/mm-1.journal').replayed.map((r) => r.t);
   */
  get replayed(): readonly JournalRecord[] {
    if (this.#replaced) {
      throw new RexbotError('JOURNAL_CHANGED', `journal ${this.path}: a compaction replaced the file, the records it held at open are no longer in it`);
    }
    const records: JournalRecord[] = [];
    if (this.#openBytes > 0) scanJournal(this.path, (r) => records.push(r), this.#readOptions, this.#openBytes);
    return records;
  }

  /** Nothing was appended (or queued) and no compaction ran since open: {@link Journal.state} is the file as opened. */
  get unchangedSinceOpen(): boolean {
    return this.#atOpen;
  }

  /**
   * The file as it was opened, folded — what resuming starts from (journal-resume.ts). It is {@link Journal.state},
   * which open folded while reading the file, so start reads and folds the journal once. Throws JOURNAL_CHANGED once
   * anything was appended or compacted: the fold would no longer be the file at open (resume must run before the
   * bot writes anything).
   */
  takeStateAtOpen(): JournalState {
    if (!this.#atOpen) {
      throw new RexbotError('JOURNAL_CHANGED', `journal ${this.path}: resuming needs the journal as it was opened, but records were appended or it was compacted since`);
    }
    return this.#state;
  }

  /** Records written by this instance (not counting replayed ones). */
  get written(): number {
    return this.#written;
  }

  /** Records and bytes in the file now (as written: queued records are not counted until flushed). */
  get size(): JournalSize {
    return { ...this.#size };
  }

  /**
   * The file's records folded (read-only use: it changes with every flush and compaction). A discarding journal's
   * stays the file as opened: it folds nothing it appends.
   */
  get state(): JournalState {
    return this.#state;
  }

  /**
   * Rewrite the file with only what a restart needs (see the module note for atomicity and appends). Flushes
   * first. `at` is the checkpoint record's time. Throws if writing the new file fails; the old one then stays.
   *
   * @example
   * const { before, after } = journal.compact(clock.now());
   */
  compact(at: number): CompactionResult {
    this.flush();
    if (this.#fd === undefined) throw new RexbotError('JOURNAL_CLOSED', `journal ${this.path} is closed`);
    this.#atOpen = false;
    const before = this.size;
    const { fd, state, records, bytes } = writeCompactedJournal(
      // A discarding journal's compaction (if one is ever asked for) still writes the file it renames over the journal.
      { path: this.path, historyPath: this.#historyPath, fs: this.#discard ? nodeJournalFs : this.#fs },
      compactRecords(this.#state, at),
    );
    this.#replaced = true;
    closeSync(this.#fd);
    this.#fd = fd;
    this.#appender = new JournalAppender(this.#fs, fd, this.path, bytes);
    this.#state = state;
    this.#size = { records, bytes };
    return { before, after: this.size };
  }

  /**
   * Compact by itself whenever a flush leaves the file at `thresholdBytes` or more — and at twice its size after
   * the previous compaction, so a journal whose needed part is large does not rewrite itself on every flush.
   * Pass undefined (or a threshold of 0) to stop.
   */
  autoCompact(options: AutoCompactOptions | undefined): void {
    this.#auto = options && options.thresholdBytes > 0 ? options : undefined;
    this.#autoNextBytes = this.#auto ? Math.max(this.#auto.thresholdBytes, 2 * this.#size.bytes) : 0;
    this.#maybeAutoCompact();
  }

  /** Queue a record; it is written at the end of the current tick, without waiting for an fsync. */
  append(record: JournalRecord): void {
    this.#enqueue(record, false);
  }

  /**
   * Queue a record and resolve once it (and everything queued before it) is written and fsynced. Rejects if the
   * write fails (disk full, journal closed): the caller must then not send the request it describes.
   */
  appendDurable(record: JournalRecord): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#enqueue(record, true);
      this.#waiters.push({ resolve, reject });
    });
  }

  /** Write everything queued now (fsynced if any of it is durable). */
  flush(): void {
    this.#scheduled = false;
    const queue = this.#queue;
    const waiters = this.#waiters;
    if (queue.length === 0) return;
    this.#queue = [];
    this.#waiters = [];
    try {
      if (this.#fd === undefined) throw new RexbotError('JOURNAL_CLOSED', `journal ${this.path} is closed`);
      const buf = this.#discard ? EMPTY : Buffer.from(queue.map((p) => `${p.line}\n`).join(''), 'utf8');
      this.#appender.write(buf, this.#fsync && queue.some((p) => p.durable));
      this.#written += queue.length;
      this.#size.records += queue.length;
      this.#size.bytes += buf.length;
    } catch (e) {
      // The requests waiting on durable records must not leave; nothing of this write is in the file.
      for (const w of waiters) w.reject(e);
      if (e instanceof JournalWriteError) {
        // Follow-up records (sent, ack, fill) describe requests that did leave: keep them for the next write.
        this.#queue = [...queue.filter((p) => !p.durable), ...this.#queue];
        this.#writeErrors++;
        this.#failure = e;
        this.#emitHealth({ kind: 'failed', error: e });
      }
      return;
    }
    if (this.#failure) {
      this.#failure = undefined;
      this.#emitHealth({ kind: 'recovered' });
    }
    // Folded only once written: a record whose write failed was never in the file, and must not be compacted in.
    // Not at all when discarded: nothing reads the fold after open (the kernel and resuming read it before the first
    // append), and folding each order's records was ~4 % of a backtest market maker's time per order.
    if (!this.#discard) for (const p of queue) this.#state.apply(p.record);
    for (const w of waiters) w.resolve();
    this.#maybeAutoCompact();
  }

  /** Flush and close the file. Later appends reject (durable) or are dropped. */
  close(): void {
    if (this.#fd === undefined) return;
    this.flush();
    try {
      // Through the seam: a disk that fails this fsync fails it for a reason the journal already reported.
      if (!this.#appender.torn) this.#fs.fsync(this.#fd);
    } finally {
      closeSync(this.#fd);
      this.#fd = undefined;
    }
  }

  /** False from a failed write until a write succeeds again (while false, every order is refused). */
  get writable(): boolean {
    return this.#failure === undefined;
  }

  /** The last write failure while {@link Journal.writable} is false. */
  get lastWriteError(): JournalWriteError | undefined {
    return this.#failure;
  }

  /** Failed writes since open (each one refused the orders it carried). */
  get writeErrors(): number {
    return this.#writeErrors;
  }

  /** Be told of every failed write and of the first successful one after; returns an unsubscribe. */
  onHealth(listener: (e: JournalHealthEvent) => void): () => void {
    this.#healthListeners.add(listener);
    return () => this.#healthListeners.delete(listener);
  }

  #emitHealth(e: JournalHealthEvent): void {
    for (const l of this.#healthListeners) {
      try {
        l(e);
      } catch {
        // A listener's failure must not undo the journal's own bookkeeping.
      }
    }
  }

  #maybeAutoCompact(): void {
    const auto = this.#auto;
    if (!auto || this.#autoScheduled || this.#size.bytes < this.#autoNextBytes) return;
    this.#autoScheduled = true;
    // After the current flush's waiters have run: the requests they were waiting for are on their way, and the
    // compaction flushes whatever they queued before it rewrites.
    queueMicrotask(() => {
      this.#autoScheduled = false;
      if (this.#fd === undefined || this.#auto !== auto || this.#size.bytes < this.#autoNextBytes) return;
      try {
        const result = this.compact(auto.now());
        this.#autoNextBytes = Math.max(auto.thresholdBytes, 2 * result.after.bytes);
        auto.onCompacted?.(result);
      } catch (err) {
        // Try again only after as much growth again: a full disk should not be hammered on every flush.
        this.#autoNextBytes = 2 * this.#size.bytes;
        auto.onError?.(err);
      }
    });
  }

  #enqueue(record: JournalRecord, durable: boolean): void {
    this.#atOpen = false;
    // A discarding journal has no file to write the text to: its lines would only be thrown away.
    this.#queue.push({ line: this.#discard ? '' : encodeRecord(record), durable, record });
    if (!this.#scheduled) {
      this.#scheduled = true;
      // A microtask, not a timer: every append of this tick joins one write, and nothing waits on the clock. A
      // promise job rather than queueMicrotask: the same place in the microtask queue, without the AsyncResource
      // Node wraps every queueMicrotask callback in (a flush is scheduled for almost every order request).
      void SETTLED.then(this.#flushTask);
    }
  }
}
