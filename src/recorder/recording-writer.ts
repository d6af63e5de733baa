/**
 * Appends lines to a gzipped JSON-lines recording (see recording-format.ts). Lines are handed to gzip as they
 * come; the file is complete and readable once {@link RecordingWriter.close} resolves. A new recording never
 * replaces an existing file unless asked to.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { constants, createGzip, type Gzip } from 'node:zlib';
import { RexbotError } from '../core/errors.js';
import type { RecordingHeader } from './recording-format.js';

/** Options of {@link openRecording}. */
export interface OpenRecordingOptions {
  /** Replace an existing file (truncate it). Default false: an existing file is refused, never overwritten. */
  overwrite?: boolean | undefined;
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
    this.#gzip = createGzip();
    // 'wx' creates the file or fails if it exists, in one step: no check-then-open race with another recorder.
    this.#out = createWriteStream(file, { flags: overwrite ? 'w' : 'wx' });
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
   * `options.overwrite`, which truncates it: a mistyped `--out` must not destroy an earlier recording. Rejects when
   * the file cannot be opened.
   */
  static async open(file: string, header: RecordingHeader, options: OpenRecordingOptions = {}): Promise<RecordingWriter> {
    const w = new RecordingWriter(file, options.overwrite ?? false);
    await new Promise<void>((resolve, reject) => {
      w.#out.once('open', () => resolve());
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

  /** Flush, finish the gzip stream and close the file. Rejects with the first I/O error. Idempotent. */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      clearInterval(this.#flusher);
      this.#gzip.end();
    }
    await this.#finished;
    if (this.#error) throw this.#error;
  }
}

/** Open a recording for writing (see {@link RecordingWriter.open}). */
export function openRecording(file: string, header: RecordingHeader, options?: OpenRecordingOptions): Promise<RecordingWriter> {
  return RecordingWriter.open(file, header, options);
}
