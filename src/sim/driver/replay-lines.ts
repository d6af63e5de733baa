/**
 * The line loop every capture reader shares: split, number, skip blank lines, and apply the bad-line policy to a
 * line that does not parse. A reader only says what one line means.
 */
import { type LineRef, type ReaderOptions, asReplayFormatError, handleBadLine } from './replay-error.js';
import type { ReaderResult, ReplayEvent } from './replay-events.js';

/** What one recorded line turned into: the events it carries and the kinds of well-formed content it ignored. */
export interface ParsedLine {
  events: ReplayEvent[];
  ignored: string[];
}

/**
 * Run `parseLine` over each non-empty line of `text` (CRLF tolerated). A line counts only when it parses whole,
 * so a bad line never leaves some of its events applied; an error that is not already a
 * {@link ReplayFormatError} is wrapped into one naming the file and line.
 *
 * @example
 * readCaptureLines(text, 'BITTREX.http.0.0', {}, (line, ref) => ({ events: [], ignored: ['other-endpoint'] }));
 */
export function readCaptureLines(
  text: string,
  file: string,
  opts: ReaderOptions,
  parseLine: (line: string, ref: LineRef) => ParsedLine,
): ReaderResult {
  const result: ReaderResult = { events: [], errors: [], ignored: {} };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] as string).replace(/\r$/, '');
    if (raw.length === 0) continue;
    const ref: LineRef = { file, line: i + 1 };
    try {
      const parsed = parseLine(raw, ref);
      result.events.push(...parsed.events);
      for (const kind of parsed.ignored) result.ignored[kind] = (result.ignored[kind] ?? 0) + 1;
    } catch (err) {
      const error = asReplayFormatError(err, ref);
      handleBadLine(error, opts, result.errors);
    }
  }
  return result;
}
