/**
 * Loading a capture for replay: read the files (this module and recorded-markets.ts are the driver's only file
 * system access), parse them with the readers and build the timeline. {@link replayFromTexts} does the same from
 * in-memory text, which is what tests and embedders with their own storage use.
 */
import { readFileSync } from 'node:fs';
import type { ReaderOptions, ReplayFormatError } from './replay-error.js';
import type { ReaderResult } from './replay-events.js';
import { readHttpCapture } from './replay-http-reader.js';
import { type ReplayTimeline, type TimelineOptions, buildReplayTimeline } from './replay-timeline.js';
import { readWsCapture } from './replay-ws-reader.js';
import { readV1WsCapture } from './replay-v1-ws-reader.js';

/**
 * Capture files: hub sessions (`BITTREX.ws.*`), REST responses (`BITTREX.http.*`), and legacy v1.1 hub sessions
 * (`v1Ws`, shared/data/bittrex-v1-ws-2021/), which carry their own snapshots.
 */
export interface ReplayFiles {
  ws?: readonly string[];
  http?: readonly string[];
  v1Ws?: readonly string[];
}

/** In-memory capture text, each with the name used in error messages. */
export interface ReplayTexts {
  ws?: ReadonlyArray<{ file: string; text: string }>;
  http?: ReadonlyArray<{ file: string; text: string }>;
  v1Ws?: ReadonlyArray<{ file: string; text: string }>;
}

/** A loaded capture. */
export interface LoadedReplay {
  timeline: ReplayTimeline;
  /** Bad lines skipped (only with `onBadLine: 'skip'`). */
  errors: ReplayFormatError[];
  /** Well-formed content without use for the replay, counted by kind. */
  ignored: Record<string, number>;
}

/**
 * Parse capture text and build the timeline (snapshots first among equal times, since REST files are read first).
 *
 * @example
 * const { timeline } = replayFromTexts({ ws: [{ file: 'ws', text }], http: [{ file: 'http', text: httpText }] });
 */
export function replayFromTexts(texts: ReplayTexts, opts: ReaderOptions & TimelineOptions = {}): LoadedReplay {
  const results: ReaderResult[] = [
    ...(texts.http ?? []).map((t) => readHttpCapture(t.text, t.file, opts)),
    ...(texts.ws ?? []).map((t) => readWsCapture(t.text, t.file, opts)),
    ...(texts.v1Ws ?? []).map((t) => readV1WsCapture(t.text, t.file, opts)),
  ];
  const ignored: Record<string, number> = {};
  for (const r of results) for (const [k, n] of Object.entries(r.ignored)) ignored[k] = (ignored[k] ?? 0) + n;
  const timelineOpts: TimelineOptions = {};
  if (opts.markets) timelineOpts.markets = opts.markets;
  if (opts.depth !== undefined) timelineOpts.depth = opts.depth;
  return {
    timeline: buildReplayTimeline(results.map((r) => r.events), timelineOpts),
    errors: results.flatMap((r) => r.errors),
    ignored,
  };
}

/**
 * Read capture files and build the timeline. Errors name each file by the path given and the line.
 *
 * @example
 * const { timeline } = loadReplayFiles({ ws: ['data/BITTREX.ws.1.0'], http: ['data/BITTREX.http.0.0'] });
 */
export function loadReplayFiles(files: ReplayFiles, opts: ReaderOptions & TimelineOptions = {}): LoadedReplay {
  // Synchronous: a capture is read once, before the replay starts, and a bad file should fail the setup.
  const read = (path: string) => ({ file: path, text: readFileSync(path, 'utf8') });
  return replayFromTexts({ ws: (files.ws ?? []).map(read), http: (files.http ?? []).map(read), v1Ws: (files.v1Ws ?? []).map(read) }, opts);
}
