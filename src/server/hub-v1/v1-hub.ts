/**
 * The simulator's v1.1 streaming hub `c2` (seed 001, sections 4-6), served by the same classic SignalR endpoint
 * as `c3` and fed by the same engine.
 *
 * - Methods: GetAuthContext / Authenticate (signed challenge), QueryExchangeState, QuerySummaryState,
 *   SubscribeToExchangeDeltas, SubscribeToSummaryDeltas, SubscribeToSummaryLiteDeltas; names match
 *   case-insensitively, as the classic server did.
 * - Nonces are per connection ("v1.1 websocket nonces are server-specific"): each connection sees every
 *   market's nonce shifted by its own random offset, so a client that mixes connections' nonces fails as it did
 *   on the original, while QueryExchangeState and uE on one connection always agree.
 * - Payloads: minified keys, raw deflate, base64 (wire/v1-hub). The query results are such payloads as `R`.
 *
 * Bad input never throws out of a socket handler: a call that cannot be served throws {@link HubMethodError}
 * (the endpoint answers it as the invocation's `E`), an unknown market answers false (subscribe) or an error
 * (query), and nothing is changed by a refused call.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { hexEquals, hmacSha512Hex } from '../../bittrex/rest/auth.js';
import { systemClock, type Clock } from '../../core/clock.js';
import type { Decimal } from '../../core/decimal.js';
import type {
  V1BalanceDeltaBalance,
  V1DeltaFill,
  V1OrderDelta,
  V1SummaryDelta,
} from '../../wire/v1/hub/messages.js';
import { encodeV1Payload, V1_METHODS } from '../../wire/v1/hub/protocol.js';
import { HubMethodError, type HubFlavour, type HubSink } from '../hub/hub-types.js';
import type { HubConnectionHandle } from '../hub/hub.js';
import { MarketDeltas } from './market-deltas.js';
import type { V1HubBackend } from './v1-hub-types.js';

/** Settings of {@link V1Hub}. */
export interface V1HubOptions {
  backend: V1HubBackend;
  /** Only for the endpoint's keep-alives; the hub itself has no timers. Default: the system clock. */
  clock?: Clock;
  /** Per-connection nonce offset; default a random int in [1 000, 1 000 000). Tests pin it. */
  nonceOffset?: () => number;
}

/** What {@link V1Hub.connections} reports about one connection. */
export interface V1ConnectionInfo {
  id: string;
  accountId: string | undefined;
  nonceOffset: number;
  /** v1.1 market names subscribed with SubscribeToExchangeDeltas. */
  markets: string[];
  summaries: boolean;
  liteSummaries: boolean;
}

interface Session {
  id: string;
  sink: HubSink;
  offset: number;
  /** Challenge handed out by GetAuthContext, per API key; consumed by Authenticate. */
  challenges: Map<string, string>;
  accountId: string | undefined;
  markets: Set<string>;
  summaries: boolean;
  lite: boolean;
  /** Nonce of this connection's uO / uB messages. */
  accountNonce: number;
  open: boolean;
}

/** Longest string argument accepted (market names and keys are tens of characters). */
const MAX_ARG_LENGTH = 256;

function stringArg(method: string, args: unknown[], i: number, name: string): string {
  const v = args[i];
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_ARG_LENGTH) {
    throw new HubMethodError(`${method}: argument ${i + 1} (${name}) must be a non-empty string of at most ${MAX_ARG_LENGTH} characters`);
  }
  return v;
}

function arity(method: string, args: unknown[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const want = min === max ? `${min}` : `${min} to ${max}`;
    throw new HubMethodError(`${method} expects ${want} argument(s), got ${args.length}`);
  }
}

/**
 * One v1.1 hub serving any number of classic connections.
 *
 * @example
 * const v1 = new V1Hub({ backend });
 * attachHub(server, hub, { v1Hub: v1 });          // c2 beside c3 on /signalr
 * v1.levelChanged('USD-BTC', 'buy', dec('30000'), dec('0.5'));
 */
export class V1Hub {
  readonly clock: Clock;
  /**
   * Fault injection: while `dropExchangeDeltas` is on, uE are numbered but not sent, as if the connection had
   * stopped delivering them (the gap and "updates stop while trading continues" cases clients must handle).
   */
  readonly faults = { dropExchangeDeltas: false };
  readonly #backend: V1HubBackend;
  readonly #offset: () => number;
  readonly #sessions = new Map<string, Session>();
  readonly #markets = new Map<string, MarketDeltas>();
  #flushQueued = false;
  /** Open connections subscribed to uS or uL: while there are none, summaries concern nobody. */
  #summaryListeners = 0;

  constructor(opts: V1HubOptions) {
    this.#backend = opts.backend;
    this.clock = opts.clock ?? systemClock;
    this.#offset = opts.nonceOffset ?? (() => randomInt(1_000, 1_000_000));
  }

