/**
 * Loading a capture for replay: read the files (this module and recorded-markets.ts are the driver's only file
 * system access), parse them with the readers and build the timeline. {@link replayFromTexts} does the same from
 * in-memory text, which is what tests and embedders with their own storage use.
 */
import { closeSync, constants as fsConstants, fstatSync, openSync, readFileSync } from 'node:fs';
import { constants, gunzipSync } from 'node:zlib';
import { CutOffError, isGzipCutOff, type ReaderOptions, type ReplayFormatError } from './replay-error.js';
import type { ReaderResult } from './replay-events.js';
import { readHttpCapture } from './replay-http-reader.js';
import { isRexbotRecording, readRexbotRecording } from './replay-recording-reader.js';
import { type ReplayTimeline, type TimelineOptions, buildReplayTimeline } from './replay-timeline.js';
import { readWsCapture } from './replay-ws-reader.js';
import { readV1WsCapture } from './replay-v1-ws-reader.js';
import { notAFile } from '../../core/file-kind.js';

/**
 * Capture files: hub sessions (`BITTREX.ws.*`), REST responses (`BITTREX.http.*`), `rexbot record` files
 * (`*.jsonl.gz`, snapshots and messages in one) and legacy v1.1 hub sessions (`v1Ws`,
 * shared/data/bittrex-v1-ws-2021/, which carry their own snapshots). A rexbot recording is recognised by its
 * header wherever it is listed, so one named under `ws` or `http` is read as what it is.
 */
export interface ReplayFiles {
  ws?: readonly string[];
  http?: readonly string[];
  recordings?: readonly string[];
  v1Ws?: readonly string[];
}

/**
 * The most a capture file may hold, on disk and once gunzipped: 256 MiB. Far above any real capture (the largest
 * under shared/data and test/fixtures is 1.6 MB, BITTREX-e15191.0.decoded.jsonl; the 2021 captures are 0.1 to 1 MB)
 * and roomy for a long `rexbot record` file, yet half of V8's longest string (512 MiB, which the text must fit in)
 * and a size whose parse fits the default heap. Without it a gzip bomb (a few MB inflating to GBs) was inflated whole
 * and the simulator died out of memory with a V8 stack trace.
 */
export const MAX_REPLAY_FILE_BYTES = 256 * 1024 * 1024;

/** Options of {@link loadReplayFiles}. */
export interface LoadOptions extends ReaderOptions, TimelineOptions {
  /** The most a file may hold, on disk and gunzipped ({@link MAX_REPLAY_FILE_BYTES} by default). */
  maxFileBytes?: number;
}

