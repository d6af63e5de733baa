/**
 * The public market data the backtest venue serves for one market, shaped exactly as the hub and REST interface
 * serve it, so the bot's synchronizers and stores (the live code) consume it unchanged:
 * - per subscribed depth (1, 25, 500) the top levels of the recorded book, an `orderBook` delta whenever that
 *   view changes (a level leaving the view is sent with quantity 0, a level entering it with its full quantity —
 *   seed rule 1) and a Sequence per depth that the snapshot answers with;
 * - the recorded trades (`trade` stream and the recent-trades snapshot, last 100);
 * - candles from bar data (`candle_<market>_<interval>` and the recent-candles snapshot).
 * The book served is the recorded book plus our own resting orders at their prices, as a real venue shows
 * everyone's orders; what our marketable orders consumed is not taken out of it (the recording is the market).
 */
import { type Decimal, dgt, dlte, ZERO } from '../../src/core/decimal.js';
import { dadd, dsub } from '../../src/core/decimal-fast.js';
import type { CandleInterval } from '../../src/model/enums.js';
import type { Candle, OrderBook, OrderBookEntry, Trade } from '../../src/model/market.js';
import type { Order } from '../../src/model/order.js';
import { orderingKey } from '../../src/store/order-book.js';
import { channelName, type OrderBookMessage } from '../../src/bittrex/hub/messages.js';
import { diff, fillRecorded, followChange, followMerged, followOurs, type Keyed, NO_DELTAS, View } from './feed-view.js';
import type { RecordedBook, RecordedSide } from './recorded-book.js';

/** Depths the hub serves. */
export type FeedDepth = 1 | 25 | 500;

const RECENT_TRADES = 100;
const RECENT_CANDLES = 500;

/** A followed depth: its views of both sides, its Sequence, and its channel's name (made once). */
interface DepthView {
  depth: FeedDepth;
  bid: View;
  ask: View;
  sequence: number;
  channel: string;
}

/** Receives each `orderBook` message {@link MarketFeed.eachBookDelta} makes, with the channel it travels on. */
export type BookDeltaSink = (data: OrderBookMessage, channel: string) => void;


/** Up to this many levels of ours a side, they are sorted in place by insertion (see MarketFeed's #mine). */
const SORT_IN_PLACE = 32;

/** Our resting quantity on one side, with what the feed keeps about it (one object per side: no keyed access). */
interface OursSide {
  readonly recorded: RecordedSide;
  readonly levels: Map<number, Keyed>;
  /** Bumped whenever our resting quantity on the side changes (with the recorded side's version: a view still holds). */
  version: number;
  /** `levels` sorted best first, as of `sortedVersion`. */
  sorted: Keyed[];
  sortedVersion: number;
  /** Every change of ours since version `runFrom` was at the level `runKey` (a view built since follows them). */
  runKey: number;
  runFrom: number;
}

/** One market's public data. */
export class MarketFeed {
  readonly symbol: string;
  readonly book: RecordedBook;
  /** The `trade` channel's name, made once (the gateway checks it for every recorded trade event). */
  readonly tradeChannel: string;
  readonly #views = new Map<FeedDepth, DepthView>();
  /** The same views in the order followed (iterated on every book change without a Map iterator). */
  readonly #viewList: DepthView[] = [];
  readonly #trades: Trade[] = [];
  #tradeSequence = 0;
  readonly #candles = new Map<CandleInterval, { sequence: number; candles: Candle[] }>();
  /** Our resting quantity per level, by side (added to the recorded quantity in what is published). */
  readonly ours: { readonly bid: Map<number, Keyed>; readonly ask: Map<number, Keyed> };
  readonly #bid: OursSide;
  readonly #ask: OursSide;
  /** What each of our open orders rests (rate, its level key, remaining). */
  readonly #resting = new Map<string, { rate: Decimal; key: number; quantity: Decimal }>();

