/**
 * Reader of recorded v1.1 hub sessions (hub `c2`) in cryptofeed's raw-data-collection format, as in
 * shared/data/bittrex-v1-ws-2021/ (`BITTREX.ws.21.0`, `BITTREX-e15191.0`), one line per message:
 *
 *     configuration: {...}                    the recorder's settings            → ignored `configuration`
 *     <wss url> <-> <ts>                      connect                            → ignored `connect`
 *     <wss url> <- <ts>: <sent json>          a sent invocation                  → ignored `sent` (its market noted)
 *     <ts>: {"R":"<base64>","I":"3"}          a QueryExchangeState result        → `snapshot`
 *     <ts>: {"C":…,"M":[{"H":"C2","M":"uE",…}]} pushes                           → events
 *
 * Everything goes into the v3 model through the shared v1.1 mapping (wire/v1): market names reversed
 * (`USD-UMA` → `UMA-USD`), the per-connection Nonce as the book's sequence, v1.1 REMOVE rows (or quantity 0) as
 * v3's quantity-0 removals, fills as v3 trades (int FillId as the id, OrderType as takerSide). A uE becomes an
 * `orderBookDelta` (depth 500: v1.1 served the whole book, and 500 is the deepest v3 stream) and, when it has
 * fills, a `trade` with the same sequence. uS becomes `ticker`s for the markets the session follows (sent
 * invocations, snapshots, uE). The snapshot's recent fills are history before the capture starts: counted in
 * `ignored` as `snapshot-fills`, or emitted as one `trade` at the snapshot's time with `snapshotFills: true`.
 *
 * The QueryExchangeState result carries no market besides its payload's `M`, and the recorder reused call ids
 * across methods, so results are recognised by their payload, not their id: a string `R` is a compressed state.
 */
import type { OrderBookEntry, Trade } from '../../model/market.js';
import { tradeFromV1 } from '../../wire/v1/mapping/market-data.js';
import { symbolFromV1 } from '../../wire/v1/mapping/market-data.js';
import { exchangeDeltaFromV1 } from '../../wire/v1/mapping/streams.js';
import type { V1MessageName, V1Messages, V1StateFill } from '../../wire/v1/hub/messages.js';
import { decodeV1Payload } from '../../wire/v1/hub/protocol.js';
import { type LineRef, type ReaderOptions, ReplayFormatError, asReplayFormatError } from './replay-error.js';
import { type ReaderResult, type ReplayEvent, recordedSecondsToMs } from './replay-events.js';
import { type ParsedLine, readCaptureLines } from './replay-lines.js';
import { parseCaptureFrame } from './replay-ws-reader.js';

const RECEIVED_RE = /^(\d+(?:\.\d+)?): (.*)$/s;
const CONNECT_RE = /^wss?:\/\/\S+ <-> (\d+(?:\.\d+)?)$/;
const SENT_RE = /^wss?:\/\/\S+ <- (\d+(?:\.\d+)?): (.*)$/s;

/** Options of the v1.1 capture reader. */
export interface V1CaptureOptions extends ReaderOptions {
  /** Emit each snapshot's recent fills as one `trade` event at the snapshot's time; default false. */
  snapshotFills?: boolean;
}

/** The state one capture file's lines share: which markets the session follows. */
export interface V1CaptureState {
  /** v3 symbols. */
  markets: Set<string>;
  snapshotFills: boolean;
}

/** A fresh state for one file. */
export function newV1CaptureState(opts: V1CaptureOptions = {}): V1CaptureState {
  return { markets: new Set(), snapshotFills: opts.snapshotFills ?? false };
}

/**
 * Parse the text of a v1.1 capture file. `file` names it in errors.
 *
 * @example
 * const { events } = readV1WsCapture(readFileSync(path, 'utf8'), 'BITTREX.ws.21.0');
 */
export function readV1WsCapture(text: string, file: string, opts: V1CaptureOptions = {}): ReaderResult {
  const state = newV1CaptureState(opts);
  return readCaptureLines(text, file, opts, (line, ref) => parseV1CaptureLine(line, ref, state));
}

const levels = (rows: readonly { Quantity: OrderBookEntry['quantity']; Rate: OrderBookEntry['rate'] }[]): OrderBookEntry[] =>
  rows.map((r) => ({ quantity: r.Quantity, rate: r.Rate }));

function stateTrade(f: V1StateFill): Trade {
  return tradeFromV1({ Id: f.Id, TimeStamp: f.TimeStamp, Quantity: f.Quantity, Price: f.Price, Total: f.Total, FillType: f.FillType, OrderType: f.OrderType, Uuid: f.Uuid ?? null });
}

