/**
 * The end-to-end stream harness: a simulator server on loopback with accounts, a seeded participant that
 * trades so books, balances, orders and executions keep changing, the network gateway and LiveData over real
 * sockets, and a comparison of the client's stores with the engine's truth.
 *
 * The hub runs on a clock 20x faster than the wall clock, so its 5 s heartbeat comes every 250 ms and a client
 * watchdog of 0.4 heartbeat intervals (2 s) tells a stalled hub from a quiet market without the test waiting
 * 15 s. Nothing here asserts how long anything takes; waits are conditions (vi.waitFor), never sleeps.
 */
import { isDeepStrictEqual } from 'node:util';
import { createBittrexGateway, type BittrexGateway } from '../../src/bittrex/gateway.js';
import { createThrottler } from '../../src/bittrex/rest/throttler.js';
import { type Clock, systemClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import type { StreamResyncNotice } from '../../src/gateway/exchange-gateway.js';
import type { OrderBookDepth } from '../../src/model/index.js';
import { createFundedAccount } from '../../src/server/control/control-api.js';
import { startSimServer, type SimServer } from '../../src/server/sim-server.js';
import { createSimEngine, type SimEngine } from '../../src/sim/engine.js';
import { createLiveData, type LiveData, type LiveStreamStatus } from '../../src/sync/live-data.js';
import { Prng } from '../sync/prng.js';

export const MARKET = 'BTC-USD';
export const DEPTHS: readonly OrderBookDepth[] = [1, 25];

/** A clock whose timers run `factor` times faster than the wall clock (now() stays the wall time). */
export function fastClock(factor: number): Clock {
  return {
    now: () => Date.now(),
    setTimeout: (fn, ms) => systemClock.setTimeout(fn, ms / factor),
    setInterval: (fn, ms) => systemClock.setInterval(fn, ms / factor),
    sleep: (ms) => systemClock.sleep(ms / factor),
  };
}

/** An account on the simulator: its id and API key. */
export interface SimAccount {
  accountId: string;
  apiKey: string;
  apiSecret: string;
}

/** A running simulator with three funded accounts: the one under test, a market maker and a taker. */
export interface SimWorld {
  engine: SimEngine;
  sim: SimServer;
  me: SimAccount;
  maker: SimAccount;
  taker: SimAccount;
  close(): Promise<void>;
}

const FUNDS = { USD: '5000000', BTC: '200' };

/** Start the simulator (engine on the wall clock, hub on a 20x clock) and fund the accounts. */
export async function startWorld(): Promise<SimWorld> {
  const engine = createSimEngine({ clock: systemClock });
  const sim = await startSimServer({ engine, hubClock: fastClock(20) });
  const me = createFundedAccount(engine, { balances: FUNDS });
  const maker = createFundedAccount(engine, { balances: FUNDS });
  const taker = createFundedAccount(engine, { balances: FUNDS });
  return {
    engine,
    sim,
    me,
    maker,
    taker,
    async close() {
      await sim.close();
      engine.dispose();
    },
  };
}

/**
 * A participant trading on one market with a seeded PRNG: the maker and the account under test place and cancel
 * limit orders around a wandering mid, the taker crosses the spread with IOC orders (filling both), so every
 * stream the LiveData follows keeps moving. Orders are placed on the engine directly; what the client sees comes
 * back over the hub like any other market activity.
 */
export class Trader {
  readonly #world: SimWorld;
  readonly #rng: Prng;
  #mid = 30_000;
  /** Engine refusals (e.g. funds momentarily reserved); they change nothing and are only counted. */
  refused = 0;
  steps = 0;

  constructor(world: SimWorld, seed: number) {
    this.#world = world;
    this.#rng = new Prng(seed);
  }

  /** Rest `levels` maker orders on each side, so the books have depth before anything else happens. */
  seedBook(levels = 12): void {
    for (let i = 1; i <= levels; i++) {
      this.#limit(this.#world.maker.accountId, 'BUY', this.#mid - i * 5, this.#qty());
      this.#limit(this.#world.maker.accountId, 'SELL', this.#mid + i * 5, this.#qty());
    }
  }

  /** One random market action. */
  step(): void {
    this.steps++;
    const r = this.#rng;
    this.#mid += r.int(11) - 5;
    const { maker, me, taker } = this.#world;
    const roll = r.next();
    if (roll < 0.3) this.#quote(maker.accountId);
    else if (roll < 0.55) this.#quote(me.accountId);
    else if (roll < 0.75) {
      const buy = r.chance(0.5);
      this.#order(taker.accountId, buy ? 'BUY' : 'SELL', buy ? this.#mid + 40 : this.#mid - 40, this.#qty(), 'IMMEDIATE_OR_CANCEL');
    } else this.#cancelOne(r.chance(0.5) ? me.accountId : maker.accountId);
  }

  /**
   * Move every stream the client follows at least once, deterministically: the maker rests an ask at the mid
   * and the account under test buys into it (books, order, balance, execution). Run after a fault so a message
   * lost at the very end of a stream shows as a gap at the next one.
   */
  touchAll(): void {
    const { maker, me } = this.#world;
    this.#limit(maker.accountId, 'SELL', this.#mid, '0.010');
    this.#order(me.accountId, 'BUY', this.#mid, '0.002', 'IMMEDIATE_OR_CANCEL');
  }

  /** `n` steps, yielding to the event loop between them so sockets, snapshots and timers interleave. */
  async run(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      this.step();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  #quote(accountId: string): void {
    const open = this.#world.engine.openOrders(accountId, MARKET).data;
    if (open.length > 15) {
      this.#cancelOne(accountId);
      return;
    }
    const buy = this.#rng.chance(0.5);
    const offset = (1 + this.#rng.int(30)) * (buy ? -1 : 1);
    this.#limit(accountId, buy ? 'BUY' : 'SELL', this.#mid + offset, this.#qty());
  }

  #cancelOne(accountId: string): void {
    const open = this.#world.engine.openOrders(accountId, MARKET).data;
    const victim = open[this.#rng.int(Math.max(1, open.length))];
    if (!victim) return;
    try {
      this.#world.engine.cancelOrder(accountId, victim.id);
    } catch {
      this.refused++;
    }
  }

  #qty(): string {
    return ((1 + this.#rng.int(40)) / 1000).toFixed(3);
  }

  #limit(accountId: string, direction: 'BUY' | 'SELL', rate: number, qty: string): void {
    this.#order(accountId, direction, rate, qty, 'GOOD_TIL_CANCELLED');
  }

  #order(accountId: string, direction: 'BUY' | 'SELL', rate: number, qty: string, timeInForce: 'GOOD_TIL_CANCELLED' | 'IMMEDIATE_OR_CANCEL'): void {
    try {
      this.#world.engine.placeOrder(accountId, {
        marketSymbol: MARKET, direction, type: 'LIMIT', timeInForce, quantity: dec(qty), limit: dec(String(rate)),
      });
    } catch {
      this.refused++;
    }
  }
}

