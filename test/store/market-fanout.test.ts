/**
 * The store's book$ and trades$ are handed their values by one walk over its subscriber list (market-fanout.ts)
 * instead of `changes$.pipe(filter, map)`. Random runs of writes, subscriptions and unsubscriptions (some made from
 * inside a delivery) go to two stores; one is read through book$/trades$/changes$, the other as the store was
 * before: changes$ a Multicast of every event (src/core/multicast.ts, fed here by the store's only subscriber),
 * book$ and trades$ the pipelines over it, written out as they were. Every subscriber's log must be the same.
 */
import { concat, defer, filter, map, type Observable, of, take, type Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { Multicast } from '../../src/core/multicast.js';
import type { OrderBookEntry, Ticker, Trade } from '../../src/model/index.js';
import { MarketStore, type MarketEvent } from '../../src/store/market-store.js';
import type { ReadonlyOrderBook } from '../../src/store/order-book.js';
import { Prng } from '../sync/prng.js';

const MARKETS = ['A-B', 'C-D'];
const DEPTHS = [1, 25];

/** book$ and trades$ as they were: changes$ filtered and mapped, the book's current value first. */
const reference = {
  book$: (store: MarketStore, changes$: Observable<MarketEvent>, m: string, d: number): Observable<ReadonlyOrderBook> =>
    defer(() => {
      const now = store.book(m, d);
      const updates = changes$.pipe(
        filter((e): e is Extract<MarketEvent, { kind: 'book' }> => e.kind === 'book' && e.marketSymbol === m && e.depth === d),
        map((e) => e.book),
      );
      return now === undefined ? updates : concat(of(now), updates);
    }),
  trades$: (changes$: Observable<MarketEvent>, m: string): Observable<readonly Trade[]> =>
    changes$.pipe(
      filter((e): e is Extract<MarketEvent, { kind: 'trades' }> => e.kind === 'trades' && e.marketSymbol === m),
      map((e) => e.trades),
    ),
};

type Source = 'fast' | 'reference';

/** One store, its subscriptions, and a log of what each subscriber was given. */
class Harness {
  readonly store = new MarketStore({ maxTrades: 5 });
  readonly log: string[] = [];
  readonly subs: (Subscription | undefined)[] = [];
  /** Event objects numbered in the order first seen: the same object given twice gets the same number. */
  readonly #eventIds = new Map<object, number>();
  /** changes$ of this harness: the store's own, or for the reference a Multicast of it as the store had. */
  readonly changes$: Observable<MarketEvent>;
  constructor(readonly source: Source) {
    if (source === 'fast') this.changes$ = this.store.changes$;
    else {
      const hub = new Multicast<MarketEvent>();
      this.store.changes$.subscribe((e) => hub.next(e));
      this.changes$ = hub.observable;
    }
  }

  #describeBook(b: ReadonlyOrderBook): string {
    const t = b.top(2);
    const side = (xs: readonly OrderBookEntry[]) => xs.map((x) => `${x.quantity}@${x.rate}`).join(',');
    // The very object the store holds, read at delivery time.
    return `${b.marketSymbol}/${b.depth} seq ${b.sequence} ${side(t.bid)}|${side(t.ask)} same ${b === this.store.book(b.marketSymbol, b.depth)}`;
  }

  #eventId(e: object): number {
    let id = this.#eventIds.get(e);
    if (id === undefined) this.#eventIds.set(e, (id = this.#eventIds.size));
    return id;
  }

  book$(m: string, d: number): Observable<ReadonlyOrderBook> {
    return this.source === 'fast' ? this.store.book$(m, d) : reference.book$(this.store, this.changes$, m, d);
  }

  trades$(m: string): Observable<readonly Trade[]> {
    return this.source === 'fast' ? this.store.trades$(m) : reference.trades$(this.changes$, m);
  }

  /** Subscription number `n` of the kind `what`; `onValue` runs after each value is logged (to nest subscriptions). */
  subscribe(n: number, what: string, onValue?: () => void): void {
    const [kind, m, d] = what.split(' ');
    const push = (text: string) => {
      this.log.push(`#${n} ${text}`);
      onValue?.();
    };
    let sub: Subscription;
    if (kind === 'book') sub = this.book$(m!, Number(d)).subscribe((b) => push(this.#describeBook(b)));
    else if (kind === 'book1') sub = this.book$(m!, Number(d)).pipe(take(1)).subscribe((b) => push(`first ${this.#describeBook(b)}`));
    else if (kind === 'trades') sub = this.trades$(m!).subscribe((ts) => push(`trades ${ts.map((t) => t.id).join(',')}`));
    else
      sub = this.changes$.subscribe((e) =>
        push(`event #${this.#eventId(e)} ${e.kind} ${e.kind === 'book' ? this.#describeBook(e.book) : ''} reset ${e.reset}`),
      );
    this.subs[n] = sub;
  }
}

const entry = (rnd: Prng): OrderBookEntry => ({ rate: dec(String(100 + rnd.int(6))), quantity: dec(rnd.chance(0.3) ? '0' : String(1 + rnd.int(3))) });
const trade = (id: number): Trade => ({ id: `t${id}`, executedAt: new Date(id * 1000), quantity: dec('1'), rate: dec('100'), takerSide: 'BUY' });
const kinds = (rnd: Prng): string => {
  const m = rnd.pick(MARKETS);
  const d = rnd.pick(DEPTHS);
  return rnd.pick([`book ${m} ${d}`, `book ${m} ${d}`, `book1 ${m} ${d}`, `trades ${m}`, `trades ${m}`, 'all']);
};

/** One random run against both stores, the same draws for each. */
function run(seed: number): { fast: string[]; reference: string[] } {
  const logs = {} as Record<Source, string[]>;
  for (const source of ['fast', 'reference'] as const) {
    const h = new Harness(source);
    const rnd = new Prng(seed);
    let nextSub = 0;
    let nextTrade = 0;
    const seqs = new Map<string, number>();
    for (let step = 0; step < 300; step++) {
      const r = rnd.int(100);
      const m = rnd.pick(MARKETS);
      const d = rnd.pick(DEPTHS);
      const key = `${m}/${d}`;
      if (r < 12) {
        // A subscription; some subscribe another one from inside their first delivery, or stop themselves.
        const n = nextSub++;
        const what = kinds(rnd);
        const nested = rnd.chance(0.2) ? { n: nextSub++, what: kinds(rnd) } : undefined;
        const selfStop = rnd.chance(0.15);
        let done = false;
        h.subscribe(n, what, () => {
          if (nested && !done) {
            done = true;
            h.subscribe(nested.n, nested.what);
          }
          if (selfStop) h.subs[n]?.unsubscribe();
        });
      } else if (r < 18) {
        const live = h.subs.map((s, i) => (s && !s.closed ? i : -1)).filter((i) => i >= 0);
        if (live.length > 0) h.subs[rnd.pick(live)]!.unsubscribe();
      } else if (r < 28) {
        const seq = (seqs.get(key) ?? 0) + 1;
        seqs.set(key, seq);
        h.store.resetBook(m, d, { bid: [entry(rnd), entry(rnd)], ask: [entry(rnd)] }, seq);
      } else if (r < 70) {
        if (!seqs.has(key)) {
          expect(() => h.store.applyBookDeltas(m, d, [entry(rnd)], [], 1)).toThrow(/before any snapshot/);
          continue;
        }
        const seq = seqs.get(key)! + 1;
        seqs.set(key, seq);
        const bids = Array.from({ length: rnd.int(3) }, () => entry(rnd));
        const asks = Array.from({ length: rnd.int(3) }, () => entry(rnd));
        h.store.applyBookDeltas(m, d, bids, asks, seq);
      } else if (r < 92) {
        // Trades: new ones, repeats of recent ids, sometimes a reset snapshot.
        const batch = Array.from({ length: rnd.int(3) }, () => (rnd.chance(0.3) && nextTrade > 0 ? trade(nextTrade - rnd.int(4)) : trade(++nextTrade)));
        h.store.addTrades(m, batch, rnd.chance(0.1));
      } else {
        const t: Ticker = { symbol: m, lastTradeRate: dec('1'), bidRate: dec('1'), askRate: dec('2') };
        h.store.setTickers([t], rnd.chance(0.2));
      }
    }
    logs[source] = h.log;
  }
  return logs;
}

describe('MarketStore book$ / trades$ delivery', () => {
  it('gives every subscriber what changes$ filtered and mapped gave, in the same order, over random runs', () => {
    let delivered = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const { fast, reference: ref } = run(seed);
      expect(fast, `seed ${seed}`).toEqual(ref);
      delivered += fast.length;
    }
    // The runs do deliver (a broken harness would compare two empty logs).
    expect(delivered).toBeGreaterThan(10_000);
  });

  it('a book$ subscriber stopped on the current value (take(1)) never joins the list', () => {
    const store = new MarketStore();
    store.resetBook('A-B', 25, { bid: [], ask: [] }, 1);
    const got: (number | undefined)[] = [];
    store.book$('A-B', 25).pipe(take(1)).subscribe((b) => got.push(b.sequence));
    store.applyBookDeltas('A-B', 25, [], [], 2);
    expect(got).toEqual([1]);
  });

  it('makes no event object for a change nobody takes whole, and one shared object when someone does', () => {
    const store = new MarketStore();
    const books: ReadonlyOrderBook[] = [];
    store.book$('A-B', 25).subscribe((b) => books.push(b));
    store.resetBook('A-B', 25, { bid: [], ask: [] }, 1);
    const events: MarketEvent[][] = [[], []];
    store.changes$.subscribe((e) => events[0]!.push(e));
    store.changes$.subscribe((e) => events[1]!.push(e));
    store.applyBookDeltas('A-B', 25, [], [], 2);
    store.addTrades('A-B', [trade(1)]);
    expect(books).toHaveLength(2);
    expect(events[0]).toHaveLength(2);
    expect(events[0]![0]).toBe(events[1]![0]);
    expect(events[0]![1]).toBe(events[1]![1]);
    expect(events[0]![0]).toEqual({ kind: 'book', marketSymbol: 'A-B', depth: 25, book: books[0], reset: false });
    expect(events[0]![1]).toEqual({ kind: 'trades', marketSymbol: 'A-B', trades: [trade(1)], reset: false });
  });
});
