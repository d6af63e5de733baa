/**
 * A recorded line the replay cannot use. It names the file and the 1-based line so a broken capture can be
 * fixed by hand, and it is either thrown (the default) or collected and the line skipped — never half-applied.
 */
import { RexbotError } from '../../core/errors.js';
import { errorWithoutValues } from './error-without-values.js';

/** Where a replay event came from. */
export interface LineRef {
  /** File name as given to the reader (a path, or a label for in-memory text). */
  file: string;
  /** 1-based line number. */
  line: number;
}

/**
 * `text` with its control characters written out as `\u001b` (as JSON would): a reason may quote the file (a header,
 * a parser's message quoting the line), and a file's ESC sequences or NULs written raw to a terminal recolour, move
 * or hide what it shows.
 *
 * @example
 * visible('not JSON: "\u001b[2J"') // 'not JSON: "\\u001b[2J"'
 */
export function visible(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * One bad recorded line. `message` reads `<file>:<line>: <reason>`.
 *
 * @example
 * throw new ReplayFormatError({ file: 'BITTREX.ws.1.0', line: 57 }, 'payload is not raw deflate');
 * // BITTREX.ws.1.0:57: payload is not raw deflate
 */
export class ReplayFormatError extends RexbotError {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
  /**
   * The reason without the file's text, when `reason` quotes some of it (a field, the line, a parser's message
   * that quotes the line); undefined when it quotes none. A reader that quotes gives it, so that whoever may not
   * see the file (a queued job's author, see {@link messageWithoutText}) still learns where and why.
   */
  readonly reasonWithoutText: string | undefined;

  constructor(ref: LineRef, rawReason: string, options?: { cause?: unknown; withoutText?: string | undefined }) {
    const reason = visible(rawReason);
    super('REPLAY_FORMAT', `${ref.file}:${ref.line}: ${reason}`, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.file = ref.file;
    this.line = ref.line;
    this.reason = reason;
    this.reasonWithoutText = options?.withoutText;
  }

  /**
   * `<file>:<line>: <reason>` quoting none of the file's text: the reason less its quote, marked as such.
   *
   * @example
   * new ReplayFormatError({ file: 'x.csv', line: 3 }, 'side is not bid or ask: "?"', { withoutText: 'side is not bid or ask' }).messageWithoutText()
   * // x.csv:3: side is not bid or ask (the file's text left out)
   */
  messageWithoutText(): string {
    const reason = this.reasonWithoutText === undefined ? this.reason : `${this.reasonWithoutText} (the file's text left out)`;
    return `${this.file}:${this.line}: ${reason}`;
  }
}

/**
 * A line's error as a reader reports it: `err` when it is one, else one at `ref` carrying `err`'s message, which
 * (a parser's or decoder's) may quote the line. Told without the file's text (see
 * {@link ReplayFormatError.messageWithoutText}) it says what and where without a value read: the field and the
 * reason of a wire decoder's or a v1.1 mapping's error (`orderBook snapshot: bid[3].quantity is negative`,
 * `MarketName is not a v1.1 market name`), else the error's kind and its message with the values taken out
 * (`TypeError: not a market symbol: "…"`; see error-without-values.ts). `resource` names what the reader decoded in
 * its own words, never text of the line (a decoder's `where` may quote it: a recorded URL).
 * @internal shared by the readers
 */
export function asReplayFormatError(err: unknown, ref: LineRef, resource?: string): ReplayFormatError {
  if (err instanceof ReplayFormatError) return err;
  return new ReplayFormatError(ref, err instanceof Error ? err.message : String(err), { cause: err, withoutText: errorWithoutValues(err, resource) });
}

/** What a reader does with a bad line: throw (`fail`, the default) or report it and skip the whole line. */
export type BadLinePolicy = 'fail' | 'skip';

/** Options every capture reader takes. */
export interface ReaderOptions {
  /** Default `fail`. */
  onBadLine?: BadLinePolicy;
  /** Called for each skipped bad line (only with `onBadLine: 'skip'`), e.g. to log it. */
  onError?: (error: ReplayFormatError) => void;
}

/**
 * Apply the bad-line policy: throw, or report and let the caller skip the line.
 * @internal shared by the readers
 */
export function handleBadLine(error: ReplayFormatError, opts: ReaderOptions, errors: ReplayFormatError[]): void {
  if ((opts.onBadLine ?? 'fail') === 'fail') throw error;
  errors.push(error);
  opts.onError?.(error);
}

/**
 * Data that stops before its end, as a writer killed mid-file leaves it: what it holds up to the cut is as good as any
 * file's. A reader delivers everything complete before the cut and then, per the bad-line policy, throws this (`fail`)
 * or reports {@link skipped} once through `onError` and ends there (`skip`; a torn last record is dropped and counted
 * as a skipped line). Each kind of data says where it was cut in its own terms (a line, an array element).
 */
export abstract class TruncatedDataError extends ReplayFormatError {
  /** Whether a partial record after the last complete one was dropped. */
  abstract readonly torn: boolean;
  /** The same cut as told under `skip`, once everything before it has been read. */
  abstract skipped(): TruncatedDataError;
}

/**
 * A gzip file that stops mid-stream, without the end gzip writes on close: a recording whose recorder was killed
 * (SIGKILL, power loss). What it holds up to the cut is readable (the recorder flushes every second), so a reader
 * delivers every complete line before the cut and then, per the bad-line policy, throws this (`fail`) or reports it
 * once through `onError` and ends there (`skip`; a torn last line is dropped and counted as a skipped line). The
 * line is the one the cut tore (or would have been next); `lastLine` the last complete one (0: none).
 *
 * @example
 * new CutOffError('rec.jsonl.gz', 42, true, 'fail').message
 * // rec.jsonl.gz:43: cut off mid-stream (the gzip data stops without its end, as when a recorder is killed); line 42 is the last complete line: onBadLine: skip reads up to it
 */
export class CutOffError extends TruncatedDataError {
  /** The last complete line before the cut (0 when there is none). */
  readonly lastLine: number;
  /** Whether a partial line after it was dropped. */
  readonly torn: boolean;

  constructor(file: string, lastLine: number, torn: boolean, policy: BadLinePolicy, options?: { cause?: unknown }) {
    const what = 'cut off mid-stream (the gzip data stops without its end, as when a recorder is killed)';
    const reason =
      policy === 'fail'
        ? `${what}; ${lastLine > 0 ? `line ${lastLine} is the last complete line` : 'not even line 1 is complete'}: onBadLine: skip reads up to it`
        : `${what}; read up to line ${lastLine}${torn ? `, the torn line ${lastLine + 1} dropped` : ''}`;
    super({ file, line: lastLine + 1 }, reason, options);
    this.lastLine = lastLine;
    this.torn = torn;
  }

  skipped(): CutOffError {
    return new CutOffError(this.file, this.lastLine, this.torn, 'skip', { cause: this.cause });
  }
}

/** True when `err` is zlib's complaint about gzip data that ends before its end: a file cut off mid-stream. */
export function isGzipCutOff(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'Z_BUF_ERROR';
}
