/**
 * Progress of a backtest in the terminal: on a TTY a cli-progress bar with the share of the data's time span
 * done, events, events/s and the ETA; otherwise (a log file, CI) one plain line every few seconds, so logs are
 * not flooded with redraws. The wall clock is read here only, for the rate and ETA a person watches; nothing
 * of it reaches the report.
 */
import cliProgress from 'cli-progress';
import { fmtDuration } from '../report/report-format.js';

/** What the backtest runner reports as it goes. */
export interface BacktestProgressEvent {
  events: number;
  /** Virtual time reached, epoch ms. */
  at: number;
  from: number;
  to: number;
  /** The run has no end time: `to` is only the time reached, and `read` (when known) says how far it has come. */
  open?: boolean | undefined;
  /** Share of the data files' bytes read, 0..1. */
  read?: number | undefined;
}

/** Where progress goes and how time is read (injectable for tests). */
export interface ProgressOptions {
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Wall-clock ms; `performance.now` by default. */
  now?: () => number;
  /** Plain-line mode: ms between lines. Default 5000. */
  intervalMs?: number;
  /** A label in front of the line, e.g. the sweep job's params. */
  label?: string;
}

/**
 * How far the run has come, 0..1: the fraction of `[from, to]` that `at` has reached, or for a run with no end
 * time the share of its data read; undefined when that is not known.
 */
export function doneFraction(p: BacktestProgressEvent): number | undefined {
  if (p.open) return p.read === undefined ? undefined : Math.min(1, Math.max(0, p.read));
  if (p.to <= p.from) return 1;
  return Math.min(1, Math.max(0, (p.at - p.from) / (p.to - p.from)));
}

/** Rate and ETA from events processed and wall time spent. */
export function progressFigures(p: BacktestProgressEvent, elapsedMs: number): { fraction: number | undefined; rate: number; etaMs: number | null } {
  const fraction = doneFraction(p);
  const rate = elapsedMs > 0 ? (p.events * 1000) / elapsedMs : 0;
  const etaMs = fraction !== undefined && fraction > 0 ? (elapsedMs * (1 - fraction)) / fraction : null;
  return { fraction, rate, etaMs };
}

/** One plain progress line. */
export function progressLine(p: BacktestProgressEvent, elapsedMs: number, label = 'backtest'): string {
  const { fraction, rate, etaMs } = progressFigures(p, elapsedMs);
  return `${label}: ${fraction === undefined ? '?' : (100 * fraction).toFixed(1)} % · ${p.events.toLocaleString('en-US')} events · ${Math.round(rate).toLocaleString('en-US')} events/s · ETA ${etaMs === null ? '?' : fmtDuration(etaMs)}`;
}

/**
 * A progress display; `update` it from the runner's `onProgress`, `stop` it when the run ends.
 *
 * @example
 * const progress = new BacktestProgress();
 * const { report } = await runBacktest({ configPath, onProgress: (p) => progress.update(p) });
 * progress.stop();
 */
export class BacktestProgress {
  readonly #stream: NodeJS.WritableStream & { isTTY?: boolean };
  readonly #now: () => number;
  readonly #interval: number;
  readonly #label: string;
  readonly #start: number;
  #bar: cliProgress.SingleBar | undefined;
  #lastLine = -Infinity;
  #last: BacktestProgressEvent | undefined;
  #lastPrinted: BacktestProgressEvent | undefined;

  constructor(opts: ProgressOptions = {}) {
    this.#stream = opts.stream ?? process.stderr;
    this.#now = opts.now ?? (() => performance.now());
    this.#interval = opts.intervalMs ?? 5000;
    this.#label = opts.label ?? 'backtest';
    this.#start = this.#now();
    if (this.#stream.isTTY) {
      this.#bar = new cliProgress.SingleBar(
        {
          stream: this.#stream,
          format: `${this.#label} {bar} {percentage}% | {events} events | {rate} events/s | ETA {etaText}`,
          hideCursor: true,
          clearOnComplete: false,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      );
      this.#bar.start(1000, 0, { events: '0', rate: '0', etaText: '?' });
    }
  }

  /** Show `p`. */
  update(p: BacktestProgressEvent): void {
    this.#last = p;
    const elapsed = this.#now() - this.#start;
    if (this.#bar) {
      const { fraction, rate, etaMs } = progressFigures(p, elapsed);
      this.#bar.update(Math.round((fraction ?? 0) * 1000), {
        events: p.events.toLocaleString('en-US'),
        rate: Math.round(rate).toLocaleString('en-US'),
        etaText: etaMs === null ? '?' : fmtDuration(etaMs),
      });
      return;
    }
    if (elapsed - this.#lastLine >= this.#interval) {
      this.#lastLine = elapsed;
      this.#lastPrinted = p;
      this.#stream.write(`${progressLine(p, elapsed, this.#label)}\n`);
    }
  }

  /** Finish the display (the bar at its last value; a final plain line unless the last update was printed). */
  stop(): void {
    if (this.#bar) {
      this.#bar.stop();
      return;
    }
    if (this.#last && this.#last !== this.#lastPrinted) this.#stream.write(`${progressLine(this.#last, this.#now() - this.#start, this.#label)}\n`);
  }
}
