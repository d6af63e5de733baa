/**
 * What the readers skipped under `onBadLine: skip`, told to the user. A skipped line is the user's choice, but a
 * silent one made a run over a half-broken file (or a recording cut off by a killed recorder) look like a run over
 * all of it: the report and the terminal now say, per file, how many lines were left out and why (the first few,
 * with file:line).
 */
import type { MarketDataReader, ReplayFormatError } from '../readers/reader.js';

/** How many of a file's skipped lines are quoted; the rest are counted. */
const QUOTED = 3;

/** Collects the readers' skipped lines: give {@link onError} to each reader as its `onError`. */
export class SkippedLines {
  readonly #first = new Map<string, string[]>();
  readonly #withText: boolean;

  /**
   * @param opts.withText whether the messages may quote the files' text (default true); false for a run whose
   *   report goes to someone who may not read the files (a queued job: see ReplayFormatError.messageWithoutText).
   */
  constructor(opts: { withText?: boolean } = {}) {
    this.#withText = opts.withText ?? true;
  }

  /** A reader's `onError`: keeps the first few messages of each file. */
  readonly onError = (e: ReplayFormatError): void => {
    let quoted = this.#first.get(e.file);
    if (!quoted) this.#first.set(e.file, (quoted = []));
    if (quoted.length < QUOTED) quoted.push(this.#withText ? e.message : e.messageWithoutText());
  };

  /**
   * One sentence per file that lost lines (or was cut off), in the readers' order: the count (the reader's own, so
   * a reader given no `onError` is still counted) and the first messages.
   */
  warnings(readers: readonly MarketDataReader[]): string[] {
    const out: string[] = [];
    for (const r of readers) {
      const quoted = this.#first.get(r.source) ?? [];
      const n = r.summary().errors;
      if (n === 0 && quoted.length === 0) continue;
      const more = n > quoted.length ? '; …' : '';
      // a cut-off file whose cut tore no line skipped nothing, but the user still learns where it stops
      if (n === 0) out.push(quoted.join('; '));
      else out.push(`${r.source}: ${n === 1 ? '1 bad line' : `${n} bad lines`} skipped (onBadLine: skip)${quoted.length > 0 ? `: ${quoted.join('; ')}${more}` : ''}`);
    }
    return out;
  }
}