/** A v1.1 payload decoded at `ref`; a bad one is told without the file's text as `<name> payload: <field> <reason>`. */
function payloadAt<K extends V1MessageName>(name: K, base64: unknown, ref: LineRef): V1Messages[K] {
  try {
    return decodeV1Payload(name, base64);
  } catch (err) {
    throw asReplayFormatError(err, ref, `${name} payload`);
  }
}

/**
 * What one line of a v1.1 capture means. Throws {@link ReplayFormatError} (or a WireFormatError the caller wraps)
 * for a line it cannot read; nothing is emitted for such a line.
 */
export function parseV1CaptureLine(line: string, ref: LineRef, state: V1CaptureState): ParsedLine {
  if (line.startsWith('configuration: ')) return { events: [], ignored: ['configuration'] };
  if (CONNECT_RE.test(line)) return { events: [], ignored: ['connect'] };
  const sent = SENT_RE.exec(line);
  if (sent) {
    // The markets the session asks about: uS tickers are kept for these.
    try {
      const inv = JSON.parse(sent[2] as string) as { A?: unknown };
      const market = Array.isArray(inv.A) ? inv.A[0] : undefined;
      if (typeof market === 'string') state.markets.add(symbolFromV1(market));
    } catch {
      // A sent frame is the recorder's own output; one it cannot read carries nothing the replay needs.
    }
    return { events: [], ignored: ['sent'] };
  }
  const m = RECEIVED_RE.exec(line);
  if (!m) throw new ReplayFormatError(ref, 'is neither "<ts>: <frame>", "<url> <- <ts>: <json>", "<url> <-> <ts>" nor "configuration: <json>"');
  const at = recordedSecondsToMs(m[1] as string);
  if (at === undefined) throw new ReplayFormatError(ref, `bad timestamp ${m[1]}`, { withoutText: 'bad timestamp' });
  const frame = parseCaptureFrame(m[2] as string, ref);

  if (frame.kind === 'result') {
    if (typeof frame.result !== 'string') return { events: [], ignored: ['result'] };
    const s = payloadAt('QueryExchangeState', frame.result, ref);
    const marketSymbol = symbolFromV1(s.MarketName);
    state.markets.add(marketSymbol);
    const events: ReplayEvent[] = [{ kind: 'snapshot', at, marketSymbol, sequence: s.Nonce, bid: levels(s.Buys), ask: levels(s.Sells), source: ref }];
    if (state.snapshotFills && s.Fills.length > 0) {
      // Oldest first, like a trade stream.
      events.push({ kind: 'trade', at, marketSymbol, sequence: s.Nonce, trades: s.Fills.map(stateTrade).reverse(), source: ref });
      return { events, ignored: [] };
    }
    return { events, ignored: s.Fills.length > 0 ? ['snapshot-fills'] : [] };
  }
  if (frame.kind !== 'push') return { events: [], ignored: [frame.kind] };
  if (frame.messages.length === 0) return { events: [], ignored: ['push-empty'] };

  // Decoded whole before anything is returned, so a bad message anywhere drops the whole line.
  const events: ReplayEvent[] = [];
  const ignored: string[] = [];
  frame.messages.forEach((push, i) => {
    const payload = push.args[0];
    if (push.method === 'uE') {
      if (typeof payload !== 'string') throw new ReplayFormatError(ref, `M[${i}] (uE) has no payload`);
      const d = exchangeDeltaFromV1(payloadAt('uE', payload, ref));
      const marketSymbol = d.marketSymbol;
      state.markets.add(marketSymbol);
      events.push({ kind: 'orderBookDelta', at, marketSymbol, depth: 500, sequence: d.sequence, bidDeltas: d.bidDeltas, askDeltas: d.askDeltas, source: ref });
      if (d.trades.length > 0) events.push({ kind: 'trade', at, marketSymbol, sequence: d.sequence, trades: d.trades, source: ref });
    } else if (push.method === 'uS') {
      if (typeof payload !== 'string') throw new ReplayFormatError(ref, `M[${i}] (uS) has no payload`);
      const s = payloadAt('uS', payload, ref);
      let others = false;
      for (const d of s.Deltas) {
        const marketSymbol = symbolFromV1(d.MarketName);
        if (!state.markets.has(marketSymbol)) {
          others = true;
          continue;
        }
        events.push({ kind: 'ticker', at, marketSymbol, ticker: { symbol: marketSymbol, lastTradeRate: d.Last, bidRate: d.Bid, askRate: d.Ask }, source: ref });
      }
      if (others) ignored.push('uS-other-markets');
    } else {
      ignored.push(push.method);
    }
  });
  return { events, ignored };
}