/** In-memory capture text, each with the name used in error messages. */
export interface ReplayTexts {
  ws?: ReadonlyArray<{ file: string; text: string }>;
  http?: ReadonlyArray<{ file: string; text: string }>;
  recordings?: ReadonlyArray<{ file: string; text: string }>;
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
  const all = [...(texts.recordings ?? []), ...(texts.http ?? []), ...(texts.ws ?? [])];
  const recordings = all.filter((t) => isRexbotRecording(t.text));
  const captures = (list: ReplayTexts['ws']) => (list ?? []).filter((t) => !isRexbotRecording(t.text));
  const results: ReaderResult[] = [
    ...captures(texts.http).map((t) => readHttpCapture(t.text, t.file, opts)),
    ...captures(texts.ws).map((t) => readWsCapture(t.text, t.file, opts)),
    ...(texts.v1Ws ?? []).map((t) => readV1WsCapture(t.text, t.file, opts)),
    // Recordings last: the depth below is read from the last results.
    ...recordings.map((t) => readRexbotRecording(t.text, t.file, opts)),
  ];
  for (const t of captures(texts.recordings)) {
    throw new Error(`${t.file}:1: is not a rexbot recording (no {"format":"rexbot-recording",...} header line)`);
  }
  const ignored: Record<string, number> = {};
  for (const r of results) for (const [k, n] of Object.entries(r.ignored)) ignored[k] = (ignored[k] ?? 0) + n;
  const timelineOpts: TimelineOptions = {};
  if (opts.markets) timelineOpts.markets = opts.markets;
  if (opts.depth !== undefined) timelineOpts.depth = opts.depth;
  else {
    // A rexbot recording follows the depth it subscribed to (orderbook_BTC-USD_25), not the captures' 500.
    const recorded = results.slice(results.length - recordings.length).flatMap((r) => r.events).find((e) => e.kind === 'orderBookDelta');
    if (recorded?.kind === 'orderBookDelta') timelineOpts.depth = recorded.depth;
  }
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
export function loadReplayFiles(files: ReplayFiles, opts: LoadOptions = {}): LoadedReplay {
  // Synchronous: a capture is read once, before the replay starts, and a bad file should fail the setup.
  const read = (path: string) => ({ file: path, text: readText(path, opts) });
  return replayFromTexts(
    { ws: (files.ws ?? []).map(read), http: (files.http ?? []).map(read), recordings: (files.recordings ?? []).map(read), v1Ws: (files.v1Ws ?? []).map(read) },
    opts,
  );
}

/**
 * A file's text, gunzipped when it is gzip (by its magic bytes: `rexbot record` writes `.jsonl.gz`). Only a regular
 * file is read (a FIFO with no writer held the simulator for good), and at most `opts.maxFileBytes` of it, on disk or
 * inflated. A gzip file cut off mid-stream (a killed recorder) follows the backtest readers' rule: `fail` stops naming
 * the last complete line, `skip` reports the cut once and keeps every complete line before it.
 */
function readText(path: string, opts: LoadOptions): string {
  const max = opts.maxFileBytes ?? MAX_REPLAY_FILE_BYTES;
  const bytes = readRegularFile(path, max);
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    // maxOutputLength makes zlib throw once the output passes the bound, instead of allocating without one.
    try {
      return gunzipSync(bytes, { maxOutputLength: max }).toString('utf8');
    } catch (err) {
      if (isOverLimit(err)) throw inflatedTooLarge(path, max, err);
      if (!isGzipCutOff(err)) throw new Error(`${path}: is not valid gzip: ${(err as Error).message}`, { cause: err });
      // what the recorder flushed before the cut decodes without the gzip end
      let text: string;
      try {
        text = gunzipSync(bytes, { maxOutputLength: max, finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
      } catch (again) {
        throw isOverLimit(again) ? inflatedTooLarge(path, max, again) : again;
      }
      const whole = text.lastIndexOf('\n') + 1;
      let lastLine = 0;
      for (let i = text.indexOf('\n'); i !== -1 && i < whole; i = text.indexOf('\n', i + 1)) lastLine++;
      const torn = whole < text.length;
      if ((opts.onBadLine ?? 'fail') === 'fail') throw new CutOffError(path, lastLine, torn, 'fail', { cause: err });
      opts.onError?.(new CutOffError(path, lastLine, torn, 'skip', { cause: err }));
      return text.slice(0, whole);
    }
  }
  return bytes.toString('utf8');
}

function isOverLimit(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'ERR_BUFFER_TOO_LARGE';
}

function inflatedTooLarge(path: string, max: number, cause: unknown): Error {
  return new Error(`${path}: inflates to more than ${max} bytes; a replay file is at most ${max} gunzipped (is it the right file?)`, { cause });
}

/** The bytes of `path` if it is a regular file of at most `max` bytes; otherwise an error naming it. */
function readRegularFile(path: string, max: number): Buffer {
  // Non-blocking: opening a FIFO for reading otherwise waits for a writer, and nothing could end the wait.
  const fd = openSync(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  try {
    // Checked on the descriptor that is read (as config files are, src/runtime/config/config-file.ts): what was
    // checked is what is read, whatever replaced the path since the config was validated.
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`${path}: is ${notAFile(st)}, not a file`);
    if (st.size > max) throw new Error(`${path}: is ${st.size} bytes; a replay file is at most ${max} (is it the right file?)`);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
