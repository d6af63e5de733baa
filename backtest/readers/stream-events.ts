/**
 * Hub stream messages as market events: the mapping the recording and capture readers share, so a message means
 * the same whichever file it was recorded in.
 */
import type { StreamMessage } from '../../src/bittrex/hub/messages.js';
import type { OrderBook } from '../../src/model/market.js';
import { type LineRef, ReplayFormatError } from '../../src/sim/driver/replay-error.js';
import type { ReplaySnapshot } from '../../src/sim/driver/replay-events.js';
import type { ParseSink } from './line-reader.js';
import type { MarketEvent } from './reader.js';

/** The hub messages that become market events. */
export const MARKET_MESSAGES: ReadonlySet<string> = new Set(['orderBook', 'trade', 'ticker', 'tickers', 'candle']);

/**
 * The market events of one decoded message received at `at`, or undefined when the message is not market data
 * (`heartbeat`, `balance`, `marketSummary`, ...). A `tickers` message gives one ticker event per market; a
 * `candle` message is the candle still forming, so its event has `final: false`.
 */
export function eventsOfMessage(msg: StreamMessage, at: number, source: LineRef): MarketEvent[] | undefined {
  switch (msg.name) {
    case 'orderBook': {
      const d = msg.data;
      return [{ kind: 'orderBookDelta', at, marketSymbol: d.marketSymbol, depth: d.depth, sequence: d.sequence, bidDeltas: d.bidDeltas, askDeltas: d.askDeltas, source }];
    }
    case 'trade':
      return [{ kind: 'trade', at, marketSymbol: msg.data.marketSymbol, sequence: msg.data.sequence, trades: msg.data.deltas, source }];
    case 'ticker':
      return [{ kind: 'ticker', at, marketSymbol: msg.data.symbol, ticker: msg.data, source }];
    case 'tickers':
      return msg.data.deltas.map((t) => ({ kind: 'ticker' as const, at, marketSymbol: t.symbol, ticker: t, source }));
    case 'candle': {
      const d = msg.data;
      return [{ kind: 'candle', at, marketSymbol: d.marketSymbol, interval: d.interval, candle: d.delta, final: false, source }];
    }
    default:
      return undefined;
  }
}

/** Put the events of a message into `out`, or count the message as ignored by its name. */
export function emitMessage(msg: StreamMessage, at: number, source: LineRef, out: ParseSink): void {
  const events = eventsOfMessage(msg, at, source);
  if (events === undefined) out.ignore(msg.name);
  else for (const e of events) out.event(e);
}

/**
 * A REST order-book snapshot as an event, after checking every level is a positive quantity at a positive rate
 * (a snapshot lists existing levels only; a zero level would corrupt the book).
 */
export function snapshotEvent(book: OrderBook, marketSymbol: string, sequence: number, at: number, source: LineRef, depth?: number): ReplaySnapshot {
  for (const [side, levels] of [['bid', book.bid], ['ask', book.ask]] as const) {
    levels.forEach((l, i) => {
      if (!l.quantity.isPositive() || l.quantity.isZero() || !l.rate.isPositive() || l.rate.isZero()) {
        throw new ReplayFormatError(source, `${side}[${i}] is not a positive level: ${l.quantity.toFixed()} @ ${l.rate.toFixed()}`, { withoutText: `${side}[${i}] is not a positive level` });
      }
    });
  }
  const snapshot: ReplaySnapshot = { kind: 'snapshot', at, marketSymbol, sequence, bid: book.bid, ask: book.ask, source };
  if (depth !== undefined) snapshot.depth = depth;
  return snapshot;
}
