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
 * Crash tolerance on open: a torn last line (a partial write cut by a crash) is ignored with a warning and cut
 * off the file, so earlier records are never lost and later appends start on a clean line; any other line
 * that is not a valid record is a {@link JournalCorruptError} naming the file and line — the journal is the
 * bot's memory of money in flight and must not be silently skipped.
 */
import { closeSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { RexbotError } from '../core/errors.js';
import { decodeRecord, encodeRecord, type JournalRecord } from './journal-records.js';

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

/** Options of {@link Journal.open}. */
export interface JournalOptions {
  /** Told about a torn last line that was dropped (default: ignored; the message is also in `warnings`). */
  onWarning?: (message: string) => void;
}

interface Pending {
  line: string;
  durable: boolean;
}

/**
 * An open journal file.
 *
 * @example
 * const journal = Journal.open('var/mm-1.journal');
 * for (const r of journal.replayed) rebuild(r);                  // what the last run wrote
 * await journal.appendDurable({ t: 'order', at, clientOrderId, strategy, intentKey, role: 'order', order });
 * await gateway.placeOrder({ ...order, clientOrderId });          // only now may the request leave
 * journal.append({ t: 'ack', at, id: clientOrderId, orderId });
 */
export class Journal {
  /** The file. */
  readonly path: string;
  /** Records found when the file was opened, in file order. */
  readonly replayed: readonly JournalRecord[];
  /** Problems tolerated while opening (a torn last line). */
  readonly warnings: readonly string[];
  #fd: number | undefined;
  #queue: Pending[] = [];
  #waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  #scheduled = false;
  #written = 0;

  private constructor(path: string, fd: number, replayed: JournalRecord[], warnings: string[]) {
    this.path = path;
    this.#fd = fd;
    this.replayed = replayed;
    this.warnings = warnings;
  }

  /**
   * Open (or create) the journal at `path` and replay it. Throws {@link JournalCorruptError} for a corrupt line
   * other than a torn last one.
   */
  static open(path: string, options: JournalOptions = {}): Journal {
    mkdirSync(dirname(path), { recursive: true });
    let text = '';
    let existed = true;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      existed = false;
    }
    const { records, goodBytes, terminated, warnings } = parseJournal(path, text);
    for (const w of warnings) options.onWarning?.(w);
    const fd = openSync(path, 'a+');
    if (goodBytes < Buffer.byteLength(text)) {
      // Cut the torn tail so the next record starts on a line of its own.
      ftruncateSync(fd, goodBytes);
      fsyncSync(fd);
    }
    if (!terminated) {
      // A complete last record whose newline the crash cut off: terminate it before appending.
      writeAll(fd, Buffer.from('\n'));
      fsyncSync(fd);
    }
    if (!existed) syncDirectory(path);
    return new Journal(path, fd, records, warnings);
  }

  /** Records written by this instance (not counting replayed ones). */
  get written(): number {
    return this.#written;
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
      writeAll(this.#fd, Buffer.from(queue.map((p) => `${p.line}\n`).join(''), 'utf8'));
      if (queue.some((p) => p.durable)) fsyncSync(this.#fd);
      this.#written += queue.length;
    } catch (e) {
      for (const w of waiters) w.reject(e);
      return;
    }
    for (const w of waiters) w.resolve();
  }

  /** Flush and close the file. Later appends reject (durable) or are dropped. */
  close(): void {
    if (this.#fd === undefined) return;
    this.flush();
    fsyncSync(this.#fd);
    closeSync(this.#fd);
    this.#fd = undefined;
  }

  #enqueue(record: JournalRecord, durable: boolean): void {
    this.#queue.push({ line: encodeRecord(record), durable });
    if (!this.#scheduled) {
      this.#scheduled = true;
      // A microtask, not a timer: every append of this tick joins one write, and nothing waits on the clock.
      queueMicrotask(() => this.flush());
    }
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

function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

function syncDirectory(path: string): void {
  // A new file's directory entry must be durable too, or the whole journal can vanish with a power loss.
  let dfd: number | undefined;
  try {
    dfd = openSync(dirname(path), 'r');
    fsyncSync(dfd);
  } catch {
    // Some platforms cannot open or fsync a directory; the file's own fsyncs still hold.
  } finally {
    if (dfd !== undefined) closeSync(dfd);
  }
}
