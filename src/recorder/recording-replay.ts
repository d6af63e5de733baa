/**
 * Replays a recording into stores through the same rule-4 synchronizers the live path uses: messages are
 * pushed in file order, each snapshot request is answered by the channel's next snapshot line, connection
 * events resync like the live client did, and time is the recording's (`t`) on a virtual clock. The stores end
 * up as a client following the recorded streams would have had them.
 */
import { VirtualClock, flushMicrotasks } from '../core/clock.js';
import { channelOf, decodeStreamMessage, parseChannelName, type StreamMessage } from '../bittrex/hub/messages.js';
import {
  arrayOf, decodeBalance, decodeCandle, decodeConditionalOrder, decodeDeposit, decodeExecutionLastId, decodeMarketSummary,
  decodeOrder, decodeOrderBook, decodeTicker, decodeTrade, type Decoder,
} from '../model/index.js';
import { AccountStore } from '../store/account-store.js';
import { MarketStore } from '../store/market-store.js';
import { syncBalances, syncConditionalOrders, syncDeposits, syncOrders } from '../sync/account-sync.js';
import { syncExecutions } from '../sync/execution-sync.js';
import { syncCandles, syncMarketSummaries, syncOrderBook, syncTickers, syncTrades } from '../sync/market-sync.js';
import type { SequencedSnapshot, Synchronizer, SyncStatus, SyncTuning } from '../sync/synchronizer.js';
import type { RecordedSnapshot, RecordingHeader, RecordingRecord } from './recording-format.js';
import { readRecording, RecordingFormatError } from './recording-reader.js';

/** Options of {@link replayRecording}. */
export interface ReplayOptions {
  /** Stores to write into; by default new ones. */
  market?: MarketStore | undefined;
  account?: AccountStore | undefined;
  /** Called after each entry is applied, with the replay clock's time (for observing a replay as it runs). */
  onEntry?: ((t: number) => void) | undefined;
}

/** Where one recorded channel ended up. */
export interface ReplayedChannel {
  status: SyncStatus;
  /** The sequence the channel was synchronized to at the end (undefined unless live). */
  sequence: number | undefined;
}

/** The outcome of a replay. */
export interface RecordingReplay {
  header: RecordingHeader;
  market: MarketStore;
  account: AccountStore;
  /** Lines after the header. */
  entries: number;
  /** Sequenced channels of the header, with their final state. */
  channels: ReadonlyMap<string, ReplayedChannel>;
}

type AnySync = Synchronizer<unknown, { readonly sequence: number }>;

/**
 * Replay `source` (a file path or the records of {@link readRecording}) into stores.
 *
 * Executions: the recording holds the `execution` stream and GET /executions/last-id, not the executions listed
 * by GET /executions, so executions missed before the recording started (or in a gap) are not recovered.
 *
 * @example
 * const replay = await replayRecording('btc.jsonl.gz');
 * replay.market.book('BTC-USD', 25)?.bestBid();
 * replay.channels.get('orderbook_BTC-USD_25'); // { status: { state: 'live', ... }, sequence: 1187 }
 */
export async function replayRecording(source: string | AsyncIterable<RecordingRecord>, opts: ReplayOptions = {}): Promise<RecordingReplay> {
  const file = typeof source === 'string' ? source : 'recording';
  const records = typeof source === 'string' ? readRecording(source) : source;
  const market = opts.market ?? new MarketStore();
  const account = opts.account ?? new AccountStore();
  let header: RecordingHeader | undefined;
  let clock: VirtualClock | undefined;
  const syncs = new Map<string, AnySync>();
  const waiting = new Map<string, ((s: RecordedSnapshot) => void)[]>();
  let entries = 0;

  for await (const r of records) {
    if (r.kind === 'header') {
      header = r.header;
      clock = new VirtualClock(header.startedAt);
      const tuning: SyncTuning = { clock, retry: { initialDelayMs: 0, maxDelayMs: 0 } };
      // Each snapshot request is answered by the next snapshot line of its channel, decoded like the REST client does.
      const next = <S>(channel: string, decode: Decoder<S>) => (): Promise<SequencedSnapshot<S>> =>
        new Promise((resolve, reject) => {
          const list = waiting.get(channel) ?? [];
          waiting.set(channel, list);
          list.push((s) => {
            try {
              resolve({ data: decode(s.body, '', `${file} snapshot ${s.snapshot}`), sequence: s.sequence });
            } catch (e) {
              reject(e instanceof Error ? e : new Error(String(e)));
            }
          });
        });
      for (const channel of header.channels) {
        const sync = synchronizerFor(channel, { market, account, tuning, next });
        if (sync) syncs.set(channel, sync);
      }
      for (const s of syncs.values()) s.start();
      continue;
    }
    if (!header || !clock) throw new RecordingFormatError(file, r.line, 'entry before the header');
    entries++;
    await clock.advanceTo(r.t);
    switch (r.kind) {
      case 'message': {
        const message = decodeMessage(file, r.line, r.name, r.payload);
        if (message) route(message, syncs, market);
        break;
      }
      case 'snapshot': {
        const answer = waiting.get(r.channel)?.shift();
        if (answer) {
          answer(r);
          await flushMicrotasks();
        }
        break;
      }
      case 'event':
        if (r.event === 'reconnected') for (const s of syncs.values()) s.reconnect();
        if (r.event === 'resubscribed') for (const c of r.channels ?? []) syncs.get(c)?.reconnect();
        break;
    }
    opts.onEntry?.(clock.now());
  }
  if (!header) throw new RecordingFormatError(file, 1, 'no header');
  await flushMicrotasks();
  const channels = new Map<string, ReplayedChannel>();
  for (const [c, s] of syncs) {
    channels.set(c, { status: s.status, sequence: s.sequence });
    s.stop();
  }
  return { header, market, account, entries, channels };
}

