/**
 * Executions for a venue that has none: v1.1 reports an order's filled quantity, proceeds and commission, never
 * its individual fills. Each time an order is seen with more filled than before, the difference becomes one
 * execution (rate = proceeds difference / quantity difference), so the kernel's fill tracking, positions and PnL
 * work unchanged. Ids are `<orderId>-<n>`; the list lives as long as the gateway (v1.1 cannot list fills again).
 */
import { ZERO, type Decimal } from '../../../core/decimal.js';
import type { GatewayPage } from '../../../gateway/exchange-gateway.js';
import type { Execution, Order } from '../../../model/order.js';

interface Seen {
  filled: Decimal;
  proceeds: Decimal;
  commission: Decimal;
  n: number;
}

/** Executions derived from order states, in the order they were derived. */
export class V1Executions {
  readonly #seen = new Map<string, Seen>();
  readonly #list: Execution[] = [];
  #sequence = 0;

  /** The execution stream's sequence: one per batch of executions derived. */
  get sequence(): number {
    return this.#sequence;
  }

  /** The newest execution's id. */
  get lastId(): string | undefined {
    return this.#list[this.#list.length - 1]?.id;
  }

  /** Start following an order at its current fill without deriving anything (it was placed just now). */
  track(order: Order): void {
    if (!this.#seen.has(order.id)) this.#seen.set(order.id, { filled: ZERO, proceeds: ZERO, commission: ZERO, n: 0 });
    this.observe(order);
  }

  /** An order's current state; returns the executions it adds (none when its fill did not grow). */
  observe(order: Order): Execution[] {
    const prev = this.#seen.get(order.id) ?? { filled: ZERO, proceeds: ZERO, commission: ZERO, n: 0 };
    const qty = order.fillQuantity.minus(prev.filled);
    if (qty.lte(0)) {
      this.#seen.set(order.id, prev);
      return [];
    }
    const proceeds = order.proceeds.minus(prev.proceeds);
    const n = prev.n + 1;
    const ex: Execution = {
      id: `${order.id}-${n}`,
      marketSymbol: order.marketSymbol,
      executedAt: order.updatedAt ?? order.closedAt ?? order.createdAt,
      quantity: qty,
      rate: proceeds.div(qty).toDecimalPlaces(8),
      orderId: order.id,
      commission: order.commission.minus(prev.commission),
      // v1.1 does not say; an order that filled the moment it was placed took liquidity.
      isTaker: (order.updatedAt ?? order.createdAt).getTime() === order.createdAt.getTime(),
    };
    this.#seen.set(order.id, { filled: order.fillQuantity, proceeds: order.proceeds, commission: order.commission, n });
    this.#list.push(ex);
    this.#sequence++;
    return [ex];
  }

  /** A page as GET /executions answers one: newest first, filtered, before/after a token. */
  page(p: GatewayPage = {}): Execution[] {
    let items = this.#list.filter(
      (e) =>
        (p.marketSymbol === undefined || e.marketSymbol === p.marketSymbol) &&
        (p.startDate === undefined || e.executedAt >= p.startDate) &&
        (p.endDate === undefined || e.executedAt < p.endDate),
    );
    const size = p.pageSize ?? 100;
    if (p.previousPageToken !== undefined) {
      const i = items.findIndex((e) => e.id === p.previousPageToken);
      items = items.slice(i + 1, i + 1 + size);
      return items.reverse();
    }
    if (p.nextPageToken !== undefined) {
      const i = items.findIndex((e) => e.id === p.nextPageToken);
      items = i < 0 ? [] : items.slice(0, i);
    }
    return items.slice(-size).reverse();
  }
}
