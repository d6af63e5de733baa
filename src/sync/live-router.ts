/**
 * {@link LiveRouter}: which of a LiveData's streams a message belongs to.
 *
 * The rule is the channel's name: {@link liveChannelOf} names the message's channel and the stream of that channel
 * takes it ({@link LiveRouter.byChannelName}). Nearly every message is a book or trade message, though, and naming
 * it costs a cache walk and a string-keyed lookup per message; {@link LiveRouter.streamOf} finds those by market
 * (and depth) instead, and asks the channel name only when that misses. Each entry of those maps is the stream
 * the channel lookup holds for the channel its key names, so a hit is the stream the name would find: the same
 * values make the same name (test/sync/live-router.test.ts checks this on random and malformed messages).
 */
import { parseChannelName, type StreamMessage } from '../bittrex/hub/messages.js';
import { liveChannelOf, type LiveStream } from './live-streams.js';

/**
 * A message's stream among `streams`.
 *
 * @example
 * const router = new LiveRouter(streams);
 * router.streamOf(message)?.push(message.data);
 */
export class LiveRouter {
  readonly #byChannel = new Map<string, LiveStream>();
  readonly #books = new Map<string, Map<number, LiveStream>>();
  readonly #trades = new Map<string, LiveStream>();

  /** Streams with the same channel: the later one takes the channel (as a Map filled in order keeps it). */
  constructor(streams: readonly LiveStream[]) {
    for (const s of streams) this.#byChannel.set(s.channel, s);
    for (const [channel, s] of this.#byChannel) {
      const parsed = parseChannelName(channel);
      if (parsed?.stream === 'orderbook') {
        let byDepth = this.#books.get(parsed.marketSymbol);
        if (!byDepth) this.#books.set(parsed.marketSymbol, (byDepth = new Map()));
        byDepth.set(parsed.depth, s);
      } else if (parsed?.stream === 'trade') this.#trades.set(parsed.marketSymbol, s);
    }
  }

  /** The stream of a channel. */
  byChannel(channel: string): LiveStream | undefined {
    return this.#byChannel.get(channel);
  }

  /**
   * The last book (market, depth) and trade market found, with their streams: a run of messages is nearly always of
   * one book and one market, whose names are then the very strings of the message before, so two lookups in maps
   * keyed by text become comparisons. The maps never change, so a key equal to the last one has the same answer.
   */
  #bookSymbol: string | undefined;
  #bookDepth = 0;
  #bookStream: LiveStream | undefined;
  #tradeSymbol: string | undefined;
  #tradeStream: LiveStream | undefined;

  /** The stream of `message`, undefined when it is none of them (the same answer as {@link byChannelName}). */
  streamOf(message: StreamMessage): LiveStream | undefined {
    let stream: LiveStream | undefined;
    if (message.name === 'orderBook') {
      const { marketSymbol, depth } = message.data;
      if (marketSymbol === this.#bookSymbol && depth === this.#bookDepth) return this.#bookStream;
      stream = this.#books.get(marketSymbol)?.get(depth);
      if (stream) {
        this.#bookSymbol = marketSymbol;
        this.#bookDepth = depth;
        this.#bookStream = stream;
      }
    } else if (message.name === 'trade') {
      const marketSymbol = message.data.marketSymbol;
      if (marketSymbol === this.#tradeSymbol) return this.#tradeStream;
      stream = this.#trades.get(marketSymbol);
      if (stream) {
        this.#tradeSymbol = marketSymbol;
        this.#tradeStream = stream;
      }
    }
    return stream ?? this.byChannelName(message);
  }

  /** The stream of `message` by its channel's name: the rule. */
  byChannelName(message: StreamMessage): LiveStream | undefined {
    const channel = liveChannelOf(message);
    return channel === undefined ? undefined : this.#byChannel.get(channel);
  }
}