function decodeMessage(file: string, line: number, name: string, payload: unknown): StreamMessage | undefined {
  if (name.toLowerCase() === 'heartbeat' || name.toLowerCase() === 'authenticationexpiring') return undefined;
  try {
    return decodeStreamMessage(name, payload);
  } catch (e) {
    throw new RecordingFormatError(file, line, `payload of ${name}: ${(e as Error).message}`, { cause: e });
  }
}

function route(message: StreamMessage, syncs: ReadonlyMap<string, AnySync>, market: MarketStore): void {
  if (message.name === 'ticker') return market.setTickers([message.data]);
  if (message.name === 'marketSummary') return market.setSummaries([message.data]);
  const channel = channelOf(message);
  const sync = channel === undefined ? undefined : syncs.get(channel);
  if (sync && 'sequence' in (message.data as object)) sync.push(message.data as { sequence: number });
}

/** The synchronizer of one recorded channel (undefined for an unsequenced one). */
function synchronizerFor(
  channel: string,
  ctx: {
    market: MarketStore;
    account: AccountStore;
    tuning: SyncTuning;
    next: <S>(channel: string, decode: Decoder<S>) => () => Promise<SequencedSnapshot<S>>;
  },
): AnySync | undefined {
  const { market, account, tuning, next } = ctx;
  const c = parseChannelName(channel);
  if (!c) return undefined;
  const loose = <S, M extends { readonly sequence: number }>(s: Synchronizer<S, M>) => s as unknown as AnySync;
  switch (c.stream) {
    case 'orderbook':
      return loose(syncOrderBook({ ...tuning, store: market, marketSymbol: c.marketSymbol, depth: c.depth, fetchSnapshot: next(channel, decodeOrderBook) }));
    case 'trade':
      return loose(syncTrades({ ...tuning, store: market, marketSymbol: c.marketSymbol, fetchSnapshot: next(channel, arrayOf(decodeTrade)) }));
    case 'candle':
      return loose(syncCandles({ ...tuning, store: market, marketSymbol: c.marketSymbol, interval: c.interval, fetchSnapshot: next(channel, arrayOf(decodeCandle)) }));
    case 'tickers':
      return loose(syncTickers({ ...tuning, store: market, fetchSnapshot: next(channel, arrayOf(decodeTicker)) }));
    case 'market_summaries':
      return loose(syncMarketSummaries({ ...tuning, store: market, fetchSnapshot: next(channel, arrayOf(decodeMarketSummary)) }));
    case 'balance':
      return c.subaccounts ? undefined : loose(syncBalances({ ...tuning, store: account, fetchSnapshot: next(channel, arrayOf(decodeBalance)) }));
    case 'order':
      return c.subaccounts ? undefined : loose(syncOrders({ ...tuning, store: account, fetchSnapshot: next(channel, arrayOf(decodeOrder)) }));
    case 'conditional_order':
      return c.subaccounts ? undefined : loose(syncConditionalOrders({ ...tuning, store: account, fetchSnapshot: next(channel, arrayOf(decodeConditionalOrder)) }));
    case 'deposit':
      return c.subaccounts ? undefined : loose(syncDeposits({ ...tuning, store: account, fetchSnapshot: next(channel, arrayOf(decodeDeposit)) }));
    case 'execution': {
      if (c.subaccounts) return undefined;
      const lastId = next(channel, decodeExecutionLastId);
      return loose(syncExecutions({
        ...tuning,
        cache: account,
        fetchLastId: async () => {
          const s = await lastId();
          return { lastId: s.data.lastId, sequence: s.sequence };
        },
        fetchExecutionsSince: async () => [],
      }));
    }
    default:
      return undefined;
  }
}
