/**
 * Order placement and cancellation: validation, matching, reservation, settlement and publication, for every
 * market of the catalog. Reads (open/closed orders, executions, books) live in {@link TradingReads}.
 *
 * A placement either fails with a {@link SimError} and changes nothing, or succeeds completely: every check that
 * can refuse the order (size, POST_ONLY, SELF_TRADE, FILL_OR_KILL, INSUFFICIENT_FUNDS) runs against a matching
 * PLAN before any state changes, and the plan is then applied without further refusals.
 *
 * Policies where the seed leaves room (status codes in parentheses):
 * - MARKET_OFFLINE (503): an OFFLINE market is a resource temporarily unavailable, like CURRENCY_OFFLINE;
 *   cancelling on an offline market still works, so funds are never trapped.
 * - SELF_TRADE (409): if the walk would reach a resting order of the same account, the incoming order is refused
 *   before any fill and nothing changes (the resting order stays). Orders that stop before reaching it trade.
 * - FILL_OR_KILL (409): an FOK order that cannot fill completely right now is refused with the error; no order
 *   is created. POST_ONLY (409): a post-only order that would trade is refused; no order is created.
 * - ORDERBOOK_DEPTH (409): a MARKET or CEILING_MARKET order whose walk would fill beyond `config.maxSlippage` of
 *   the best opposite rate is refused whole; nothing changes (see `checkSlippage`).
 * - MAX_ORDERS_ALLOWED (409): refused when the account already has `config.maxOpenOrders` open orders (every
 *   order is open while it is being matched, so the rule applies to all types).
 * - INSUFFICIENT_AWARDS (409) for `useAwards: true`: simulated accounts hold no award credits.
 * - NOT_ALLOWED (403) when the account's MarketPolicy forbids this direction on this market (`deps.permits`).
 * - CLIENTORDERID_ALREADY_EXISTS (409, `data.existingOrderId`): same clientOrderId from the same account within
 *   24 h. Only accepted orders consume a clientOrderId; a refused request may be retried with it.
 * - Dust: no fill has zero proceeds; a remainder that could only trade for zero proceeds at its price never rests
 *   and never trades — the order closes with what it filled (matcher.ts, trading-settle.ts).
 * - Reservations: a LIMIT buy reserves `ceil8(q × limit) + ceil8(q × limit × max(maker, taker fee))`; sells
 *   reserve their base quantity; a MARKET buy reserves exactly its planned cost (the book walk); a ceiling buy
 *   reserves its ceiling; a ceiling sell its planned base quantity.
 */
import { type Decimal, ZERO } from '../core/decimal.js';
import { randomUuid } from '../core/uuid.js';
import type { BatchResponse, BulkCancelResult, NewOrder, Order, OrderToCancel } from '../model/order.js';
import type { MatchPlan } from './book/matcher.js';
import { OrderBook } from './book/order-book.js';
import type { EngineDeps } from './engine-deps.js';
import { OrderStore } from './orders-store.js';
import { conflict, forbidden, unavailable } from './sim-error.js';
import { buyReserve, maxFee } from './trading-amounts.js';
import { type BatchItem, runBatch } from './trading-batch.js';
import { ExecutionStore } from './trading-executions.js';
import { Publisher, type Top, orderView, topOf } from './trading-publish.js';
import { TradingReads } from './trading-reads.js';
import { Operation, type SettleContext, closeOrder, isDust, settleFill, trimReserve } from './trading-settle.js';
import { SizeRules } from './trading-size-rules.js';
import type { OrderPort } from './conditional-orders/conditional-orders.js';
import type { OrderRecord, TradingHooks } from './trading-types.js';
import { type ValidOrder, validateNewOrder } from './trading-validate.js';

/** What trading needs from the engine. */
export interface TradingDeps extends EngineDeps {
  /** Id generator for orders, executions and trades (default {@link randomUuid}, a cheaper `crypto.randomUUID`). */
  newId?: () => string;
  /**
   * Whether the account may trade this market in this direction (its MarketPolicy); refusal is 403 NOT_ALLOWED.
   * Everything is allowed when absent.
   */
  permits?: (accountId: string, marketSymbol: string, direction: 'BUY' | 'SELL') => boolean;
}

