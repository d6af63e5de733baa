/**
 * Reads a `rexbot record` file (the rexbot recording format, src/recorder/recording-format.ts) into replay events,
 * so `rexbot sim`'s replay driver replays what rexbot itself recorded: the order-book snapshot lines become
 * snapshots (with their Sequence), the `orderBook`, `ticker` and `trade` message lines become stream events;
 * other messages, heartbeats and connection events are counted as ignored. The timeline then synchronizes them
 * by sequence exactly as it does a hub capture with its REST snapshots.
 *
 * Takes the text (gunzipped by the loader, see {@link isRexbotRecording}); errors name the file and line.
 */
import { decodeStreamMessage, streamMessageName } from '../../bittrex/hub/messages.js';
import { decode } from '../../model/decode.js';
import { decodeOrderBook } from '../../model/market.js';
import { RECORDING_FORMAT, RECORDING_VERSION } from '../../recorder/recording-format.js';
import { type LineRef, type ReaderOptions, ReplayFormatError } from './replay-error.js';
import type { ReaderResult, ReplayEvent } from './replay-events.js';
import { type ParsedLine, readCaptureLines } from './replay-lines.js';

/** Hub messages the replay uses (as in the hub-capture reader). */
const USED = new Set(['orderBook', 'ticker', 'trade']);
const ORDERBOOK_SNAPSHOT_RE = /^\/markets\/([^/?]+)\/orderbook(?:\?|$)/;

/** True when `text` starts with a rexbot recording header line. */
export function isRexbotRecording(text: string): boolean {
  return /^\{\s*"format"\s*:\s*"rexbot-recording"/.test(text);
}

/**
 * Parse a rexbot recording's text into replay events.
 *
 * @example
 * const r = readRexbotRecording(gunzipSync(readFileSync('rec.jsonl.gz')).toString('utf8'), 'rec.jsonl.gz');
 * r.events[0]; // { kind: 'snapshot', marketSymbol: 'BTC-USD', sequence: 1041, ... }
 */
export function readRexbotRecording(text: string, file: string, opts: ReaderOptions = {}): ReaderResult {
  return readCaptureLines(text, file, opts, (line, ref) => parseLine(line, ref));
}

function parseLine(line: string, ref: LineRef): ParsedLine {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(line) as Record<string, unknown>;
  } catch (err) {
    throw new ReplayFormatError(ref, `is not JSON: ${(err as Error).message}`, { withoutText: 'is not JSON' });
  }
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) throw new ReplayFormatError(ref, 'is not a JSON object');
  if (ref.line === 1) {
    if (rec['format'] !== RECORDING_FORMAT) throw new ReplayFormatError(ref, `is not a rexbot recording header (format ${JSON.stringify(rec['format'])})`, { withoutText: 'is not a rexbot recording header' });
    if (typeof rec['version'] !== 'number' || rec['version'] > RECORDING_VERSION) {
      throw new ReplayFormatError(ref, `has recording version ${JSON.stringify(rec['version'])}; this rexbot reads up to ${RECORDING_VERSION}`, {
        withoutText: `has a recording version this rexbot does not read (up to ${RECORDING_VERSION})`,
      });
    }
    return { events: [], ignored: ['header'] };
  }
  const at = rec['t'];
  if (typeof at !== 'number' || !Number.isFinite(at)) throw new ReplayFormatError(ref, 'has no numeric "t"');
  if (typeof rec['snapshot'] === 'string') return snapshotLine(rec, at, ref);
  if (typeof rec['event'] === 'string') return { events: [], ignored: [`event:${rec['event']}`] };
  const name = rec['name'];
  if (typeof name !== 'string') throw new ReplayFormatError(ref, 'is neither a message ("name"), a snapshot ("snapshot") nor an event ("event")');
  const canonical = streamMessageName(name);
  if (canonical === undefined || !USED.has(canonical)) return { events: [], ignored: [name] };
  const msg = decodeStreamMessage(canonical, rec['payload']);
  const events: ReplayEvent[] = [];
  if (msg.name === 'orderBook') {
    const d = msg.data;
    events.push({ kind: 'orderBookDelta', at, marketSymbol: d.marketSymbol, depth: d.depth, sequence: d.sequence, bidDeltas: d.bidDeltas, askDeltas: d.askDeltas, source: ref });
  } else if (msg.name === 'ticker') {
    events.push({ kind: 'ticker', at, marketSymbol: msg.data.symbol, ticker: msg.data, source: ref });
  } else if (msg.name === 'trade') {
    events.push({ kind: 'trade', at, marketSymbol: msg.data.marketSymbol, sequence: msg.data.sequence, trades: msg.data.deltas, source: ref });
  }
  return { events, ignored: [] };
}

function snapshotLine(rec: Record<string, unknown>, at: number, ref: LineRef): ParsedLine {
  const path = ORDERBOOK_SNAPSHOT_RE.exec(rec['snapshot'] as string);
  if (!path) return { events: [], ignored: [`snapshot:${String(rec['channel'] ?? rec['snapshot'])}`] };
  const sequence = rec['sequence'];
  if (typeof sequence !== 'number' || !Number.isInteger(sequence)) throw new ReplayFormatError(ref, 'has an order-book snapshot without an integer "sequence"');
  const book = decode(decodeOrderBook, rec['body'], `snapshot ${rec['snapshot'] as string}`);
  for (const [side, levels] of [['bid', book.bid], ['ask', book.ask]] as const) {
    levels.forEach((l, i) => {
      // A snapshot lists existing levels only: a zero or negative level would corrupt the book.
      if (!(l.quantity.gt(0) && l.rate.gt(0))) throw new ReplayFormatError(ref, `${side}[${i}] is not a positive level: ${l.quantity.toFixed()} @ ${l.rate.toFixed()}`);
    });
  }
  const marketSymbol = decodeURIComponent(path[1]!).toUpperCase();
  return { events: [{ kind: 'snapshot', at, marketSymbol, sequence, bid: book.bid, ask: book.ask, source: ref }], ignored: [] };
}
