/**
 * Applying fills and closing orders: the only place trading moves money, always through the {@link Ledger}, and
 * always out of amounts the orders reserved when they were placed.
 *
 * Per fill (buyer B, seller S, quote amount P = floor8(quantity × rate), commissions cB and cS):
 * - base: S -> B, `quantity`, from S's reservation;
 * - quote: B -> S, `P - cS`, and B -> fee account, `cB + cS`, both from B's reservation.
 * So B pays P + cB, S receives P - cS, the fee account receives cB + cS, and every currency is conserved exactly.
 * (Routing S's commission through B's payment changes no balance; it only saves a ledger movement.)
 *
 * After a fill an order keeps reserved exactly {@link reserveFor} its remaining quantity; the excess (a buy that
 * filled below its limit, or paid the lower maker fee) goes back to available at once.
 */
import { type Decimal, ONE, ZERO, dgte } from '../core/decimal.js';
import { dsub, dsum } from '../core/decimal-fast.js';
import type { Trade } from '../model/market.js';
import type { OrderDirection } from '../model/enums.js';
import type { Execution } from '../model/order.js';
import type { PlannedFill } from './book/matcher.js';
import type { OrderBook } from './book/order-book.js';
import { FEE_ACCOUNT_ID, type Ledger } from './ledger.js';
import type { OrderStore } from './orders-store.js';
import { SATOSHI, buyReserve, commissionOn, fillQuote } from './trading-amounts.js';
import type { ExecutionStore } from './trading-executions.js';
import { type FillNotice, LIST_CAP, type OrderRecord } from './trading-types.js';

/** Up to this many touched orders an {@link Operation} finds one by a scan, beyond by a set of their ids. */
const TOUCHED_SCAN = 16;

/** Everything one placement or cancellation changed, collected for publication after the state is complete. */
export class Operation {
  readonly marketSymbol: string;
  /** Orders whose state changed, in order of first change. */
  readonly touched: OrderRecord[] = [];
  /**
   * The ids in `touched`, made only when it grows past {@link TOUCHED_SCAN} (a sweep through many makers): an
   * operation mostly touches one to three orders, where a scan is cheaper than a Map made per operation.
   */
  #touchedIds: Set<string> | undefined;
  /** New executions per account; undefined until the first (most placements and cancels execute nothing). */
  executions: Map<string, Execution[]> | undefined;
  /** Public trades, in execution order. */
  readonly trades: Trade[] = [];
  /** Orders that got their first fill while linked to a conditional order. */
  readonly linkedFirstFills: OrderRecord[] = [];
  readonly fills: FillNotice[] = [];

  constructor(marketSymbol: string) {
    this.marketSymbol = marketSymbol;
  }

  /** Note that `rec` changed. */
  touch(rec: OrderRecord): void {
    const id = rec.order.id;
    const touched = this.touched;
    const ids = this.#touchedIds;
    if (ids) {
      if (ids.has(id)) return;
      ids.add(id);
    } else {
      for (let i = 0; i < touched.length; i++) if (touched[i]!.order.id === id) return;
      if (touched.length >= TOUCHED_SCAN) this.#touchedIds = new Set([...touched.map((r) => r.order.id), id]);
    }
    touched.push(rec);
  }

  /** Note a new execution of `accountId`. */
  addExecution(accountId: string, e: Execution): void {
    const executions = (this.executions ??= new Map());
    let list = executions.get(accountId);
    if (!list) executions.set(accountId, (list = []));
    list.push(e);
  }
}

/** What settlement needs. */
export interface SettleContext {
  ledger: Ledger;
  book: OrderBook;
  orders: OrderStore;
  executions: ExecutionStore;
  newId: () => string;
  /** The market's commission rates. */
  fees: { maker: Decimal; taker: Decimal };
  /** The larger of the two, what resting buys reserve. */
  feeMax: Decimal;
  /** Time of the operation. */
  at: Date;
  op: Operation;
}

/** What an open order must keep reserved for its remaining quantity (zero for orders that never rest). */
export function reserveFor(rec: OrderRecord, feeMax: Decimal): Decimal {
  const o = rec.order;
  if (o.status !== 'OPEN' || o.type !== 'LIMIT' || rec.remaining === undefined) return ZERO;
  return o.direction === 'SELL' ? rec.remaining : buyReserve(rec.remaining, o.limit!, feeMax);
}

