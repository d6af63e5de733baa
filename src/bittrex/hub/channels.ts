/**
 * Hub channel (subscription) names: building them (`orderbook_BTC-USD_25`), parsing them, and naming the channel
 * a decoded stream message belongs to. Re-exported by messages.ts.
 */
import { CANDLE_INTERVALS, type CandleInterval, type OrderBookDepth } from '../../model/index.js';
import type { StreamMessage } from './messages.js';

/** A private (account) stream; each has a `subaccounts_` variant delivering all managed sub-accounts (rule 2). */
export type AccountStream = 'balance' | 'order' | 'conditional_order' | 'deposit' | 'execution';
const ACCOUNT_STREAMS: readonly AccountStream[] = ['balance', 'order', 'conditional_order', 'deposit', 'execution'];

/** A subscription (channel) name, parsed. */
export type Channel =
  | { stream: 'orderbook'; marketSymbol: string; depth: OrderBookDepth }
  | { stream: 'trade'; marketSymbol: string }
  | { stream: 'candle'; marketSymbol: string; interval: CandleInterval }
  | { stream: 'ticker'; marketSymbol: string }
  | { stream: 'market_summary'; marketSymbol: string }
  | { stream: 'tickers' }
  | { stream: 'market_summaries' }
  | { stream: 'heartbeat' }
  | { stream: AccountStream; subaccounts: boolean };

/**
 * Book and trade channel names by market (and depth), made once: every stream message is routed by its channel
 * name (the backtest gateway and LiveData each name every message), and building the string each time was a
 * measurable part of a backtest's cost per event. Bounded: cleared past this many markets.
 */
const bookChannels = new Map<string, Map<number, string>>();
const tradeChannels = new Map<string, string>();
const CHANNEL_CACHE_MARKETS = 10_000;
/**
 * The book and trade channels named last, checked before the maps: runs of messages nearly always name one book and
 * one market's trades. The same (market, depth) values make the same name, so these answer what the maps would.
 */
let lastBookMarket: string | undefined;
let lastBookDepth = 0;
let lastBookName: string | undefined;
let lastTradeMarket: string | undefined;
let lastTradeName: string | undefined;

/**
 * Subscription names as the hub expects them.
 *
 * @example
 * channelName.orderBook('BTC-USD', 25)          // 'orderbook_BTC-USD_25'
 * channelName.candle('BTC-USD', 'MINUTE_1')     // 'candle_BTC-USD_MINUTE_1'
 * channelName.account('balance', true)          // 'subaccounts_balance'
 */
export const channelName = {
  orderBook: (marketSymbol: string, depth: OrderBookDepth): string => {
    if (lastBookName !== undefined && marketSymbol === lastBookMarket && depth === lastBookDepth) return lastBookName;
    let byDepth = bookChannels.get(marketSymbol);
    if (!byDepth) {
      if (bookChannels.size >= CHANNEL_CACHE_MARKETS) bookChannels.clear();
      bookChannels.set(marketSymbol, (byDepth = new Map()));
    }
    let name = byDepth.get(depth);
    if (name === undefined) {
      if (byDepth.size >= 8) byDepth.clear(); // depths come from messages: 1, 25 or 500, unless one is malformed
      byDepth.set(depth, (name = `orderbook_${marketSymbol}_${depth}`));
    }
    lastBookMarket = marketSymbol;
    lastBookDepth = depth;
    lastBookName = name;
    return name;
  },
  trade: (marketSymbol: string): string => {
    if (lastTradeName !== undefined && marketSymbol === lastTradeMarket) return lastTradeName;
    let name = tradeChannels.get(marketSymbol);
    if (name === undefined) {
      if (tradeChannels.size >= CHANNEL_CACHE_MARKETS) tradeChannels.clear();
      tradeChannels.set(marketSymbol, (name = `trade_${marketSymbol}`));
    }
    lastTradeMarket = marketSymbol;
    lastTradeName = name;
    return name;
  },
  candle: (marketSymbol: string, interval: CandleInterval): string => `candle_${marketSymbol}_${interval}`,
  ticker: (marketSymbol: string): string => `ticker_${marketSymbol}`,
  marketSummary: (marketSymbol: string): string => `market_summary_${marketSymbol}`,
  tickers: (): string => 'tickers',
  marketSummaries: (): string => 'market_summaries',
  heartbeat: (): string => 'heartbeat',
  account: (stream: AccountStream, subaccounts = false): string => (subaccounts ? `subaccounts_${stream}` : stream),
  /** The name of a parsed channel (inverse of {@link parseChannelName}). */
  of(channel: Channel): string {
    switch (channel.stream) {
      case 'orderbook':
        return channelName.orderBook(channel.marketSymbol, channel.depth);
      case 'trade':
        return channelName.trade(channel.marketSymbol);
      case 'candle':
        return channelName.candle(channel.marketSymbol, channel.interval);
      case 'ticker':
        return channelName.ticker(channel.marketSymbol);
      case 'market_summary':
        return channelName.marketSummary(channel.marketSymbol);
      case 'tickers':
      case 'market_summaries':
      case 'heartbeat':
        return channel.stream;
      default:
        return channelName.account(channel.stream, channel.subaccounts);
    }
  },
};

