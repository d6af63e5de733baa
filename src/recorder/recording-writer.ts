/**
 * Appends lines to a gzipped JSON-lines recording (see recording-format.ts). Lines are handed to gzip as they
 * come; the file is complete and readable once {@link RecordingWriter.close} resolves. A new recording never
 * replaces an existing file unless asked to, and then only once it is kept ({@link RecordingWriter.keep}): a
 * recorder whose start fails {@link RecordingWriter.discard}s it, which leaves no file it created and the file it
 * was to replace as it was. Opening a recording removes the partial files of its file left by recorders that no
 * longer run (partial-recordings.ts).
 */
import { createWriteStream, fstatSync, type WriteStream } from 'node:fs';
import { lstat, rename, unlink } from 'node:fs/promises';
import { constants, createGzip, type Gzip } from 'node:zlib';
import { RexbotError } from '../core/errors.js';
import type { RecordingHeader } from './recording-format.js';
import { partialRecordingPath, removeDeadPartials } from './partial-recordings.js';

/** Options of {@link openRecording}. */
export interface OpenRecordingOptions {
  /**
   * Replace an existing file, once the recording is kept. Default false: an existing file is refused, never
   * overwritten. The recording is written to a sibling `<file>.<host>.<pid>.<hex>.partial` until kept, so a
   * recording discarded (or a recorder killed) before then leaves the existing file whole; the partial file a killed
   * recorder left is removed by the next recording opened on `file` (see {@link OpenRecordingOptions.onRemovedPartials}).
   */
  overwrite?: boolean | undefined;
  /**
   * Told the paths of the partial files of `file` that opening removed because their writer no longer runs (a
   * recorder killed before its recording was kept); not called when there were none. Called before the file is
   * opened, so also when opening then fails (an existing file refused). The caller says so to the user.
   */
  onRemovedPartials?: ((paths: string[]) => void) | undefined;
}

/** The output file exists and overwriting was not asked for (code `RECORDING_EXISTS`): the file was left as it was. */
export class RecordingExistsError extends RexbotError {
  readonly file: string;
  constructor(file: string, options?: { cause?: unknown }) {
    super('RECORDING_EXISTS', `${file} already exists; not overwriting it`, options);
    this.file = file;
  }
}

/** How often what was written is pushed through the compressor to the file. */
const FLUSH_INTERVAL_MS = 1000;

/**
 * A recording file being written. Writes never block the caller: gzip buffers while the disk catches up (a
 * recorder must not slow down the stream it records). The first I/O error is kept and rethrown by close().
 *
 * @example
 * const w = await openRecording('btc.jsonl.gz', header);
 * w.writeLine('{"t":1623628800123,"name":"heartbeat"}');
 * await w.close();
 */
export class RecordingWriter {
  readonly file: string;
  /** Where the bytes go: `file`, or the partial file an overwriting recording fills until it is kept. */
  #path: string;
  /** The file this writer created (device and inode), so discard() deletes that one and never another. */
  #created: { dev: number; ino: number } | undefined;
  /** `open` until kept or discarded; a kept recording is at `file`. */
  #fate: 'open' | 'kept' | 'discarded' = 'open';
  readonly #gzip: Gzip;
  readonly #out: WriteStream;
  readonly #finished: Promise<void>;
  #error: Error | undefined;
  #closed = false;
  #lines = 0;
  /**
   * A sync flush of the gzip stream every second: what was recorded reaches the file as it goes, so a recorder
   * killed (SIGKILL, a lost terminal) leaves all but its last second readable. Everything stayed in the
   * compressor's buffers until close(): 10-12 s of recording killed left a 10-byte file.
   */
  #flusher: NodeJS.Timeout | undefined;
  #unflushed = false;