  constructor(symbol: string, book: RecordedBook) {
    this.symbol = symbol;
    this.book = book;
    this.tradeChannel = channelName.trade(symbol);
    this.#bid = { recorded: book.bid, levels: new Map(), version: 0, sorted: [], sortedVersion: -1, runKey: NaN, runFrom: Infinity };
    this.#ask = { recorded: book.ask, levels: new Map(), version: 0, sorted: [], sortedVersion: -1, runKey: NaN, runFrom: Infinity };
    this.ours = { bid: this.#bid.levels, ask: this.#ask.levels };
  }

  /** Start following a depth (its view starts as the current book, at sequence 1). */
  follow(depth: FeedDepth): void {
    if (this.#views.has(depth)) return;
    const v: DepthView = { depth, bid: new View(), ask: new View(), sequence: 1, channel: channelName.orderBook(this.symbol, depth) };
    this.#sideDeltas(this.#bid, v.bid, depth);
    this.#sideDeltas(this.#ask, v.ask, depth);
    this.#views.set(depth, v);
    this.#viewList.push(v);
  }

  /** Follow one of our orders (from the engine's order events): what it rests is shown on the book. */
  trackOrder(o: Order): void {
    const side = o.direction === 'BUY' ? 'bid' : 'ask';
    const before = this.#resting.get(o.id);
    const now = o.status === 'OPEN' && o.limit !== undefined && o.quantity !== undefined ? dsub(o.quantity, o.fillQuantity) : ZERO;
    if (before) this.addOurs(side, before.rate, before.quantity.neg(), before.key);
    if (dgt(now, ZERO)) {
      // The level key of a rate already resting is the one worked out then.
      const key = before && before.rate === o.limit ? before.key : orderingKey(o.limit!);
      this.addOurs(side, o.limit!, now, key);
      this.#resting.set(o.id, { rate: o.limit!, key, quantity: now });
    } else {
      this.#resting.delete(o.id);
    }
  }

  /** Add `quantity` (negative to remove) of ours at a level (`key`: `orderingKey(rate)`, the double `rate.toNumber()` is, when the caller has it). */
  addOurs(side: 'bid' | 'ask', rate: Decimal, quantity: Decimal, key: number = orderingKey(rate)): void {
    const o = side === 'bid' ? this.#bid : this.#ask;
    const m = o.levels;
    if (key !== o.runKey) {
      o.runKey = key;
      o.runFrom = o.version;
    }
    o.version++;
    const cur = m.get(key);
    const next = cur ? dadd(cur.entry.quantity, quantity) : quantity;
    if (dlte(next, ZERO)) m.delete(key);
    else m.set(key, { key, entry: { rate, quantity: next } });
  }

  /** Our levels of a side sorted best first, sorted again only when they changed (see OursSide.version). */
  #mine(o: OursSide): Keyed[] {
    if (o.sortedVersion !== o.version) {
      const side = o.recorded;
      if (o.levels.size > SORT_IN_PLACE) {
        o.sorted = [...o.levels.values()].sort((a, b) => (side.better(a.key, b.key) ? -1 : 1));
      } else {
        // A few levels (a ladder's): an insertion sort into the list of the last sort, rather than a copy and a sort
        // (which allocates its own work list) at every change of ours. The keys differ, so the order is the same.
        const out = o.sorted;
        let n = 0;
        for (const l of o.levels.values()) {
          let i = n++;
          for (; i > 0 && side.better(l.key, out[i - 1]!.key); i--) out[i] = out[i - 1]!;
          out[i] = l;
        }
        if (out.length !== n) out.length = n;
      }
      o.sortedVersion = o.version;
    }
    return o.sorted;
  }

  /**
   * {@link #top} written straight into a view's spare arrays (no entry objects: this runs on every book change
   * while we rest orders); returns the number of levels.
   */
  #fillMerged(ours: OursSide, view: View, depth: number): number {
    const side = ours.recorded;
    const mine = this.#mine(ours);
    const keys = view.spareKeys;
    const rates = view.spareRates;
    const quantities = view.spareQuantities;
    let n = 0;
    let j = 0;
    for (let r = 0; n < depth; n++) {
      const l = side.atRank(r);
      const o = mine[j];
      if (!l && !o) break;
      if (l && (o === undefined || side.better(l.key, o.key))) {
        keys[n] = l.key;
        rates[n] = l.rate;
        quantities[n] = l.quantity;
        r++;
      } else if (l && o!.key === l.key) {
        keys[n] = l.key;
        rates[n] = l.rate;
        quantities[n] = dadd(l.quantity, o!.entry.quantity);
        r++;
        j++;
      } else {
        keys[n] = o!.key;
        rates[n] = o!.entry.rate;
        quantities[n] = o!.entry.quantity;
        j++;
      }
    }
    return n;
  }