/** Options of {@link Trading.placeOrder} that no request can set. */
export interface PlaceOptions {
  /**
   * The order re-enacts recorded liquidity (a backtest, or the simulator's replay driver): size rules, rate
   * precision and the open-order cap are skipped.
   */
  recordedLiquidity?: boolean;
}

/** The operation a {@link Trading.transact} call collects its placements and cancellations into. */
interface Transaction {
  book: OrderBook;
  op: Operation;
  before: Top;
}

const NO_FILLS: MatchPlan = { fills: [], filled: ZERO, quote: ZERO, commission: ZERO, complete: false, selfTrade: undefined };

/** Placement, cancellation and reads of orders on all markets. Implements the {@link OrderPort} of conditional orders. */
export class Trading implements OrderPort {
  /** Reads: open/closed orders, executions, order books. */
  readonly reads: TradingReads;
  readonly #d: TradingDeps;
  readonly #newId: () => string;
  readonly #books = new Map<string, OrderBook>();
  readonly #orders: OrderStore;
  readonly #executions: ExecutionStore;
  readonly #lastRate = new Map<string, Decimal>();
  readonly #size: SizeRules;
  readonly #publisher: Publisher;
  #hooks: TradingHooks = {};
  /** The transaction in progress, if any (see {@link transact}). */
  #tx: Transaction | undefined;

