/**
 * A recorded line the replay cannot use. It names the file and the 1-based line so a broken capture can be
 * fixed by hand, and it is either thrown (the default) or collected and the line skipped — never half-applied.
 */
import { RexbotError } from '../../core/errors.js';

/** Where a replay event came from. */
export interface LineRef {
  /** File name as given to the reader (a path, or a label for in-memory text). */
  file: string;
  /** 1-based line number. */
  line: number;
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

  constructor(ref: LineRef, reason: string, options?: { cause?: unknown }) {
    super('REPLAY_FORMAT', `${ref.file}:${ref.line}: ${reason}`, options);
    this.file = ref.file;
    this.line = ref.line;
    this.reason = reason;
  }
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
export class CutOffError extends ReplayFormatError {
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
}

/** True when `err` is zlib's complaint about gzip data that ends before its end: a file cut off mid-stream. */
export function isGzipCutOff(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'Z_BUF_ERROR';
}