// Market symbols contain '-' but never '_' or spaces; the suffix patterns are anchored at the end because
// candle intervals themselves contain '_'.
const SYMBOL = '([A-Za-z0-9.]+-[A-Za-z0-9.]+)';
const ORDERBOOK_RE = new RegExp(`^orderbook_${SYMBOL}_(1|25|500)$`);
const CANDLE_RE = new RegExp(`^candle_${SYMBOL}_(${CANDLE_INTERVALS.join('|')})$`);
const TRADE_RE = new RegExp(`^trade_${SYMBOL}$`);
const TICKER_RE = new RegExp(`^ticker_${SYMBOL}$`);
const SUMMARY_RE = new RegExp(`^market_summary_${SYMBOL}$`);

/**
 * Parse a subscription name; undefined when it names no v3 stream (the server answers such a channel with a
 * failed SocketResponse rather than an exception).
 *
 * @example
 * parseChannelName('orderbook_BTC-USD_25') // { stream: 'orderbook', marketSymbol: 'BTC-USD', depth: 25 }
 * parseChannelName('subaccounts_order')    // { stream: 'order', subaccounts: true }
 * parseChannelName('orderbook_BTC-USD_7')  // undefined
 */
export function parseChannelName(name: string): Channel | undefined {
  if (name === 'tickers' || name === 'market_summaries' || name === 'heartbeat') return { stream: name };
  const account = name.startsWith('subaccounts_') ? name.slice('subaccounts_'.length) : name;
  if ((ACCOUNT_STREAMS as readonly string[]).includes(account)) {
    return { stream: account as AccountStream, subaccounts: account !== name };
  }
  let m = ORDERBOOK_RE.exec(name);
  if (m) return { stream: 'orderbook', marketSymbol: m[1]!, depth: Number(m[2]) as OrderBookDepth };
  m = CANDLE_RE.exec(name);
  if (m) return { stream: 'candle', marketSymbol: m[1]!, interval: m[2] as CandleInterval };
  m = TRADE_RE.exec(name);
  if (m) return { stream: 'trade', marketSymbol: m[1]! };
  m = TICKER_RE.exec(name);
  if (m) return { stream: 'ticker', marketSymbol: m[1]! };
  m = SUMMARY_RE.exec(name);
  if (m) return { stream: 'market_summary', marketSymbol: m[1]! };
  return undefined;
}

/**
 * The public channel a market-data message belongs to (`orderbook_BTC-EUR_500` for an orderBook message), so
 * a client can route messages of several subscriptions. Account messages answer their master-account channel
 * name; heartbeat and authenticationExpiring answer undefined.
 */
export function channelOf(message: StreamMessage): string | undefined {
  switch (message.name) {
    case 'orderBook':
      return channelName.orderBook(message.data.marketSymbol, message.data.depth);
    case 'trade':
      return channelName.trade(message.data.marketSymbol);
    case 'candle':
      return channelName.candle(message.data.marketSymbol, message.data.interval);
    case 'ticker':
      return channelName.ticker(message.data.symbol);
    case 'marketSummary':
      return channelName.marketSummary(message.data.symbol);
    case 'tickers':
      return 'tickers';
    case 'marketSummaries':
      return 'market_summaries';
    case 'balance':
    case 'order':
    case 'deposit':
    case 'execution':
      return message.name;
    case 'conditionalOrder':
      return 'conditional_order';
    default:
      return undefined;
  }
}
