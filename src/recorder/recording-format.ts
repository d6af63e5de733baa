/**
 * The rexbot recording format, version 1: what `rexbot record` writes and what backtests replay.
 *
 * A recording is a gzip-compressed JSON-lines file (`*.jsonl.gz`): UTF-8, one JSON object per line, each line
 * ended by `\n`. Times (`t`, `startedAt`) are epoch milliseconds on the recorder's clock at reception.
 *
 * **Line 1, the header**
 * ```json
 * {"format":"rexbot-recording","version":1,"startedAt":1623628800000,
 *  "channels":["orderbook_BTC-USD_25","trade_BTC-USD","balance"],
 *  "source":{"hub":"https://socket-v3.bittrex.com/signalr","rest":"https://api.bittrex.com/v3","transport":"classic"}}
 * ```
 * `channels` are the hub subscriptions as asked for (seed section 6 names); `source` says where the data came
 * from. A reader must refuse a `format` it does not know or a `version` newer than it understands.
 *
 * **Stream message lines**, one per hub push, in the order received:
 * ```json
 * {"t":1623628800123,"name":"orderBook","payload":{"marketSymbol":"BTC-USD","depth":25,"sequence":1042,
 *  "bidDeltas":[{"quantity":"0.10000000","rate":"35000.00000000"}],"askDeltas":[]}}
 * {"t":1623628805000,"name":"heartbeat"}
 * ```
 * `name` is the hub method as sent (`orderBook`, `trade`, `balance`, ...; `heartbeat` has no payload).
 * `payload` is the decoded message — base64 and raw deflate undone — exactly as the service sent it: the JSON
 * text is copied, not re-serialised, so decimals stay the strings they were (`"0.10000000"`).
 *
 * **Snapshot lines**, one per REST snapshot the recorder took:
 * ```json
 * {"t":1623628800150,"snapshot":"/markets/BTC-USD/orderbook?depth=25","channel":"orderbook_BTC-USD_25",
 *  "sequence":1041,"body":{"bid":[...],"ask":[...]}}
 * ```
 * `snapshot` is the request path below the REST base URL (with its query), `sequence` its `Sequence` header,
 * `body` the JSON body (decimals are strings on the v3 interface, so they too are untouched). The recorder
 * takes a snapshot of every sequenced channel right after subscribing, and again whenever the seed's rule 4
 * asks for one: the snapshot was older than the first queued message, a sequence gap appeared, or the
 * connection was made again (or private streams were resubscribed after their authentication lapsed). Replaying
 * the lines in order through a rule-4 synchronizer therefore finds each snapshot it asks for as the next
 * snapshot line of its channel (see `replayRecording`). Channels without a sequence (`ticker_*`,
 * `market_summary_*`, `heartbeat`) get no snapshot: each of their messages is the full state.
 * For `execution` the snapshot is GET /executions/last-id (rule 5): it has the id of the latest execution, not
 * the executions themselves.
 *
 * **Event lines**, connection facts that explain what follows:
 * ```json
 * {"t":1623628900000,"event":"reconnected","epoch":2,"reason":"closed"}
 * {"t":1623629400000,"event":"resubscribed","epoch":2,"reason":"auth-lapsed","channels":["balance"]}
 * {"t":1623629400500,"event":"decode-error","name":"orderBook","reason":"is not raw deflate data: ..."}
 * ```
 * `connected` and `reconnected` start a connection (messages may have been lost before a `reconnected`);
 * `resubscribed` lists private channels that missed messages; `decode-error` is a push that could not be
 * decoded (it is not recorded otherwise).
 */

/** The `format` value of a rexbot recording header. */
export const RECORDING_FORMAT = 'rexbot-recording';
/** The version this code writes and the newest it reads. */
export const RECORDING_VERSION = 1;

/** Line 1 of a recording. */
export interface RecordingHeader {
  format: typeof RECORDING_FORMAT;
  version: number;
  /** Epoch ms when recording started. */
  startedAt: number;
  /** Hub subscriptions, as asked for. */
  channels: string[];
  source: { hub: string; rest: string; transport: 'classic' | 'core' };
}

/** A hub push as received. */
export interface RecordedMessage {
  t: number;
  /** Hub method name as sent, e.g. `orderBook`. */
  name: string;
  /** The decoded JSON payload, absent for `heartbeat`. */
  payload?: unknown;
}