/** Options of {@link connect}. */
export interface ConnectOptions {
  /** Renew hub authentication this often (the expired-auth scenario shortens it to notice a silent expiry). */
  authRenewAfterMs?: number;
}

/** The client side: gateway, LiveData, and everything they reported. */
export interface Client {
  gateway: BittrexGateway;
  live: LiveData;
  statuses: LiveStreamStatus[];
  notices: StreamResyncNotice[];
  close(): Promise<void>;
}

/** Connect a gateway (classic or core) as `me` and start a LiveData on {@link MARKET} at {@link DEPTHS}. */
export async function connect(world: SimWorld, kind: 'classic' | 'core', opts: ConnectOptions = {}): Promise<Client> {
  const gateway = createBittrexGateway({
    restUrl: world.sim.restUrl,
    hubUrl: kind === 'classic' ? world.sim.hubUrl : world.sim.coreHubUrl,
    transport: kind,
    credentials: { apiKey: world.me.apiKey, apiSecret: world.me.apiSecret },
    // Resyncs fetch snapshots; the default 60 calls/minute would make the test wait for the next minute.
    throttler: createThrottler({ callsPerMinute: 100_000 }),
    hub: {
      watchdogMultiple: 0.4,
      reconnect: { initialDelayMs: 20, maxDelayMs: 200, factor: 2, jitter: 0 },
      ...(opts.authRenewAfterMs !== undefined ? { authRenewAfterMs: opts.authRenewAfterMs } : {}),
    },
  });
  const live = createLiveData(gateway, {
    clock: systemClock,
    markets: [MARKET],
    depths: DEPTHS,
    retry: { initialDelayMs: 10, maxDelayMs: 200 },
  });
  const statuses: LiveStreamStatus[] = [];
  const notices: StreamResyncNotice[] = [];
  live.status$.subscribe((s) => statuses.push(s));
  gateway.streams.resyncs$.subscribe((n) => notices.push(n));
  await live.start();
  return {
    gateway,
    live,
    statuses,
    notices,
    async close() {
      await live.stop();
      await gateway.close();
    },
  };
}

