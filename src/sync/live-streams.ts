/**
 * The synchronizers of one {@link LiveData}: which channels it subscribes, and for each the rule-4 (or rule-5)
 * synchronizer that joins the gateway's snapshot to the stream. Built from the existing `sync*` helpers so the
 * live path and the tests of src/sync exercise the same code.
 */
import type { ExchangeGateway } from '../gateway/exchange-gateway.js';
import { channelName, channelOf, type StreamMessage } from '../bittrex/hub/messages.js';
import type { CandleInterval, OrderBookDepth } from '../model/index.js';
import type { AccountStore } from '../store/account-store.js';
import type { MarketStore } from '../store/market-store.js';
import { syncBalances, syncConditionalOrders, syncOrders } from './account-sync.js';
import { pageExecutionsSince, syncExecutions } from './execution-sync.js';
import { syncCandles, syncOrderBook, syncTrades } from './market-sync.js';
import type { Synchronizer, SyncTuning } from './synchronizer.js';

/** One synchronized channel. */
export interface LiveStream {
  /** The hub channel, e.g. `orderbook_BTC-USD_25` or `balance`. */
  readonly channel: string;
  /** The market of a market-data channel; undefined for account channels. */
  readonly marketSymbol: string | undefined;
  /** Whether the risk engine needs it live to trade (books and account streams; not trades or candles). */
  readonly critical: boolean;
  /** The synchronizer; typed loosely because a LiveData holds several kinds side by side. */
  readonly sync: Synchronizer<unknown, never>;
  /** Hand it one message of its channel. */
  push(data: StreamMessage['data']): void;
}

/** Which channels to keep synchronized. */
export interface LiveStreamPlan {
  markets: readonly string[];
  depths: readonly OrderBookDepth[];
  trades: boolean;
  /** Candle intervals to keep per market (TRADE candles); empty for none. */
  candles: readonly CandleInterval[];
  account: boolean;
  conditionalOrders: boolean;
}

/** A stream whose push takes the typed message (the casts are confined here). */
function stream<S, M extends { readonly sequence: number }>(
  channel: string,
  marketSymbol: string | undefined,
  critical: boolean,
  sync: Synchronizer<S, M>,
): LiveStream {
  return {
    channel,
    marketSymbol,
    critical,
    sync: sync as unknown as Synchronizer<unknown, never>,
    push: (data) => sync.push(data as unknown as M),
  };
}

/**
 * Build the synchronizers of `plan` over `gateway` (not started).
 *
 * @example
 * const streams = buildLiveStreams(gateway, { market, account }, plan, { clock });
 * await gateway.streams.subscribe(streams.map((s) => s.channel));
 * for (const s of streams) s.sync.start();
 */
export function buildLiveStreams(
  gateway: ExchangeGateway,
  stores: { market: MarketStore; account: AccountStore | undefined },
  plan: LiveStreamPlan,
  tuning: SyncTuning,
): LiveStream[] {
  const { market, account } = stores;
  const out: LiveStream[] = [];
  for (const marketSymbol of plan.markets) {
    for (const depth of plan.depths) {
      const channel = channelName.orderBook(marketSymbol, depth);
      const sync = syncOrderBook({ ...tuning, store: market, marketSymbol, depth, fetchSnapshot: () => gateway.orderBook(marketSymbol, depth) });
      out.push(stream(channel, marketSymbol, true, sync));
    }
    if (plan.trades) {
      const sync = syncTrades({ ...tuning, store: market, marketSymbol, fetchSnapshot: () => gateway.trades(marketSymbol) });
      out.push(stream(channelName.trade(marketSymbol), marketSymbol, false, sync));
    }
    for (const interval of plan.candles) {
      const fetchCandles = gateway.candles?.bind(gateway);
      if (!fetchCandles) throw new Error(`venue ${gateway.venue} serves no candles: cannot follow candle_${marketSymbol}_${interval}`);
      const sync = syncCandles({ ...tuning, store: market, marketSymbol, interval, fetchSnapshot: () => fetchCandles(marketSymbol, interval) });
      out.push(stream(channelName.candle(marketSymbol, interval), marketSymbol, false, sync));
    }
  }
  if (account) {
    out.push(stream('balance', undefined, true, syncBalances({ ...tuning, store: account, fetchSnapshot: () => gateway.balances() })));
    out.push(stream('order', undefined, true, syncOrders({ ...tuning, store: account, fetchSnapshot: () => gateway.openOrders() })));
    const executions = syncExecutions({
      ...tuning,
      name: 'execution',
      cache: account,
      fetchLastId: async () => {
        const { data, sequence } = await gateway.lastExecution();
        return { lastId: data.lastId, sequence };
      },
      fetchExecutionsSince: (sinceId) => pageExecutionsSince((req) => gateway.executions(req), sinceId),
    });
    out.push(stream('execution', undefined, true, executions));
    if (plan.conditionalOrders) {
      const sync = syncConditionalOrders({ ...tuning, store: account, fetchSnapshot: () => gateway.openConditionalOrders() });
      out.push(stream('conditional_order', undefined, true, sync));
    }
  }
  return out;
}

/** The messages a LiveData synchronizes: market data it keeps stores of, and its own account's streams. */
const LIVE_MESSAGES: ReadonlySet<StreamMessage['name']> = new Set([
  'orderBook',
  'trade',
  'candle',
  'balance',
  'order',
  'execution',
  'conditionalOrder',
]);

/**
 * The channel of a message as a LiveData keys its streams: books, trades and candles by market, account messages by
 * stream (a LiveData follows one account, so the plain channels carry only its own messages). The names are the
 * hub's own ({@link channelOf}); this only narrows which messages a LiveData takes.
 */
export function liveChannelOf(message: StreamMessage): string | undefined {
  if (!LIVE_MESSAGES.has(message.name)) return undefined;
  // The candle channels carry TRADE candles; a MIDPOINT candle is not what the series holds.
  if (message.name === 'candle' && message.data.candleType !== undefined && message.data.candleType !== 'TRADE') return undefined;
  return channelOf(message);
}