/** A REST snapshot and its Sequence header. */
export interface RecordedSnapshot {
  t: number;
  /** Request path below the REST base URL, with query: `/markets/BTC-USD/orderbook?depth=25`. */
  snapshot: string;
  /** The hub channel the snapshot belongs to. */
  channel: string;
  sequence: number;
  body: unknown;
}

/** A connection fact. */
export interface RecordedEvent {
  t: number;
  event: 'connected' | 'reconnected' | 'resubscribed' | 'decode-error';
  epoch?: number;
  reason?: string;
  channels?: string[];
  /** The message name, for `decode-error`. */
  name?: string;
}

/** One line of a recording after line 1, classified; `line` is its 1-based line number in the file. */
export type RecordingEntry =
  | ({ kind: 'message'; line: number } & RecordedMessage)
  | ({ kind: 'snapshot'; line: number } & RecordedSnapshot)
  | ({ kind: 'event'; line: number } & RecordedEvent);

/** What {@link readRecording} yields: the header first, then every entry. */
export type RecordingRecord = { kind: 'header'; line: number; header: RecordingHeader } | RecordingEntry;

/** Where a snapshot of a channel comes from. */
export interface SnapshotEndpoint {
  /** Path below the REST base URL, percent-encoded, without the query. */
  path: string;
  query?: Record<string, string | number>;
  /** Private endpoints are signed with the API key. */
  signed: boolean;
}

/**
 * The REST snapshot behind a sequenced channel (rule 4's step (c) and rule 5), or undefined for a channel that
 * has none (`ticker_*`, `market_summary_*`, `heartbeat`). Throws for a channel the recorder cannot snapshot.
 *
 * @example
 * snapshotEndpoint('orderbook_BTC-USD_25') // { path: '/markets/BTC-USD/orderbook', query: { depth: 25 }, signed: false }
 * snapshotEndpoint('execution')            // { path: '/executions/last-id', signed: true }
 */
export function snapshotEndpoint(channel: string): SnapshotEndpoint | undefined {
  const enc = encodeURIComponent;
  let m = /^orderbook_(.+)_(1|25|500)$/.exec(channel);
  if (m) return { path: `/markets/${enc(m[1]!)}/orderbook`, query: { depth: Number(m[2]) }, signed: false };
  m = /^trade_(.+)$/.exec(channel);
  if (m) return { path: `/markets/${enc(m[1]!)}/trades`, signed: false };
  m = /^candle_(.+-.+?)_((?:MINUTE|HOUR|DAY)_\d+)$/.exec(channel);
  if (m) return { path: `/markets/${enc(m[1]!)}/candles/${m[2]}/recent`, signed: false };
  switch (channel) {
    case 'tickers':
      return { path: '/markets/tickers', signed: false };
    case 'market_summaries':
      return { path: '/markets/summaries', signed: false };
    case 'balance':
      return { path: '/balances', signed: true };
    case 'order':
      return { path: '/orders/open', signed: true };
    case 'conditional_order':
      return { path: '/conditional-orders/open', signed: true };
    case 'deposit':
      return { path: '/deposits/open', signed: true };
    case 'execution':
      return { path: '/executions/last-id', signed: true };
  }
  if (channel.startsWith('subaccounts_')) {
    throw new RangeError(`${channel}: sub-account streams carry one sequence per sub-account and have no single snapshot to record`);
  }
  return undefined;
}

/** The snapshot path as written in a recording: path plus query. */
export function snapshotPath(endpoint: SnapshotEndpoint): string {
  const q = Object.entries(endpoint.query ?? {}).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return q.length > 0 ? `${endpoint.path}?${q.join('&')}` : endpoint.path;
}

/**
 * The channel a recorded push belongs to, from its raw payload (the wire does not say): the plain channel name
 * for market data and the account's own streams; undefined for heartbeat and unsequenced pushes.
 */
export function channelOfPayload(name: string, payload: unknown): string | undefined {
  const p = (payload ?? {}) as Record<string, unknown>;
  switch (name.toLowerCase()) {
    case 'orderbook':
      return `orderbook_${String(p.marketSymbol)}_${String(p.depth)}`;
    case 'trade':
      return `trade_${String(p.marketSymbol)}`;
    case 'candle':
      return `candle_${String(p.marketSymbol)}_${String(p.interval)}`;
    case 'tickers':
      return 'tickers';
    case 'marketsummaries':
      return 'market_summaries';
    case 'balance':
    case 'order':
    case 'deposit':
    case 'execution':
      return name.toLowerCase();
    case 'conditionalorder':
      return 'conditional_order';
    default:
      return undefined;
  }
}
