/**
 * The account's live orders as the risk engine counts them: ours (followed in the in-flight registry: resting,
 * cancel pending or still in flight) and the open orders of the account that this manager did not place.
 */
import type { PendingOrder } from '../risk/order-reserve.js';
import type { InFlightRegistry } from './in-flight-registry.js';
import type { ReadonlyAccountStore } from './order-manager-deps.js';

/** Every live order with what it can still trade (quantity orders: the unfilled quantity); see src/risk/order-reserve.ts. */
export function pendingOrders(registry: InFlightRegistry, account: ReadonlyAccountStore): PendingOrder[] {
  const out: PendingOrder[] = [];
  for (const e of registry.allLiveOrders()) {
    if (e.isFinal) continue;
    const spec = e.order ?? e.request;
    if (!spec) continue;
    out.push({ strategy: e.strategy, marketSymbol: e.marketSymbol, direction: e.direction, type: spec.type, quantity: e.remaining, limit: spec.limit, ceiling: spec.ceiling, unacknowledged: e.isUnacknowledged });
  }
  for (const o of account.openOrders()) {
    if (registry.orderById(o.id)) continue;
    out.push({ strategy: undefined, marketSymbol: o.marketSymbol, direction: o.direction, type: o.type, quantity: o.quantity?.minus(o.fillQuantity), limit: o.limit, ceiling: o.ceiling, unacknowledged: false });
  }
  return out;
}

/** Open orders of the account, counting placements in flight and orders not placed by this manager. */
export function openOrderCount(registry: InFlightRegistry, account: ReadonlyAccountStore): number {
  let n = 0;
  for (const e of registry.allLiveOrders()) if (e.state !== 'CLOSED') n++;
  for (const o of account.openOrders()) if (!registry.orderById(o.id)) n++;
  return n;
}
