/** Shared set-up for the conditional order tests: a fake order port, a virtual clock and an event recorder. */
import { randomUUID } from 'node:crypto';
import { dec } from '../../../src/core/decimal.js';
import type { NewConditionalOrder } from '../../../src/model/conditional-order.js';
import type { NewOrder, Order, OrderToCancel } from '../../../src/model/order.js';
import { ConditionalOrders, type OrderPort } from '../../../src/sim/conditional-orders/conditional-orders.js';
import type { SimEvent } from '../../../src/sim/events.js';
import { conflict, notFound } from '../../../src/sim/sim-error.js';
import { START, simFoundations } from '../sim-fixture.js';

export { refusal } from '../sim-fixture.js';

export const T0 = START;
export const DELAY = 1000;
export const A = 'acct-a';
export const B = 'acct-b';

/**
 * A stand-in for TRADING's order lifecycle: keeps orders per account, records every call in order, and can be
 * told to refuse placements.
 */
export class FakeOrders implements OrderPort {
  readonly calls: string[] = [];
  readonly orders = new Map<string, { accountId: string; order: Order }>();
  /** When set, placeOrder throws it. */
  failWith: unknown;
  /** Called inside placeOrder, before it returns (to simulate re-entrant engine callbacks). */
  onPlace: ((accountId: string, o: NewOrder) => void) | undefined;
  /** The port's optional validator; absent unless a test sets it. */
  validateOrder?: OrderPort['validateOrder'];

  /** An open order on the book for `accountId`. */
  open(accountId: string, marketSymbol = 'BTC-USD'): Order {
    const order: Order = {
      id: randomUUID(),
      marketSymbol,
      direction: 'SELL',
      type: 'LIMIT',
      timeInForce: 'GOOD_TIL_CANCELLED',
      quantity: dec('1'),
      limit: dec('120'),
      fillQuantity: dec('0'),
      commission: dec('0'),
      proceeds: dec('0'),
      status: 'OPEN',
      createdAt: new Date(T0),
    };
    this.orders.set(order.id, { accountId, order });
    return order;
  }

  placeOrder(accountId: string, o: NewOrder): Order {
    this.calls.push(`place:${o.marketSymbol}:${o.direction}`);
    if (this.failWith !== undefined) throw this.failWith;
    const order = this.open(accountId, o.marketSymbol);
    this.onPlace?.(accountId, o);
    return order;
  }

  cancelOrder(accountId: string, id: string): Order {
    this.calls.push(`cancel:${id}`);
    const order = this.getOrder(accountId, id);
    if (order.status !== 'OPEN') throw conflict('ORDER_NOT_OPEN', 'not open');
    order.status = 'CLOSED';
    return order;
  }

  getOrder(accountId: string, id: string): Order {
    const o = this.orders.get(id);
    if (!o || o.accountId !== accountId) throw notFound('NOT_FOUND', `order ${id}`);
    return o.order;
  }

  linkOrderToCancel(accountId: string, orderId: string, link: OrderToCancel | undefined): void {
    this.calls.push(`link:${orderId}:${link?.type ?? 'none'}:${link?.id ?? ''}`);
    const order = this.getOrder(accountId, orderId);
    if (link) order.orderToCancel = link;
    else delete order.orderToCancel;
  }
}

export function setup(opts: { delay?: number; validateOrder?: OrderPort['validateOrder'] } = {}) {
  const { clock, bus, sequences, idempotency, config, catalog } = simFoundations({ conditionalTriggerDelayMs: opts.delay ?? DELAY }, T0);
  const orders = new FakeOrders();
  if (opts.validateOrder) orders.validateOrder = opts.validateOrder;
  const co = new ConditionalOrders({ clock, bus, sequences, idempotency, catalog, orders, config });
  const events: Array<Extract<SimEvent, { kind: 'conditionalOrder' }>> = [];
  bus.on((e) => {
    if (e.kind === 'conditionalOrder') events.push(e);
  });
  /** Trades on a market (one per rate) at the current time, as the engine reports them. */
  const trade = (market: string, ...rates: string[]) =>
    co.onTrades(
      market,
      rates.map((r) => ({ id: randomUUID(), executedAt: new Date(clock.now()), quantity: dec('1'), rate: dec(r), takerSide: 'SELL' as const })),
    );
  return { clock, bus, sequences, idempotency, config, catalog, orders, co, events, trade };
}

/** A market sell of 0.1 BTC-USD, the usual orderToCreate of these tests. */
export const marketSell = (marketSymbol = 'BTC-USD'): NewOrder => ({
  marketSymbol,
  direction: 'SELL',
  type: 'MARKET',
  quantity: dec('0.1'),
  timeInForce: 'IMMEDIATE_OR_CANCEL',
});

/** A stop: LTE at `trigger` placing a market sell. */
export const stop = (trigger: string, extra: Partial<NewConditionalOrder> = {}): NewConditionalOrder => ({
  marketSymbol: 'BTC-USD',
  operand: 'LTE',
  triggerPrice: dec(trigger),
  orderToCreate: marketSell(),
  ...extra,
});