  constructor(deps: TradingDeps) {
    this.#d = deps;
    this.#newId = deps.newId ?? randomUuid;
    const now = () => deps.clock.now();
    this.#orders = new OrderStore(now, deps.config.retention?.closedOrders);
    this.#executions = new ExecutionStore(now, deps.config.retention?.executions);
    this.#size = new SizeRules(deps.catalog, deps.config, {
      bestOpposite: (m, direction) => {
        const b = this.#books.get(m);
        return direction === 'BUY' ? b?.bestAsk() : b?.bestBid();
      },
      reference: (m) => this.referenceRate(m),
    });
    this.#publisher = new Publisher({ bus: deps.bus, sequences: deps.sequences, hooks: () => this.#hooks });
    this.reads = new TradingReads({
      catalog: deps.catalog,
      sequences: deps.sequences,
      orders: this.#orders,
      executions: this.#executions,
      book: (m) => this.book(m),
    });
  }

  /** Attach the modules trading reports to (market data, conditional orders, fill listeners). */
  connect(hooks: TradingHooks): void {
    this.#hooks = { ...this.#hooks, ...hooks };
  }

  /** The book of a listed market (`symbol` in canonical form). */
  book(marketSymbol: string): OrderBook {
    let b = this.#books.get(marketSymbol);
    if (!b) {
      const m = this.#d.catalog.market(marketSymbol);
      b = this.#books.get(m.symbol);
      if (!b) this.#books.set(m.symbol, (b = new OrderBook(m.symbol)));
    }
    return b;
  }

  /** Last trade rate of a market, else its book midpoint, else undefined. */
  referenceRate(marketSymbol: string): Decimal | undefined {
    const last = this.#lastRate.get(marketSymbol);
    if (last) return last;
    const b = this.#books.get(marketSymbol);
    const bid = b?.bestBid();
    const ask = b?.bestAsk();
    return bid && ask ? bid.plus(ask).div(2) : undefined;
  }

  /**
   * The refusals of {@link placeOrder} that depend neither on balances nor on the book: request shape, market,
   * permissions, market status, awards, minimum trade size of a quantity order. Conditional orders validate their
   * `orderToCreate` with it, so both answer the same codes.
   */
  validateOrder(accountId: string, n: NewOrder): void {
    this.#size.checkQuantity(this.#validate(accountId, n));
  }

  /**
   * POST /orders: place an order (201 semantics); throws a SimError and changes nothing when refused.
   * `opts.recordedLiquidity` is for recorded data only (never reachable over the wire): the order stands for liquidity
   * a recording shows the real venue held, which that venue had already accepted, so the size rules
   * (minTradeSize, dust value), the rate precision and the open-order cap are not applied to it again. Every
   * other rule is. The simulator's replay driver uses it for the same reason.
   */
  placeOrder(accountId: string, n: NewOrder, opts: PlaceOptions = {}): Order {
    const { catalog, config, idempotency, ledger } = this.#d;
    const v = this.#validate(accountId, n, opts.recordedLiquidity === true);
    const m = v.market;
    if (!opts.recordedLiquidity) this.#size.check(v);
    if (!opts.recordedLiquidity && this.#orders.openCount(accountId) >= config.maxOpenOrders) {
      throw conflict('MAX_ORDERS_ALLOWED', `at most ${config.maxOpenOrders} open orders`);
    }
    const book = this.book(m.symbol);
    this.#checkTransaction(book);
    const fees = catalog.feeRates(m.symbol);
    const feeMax = maxFee(fees);
    let plan = NO_FILLS;
    if (v.postOnly) {
      if (book.wouldCross(v.direction, v.limit!)) throw conflict('POST_ONLY', 'post-only order would trade');
    } else {
      plan = book.plan({ accountId, direction: v.direction, limit: v.limit, quantity: v.quantity, ceiling: v.ceiling, takerFee: fees.taker });
      if (plan.selfTrade) throw conflict('SELF_TRADE', `order would match own order ${plan.selfTrade.orderId}`);
      if (v.fillOrKill && !plan.complete) throw conflict('FILL_OR_KILL', 'order cannot be filled completely');
      checkSlippage(v, plan, config.maxSlippage);
    }
    const reserveCurrency = v.direction === 'BUY' ? m.quoteCurrencySymbol : m.baseCurrencySymbol;
    const reserve = reservation(v, plan, feeMax);
    // One clock read for the whole operation: the order's times, its executions' and the balances' updatedAt.
    const at = new Date(this.#d.clock.now());
    ledger.hold(accountId, reserveCurrency, reserve, at.getTime());
    // Nothing below refuses: the order is accepted.

    const order: Order = {
      id: this.#newId(),
      marketSymbol: m.symbol,
      direction: v.direction,
      type: v.type,
      timeInForce: v.timeInForce,
      fillQuantity: ZERO,
      commission: ZERO,
      proceeds: ZERO,
      status: 'OPEN',
      createdAt: at,
      updatedAt: at,
    };
    if (v.quantity !== undefined) order.quantity = v.quantity;
    if (v.limit !== undefined) order.limit = v.limit;
    if (v.ceiling !== undefined) order.ceiling = v.ceiling;
    if (v.clientOrderId !== undefined) order.clientOrderId = v.clientOrderId;
    const rec: OrderRecord = {
      accountId,
      order,
      baseCurrency: m.baseCurrencySymbol,
      quoteCurrency: m.quoteCurrencySymbol,
      reserveCurrency,
      reserved: reserve,
      remaining: v.quantity,
      resting: undefined,
      executions: [],
      closeSeq: 0,
    };
    if (v.clientOrderId !== undefined) idempotency.remember(accountId, clientKey(v.clientOrderId), order.id);

    const before = topOf(book);
    const op = this.#tx?.op ?? new Operation(m.symbol);
    op.touch(rec);
    const ctx = this.#context(book, fees, feeMax, at, op);
    for (const fill of plan.fills) settleFill(ctx, rec, fill);
    if (plan.fills.length > 0) this.#lastRate.set(m.symbol, plan.fills[plan.fills.length - 1]!.rate);
    // A remainder that could only trade for zero proceeds (the walk stopped on it, or it is dust at its own
    // limit) is not tradable: it does not rest, the order closes with what it filled (matcher.ts).
    if (v.rests && !rec.remaining!.isZero() && !plan.dust && !isDust(rec.remaining!, v.limit!)) {
      rec.resting = book.add(order.id, accountId, v.direction, v.limit!, rec.remaining!);
      // Registered as open only now that it rests: nothing looks the taker up while it trades (see OrderStore).
      this.#orders.add(rec);
      // Without fills the reservation is exactly what the full quantity needs (see `reservation`): nothing to trim.
      if (plan.fills.length > 0) trimReserve(ctx, rec);
    } else {
      closeOrder(ctx, rec);
    }
    if (!this.#tx) this.#publisher.publish(book, op, before);
    return orderView(rec);
  }

  /** DELETE /orders/{id}: cancel an open order; 404 NOT_FOUND if unknown or another account's, 409 ORDER_NOT_OPEN if closed. */
  cancelOrder(accountId: string, orderId: string): Order {
    const rec = this.#orders.owned(accountId, orderId);
    if (rec.order.status !== 'OPEN') throw conflict('ORDER_NOT_OPEN', `order ${rec.order.id} is not open`);
    const book = this.book(rec.order.marketSymbol);
    this.#checkTransaction(book);
    const before = topOf(book);
    const op = this.#tx?.op ?? new Operation(book.marketSymbol);
    book.remove(rec.order.id);
    closeOrder({ ledger: this.#d.ledger, orders: this.#orders, at: new Date(this.#d.clock.now()), op }, rec);
    if (!this.#tx) this.#publisher.publish(book, op, before);
    return orderView(rec);
  }

  /**
   * Run `fn`, whose placements and cancellations on `marketSymbol` become ONE operation: each is checked and
   * applied as usual (a refused one changes nothing and the others still apply), but their changes are published
   * together when `fn` returns or throws — one `order` event per changed order (its final state), one `execution`
   * event per account, and per depth ONE `orderBook` delta with the net change of each level (a level cancelled and
   * placed again shows only its new quantity; one left as it was shows nothing). This is how a driver re-enacts one
   * recorded message — a snapshot, a delta naming several levels, a trade and the levels it restores — as the real
   * service published it: in one message, with one sequence step, and no intermediate book. A call inside `fn`
   * on the same market joins the transaction; operations on another market inside it are a programming error.
   *
   * @example
   * engine.trading.transact('BTC-EUR', () => {
   *   engine.cancelOrder(lp, oldId);
   *   engine.placeOrder(lp, { ...level, quantity: dec('0.7') });
   * }); // subscribers see one orderBook delta: that rate now holds 0.7
   */
  transact<T>(marketSymbol: string, fn: () => T): T {
    const book = this.book(marketSymbol);
    if (this.#tx) {
      this.#checkTransaction(book);
      return fn();
    }
    const tx: Transaction = { book, op: new Operation(book.marketSymbol), before: topOf(book) };
    this.#tx = tx;
    try {
      return fn();
    } finally {
      // Cleared first: listeners reacting to the publication place and cancel as operations of their own.
      this.#tx = undefined;
      this.#publisher.publish(book, tx.op, tx.before);
    }
  }

  /** Inside a transaction, only its market's book may change (its publication covers that book only). */
  #checkTransaction(book: OrderBook): void {
    if (this.#tx && this.#tx.book !== book) {
      throw new Error(`trading: a transaction on ${this.#tx.book.marketSymbol} cannot change ${book.marketSymbol}`);
    }
  }

  /**
   * DELETE /orders/open: cancel every open order of the account (of one market when given), newest first; each
   * result carries `statusCode: 'SUCCESS'` and the cancelled order (the service's answer for a cancelled order).
   */
  cancelAll(accountId: string, marketSymbol?: string): BulkCancelResult[] {
    const market = marketSymbol === undefined ? undefined : this.#d.catalog.market(marketSymbol).symbol;
    return this.#orders.open(accountId, market).map((rec) => ({
      id: rec.order.id,
      statusCode: 'SUCCESS',
      result: this.cancelOrder(accountId, rec.order.id),
    }));
  }

  /** POST /batch: placements and cancellations in order, each answered as the individual request would be. */
  batch(accountId: string, items: readonly BatchItem[]): BatchResponse[] {
    return runBatch(this, accountId, items);
  }

  /** GET /orders/{id}. */
  getOrder(accountId: string, orderId: string): Order {
    return orderView(this.#orders.owned(accountId, orderId));
  }

  /**
   * Set or clear the reciprocal `orderToCancel` link of an order (conditional orders pair themselves with it).
   * Linking needs the order open (409 ORDER_NOT_OPEN otherwise); clearing always works. Publishes an order event.
   */
  linkOrderToCancel(accountId: string, orderId: string, link: OrderToCancel | undefined): void {
    const rec = this.#orders.owned(accountId, orderId);
    if (link && rec.order.status !== 'OPEN') throw conflict('ORDER_NOT_OPEN', `order ${rec.order.id} is not open`);
    if (link) rec.order.orderToCancel = { ...link };
    else delete rec.order.orderToCancel;
    rec.order.updatedAt = new Date(this.#d.clock.now());
    const book = this.book(rec.order.marketSymbol);
    this.#checkTransaction(book);
    if (this.#tx) {
      this.#tx.op.touch(rec);
      return;
    }
    const op = new Operation(book.marketSymbol);
    op.touch(rec);
    this.#publisher.publish(book, op, topOf(book));
  }

  /** Static validation, clientOrderId, permissions, market status and awards, in the order the service checked. */
  #validate(accountId: string, n: NewOrder, recordedLiquidity = false): ValidOrder {
    const v = validateNewOrder(n, this.#d.catalog, recordedLiquidity ? { ratePrecision: false } : {});
    const m = v.market;
    if (v.clientOrderId !== undefined) {
      const existing = this.#d.idempotency.find(accountId, clientKey(v.clientOrderId));
      if (existing) {
        throw conflict('CLIENTORDERID_ALREADY_EXISTS', `clientOrderId ${v.clientOrderId} already used`, { existingOrderId: existing });
      }
    }
    if (this.#d.permits && !this.#d.permits(accountId, m.symbol, v.direction)) {
      throw forbidden('NOT_ALLOWED', `account may not ${v.direction.toLowerCase()} on ${m.symbol}`);
    }
    if (m.status !== 'ONLINE') throw unavailable('MARKET_OFFLINE', `market ${m.symbol} is offline`);
    if (v.useAwards) throw conflict('INSUFFICIENT_AWARDS', 'no award credits to pay commission with');
    return v;
  }

  #context(book: OrderBook, fees: { maker: Decimal; taker: Decimal }, feeMax: Decimal, at: Date, op: Operation): SettleContext {
    return { ledger: this.#d.ledger, book, orders: this.#orders, executions: this.#executions, newId: this.#newId, fees, feeMax, at, op };
  }
}

/**
 * The market's price slippage limit (config.maxSlippage): a MARKET or CEILING_MARKET order whose walk would fill
 * further than that fraction from the best opposite rate is refused whole, 409 ORDERBOOK_DEPTH. Limit orders are
 * bounded by their own limit.
 */
function checkSlippage(v: ValidOrder, plan: MatchPlan, maxSlippage: Decimal | undefined): void {
  if (!maxSlippage || (v.type !== 'MARKET' && v.type !== 'CEILING_MARKET') || plan.fills.length === 0) return;
  const best = plan.fills[0]!.rate;
  const worst = plan.fills[plan.fills.length - 1]!.rate;
  const bound = v.direction === 'BUY' ? best.times(maxSlippage.plus(1)) : best.times(maxSlippage.negated().plus(1));
  if (v.direction === 'BUY' ? worst.gt(bound) : worst.lt(bound)) {
    throw conflict('ORDERBOOK_DEPTH', `execution would reach ${worst.toFixed()}, beyond the market's price slippage limit of ${maxSlippage.times(100).toFixed()} % from ${best.toFixed()}`);
  }
}

/** What an accepted order reserves (see the module note). */
function reservation(v: ValidOrder, plan: MatchPlan, feeMax: Decimal): Decimal {
  if (v.direction === 'SELL') return v.quantity ?? plan.filled;
  if (v.type === 'LIMIT') return buyReserve(v.quantity!, v.limit!, feeMax);
  if (v.type === 'MARKET') return plan.quote.plus(plan.commission);
  return v.ceiling!;
}

/** Idempotency keys of orders, kept apart from the other kinds of client ids sharing the index. */
function clientKey(clientOrderId: string): string {
  return `order:${clientOrderId.toLowerCase()}`;
}
