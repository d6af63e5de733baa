/**
 * Reader of recorded REST responses in cryptofeed's raw-data-collection format (`BITTREX.http.0.0`), one line
 * per response:
 *
 *     <url> -> <ts>: <json body> header: <json response headers>
 *
 * Order-book responses (`GET /v3/markets/{m}/orderbook?depth=N`) become {@link ReplaySnapshot}s carrying the
 * `Sequence` response header, which is what lets the timeline drop stream deltas the snapshot already contains
 * (seed rule 4). Responses of other endpoints are counted in `ignored`. Bodies are decoded with the model's
 * order-book decoder, so a bad decimal is reported with its field path, file and line.
 */
import { type OrderBook, decodeOrderBook } from '../../model/market.js';
import { decode } from '../../model/decode.js';
import { type LineRef, type ReaderOptions, ReplayFormatError, asReplayFormatError } from './replay-error.js';
import { type ReaderResult, type ReplaySnapshot, recordedSecondsToMs } from './replay-events.js';
import { readCaptureLines } from './replay-lines.js';

const LINE_RE = /^(\S+) -> (\d+(?:\.\d+)?): (.*)$/s;
const HEADER_SEP = ' header: ';
const ORDERBOOK_PATH_RE = /\/v3\/markets\/([^/?]+)\/orderbook$/i;

/**
 * Parse the text of a `BITTREX.http.0.0`-style file. `file` names it in errors.
 *
 * @example
 * const { events } = readHttpCapture(readFileSync(path, 'utf8'), 'BITTREX.http.0.0');
 * events[0]; // { kind: 'snapshot', marketSymbol: 'BTC-EUR', sequence: 3209228, bid: [...500], ask: [...500], ... }
 */
export function readHttpCapture(text: string, file: string, opts: ReaderOptions = {}): ReaderResult {
  return readCaptureLines(text, file, opts, (line, ref) => {
    const snapshot = parseHttpCaptureLine(line, ref);
    return snapshot ? { events: [snapshot], ignored: [] } : { events: [], ignored: ['other-endpoint'] };
  });
}

/**
 * One line of a `BITTREX.http.*` file: the order-book snapshot it records, or undefined for another endpoint.
 * Throws {@link ReplayFormatError} naming `ref` when the line is malformed. Shared with the backtest's streaming
 * reader (backtest/readers/bittrex-v3-ws.ts), which reads the file line by line instead of whole.
 */
export function parseHttpCaptureLine(line: string, ref: LineRef): ReplaySnapshot | undefined {
  const m = LINE_RE.exec(line);
  if (!m) throw new ReplayFormatError(ref, 'is not "<url> -> <ts>: <body> header: <headers>"');
  const [, urlText, ts, rest] = m as unknown as [string, string, string, string];
  const at = recordedSecondsToMs(ts);
  if (at === undefined) throw new ReplayFormatError(ref, `bad timestamp ${ts}`, { withoutText: 'bad timestamp' });
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    throw new ReplayFormatError(ref, `bad URL ${urlText}`, { withoutText: 'bad URL' });
  }
  const path = ORDERBOOK_PATH_RE.exec(url.pathname);
  if (!path) return undefined;
  const marketSymbol = decodeURIComponent(path[1] as string).toUpperCase();

  // Headers come last, so split at the LAST separator (a body could only contain it inside a string).
  const sep = rest.lastIndexOf(HEADER_SEP);
  if (sep < 0) throw new ReplayFormatError(ref, 'has no " header: " part (the Sequence header is needed)');
  const body = parseJson(rest.slice(0, sep), ref, 'body');
  const headers = parseJson(rest.slice(sep + HEADER_SEP.length), ref, 'header');
  const sequence = sequenceHeader(headers, ref);
  let book: OrderBook;
  try {
    book = decode(decodeOrderBook, body, `GET ${url.pathname}`);
  } catch (err) {
    // Named in the reader's words: the decoder's `where` quotes the recorded URL.
    throw asReplayFormatError(err, ref, 'orderBook snapshot');
  }
  for (const [side, levels] of [['bid', book.bid], ['ask', book.ask]] as const) {
    levels.forEach((l, i) => {
      // A snapshot lists existing levels only: a zero, negative or non-positive-rate level would corrupt the book.
      if (!l.quantity.isPositive() || l.quantity.isZero() || !l.rate.isPositive() || l.rate.isZero()) {
        throw new ReplayFormatError(ref, `${side}[${i}] is not a positive level: ${l.quantity.toFixed()} @ ${l.rate.toFixed()}`, { withoutText: `${side}[${i}] is not a positive level` });
      }
    });
  }
  const depth = Number(url.searchParams.get('depth'));
  const snapshot: ReplaySnapshot = { kind: 'snapshot', at, marketSymbol, sequence, bid: book.bid, ask: book.ask, source: ref };
  if (Number.isSafeInteger(depth) && depth > 0) snapshot.depth = depth;
  return snapshot;
}

function parseJson(text: string, ref: LineRef, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ReplayFormatError(ref, `${what} is not JSON: ${(err as Error).message}`, { withoutText: `${what} is not JSON` });
  }
}

function sequenceHeader(headers: unknown, ref: LineRef): number {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new ReplayFormatError(ref, 'header is not a JSON object');
  }
  // HTTP header names are case-insensitive.
  const entry = Object.entries(headers).find(([k]) => k.toLowerCase() === 'sequence');
  const value = entry?.[1];
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
    throw new ReplayFormatError(ref, `header has no valid Sequence: ${JSON.stringify(value)}`, { withoutText: 'header has no valid Sequence' });
  }
  return n;
}
