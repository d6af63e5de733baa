/**
 * Reads a rexbot recording (see recording-format.ts) line by line, checking each line's shape, so a backtest
 * either gets well-formed entries or an error that names the file and the line.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { constants, createGunzip } from 'node:zlib';
import { RexbotError } from '../core/errors.js';
import { CutOffError, isGzipCutOff } from '../sim/driver/replay-error.js';
import {
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordingEntry,
  type RecordingHeader,
  type RecordingRecord,
} from './recording-format.js';

/** A recording could not be read: `file:line` and what is wrong there (code `RECORDING_FORMAT`). */
export class RecordingFormatError extends RexbotError {
  readonly file: string;
  /** 1-based line number; for a damaged gzip stream, the line being read when it broke. */
  readonly line: number;
  constructor(file: string, line: number, problem: string, options?: { cause?: unknown }) {
    super('RECORDING_FORMAT', `${file}:${line}: ${problem}`, options);
    this.file = file;
    this.line = line;
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((c) => typeof c === 'string');
const EVENTS = new Set(['connected', 'reconnected', 'resubscribed', 'decode-error']);

/**
 * Check line 1 (already JSON-parsed); returns what is wrong, or the header. Exported for the backtest's
 * recording reader (backtest/readers/rexbot.ts), which applies a bad-line policy this reader does not have.
 */
export function readHeader(v: unknown): RecordingHeader | string {
  if (!isObj(v) || v.format !== RECORDING_FORMAT) return `not a rexbot recording (line 1 must have "format":"${RECORDING_FORMAT}")`;
  if (typeof v.version !== 'number' || !Number.isInteger(v.version) || v.version < 1) return `header "version" is not a version number`;
  if (v.version > RECORDING_VERSION) return `recording version ${v.version} is newer than this reader (${RECORDING_VERSION})`;
  if (!isTime(v.startedAt)) return 'header "startedAt" is not epoch milliseconds';
  if (!isStrings(v.channels)) return 'header "channels" is not a list of channel names';
  const s = v.source;
  if (!isObj(s) || typeof s.hub !== 'string' || typeof s.rest !== 'string' || (s.transport !== 'classic' && s.transport !== 'core')) {
    return 'header "source" needs hub, rest and transport (classic or core)';
  }
  return v as unknown as RecordingHeader;
}

/** Classify a line after the header (already JSON-parsed); returns what is wrong, or the entry. */
export function readEntry(v: unknown, line: number): RecordingEntry | string {
  if (!isObj(v)) return 'not a JSON object';
  if (!isTime(v.t)) return '"t" is not epoch milliseconds';
  if (typeof v.name === 'string' && v.event === undefined) {
    return { ...(v as unknown as RecordingEntry & { kind: 'message' }), kind: 'message', line };
  }
  if (typeof v.snapshot === 'string') {
    if (typeof v.channel !== 'string') return 'snapshot line without "channel"';
    if (!isSeq(v.sequence)) return 'snapshot "sequence" is not a non-negative integer';
    if (!('body' in v)) return 'snapshot line without "body"';
    return { ...(v as unknown as RecordingEntry & { kind: 'snapshot' }), kind: 'snapshot', line };
  }
  if (typeof v.event === 'string') {
    if (!EVENTS.has(v.event)) return `unknown event "${v.event}"`;
    return { ...(v as unknown as RecordingEntry & { kind: 'event' }), kind: 'event', line };
  }
  return 'neither a message ("name"), a snapshot ("snapshot") nor an event ("event") line';
}

/**
 * Read a recording: the header first, then every message, snapshot and event line, in file order. Throws
 * {@link RecordingFormatError} naming `file:line` for a missing or foreign header, a line that is not JSON or
 * not a known line shape, or a damaged gzip stream. A file cut off mid-stream (a recorder killed) delivers every
 * complete line before the cut, then fails saying so (the backtest reader's `onBadLine: skip` reads it to the cut).
 *
 * @example
 * for await (const r of readRecording('btc.jsonl.gz')) {
 *   if (r.kind === 'message' && r.name === 'orderBook') console.log(r.t, (r.payload as { sequence: number }).sequence);
 * }
 */
export async function* readRecording(file: string): AsyncGenerator<RecordingRecord, void, undefined> {
  const source = createReadStream(file);
  const gunzip = createGunzip();
  const lines = createInterface({ input: gunzip, crlfDelay: Infinity });
  let failure: Error | undefined;
  // A missing file or damaged gzip data ends the line stream; the error is reported after the complete lines.
  const fail = (e: Error): void => {
    failure ??= e;
    lines.close();
  };
  source.on('error', fail);
  gunzip.on('error', fail);
  // Flushed before the end: of a file cut off mid-stream (a recorder killed), the end's error lost the last output.
  source.on('end', () => gunzip.flush(constants.Z_SYNC_FLUSH, () => gunzip.end()));
  source.pipe(gunzip, { end: false });
  let n = 0;
  try {
    for await (const text of lines) {
      n++;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        throw new RecordingFormatError(file, n, `not JSON: ${(e as Error).message}`, { cause: e });
      }
      if (n === 1) {
        const header = readHeader(value);
        if (typeof header === 'string') throw new RecordingFormatError(file, n, header);
        yield { kind: 'header', line: n, header };
        continue;
      }
      const entry = readEntry(value, n);
      if (typeof entry === 'string') throw new RecordingFormatError(file, n, entry);
      yield entry;
    }
  } catch (e) {
    // readline rethrows its input's error here; it is reported below with the line it broke at.
    if (e instanceof RecordingFormatError) throw e;
    failure ??= e instanceof Error ? e : new Error(String(e));
  } finally {
    lines.close();
    source.destroy();
    gunzip.destroy();
  }
  if (failure) {
    const code = (failure as { code?: string }).code;
    const what =
      isGzipCutOff(failure) ? new CutOffError(file, n, false, 'fail').reason
      : code === 'ENOENT' ? 'no such file'
      : code?.startsWith('Z_') ? `damaged gzip data: ${failure.message}`
      : failure.message;
    throw new RecordingFormatError(file, n + 1, what, { cause: failure });
  }
  if (n === 0) throw new RecordingFormatError(file, 1, 'empty recording (no header line)');
}