/** Settle one planned fill of `taker` (the fill's maker is a resting order of another account). */
export function settleFill(ctx: SettleContext, taker: OrderRecord, fill: PlannedFill): void {
  const maker = ctx.orders.get(fill.maker.orderId);
  if (!maker) throw new Error(`trading: resting order ${fill.maker.orderId} has no record`);
  ctx.book.fill(fill.maker, fill.quantity);
  const takerBuys = taker.order.direction === 'BUY';
  const buyer = takerBuys ? taker : maker;
  const seller = takerBuys ? maker : taker;
  const makerCommission = commissionOn(fill.quote, ctx.fees.maker);
  const buyerCommission = takerBuys ? fill.takerCommission : makerCommission;
  const sellerCommission = takerBuys ? makerCommission : fill.takerCommission;

  const { ledger } = ctx;
  const moved = { fromHeld: true, at: ctx.at.getTime() };
  ledger.move(seller.accountId, buyer.accountId, taker.baseCurrency, fill.quantity, moved);
  ledger.move(buyer.accountId, seller.accountId, taker.quoteCurrency, dsub(fill.quote, sellerCommission), moved);
  ledger.move(buyer.accountId, FEE_ACCOUNT_ID, taker.quoteCurrency, dsum(buyerCommission, sellerCommission), moved);
  seller.reserved = dsub(seller.reserved, fill.quantity);
  buyer.reserved = dsub(buyer.reserved, dsum(fill.quote, buyerCommission));

  record(ctx, taker, fill, fill.takerCommission, true, taker.order.direction);
  record(ctx, maker, fill, makerCommission, false, taker.order.direction);
  ctx.op.trades.push({
    id: ctx.newId(),
    executedAt: ctx.at,
    quantity: fill.quantity,
    rate: fill.rate,
    takerSide: taker.order.direction,
  });
  if (maker.remaining!.isZero()) {
    maker.resting = undefined;
    closeOrder(ctx, maker);
  } else if (isDust(maker.remaining!, maker.order.limit!)) {
    // What is left would trade for zero proceeds at the maker's own limit (every fill of a resting order is at
    // its limit): it can never trade, so it leaves the book and the order closes (see matcher.ts).
    ctx.book.remove(maker.order.id);
    maker.resting = undefined;
    closeOrder(ctx, maker);
  } else {
    trimReserve(ctx, maker);
  }
}

/**
 * True when `remaining` base would trade for zero proceeds at `rate`: too small to ever fill there, so it must not
 * rest (a fill for nothing would give base away; see matcher.ts).
 */
export function isDust(remaining: Decimal, rate: Decimal): boolean {
  // At least one unit at a rate of at least one satoshi is worth at least a satoshi: no product needed (the usual
  // answer for what is left of a resting order after a fill).
  if (dgte(remaining, ONE) && dgte(rate, SATOSHI)) return false;
  return fillQuote(remaining, rate).isZero();
}

/** Close an open order now: CLOSED, closedAt set, whatever it still reserves released. Book removal is the caller's. */
export function closeOrder(ctx: Pick<SettleContext, 'ledger' | 'orders' | 'at' | 'op'>, rec: OrderRecord): void {
  rec.order.status = 'CLOSED';
  rec.order.closedAt = ctx.at;
  rec.order.updatedAt = ctx.at;
  // Reservations are never negative, so "positive" is "not zero" (cheaper than gt(0), which builds a Decimal).
  if (!rec.reserved.isZero()) ctx.ledger.release(rec.accountId, rec.reserveCurrency, rec.reserved, ctx.at.getTime());
  rec.reserved = ZERO;
  rec.resting = undefined;
  ctx.orders.markClosed(rec, ctx.at.getTime());
  ctx.op.touch(rec);
}

/** Release what an open order holds beyond {@link reserveFor} its remaining quantity. */
export function trimReserve(ctx: Pick<SettleContext, 'ledger' | 'feeMax' | 'at'>, rec: OrderRecord): void {
  const need = reserveFor(rec, ctx.feeMax);
  const excess = dsub(rec.reserved, need);
  // A negative excess would mean a reservation too small for the remaining fills: a bug, never a user error.
  if (excess.isNegative()) throw new Error(`trading: order ${rec.order.id} reserves ${rec.reserved.toFixed()} < ${need.toFixed()}`);
  if (!excess.isZero()) {
    ctx.ledger.release(rec.accountId, rec.reserveCurrency, excess, ctx.at.getTime());
    rec.reserved = need;
  }
}

function record(ctx: SettleContext, rec: OrderRecord, fill: PlannedFill, commission: Decimal, isTaker: boolean, takerSide: OrderDirection): void {
  const o = rec.order;
  const first = o.fillQuantity.isZero();
  o.fillQuantity = dsum(o.fillQuantity, fill.quantity);
  o.proceeds = dsum(o.proceeds, fill.quote);
  o.commission = dsum(o.commission, commission);
  o.updatedAt = ctx.at;
  // A fill of the whole remainder (the plan hands out the remainder itself) leaves exactly zero.
  if (rec.remaining !== undefined) rec.remaining = fill.quantity === rec.remaining ? ZERO : dsub(rec.remaining, fill.quantity);
  const execution: Execution = {
    id: ctx.newId(),
    marketSymbol: o.marketSymbol,
    executedAt: ctx.at,
    quantity: fill.quantity,
    rate: fill.rate,
    orderId: o.id,
    commission,
    isTaker,
    // The service's executions carried `direction` = the TRADE's taker side, also on the maker's execution
    // (see Execution.direction); ccxt's bittrex flips it back for maker fills to get the order's side.
    direction: takerSide,
  };
  rec.executions.push(execution);
  // Only the newest LIST_CAP are ever read (GET /orders/{id}/executions): trim in steps of LIST_CAP, not per fill.
  if (rec.executions.length >= 2 * LIST_CAP) rec.executions.splice(0, rec.executions.length - LIST_CAP);
  ctx.executions.add(rec.accountId, execution, ctx.at.getTime());
  ctx.op.addExecution(rec.accountId, execution);
  ctx.op.touch(rec);
  ctx.op.fills.push({ accountId: rec.accountId, marketSymbol: o.marketSymbol, quoteCurrency: rec.quoteCurrency, quote: fill.quote, execution });
  if (first && o.orderToCancel?.type === 'CONDITIONAL_ORDER') ctx.op.linkedFirstFills.push(rec);
}