  /** The top `depth` levels of recorded + ours, best first. */
  #top(side: RecordedSide, ours: Map<number, Keyed>, depth: number): Keyed[] {
    const out: Keyed[] = [];
    const mine = ours.size === 0 ? [] : [...ours.values()].sort((a, b) => (side.better(a.key, b.key) ? -1 : 1));
    let j = 0;
    for (let r = 0; out.length < depth; ) {
      const l = side.atRank(r);
      const o = mine[j];
      if (!l && !o) break;
      if (l && (o === undefined || side.better(l.key, o.key))) {
        out.push({ key: l.key, entry: { rate: l.rate, quantity: l.quantity } });
        r++;
      } else if (l && o!.key === l.key) {
        out.push({ key: l.key, entry: { rate: l.rate, quantity: dadd(l.quantity, o!.entry.quantity) } });
        r++;
        j++;
      } else {
        out.push(o!);
        j++;
      }
    }
    return out;
  }

  /** Depths followed. */
  get depths(): FeedDepth[] {
    return [...this.#views.keys()];
  }

  /** GET /markets/{m}/orderbook?depth=: the recorded top levels with that depth's Sequence. */
  snapshot(depth: number): { data: OrderBook; sequence: number } {
    const d = depth as FeedDepth;
    this.follow(d);
    const entries = (k: Keyed[]) => k.map((e) => ({ rate: e.entry.rate, quantity: e.entry.quantity }));
    return { data: { bid: entries(this.#top(this.book.bid, this.ours.bid, d)), ask: entries(this.#top(this.book.ask, this.ours.ask, d)) }, sequence: this.#views.get(d)!.sequence };
  }

  /**
   * After the recorded book changed: the `orderBook` message of every followed depth whose view changed, each with
   * its next Sequence (best first per side). Cost O(depth) per followed depth. (What {@link eachBookDelta} gives, as
   * a list.)
   */
  bookDeltas(): OrderBookMessage[] {
    const out: OrderBookMessage[] = [];
    this.eachBookDelta((m) => void out.push(m));
    return out;
  }

  /**
   * {@link bookDeltas} handed one by one to `sink`, in the same order, each with its depth's channel: the venue
   * publishes them so, without a list per book change. `sink` must not change the book (the gateway only queues).
   */
  eachBookDelta(sink: BookDeltaSink): void {
    const views = this.#viewList;
    for (let i = 0; i < views.length; i++) {
      const v = views[i]!;
      const depth = v.depth;
      const bidDeltas = this.#sideDeltas(this.#bid, v.bid, depth);
      const askDeltas = this.#sideDeltas(this.#ask, v.ask, depth);
      if (bidDeltas.length === 0 && askDeltas.length === 0) continue;
      v.sequence++;
      sink({ marketSymbol: this.symbol, depth, sequence: v.sequence, bidDeltas, askDeltas }, v.channel);
    }
  }

  /**
   * The entries that bring one side's view up to date. Nothing when neither the recorded side nor our orders on it
   * changed since the view was built (most events change one side only), without merging or comparing levels.
   */
  #sideDeltas(o: OursSide, view: View, depth: FeedDepth): OrderBookEntry[] {
    const side = o.recorded;
    const ours = o.levels;
    const oursVersion = o.version;
    if (view.version === side.version && view.oursVersion === oursVersion) return NO_DELTAS;
    // Only ours changed since the view was built, all at one level (a placement, a cancel, a fill): follow that level
    // instead of merging the top levels again (up to 500) and comparing them all.
    if (view.version === side.version && view.oursVersion >= o.runFrom) {
      const out = followOurs(side, view, depth, o.runKey, this.#mine(o), ours);
      view.oursVersion = oursVersion;
      return out;
    }
    // One change of the recorded side since the view was built, and none of ours on it since (the usual event): follow
    // that change (O(1) for a quantity, one splice for a level entering or leaving) instead of rebuilding the top;
    // on the merged levels when ours rest on the side (a market maker's usual event).
    if (view.oursVersion === oursVersion && view.version >= 0 && side.changedFrom === view.version && side.version === view.version + 1) {
      const out = ours.size === 0 ? followChange(side, view, depth) : followMerged(side, view, depth, this.#mine(o), ours);
      view.version = side.version;
      return out;
    }
    const n = ours.size > 0 ? this.#fillMerged(o, view, depth) : fillRecorded(side, view, depth);
    const out = diff(side, view, n);
    view.version = side.version;
    view.oursVersion = oursVersion;
    return out;
  }

  /** Record trades; returns the `trade` message's Sequence. */
  addTrades(trades: readonly Trade[]): number {
    for (const t of trades) this.#trades.push(t);
    if (this.#trades.length > RECENT_TRADES * 2) this.#trades.splice(0, this.#trades.length - RECENT_TRADES);
    return ++this.#tradeSequence;
  }

  /** GET /markets/{m}/trades: most recent first, with the trade stream's Sequence. */
  trades(): { data: Trade[]; sequence: number } {
    return { data: this.#trades.slice(-RECENT_TRADES).reverse(), sequence: this.#tradeSequence };
  }

  /** Record a candle (a new one, or the current one updated); returns the candle stream's Sequence. */
  addCandle(interval: CandleInterval, candle: Candle): number {
    let s = this.#candles.get(interval);
    if (!s) this.#candles.set(interval, (s = { sequence: 0, candles: [] }));
    const last = s.candles[s.candles.length - 1];
    if (last && last.startsAt.getTime() === candle.startsAt.getTime()) s.candles[s.candles.length - 1] = candle;
    else s.candles.push(candle);
    if (s.candles.length > RECENT_CANDLES * 2) s.candles.splice(0, s.candles.length - RECENT_CANDLES);
    return ++s.sequence;
  }

  /** GET .../candles/{interval}/recent: oldest first, with the candle stream's Sequence. */
  candles(interval: CandleInterval): { data: Candle[]; sequence: number } {
    const s = this.#candles.get(interval);
    return s ? { data: s.candles.slice(-RECENT_CANDLES), sequence: s.sequence } : { data: [], sequence: 0 };
  }
}