  /** Register a connection (the classic endpoint calls this once the socket is open). */
  open(id: string, _flavour: HubFlavour, sink: HubSink): HubConnectionHandle {
    this.close(id);
    const s: Session = {
      id,
      sink,
      offset: this.#offset(),
      challenges: new Map(),
      accountId: undefined,
      markets: new Set(),
      summaries: false,
      lite: false,
      accountNonce: 0,
      open: true,
    };
    this.#sessions.set(id, s);
    return {
      id,
      invoke: (method, args) => {
        if (!s.open) throw new HubMethodError('the connection is closed');
        return this.#invoke(s, method, args);
      },
      closed: () => this.#forget(s),
    };
  }

  /**
   * True once any market's served book is followed (a connection asked for its state or its deltas; a market
   * stays followed for good, its nonce goes on): until then book changes and trades concern nobody.
   */
  get followsMarkets(): boolean {
    return this.#markets.size > 0;
  }

  /** True when `marketName`'s served book is followed (see {@link followsMarkets}). */
  follows(marketName: string): boolean {
    return this.#markets.has(marketName);
  }

  /**
   * True while a connection subscribed to uS or uL is open: until then summary changes concern nobody, and the
   * engine need not build them (its summaries sequence, which numbers uS, moves on either way).
   */
  get wantsSummaries(): boolean {
    return this.#summaryListeners > 0;
  }

  /** True while a connection is open: without one, account deltas (uO, uB) reach nobody. */
  get hasConnections(): boolean {
    return this.#sessions.size > 0;
  }