  private constructor(file: string, overwrite: boolean) {
    this.file = file;
    this.#path = overwrite ? partialRecordingPath(file) : file;
    this.#gzip = createGzip();
    // 'wx' creates the file or fails if it exists, in one step: no check-then-open race with another recorder, and
    // whatever is at #path afterwards was made by this writer.
    this.#out = createWriteStream(this.#path, { flags: 'wx' });
    this.#gzip.pipe(this.#out);
    const fail = (e: Error) => {
      this.#error ??= e;
    };
    this.#gzip.on('error', fail);
    this.#finished = new Promise<void>((resolve) => {
      this.#out.on('close', () => resolve());
      this.#out.on('error', (e) => {
        fail(e);
        resolve();
      });
    });
  }

  /**
   * Create `file` and write the header line. An existing file is refused ({@link RecordingExistsError}) unless
   * `options.overwrite`, which replaces it when the recording is kept: a mistyped `--out` must not destroy an
   * earlier recording. Rejects when the file cannot be opened. Removes, first, the partial files of `file` whose
   * writer is gone (see {@link OpenRecordingOptions.onRemovedPartials}), with or without `overwrite`.
   */
  static async open(file: string, header: RecordingHeader, options: OpenRecordingOptions = {}): Promise<RecordingWriter> {
    // Each recorder killed between opening its partial file and keeping it left one behind, forever and unsaid.
    const removed = await removeDeadPartials(file);
    if (removed.length > 0) options.onRemovedPartials?.(removed);
    const w = new RecordingWriter(file, options.overwrite ?? false);
    await new Promise<void>((resolve, reject) => {
      w.#out.once('open', (fd: number) => {
        const st = fstatSync(fd);
        w.#created = { dev: st.dev, ino: st.ino };
        resolve();
      });
      w.#out.once('error', (e: NodeJS.ErrnoException) => {
        w.#gzip.destroy();
        reject(e.code === 'EEXIST' ? new RecordingExistsError(file, { cause: e }) : e);
      });
    });
    w.writeLine(JSON.stringify(header));
    w.#flusher = setInterval(() => {
      if (!w.#unflushed || w.#closed) return;
      w.#unflushed = false;
      w.#gzip.flush(constants.Z_SYNC_FLUSH);
    }, FLUSH_INTERVAL_MS);
    w.#flusher.unref();
    return w;
  }

  /** Lines written, header included. */
  get lines(): number {
    return this.#lines;
  }

  /** The first write error, if any (writing goes on being attempted; close() reports it). */
  get error(): Error | undefined {
    return this.#error;
  }

  /**
   * Append one line: `json` must be one JSON object without line breaks (the callers build it). Ignored after
   * close(), so a snapshot answered after the recording ended cannot corrupt the file.
   */
  writeLine(json: string): void {
    if (this.#closed) return;
    this.#gzip.write(`${json}\n`);
    this.#lines++;
    this.#unflushed = true;
  }

  /**
   * Keep the recording: an overwriting one now replaces `file` (atomically, by a rename; writing goes on into it).
   * A no-op for one that created `file` itself, or once kept. Rejects when the rename fails (the existing file then
   * stays as it was; {@link discard} removes the partial one).
   */
  async keep(): Promise<void> {
    if (this.#fate !== 'open') return;
    if (this.#path !== this.file) {
      await rename(this.#path, this.file);
      this.#path = this.file;
    }
    this.#fate = 'kept';
  }

  /**
   * Give the recording up (a recorder whose start failed): close it and delete the file this writer created, unless
   * it was kept. The file an overwriting recording was to replace stays as it was; a file found at the path that is
   * not the one this writer created (replaced meanwhile) is left alone. Never rejects for the recording's own I/O
   * errors: the recording is gone either way.
   */
  async discard(): Promise<void> {
    if (this.#fate === 'kept') return this.close();
    this.#fate = 'discarded';
    await this.close().catch(() => undefined);
    const created = this.#created;
    const now = await lstat(this.#path).catch(() => undefined);
    if (created && now && now.dev === created.dev && now.ino === created.ino) await unlink(this.#path).catch(() => undefined);
  }

  /**
   * Flush, finish the gzip stream and close the file; a recording neither kept nor discarded is kept first (see
   * {@link keep}). Rejects with the first I/O error. Idempotent.
   */
  async close(): Promise<void> {
    let notKept: unknown;
    if (this.#fate === 'open') await this.keep().catch((e: unknown) => (notKept = e));
    if (!this.#closed) {
      this.#closed = true;
      clearInterval(this.#flusher);
      this.#gzip.end();
    }
    await this.#finished;
    if (notKept !== undefined) throw notKept;
    if (this.#error) throw this.#error;
  }
}

/** Open a recording for writing (see {@link RecordingWriter.open}). */
export function openRecording(file: string, header: RecordingHeader, options?: OpenRecordingOptions): Promise<RecordingWriter> {
  return RecordingWriter.open(file, header, options);
}
