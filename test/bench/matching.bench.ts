/**
 * 'matching': orders per second through the simulator, on one market (BTC-USD) holding a resting book of about
 * 10 000 orders, with a mixed flow of 50 % new resting limit orders, 30 % cancels and 20 % takers (IOC limits
 * crossing a few levels).
 * - `matching`: the full engine path (`SimEngine.placeOrder` / `cancelOrder`: validation, reservations in the
 *   ledger, settlement, executions, order/execution/orderbook/balance events, market data, conditional hooks,
 *   account volume), with one bus listener tracking open orders as a hub client would.
 * - `matching.book`: the bare order book (add / remove / plan + fill + per-depth deltas), no money, no events.
 * Baseline of both, in the same run: nodejs-order-book (an npm limit order book / matching engine for Node,
 * dev-only) on the same flow — limit adds, cancels and IOC takers crossing a few levels — with number prices and
 * sizes (its API), so it is compared with `matching.book` like for like, and with `matching` for what the full
 * engine path costs on top.
 */
import { VirtualClock } from '../../src/core/clock.js';
import { type Decimal, dec } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import type { NewOrder } from '../../src/model/order.js';
import { OrderBook } from '../../src/sim/book/order-book.js';
import { createSimEngine } from '../../src/sim/engine.js';
import { SimError } from '../../src/sim/sim-error.js';
import { OrderBook as PeerBook, Side } from 'nodejs-order-book';
import { alternatingOpsPerSecondSync, type Bench } from './harness.js';

const RESTING = 10_000;
const MARKET = 'BTC-USD';

/** Pre-built decimals, so the bench measures the engine rather than parsing. */
const RATES_BID = Array.from({ length: 1000 }, (_, i) => dec(29000 + i));
const RATES_ASK = Array.from({ length: 1000 }, (_, i) => dec(30001 + i));
const SIZES = Array.from({ length: 10 }, (_, i) => dec((0.001 * (i + 1)).toFixed(3)));
const TAKE_SIZES = Array.from({ length: 10 }, (_, i) => dec((0.005 * (i + 1)).toFixed(3)));

/** The full engine path's step (one order of the flow), its book already resting. */
function engineStep(): () => void {
  const rnd = mulberry32(7);
  const engine = createSimEngine({ clock: new VirtualClock(Date.parse('2021-06-14T00:00:00Z')) });
  const makers = Array.from({ length: 40 }, () => engine.createParticipant({ BTC: dec('100000'), USD: dec('10000000000') }));
  const takers = Array.from({ length: 4 }, () => engine.createParticipant({ BTC: dec('100000'), USD: dec('10000000000') }));
  const open = new Map<string, string>(); // order id -> account
  const ids: string[] = [];
  engine.bus.on((e) => {
    if (e.kind === 'order' && e.delta.status === 'CLOSED') open.delete(e.delta.id);
  });
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const rest = (): void => {
    const buy = rnd() < 0.5;
    // Rates concentrated near the top of the book, like real books.
    const idx = 999 - Math.floor(Math.pow(rnd(), 2) * 1000);
    const order: NewOrder = {
      marketSymbol: MARKET,
      direction: buy ? 'BUY' : 'SELL',
      type: 'LIMIT',
      timeInForce: 'GOOD_TIL_CANCELLED',
      quantity: pick(SIZES),
      limit: buy ? RATES_BID[idx]! : RATES_ASK[999 - idx]!,
    };
    const acct = pick(makers);
    const o = engine.placeOrder(acct, order);
    if (o.status === 'OPEN') {
      open.set(o.id, acct);
      ids.push(o.id);
    }
  };
  const cancel = (): void => {
    // Random live order: swap-remove from the id list, skipping ids closed by fills meanwhile.
    while (ids.length > 0) {
      const i = Math.floor(rnd() * ids.length);
      const id = ids[i]!;
      ids[i] = ids[ids.length - 1]!;
      ids.pop();
      const acct = open.get(id);
      if (acct) {
        engine.cancelOrder(acct, id);
        return;
      }
    }
  };
  const take = (): void => {
    const buy = rnd() < 0.5;
    const book = engine.trading.book(MARKET);
    const best = buy ? book.bestAsk() : book.bestBid();
    if (!best) return;
    const limit: Decimal = buy ? best.plus(3) : best.minus(3);
    try {
      engine.placeOrder(pick(takers), {
        marketSymbol: MARKET, direction: buy ? 'BUY' : 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: pick(TAKE_SIZES), limit,
      });
    } catch (e) {
      if (!(e instanceof SimError)) throw e;
    }
  };
  while (open.size < RESTING) rest();
  const step = (): void => {
    const r = rnd();
    // Keep the book near its size: lean to adds below it and to cancels above it.
    const bias = (RESTING - open.size) / RESTING;
    if (r < 0.5 + bias) rest();
    else if (r < 0.8 + bias) cancel();
    else take();
  };
  return step;
}

