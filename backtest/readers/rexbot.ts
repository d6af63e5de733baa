/**
 * Reader of rexbot recordings: what `rexbot record` writes (format name `rexbot`).
 *
 * **Format** (version 1, defined in src/recorder/recording-format.ts): a gzip-compressed JSON-lines file
 * (`*.jsonl.gz`; an uncompressed file is accepted too), one JSON object per line, times `t` in epoch ms:
 *
 *     {"format":"rexbot-recording","version":1,"startedAt":…,"channels":[…],"source":{…}}      line 1, header
 *     {"t":…,"name":"orderBook","payload":{"marketSymbol":"BTC-USD","depth":25,"sequence":1042,…}}
 *     {"t":…,"snapshot":"/markets/BTC-USD/orderbook?depth=25","channel":"orderbook_BTC-USD_25","sequence":1041,"body":{…}}
 *     {"t":…,"event":"reconnected","epoch":2,"reason":"closed"}
 *
 * **Events**: `orderBook` → `orderBookDelta`; `trade` → `trade`; `ticker` → `ticker` and `tickers` → one
 * `ticker` per market; `candle` → `candle` with `final: false` (the hub sends the forming candle); an order-book
 * snapshot line → `snapshot` with its `Sequence`, so the backtest's rule-4 sync drops the deltas it already
 * contains. Counted in `ignored` and not turned into events: other messages (`heartbeat`, `balance`, `order`,
 * `marketSummaries`, ... by name), snapshots of other endpoints (`snapshot:trades`, `snapshot:candles`, ...: a
 * trade snapshot lists past trades, which must not be replayed as new ones), and connection events
 * (`event:reconnected`, ...: the snapshot the recorder took after a reconnect follows as its own line).
 *
 * **Errors**: a missing or foreign header always fails (the file is not a recording). After it, a line that is not
 * JSON, not a known line shape, or whose payload does not decode as the v3 message it names (a book level's or
 * trade's rate or quantity out of range among them) is a {@link ReplayFormatError} `file:line: reason`, thrown or
 * skipped whole per `onBadLine`. A damaged gzip stream fails at the line it broke, after every complete line before
 * it.
 *
 * **Params**: none.
 */
import { decodeStreamMessage, streamMessageName } from '../../src/bittrex/hub/messages.js';
import { WireFormatError } from '../../src/core/errors.js';
import { type OrderBook, decodeOrderBook } from '../../src/model/market.js';
import { decode } from '../../src/model/decode.js';
import { readEntry, readHeader } from '../../src/recorder/recording-reader.js';
import type { RecordingEntry } from '../../src/recorder/recording-format.js';
import { type LineRef, ReplayFormatError, asReplayFormatError } from '../../src/sim/driver/replay-error.js';
import { type LineParser, type ParseSink, UnreadableFileError, lineReader } from './line-reader.js';
import type { MarketDataReader, ReaderFactory, ReaderOpenOptions } from './reader.js';
import { MARKET_MESSAGES, emitMessage, snapshotEvent } from './stream-events.js';
import { lineEnd, recordedLineFrom } from './recording-lines.js';

const ORDERBOOK_SNAPSHOT_RE = /^\/markets\/([^/?]+)\/orderbook(?:\?|$)/i;
const SNAPSHOT_KIND_RE = /^\/(?:markets\/[^/?]+\/)?([a-z-]+)/i;

/**
 * Open a rexbot recording.
 *
 * @example
 * const reader = openRexbotRecording('data/btc-usd.jsonl.gz', { markets: ['BTC-USD'] });
 * for await (const batch of reader.batches()) for (const e of batch) console.log(e.kind, e.at);
 */
export const openRexbotRecording: ReaderFactory = (path: string, opts: ReaderOpenOptions): MarketDataReader =>
  lineReader(path, opts, recordingParser);

/** A parser of one recording's lines (for {@link lineReader}; exported for tests that read lines another way). */
export function recordingParser(): LineParser {
  return new RecordingParser();
}

class RecordingParser implements LineParser {
  #header = false;

  /**
   * The hot lines, `orderBook` and `trade` messages in the recorder's canonical form, read from the bytes where they
   * lie in the block, without decoding them or JSON.parse (recording-lines.ts). Anything else answers -1 and
   * goes to {@link line}, the general way, which also writes every error.
   */
  bytesAt(bytes: Buffer, view: DataView, start: number, limit: number, ref: LineRef, out: ParseSink): number {
    if (!this.#header) return -1;
    const e = recordedLineFrom(bytes, view, ref, start, limit);
    if (e === undefined) return -1;
    out.event(e);
    return lineEnd.at;
  }

  line(text: string, ref: LineRef, out: ParseSink): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      const reason = `not JSON: ${(err as Error).message}`;
      const withoutText = { withoutText: 'not JSON' };
      throw this.#header ? new ReplayFormatError(ref, reason, withoutText) : new UnreadableFileError(ref, reason, withoutText);
    }
    if (!this.#header) {
      const header = ref.line === 1 ? readHeader(value) : 'the first line must be the recording header';
      // Without a header the file is not a recording: no policy can skip that.
      if (typeof header === 'string') throw new UnreadableFileError(ref, header, { withoutText: 'is not a rexbot recording header' });
      this.#header = true;
      return;
    }
    const entry = readEntry(value, ref.line);
    if (typeof entry === 'string') throw new ReplayFormatError(ref, entry, { withoutText: 'is not a recording entry' });
    this.#entry(entry, ref, out);
  }

  #entry(entry: RecordingEntry, ref: LineRef, out: ParseSink): void {
    switch (entry.kind) {
      case 'message': {
        const name = streamMessageName(entry.name);
        if (name === undefined || !MARKET_MESSAGES.has(name)) return out.ignore(name ?? entry.name);
        let msg;
        try {
          msg = decodeStreamMessage(name, entry.payload);
        } catch (err) {
          // Told without the file's text by field and reason, named by the canonical name (not the line's spelling).
          const withoutText = err instanceof WireFormatError ? err.messageWithoutValue(`${name} message`) : 'a message payload cannot be decoded';
          throw new ReplayFormatError(ref, `payload of ${entry.name}: ${(err as Error).message}`, { cause: err, withoutText });
        }
        return emitMessage(msg, entry.t, ref, out);
      }
      case 'snapshot': {
        const m = ORDERBOOK_SNAPSHOT_RE.exec(entry.snapshot);
        if (!m) return out.ignore(`snapshot:${SNAPSHOT_KIND_RE.exec(entry.snapshot)?.[1] ?? 'other'}`);
        let marketSymbol: string;
        try {
          marketSymbol = decodeURIComponent(m[1] as string).toUpperCase();
        } catch {
          throw new ReplayFormatError(ref, `snapshot path ${entry.snapshot} has a bad market symbol`, { withoutText: 'a snapshot path has a bad market symbol' });
        }
        let book: OrderBook;
        try {
          book = decode(decodeOrderBook, entry.body, `snapshot ${entry.snapshot}`);
        } catch (err) {
          // Named in the reader's words: the decoder's `where` quotes the line's snapshot path.
          throw asReplayFormatError(err, ref, 'orderBook snapshot');
        }
        const depth = Number(/[?&]depth=(\d+)/.exec(entry.snapshot)?.[1]);
        return out.event(snapshotEvent(book, marketSymbol, entry.sequence, entry.t, ref, depth > 0 ? depth : undefined));
      }
      case 'event':
        return out.ignore(`event:${entry.event}`);
    }
  }
}
