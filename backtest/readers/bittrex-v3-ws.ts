/**
 * Reader of raw Bittrex v3 captures in cryptofeed's raw-data-collection format (format name `bittrex-v3-ws`), as in
 * `shared/data/bittrex-v3-ws-2021/`: a hub session file (`BITTREX.ws.1.0`) and a REST responses file
 * (`BITTREX.http.0.0`). Either file, plain or gzipped, is read line by line; each line says what it is:
 *
 *     <wss url> <-> <ts>                                   connect                     → ignored `connect`
 *     <wss url> <- <ts>: <sent json>                       a frame the client sent      → ignored `sent`
 *     <ts>: <classic SignalR frame>                        what the server pushed       → events
 *     <https url> -> <ts>: <json body> header: <headers>   a REST response              → `snapshot` or ignored
 *
 * `<ts>` is epoch seconds with a fraction (rounded to ms). Pushed hub messages carry base64 of raw-deflated JSON in
 * `M[i].A[0]`, decoded with the hub client's own codec and message decoders (src/sim/driver/replay-ws-reader.ts),
 * so the reader accepts exactly what a live client would.
 *
 * **Events**: `orderBook` → `orderBookDelta`; `trade` → `trade`; `ticker`/`tickers` → `ticker`; `candle` →
 * `candle` with `final: false`; `GET /v3/markets/{m}/orderbook?depth=N` responses → `snapshot` carrying the
 * `Sequence` response header. Keep-alives, subscription results, other hub methods and other endpoints are
 * counted in `ignored` by kind. List the http file before the ws file in the data config: the backtest's time merge
 * then plays a snapshot before deltas stamped the same millisecond.
 *
 * **Errors**: a line of none of these shapes, a bad timestamp, a payload that is not raw deflate or not the v3
 * message it names, or a snapshot without a valid `Sequence` header is a {@link ReplayFormatError}
 * `file:line: reason`; with `onBadLine: 'skip'` the whole line is dropped (no message of it is half used).
 *
 * **Params**: none.
 */
import { decodeWsCaptureLine } from '../../src/sim/driver/replay-ws-reader.js';
import { parseHttpCaptureLine } from '../../src/sim/driver/replay-http-reader.js';
import type { LineRef } from '../../src/sim/driver/replay-error.js';
import { type LineParser, type ParseSink, lineReader } from './line-reader.js';
import type { MarketDataReader, ReaderFactory, ReaderOpenOptions } from './reader.js';
import { MARKET_MESSAGES, emitMessage } from './stream-events.js';

/**
 * Open a v3 capture file (hub session or REST responses).
 *
 * @example
 * const reader = openBittrexV3Capture('../shared/data/bittrex-v3-ws-2021/BITTREX.ws.1.0', {});
 * for await (const batch of reader.batches()) handle(batch);
 * reader.summary(); // { events: 1177, errors: 0, ignored: { connect: 1, sent: 18, ... } }
 */
export const openBittrexV3Capture: ReaderFactory = (path: string, opts: ReaderOpenOptions): MarketDataReader =>
  lineReader(path, opts, () => captureParser);

const captureParser: LineParser = {
  line(text: string, ref: LineRef, out: ParseSink): void {
    if (text.startsWith('http')) {
      const snapshot = parseHttpCaptureLine(text, ref);
      if (snapshot) out.event(snapshot);
      else out.ignore('other-endpoint');
      return;
    }
    // Decoded whole before anything is emitted, so a bad message anywhere in the frame drops the whole line.
    const { at, messages, ignored } = decodeWsCaptureLine(text, ref, MARKET_MESSAGES);
    for (const kind of ignored) out.ignore(kind);
    for (const msg of messages) emitMessage(msg, at, ref, out);
  },
};