/** Plain JSON of a model value (Decimals as their canonical strings, Dates as ISO), for exact comparison. */
export function plain(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v)) as unknown;
}

/**
 * The first way the client's stores differ from the engine, or undefined when they agree: every book level by
 * level at the engine's current sequence, the balances, the open orders and the executions (each stream also at
 * the engine's sequence, and live).
 */
export function divergence(world: SimWorld, live: LiveData): string | undefined {
  const { engine, me } = world;
  for (const depth of DEPTHS) {
    const channel = `orderbook_${MARKET}_${depth}`;
    const truth = engine.orderBook(MARKET, depth);
    const book = live.market.book(MARKET, depth);
    if (live.status(channel)?.status.state !== 'live') return `${channel} is ${live.status(channel)?.status.state}`;
    if (!book || book.sequence !== truth.sequence) return `${channel} at sequence ${book?.sequence}, engine at ${truth.sequence}`;
    if (!isDeepStrictEqual(plain(book.ladder()), plain({ bid: truth.data.bid, ask: truth.data.ask }))) return `${channel} levels differ at sequence ${truth.sequence}`;
  }
  const account = live.account!;
  const streams = [
    ['balance', engine.funds.balances(me.accountId).sequence],
    ['order', engine.openOrders(me.accountId).sequence],
    ['execution', engine.lastExecution(me.accountId).sequence],
  ] as const;
  for (const [stream, sequence] of streams) {
    if (live.status(stream)?.status.state !== 'live') return `${stream} is ${live.status(stream)?.status.state}`;
    if (live.sequence(stream) !== sequence) return `${stream} at sequence ${live.sequence(stream)}, engine at ${sequence}`;
  }
  // Key order is not part of the data (the wire and the engine build objects field by field differently).
  const balances = (list: Iterable<{ currencySymbol: string }>) =>
    plain([...list].sort((a, b) => a.currencySymbol.localeCompare(b.currencySymbol)));
  if (!isDeepStrictEqual(balances(account.balances().values()), balances(engine.funds.balances(me.accountId).data))) return 'balances differ';
  const orders = (list: readonly { id: string }[]) => plain([...list].sort((a, b) => a.id.localeCompare(b.id)));
  if (!isDeepStrictEqual(orders(account.openOrders()), orders(engine.openOrders(me.accountId).data))) return 'open orders differ';
  const executed = engine.executions(me.accountId, { pageSize: 200 }).map((e) => e.id).sort();
  const known = account.executions().map((e) => e.id).sort();
  if (JSON.stringify(known) !== JSON.stringify(executed)) return `executions differ (${known.length} known, ${executed.length} on the engine)`;
  return undefined;
}

/** Statuses of `stream` (or of every stream) from index `from` on, for "what happened after the fault". */
export function resyncsSince(statuses: readonly LiveStreamStatus[], from: number, stream?: string): LiveStreamStatus[] {
  return statuses.slice(from).filter((s) => s.status.state === 'resyncing' && (stream === undefined || s.stream === stream));
}
