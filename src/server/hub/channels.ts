/**
 * Hub channel (subscription) names of the v3 stream table (seed section 6): which exist, which need
 * authentication, and their canonical spelling.
 *
 * Market symbols are upper-cased in the canonical form, so a subscription to `ticker_btc-usd` receives what the
 * simulator publishes on `ticker_BTC-USD` instead of silently receiving nothing. Everything else is matched
 * exactly, since the seed spells those names one way only.
 */
import { CANDLE_INTERVALS } from '../../model/enums.js';
import { HubMethodError } from './hub-types.js';

/** Account streams: need authentication and reach only the connection's own account. */
export const PRIVATE_CHANNELS = ['balance', 'order', 'execution', 'conditional_order', 'deposit'] as const;

/** Sub-account streams: need authentication and reach masters managing the publishing account. */
export const SUBACCOUNT_CHANNELS = PRIVATE_CHANNELS.map((c) => `subaccounts_${c}` as const);

/** Order book depths a channel may name (seed section 6, rule 1). */
export const ORDERBOOK_DEPTHS = [1, 25, 500] as const;

/** How a channel is scoped. */
export type ChannelScope = 'public' | 'private' | 'subaccount';

/** A valid channel name, canonicalised. */
export interface ChannelInfo {
  /** Canonical name, the key subscriptions and publications are matched on. */
  name: string;
  scope: ChannelScope;
  /** The market the channel is about, for per-market public channels. */
  marketSymbol?: string;
}

const MARKET = '([A-Za-z0-9]+-[A-Za-z0-9]+)';
const SIMPLE_PUBLIC = new Set(['heartbeat', 'tickers', 'market_summaries']);
const PRIVATE = new Set<string>(PRIVATE_CHANNELS);
const SUBACCOUNT = new Set<string>(SUBACCOUNT_CHANNELS);

/** Per-market public channels: prefix pattern, and how to rebuild the canonical name. */
const PER_MARKET: { re: RegExp; canonical: (m: RegExpExecArray) => string }[] = [
  { re: new RegExp(`^ticker_${MARKET}$`), canonical: (m) => `ticker_${up(m[1])}` },
  { re: new RegExp(`^market_summary_${MARKET}$`), canonical: (m) => `market_summary_${up(m[1])}` },
  { re: new RegExp(`^trade_${MARKET}$`), canonical: (m) => `trade_${up(m[1])}` },
  {
    re: new RegExp(`^orderbook_${MARKET}_(${ORDERBOOK_DEPTHS.join('|')})$`),
    canonical: (m) => `orderbook_${up(m[1])}_${m[2]}`,
  },
  {
    re: new RegExp(`^candle_${MARKET}_(${CANDLE_INTERVALS.join('|')})$`),
    canonical: (m) => `candle_${up(m[1])}_${m[2]}`,
  },
];

function up(s: string | undefined): string {
  return (s ?? '').toUpperCase();
}

/**
 * Classify a channel name; undefined when it names no stream of the seed's table.
 *
 * @example
 * parseChannel('orderbook_btc-usd_25'); // { name: 'orderbook_BTC-USD_25', scope: 'public', marketSymbol: 'BTC-USD' }
 * parseChannel('subaccounts_order');    // { name: 'subaccounts_order', scope: 'subaccount' }
 * parseChannel('orderbook_BTC-USD_10'); // undefined (depth must be 1, 25 or 500)
 */
export function parseChannel(raw: string): ChannelInfo | undefined {
  if (SIMPLE_PUBLIC.has(raw)) return { name: raw, scope: 'public' };
  if (PRIVATE.has(raw)) return { name: raw, scope: 'private' };
  if (SUBACCOUNT.has(raw)) return { name: raw, scope: 'subaccount' };
  for (const { re, canonical } of PER_MARKET) {
    const m = re.exec(raw);
    if (m) return { name: canonical(m), scope: 'public', marketSymbol: up(m[1]) };
  }
  return undefined;
}

/**
 * `parseChannel` of published channels, remembered: the engine publishes on a few channels per market many times
 * a second, and the regular expressions were a measurable part of placing an order. Bounded, since the names come
 * from the publisher (the engine's markets), which a long run could still widen.
 */
export class PublishedChannels {
  readonly #known = new Map<string, ChannelInfo | undefined>();

  /** What `channel` is, or undefined when it is not a channel of the v3 stream table. */
  info(channel: string): ChannelInfo | undefined {
    let info = this.#known.get(channel);
    if (info === undefined && !this.#known.has(channel)) {
      info = parseChannel(channel);
      if (this.#known.size >= 4096) this.#known.clear();
      this.#known.set(channel, info);
    }
    return info;
  }
}

/** Subscribe/Unsubscribe take exactly one argument: an array of channel names. */
export function channelList(method: string, args: unknown[]): unknown[] {
  const [channels] = args;
  if (args.length !== 1 || !Array.isArray(channels)) {
    throw new HubMethodError(`${method} expects one argument: an array of channel names, e.g. [["heartbeat"]]`);
  }
  return channels;
}