/** The bare order book's step. */
function bookStep(): () => void {
  const rnd = mulberry32(11);
  const book = new OrderBook(MARKET);
  const live: string[] = [];
  const fee = dec('0.0035');
  let n = 0;
  const add = (): void => {
    const buy = rnd() < 0.5;
    const idx = 999 - Math.floor(Math.pow(rnd(), 2) * 1000);
    const id = `o${n++}`;
    book.add(id, `m${n % 40}`, buy ? 'BUY' : 'SELL', buy ? RATES_BID[idx]! : RATES_ASK[999 - idx]!, SIZES[n % 10]!);
    live.push(id);
  };
  while (book.restingCount < RESTING) add();
  book.flushDeltas();
  const step = (): void => {
    const r = rnd();
    const bias = (RESTING - book.restingCount) / RESTING;
    if (r < 0.5 + bias) add();
    else if (r < 0.8 + bias) {
      while (live.length > 0) {
        const i = Math.floor(rnd() * live.length);
        const id = live[i]!;
        live[i] = live[live.length - 1]!;
        live.pop();
        if (book.remove(id)) break;
      }
    } else {
      const buy = rnd() < 0.5;
      const best = buy ? book.bestAsk() : book.bestBid();
      if (best) {
        const plan = book.plan({ accountId: 'taker', direction: buy ? 'BUY' : 'SELL', quantity: TAKE_SIZES[n % 10]!, limit: buy ? best.plus(3) : best.minus(3), takerFee: fee });
        for (const f of plan.fills) book.fill(f.maker, f.quantity);
      }
    }
    book.flushDeltas();
  };
  return step;
}

/** The same flow's step through nodejs-order-book. */
function peerStep(): () => void {
  const rnd = mulberry32(11);
  const book = new PeerBook();
  // Its best-price queues are not in its typings; they are public at run time (the library's own accessors).
  const sides = book as unknown as { asks: { minPriceQueue(): { price(): number } | undefined; len(): number }; bids: { maxPriceQueue(): { price(): number } | undefined; len(): number } };
  const bidRates = RATES_BID.map((r) => r.toNumber());
  const askRates = RATES_ASK.map((r) => r.toNumber());
  const sizes = SIZES.map((q) => q.toNumber());
  const takeSizes = TAKE_SIZES.map((q) => q.toNumber());
  const live: string[] = [];
  const resting = () => sides.asks.len() + sides.bids.len();
  let n = 0;
  const add = (): void => {
    const buy = rnd() < 0.5;
    const idx = 999 - Math.floor(Math.pow(rnd(), 2) * 1000);
    const id = `o${n++}`;
    book.limit({ id, side: buy ? Side.BUY : Side.SELL, size: sizes[n % 10]!, price: buy ? bidRates[idx]! : askRates[999 - idx]! });
    live.push(id);
  };
  while (resting() < RESTING) add();
  const step = (): void => {
    const r = rnd();
    const bias = (RESTING - resting()) / RESTING;
    if (r < 0.5 + bias) add();
    else if (r < 0.8 + bias) {
      while (live.length > 0) {
        const i = Math.floor(rnd() * live.length);
        const id = live[i]!;
        live[i] = live[live.length - 1]!;
        live.pop();
        if (book.cancel(id)) break;
      }
    } else {
      const buy = rnd() < 0.5;
      const best = buy ? sides.asks.minPriceQueue()?.price() : sides.bids.maxPriceQueue()?.price();
      if (best !== undefined) {
        book.limit({ id: `t${n++}`, side: buy ? Side.BUY : Side.SELL, size: takeSizes[n % 10]!, price: buy ? best + 3 : best - 3, timeInForce: 'IOC' as never });
      }
    }
  };
  return step;
}

export const benches: Bench[] = [
  {
    name: 'matching',
    async run() {
      // Alternating rounds (harness.ts), so a slow spell of a shared host does not land on one of the three alone.
      const [engine, bare, peer] = alternatingOpsPerSecondSync([engineStep(), bookStep(), peerStep()], { batch: 50 }) as [number, number, number];
      return [
        { bench: 'matching', value: engine, unit: 'orders/s', baseline: peer, note: `full engine path, 1 market, ~${RESTING} resting orders, 50% add / 30% cancel / 20% take; baseline nodejs-order-book, same flow` },
        { bench: 'matching.book', value: bare, unit: 'orders/s', baseline: peer, note: 'bare order book (no ledger, no events), same flow; baseline nodejs-order-book' },
      ];
    },
  },
];
