/**
 * Reader of a recorded hub session in cryptofeed's raw-data-collection format (`BITTREX.ws.1.0`, see
 * shared/data/bittrex-v3-ws-2021/README.txt), one line per message:
 *
 *     <wss url> <-> <ts>                      connect
 *     <wss url> <- <ts>: <sent json>          a frame the client sent (Subscribe invocations)
 *     <ts>: <received classic SignalR frame>  everything the server pushed
 *
 * Pushed hub messages carry base64 of raw-deflated JSON; they are decoded with the hub client's own codec and
 * message decoders, so the replay accepts exactly what a live client would. `orderBook`, `ticker` and `trade`
 * messages become {@link ReplayEvent}s; everything else well-formed (keep-alives, subscription results,
 * candles, heartbeats, ...) is counted in `ignored`. A line that does not parse is a {@link ReplayFormatError}
 * naming file and line; with `onBadLine: 'skip'` the WHOLE line is dropped (no message of it is half used).
 */
import { type ClassicFrame, parseClassicFrame } from '../../bittrex/hub/classic-frames.js';
import { type StreamMessage, streamMessageName } from '../../bittrex/hub/messages.js';
import { decodeStreamPayload } from '../../bittrex/hub/stream-payload.js';
import { type LineRef, type ReaderOptions, ReplayFormatError, asReplayFormatError } from './replay-error.js';
import { type ReaderResult, type ReplayEvent, recordedSecondsToMs } from './replay-events.js';
import { type ParsedLine, readCaptureLines } from './replay-lines.js';

const RECEIVED_RE = /^(\d+(?:\.\d+)?): (.*)$/s;
const CONNECT_RE = /^wss?:\/\/\S+ <-> (\d+(?:\.\d+)?)$/;
const SENT_RE = /^wss?:\/\/\S+ <- (\d+(?:\.\d+)?): /;

/** Hub messages the replay uses. */
const USED = new Set(['orderBook', 'ticker', 'trade']);

/**
 * Parse the text of a `BITTREX.ws.1.0`-style file. `file` names it in errors.
 *
 * @example
 * const { events } = readWsCapture(readFileSync(path, 'utf8'), 'BITTREX.ws.1.0');
 * events.filter((e) => e.kind === 'orderBookDelta').length; // 1015 for the 2021 capture
 */
export function readWsCapture(text: string, file: string, opts: ReaderOptions = {}): ReaderResult {
  return readCaptureLines(text, file, opts, parseLine);
}

/** One received line decoded: its time, the hub messages of the wanted names, and the names of the others. */
export interface DecodedCaptureLine {
  at: number;
  messages: StreamMessage[];
  /** Kinds of well-formed content not used (`connect`, `sent`, frame kinds, other hub methods). */
  ignored: string[];
}

/**
 * Decode one line of a `BITTREX.ws.*` file, keeping the hub messages named in `used` (canonical names, e.g.
 * `orderBook`). Throws {@link ReplayFormatError} naming `ref` for a malformed line; nothing is returned for it,
 * so a caller never half-applies a line. Shared with the backtest's streaming reader
 * (backtest/readers/bittrex-v3-ws.ts), which also keeps `candle` messages.
 */
export function decodeWsCaptureLine(line: string, ref: LineRef, used: ReadonlySet<string> = USED): DecodedCaptureLine {
  if (CONNECT_RE.test(line)) return { at: NaN, messages: [], ignored: ['connect'] };
  if (SENT_RE.test(line)) return { at: NaN, messages: [], ignored: ['sent'] };
  const m = RECEIVED_RE.exec(line);
  if (!m) throw new ReplayFormatError(ref, 'is neither "<ts>: <frame>", "<url> <- <ts>: <json>" nor "<url> <-> <ts>"');
  const at = recordedSecondsToMs(m[1] as string);
  if (at === undefined) throw new ReplayFormatError(ref, `bad timestamp ${m[1]}`, { withoutText: 'bad timestamp' });
  const frame = parseCaptureFrame(m[2] as string, ref);
  if (frame.kind !== 'push') return { at, messages: [], ignored: [frame.kind] };
  if (frame.messages.length === 0) return { at, messages: [], ignored: ['push-empty'] };

  const messages: StreamMessage[] = [];
  const skipped: string[] = [];
  frame.messages.forEach((push, i) => {
    const name = streamMessageName(push.method);
    if (name === undefined || !used.has(name)) {
      skipped.push(push.method);
      return;
    }
    const payload = push.args[0];
    if (typeof payload !== 'string') throw new ReplayFormatError(ref, `M[${i}] (${push.method}) has no payload`, { withoutText: `M[${i}] has no payload` });
    // The hub client's own decoding (with its order-book fast path): the same messages and errors as
    // decodeStreamMessage(name, decodePayload(payload)).
    try {
      messages.push(decodeStreamPayload(name, payload));
    } catch (err) {
      throw asReplayFormatError(err, ref, `${name} message`);
    }
  });
  return { at, messages, ignored: skipped };
}

/**
 * The classic SignalR frame of a received line at `ref`; a bad one is told without the file's text as
 * `hub frame: <field> <reason>`. Shared with the v1.1 capture reader.
 */
export function parseCaptureFrame(text: string, ref: LineRef): ClassicFrame {
  try {
    return parseClassicFrame(text);
  } catch (err) {
    throw asReplayFormatError(err, ref, 'hub frame');
  }
}

function parseLine(line: string, ref: LineRef): ParsedLine {
  const { at, messages, ignored } = decodeWsCaptureLine(line, ref);
  const events: ReplayEvent[] = [];
  for (const msg of messages) {
    if (msg.name === 'orderBook') {
      const d = msg.data;
      events.push({ kind: 'orderBookDelta', at, marketSymbol: d.marketSymbol, depth: d.depth, sequence: d.sequence, bidDeltas: d.bidDeltas, askDeltas: d.askDeltas, source: ref });
    } else if (msg.name === 'ticker') {
      events.push({ kind: 'ticker', at, marketSymbol: msg.data.symbol, ticker: msg.data, source: ref });
    } else if (msg.name === 'trade') {
      events.push({ kind: 'trade', at, marketSymbol: msg.data.marketSymbol, sequence: msg.data.sequence, trades: msg.data.deltas, source: ref });
    }
  }
  return { events, ignored };
}