  /** Every open connection. */
  connections(): V1ConnectionInfo[] {
    return [...this.#sessions.values()].map((s) => ({
      id: s.id,
      accountId: s.accountId,
      nonceOffset: s.offset,
      markets: [...s.markets],
      summaries: s.summaries,
      liteSummaries: s.lite,
    }));
  }

  /** Drop one connection's socket; false when it is not open. */
  close(id: string): boolean {
    const s = this.#sessions.get(id);
    if (!s) return false;
    this.#forget(s);
    try {
      s.sink.terminate();
    } catch {
      // Already gone.
    }
    return true;
  }

  /** Drop every connection. */
  closeAll(): void {
    for (const id of [...this.#sessions.keys()]) this.close(id);
  }

  /** A level of a market's served book has a new quantity (0 removes it). Ignored for markets nobody asked for. */
  levelChanged(marketName: string, side: 'buy' | 'sell', rate: Decimal, quantity: Decimal): void {
    const m = this.#markets.get(marketName);
    if (m?.level(side, rate, quantity)) this.#queueFlush();
  }

  /** A market traded. Ignored for markets nobody asked for. */
  filled(marketName: string, fill: V1DeltaFill): void {
    const m = this.#markets.get(marketName);
    if (m?.fill(fill)) this.#queueFlush();
  }

  /**
   * Summaries changed: uS to SubscribeToSummaryDeltas connections, uL to SubscribeToSummaryLiteDeltas ones.
   * `nonce` is the source's summaries sequence after this change (the engine's `market_summaries` sequence, which
   * QuerySummaryState answers with too), so a connection that subscribes late sees the changes it missed counted.
   * `deltas` may be a function, called only when someone listens (building v1.1 summaries reads the whole book).
   */
  summariesChanged(nonce: number, deltas: readonly V1SummaryDelta[] | (() => readonly V1SummaryDelta[])): void {
    if (this.#summaryListeners === 0) return;
    if (typeof deltas !== 'function' && deltas.length === 0) return;
    let built: readonly V1SummaryDelta[] | undefined = typeof deltas === 'function' ? undefined : deltas;
    let lite: string | undefined;
    for (const s of this.#sessions.values()) {
      if (!s.summaries && !s.lite) continue;
      built ??= (deltas as () => readonly V1SummaryDelta[])();
      if (built.length === 0) return;
      if (s.summaries) this.#send(s, 'uS', encodeV1Payload({ Nonce: s.offset + nonce, Deltas: built }));
      if (s.lite) {
        const all = built;
        lite ??= encodeV1Payload({
          Deltas: all.map((d) => ({ MarketName: d.MarketName, Last: d.Last, BaseVolume: d.BaseVolume, PrevDay: d.PrevDay })),
        });
        this.#send(s, 'uL', lite);
      }
    }
  }

  /**
   * An order of `accountId` changed: uO to its authenticated connections. `delta` may be a function, called only
   * when such a connection is open.
   */
  orderChanged(accountId: string, delta: Omit<V1OrderDelta, 'Nonce'> | (() => Omit<V1OrderDelta, 'Nonce'>)): void {
    let built: Omit<V1OrderDelta, 'Nonce'> | undefined;
    for (const s of this.#sessions.values()) {
      if (s.accountId !== accountId) continue;
      built ??= typeof delta === 'function' ? delta() : delta;
      this.#send(s, 'uO', encodeV1Payload({ ...built, Nonce: ++s.accountNonce }));
    }
  }

  /**
   * A balance of `accountId` changed: uB to its authenticated connections. `balance` may be a function, called only
   * when such a connection is open.
   */
  balanceChanged(accountId: string, balance: V1BalanceDeltaBalance | (() => V1BalanceDeltaBalance)): void {
    let built: V1BalanceDeltaBalance | undefined;
    for (const s of this.#sessions.values()) {
      if (s.accountId !== accountId) continue;
      built ??= typeof balance === 'function' ? balance() : balance;
      this.#send(s, 'uB', encodeV1Payload({ Nonce: ++s.accountNonce, Delta: built }));
    }
  }

  #invoke(s: Session, method: string, args: unknown[]): unknown {
    switch (method.toLowerCase()) {
      case 'getauthcontext': {
        arity('GetAuthContext', args, 1);
        const apiKey = stringArg('GetAuthContext', args, 0, 'apiKey');
        // A challenge for any key, known or not: the answer must not tell which keys exist.
        const challenge = randomUUID();
        if (s.challenges.size >= 16 && !s.challenges.has(apiKey)) s.challenges.clear();
        s.challenges.set(apiKey, challenge);
        return challenge;
      }
      case 'authenticate': {
        arity('Authenticate', args, 2);
        const apiKey = stringArg('Authenticate', args, 0, 'apiKey');
        const response = args[1];
        const challenge = s.challenges.get(apiKey);
        const key = this.#backend.findKey(apiKey);
        if (challenge === undefined || key === undefined || typeof response !== 'string' || !/^[0-9a-fA-F]{128}$/.test(response)) {
          return false;
        }
        if (!hexEquals(response, hmacSha512Hex(key.secret, challenge))) return false;
        s.challenges.delete(apiKey);
        s.accountId = key.accountId;
        return true;
      }
      case 'queryexchangestate': {
        arity('QueryExchangeState', args, 1);
        const name = this.#marketName('QueryExchangeState', args);
        if (name === undefined) throw new HubMethodError(`QueryExchangeState: there is no market ${String(args[0])}`);
        const m = this.#activate(name);
        // Changes of the current engine operation must be numbered before the snapshot that already shows them.
        this.#flush();
        const snap = this.#backend.exchangeState(name);
        return encodeV1Payload({ ...snap, Nonce: s.offset + m.nonce });
      }
      case 'querysummarystate':
        // The document lists a market argument, yet the call returns every market; accept it or none.
        arity('QuerySummaryState', args, 0, 1);
        return encodeV1Payload({ Nonce: s.offset + this.#backend.summariesNonce(), Summaries: this.#backend.summaries() });
      case 'subscribetoexchangedeltas': {
        arity('SubscribeToExchangeDeltas', args, 1);
        const name = this.#marketName('SubscribeToExchangeDeltas', args);
        if (name === undefined) return false;
        this.#activate(name);
        s.markets.add(name);
        return true;
      }
      case 'subscribetosummarydeltas':
        arity('SubscribeToSummaryDeltas', args, 0);
        if (!s.summaries && !s.lite) this.#summaryListeners++;
        s.summaries = true;
        return true;
      case 'subscribetosummarylitedeltas':
        arity('SubscribeToSummaryLiteDeltas', args, 0);
        if (!s.summaries && !s.lite) this.#summaryListeners++;
        s.lite = true;
        return true;
      default:
        throw new HubMethodError(`'${method.slice(0, 64)}' method could not be resolved (hub c2 has ${V1_METHODS.join(', ')})`);
    }
  }

  #marketName(method: string, args: unknown[]): string | undefined {
    return this.#backend.marketName(stringArg(method, args, 0, 'market'));
  }

  /** Start following a market's served book, from the engine's state now. */
  #activate(name: string): MarketDeltas {
    let m = this.#markets.get(name);
    if (!m) {
      const snap = this.#backend.exchangeState(name);
      m = new MarketDeltas(name, snap.Buys, snap.Sells);
      this.#markets.set(name, m);
    }
    return m;
  }

  #queueFlush(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    queueMicrotask(() => this.#flush());
  }

  /** Number and send every market's gathered changes. */
  #flush(): void {
    this.#flushQueued = false;
    for (const m of this.#markets.values()) {
      if (!m.hasPending) continue;
      const taken = m.take();
      if (!taken || this.faults.dropExchangeDeltas) continue;
      for (const s of this.#sessions.values()) {
        if (!s.markets.has(m.marketName)) continue;
        this.#send(s, 'uE', encodeV1Payload({ MarketName: m.marketName, Nonce: s.offset + taken.nonce, ...taken.delta }));
      }
    }
  }

  #send(s: Session, target: string, payload: string): void {
    if (!s.open) return;
    try {
      s.sink.push(target, `[${JSON.stringify(payload)}]`);
    } catch {
      // One broken socket must not stop delivery to the others.
      this.close(s.id);
    }
  }

  #forget(s: Session): void {
    if (!s.open) return;
    s.open = false;
    if (s.summaries || s.lite) this.#summaryListeners--;
    if (this.#sessions.get(s.id) === s) this.#sessions.delete(s.id);
  }
}
