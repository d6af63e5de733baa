/**
 * One price level of one side of a book: the resting orders at that rate in arrival order (a FIFO queue, as a
 * doubly linked list so a cancel from the middle is O(1)) and their aggregated remaining quantity.
 */
import { type Decimal, ZERO } from '../../core/decimal.js';
import { formatFixed } from '../../core/decimal-format.js';
import { orderingKey } from '../../core/ordering-key.js';
import { dadd, dsub } from '../../core/decimal-fast.js';

/** An order resting on the book. The book owns `remaining` and the links; the trading layer owns the order. */
export interface RestingOrder {
  readonly orderId: string;
  readonly accountId: string;
  /** The order's limit: the rate of its level. */
  readonly rate: Decimal;
  /** Base quantity still resting. */
  remaining: Decimal;
  /** The level holding it; undefined once it left the book. */
  level: PriceLevel | undefined;
  prev: RestingOrder | undefined;
  next: RestingOrder | undefined;
}

/** Create a resting entry (not yet on any level). */
export function restingOrder(orderId: string, accountId: string, rate: Decimal, quantity: Decimal): RestingOrder {
  return { orderId, accountId, rate, remaining: quantity, level: undefined, prev: undefined, next: undefined };
}

/** Resting orders at one rate, oldest first. */
export class PriceLevel {
  readonly rate: Decimal;
  /** Canonical text of the rate (`toFixed()`, no trailing zeros): the level's identity in maps and deltas. */
  readonly key: string;
  /** `rate` as a double, used only to order levels quickly (ties fall back to the exact comparison). */
  readonly approx: number;
  /** Sum of `remaining` over the queue. */
  total: Decimal = ZERO;
  /** Number of orders in the queue. */
  count = 0;
  head: RestingOrder | undefined;
  tail: RestingOrder | undefined;

  constructor(rate: Decimal) {
    this.rate = rate;
    this.key = formatFixed(rate);
    // toNumber() exactly (the correctly rounded double), without writing the rate out as text first.
    this.approx = orderingKey(rate);
  }

  /** Put `o` at the back of the queue (time priority: it arrived last). */
  append(o: RestingOrder): void {
    o.level = this;
    o.prev = this.tail;
    o.next = undefined;
    if (this.tail) this.tail.next = o;
    else this.head = o;
    this.tail = o;
    this.count++;
    this.total = dadd(this.total, o.remaining);
  }

  /** Take `o` out of the queue, whatever its position. */
  unlink(o: RestingOrder): void {
    if (o.prev) o.prev.next = o.next;
    else this.head = o.next;
    if (o.next) o.next.prev = o.prev;
    else this.tail = o.prev;
    this.count--;
    this.total = this.count === 0 ? ZERO : dsub(this.total, o.remaining);
    o.level = undefined;
    o.prev = undefined;
    o.next = undefined;
  }

  /** Lower `o.remaining` by `quantity` (a fill) keeping the level total in step; `o` keeps its place. */
  reduce(o: RestingOrder, quantity: Decimal): void {
    o.remaining = dsub(o.remaining, quantity);
    this.total = dsub(this.total, quantity);
  }
}
