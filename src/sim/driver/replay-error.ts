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
