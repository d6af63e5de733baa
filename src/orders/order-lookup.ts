/**
 * Finding an order (or conditional order) by the client id it was sent with, when the exchange's answer was lost:
 * first the local account store (the stream may already have told), then the open-orders snapshot, then the
 * closed orders since the request was journaled, page by page. Errors of the gateway propagate: a failed lookup
 * is not a "not found".
 */
import type { ConditionalOrder } from '../model/conditional-order.js';
import type { Order } from '../model/order.js';
import type { ExchangeGateway, GatewayPage } from '../gateway/exchange-gateway.js';
import type { ReadonlyAccountStore } from './order-manager-deps.js';

/** Where and since when to look. */
export interface LookupScope {
  marketSymbol: string;
  /** Epoch ms of the journal record: the request cannot have reached the exchange before. */
  since: number;
  /** Closed-list pages to walk at most (default 10 × 200). */
  maxPages?: number;
}

/** Clock skew allowance between the bot and the exchange, and the endpoints' second precision on dates. */
const SLACK_MS = 60_000;
const PAGE_SIZE = 200;

/**
 * The order placed with `clientOrderId`, or undefined when neither open nor closed since `scope.since`.
 *
 * @example
 * const found = await findOrderByClientId(gateway, account, cid, { marketSymbol: 'BTC-USD', since: journaledAt });
 */
export async function findOrderByClientId(
  gateway: ExchangeGateway,
  account: ReadonlyAccountStore | undefined,
  clientOrderId: string,
  scope: LookupScope,
): Promise<Order | undefined> {
  const local = account?.orderByClientOrderId(clientOrderId);
  if (local) return local;
  const open = await gateway.openOrders(scope.marketSymbol);
  const hit = open.data.find((o) => o.clientOrderId === clientOrderId);
  if (hit) return hit;
  return walkClosed((p) => gateway.closedOrders(p), (o) => o.clientOrderId === clientOrderId, (o) => o.id, scope);
}

/** The conditional order placed with `clientConditionalOrderId`, or undefined when not found. */
export async function findConditionalByClientId(
  gateway: ExchangeGateway,
  account: ReadonlyAccountStore | undefined,
  clientConditionalOrderId: string,
  scope: LookupScope,
): Promise<ConditionalOrder | undefined> {
  const local = account?.conditionalOrderByClientId(clientConditionalOrderId);
  if (local) return local;
  const open = await gateway.openConditionalOrders(scope.marketSymbol);
  const hit = open.data.find((o) => o.clientConditionalOrderId === clientConditionalOrderId);
  if (hit) return hit;
  return walkClosed(
    (p) => gateway.closedConditionalOrders(p),
    (o) => o.clientConditionalOrderId === clientConditionalOrderId,
    (o) => o.id,
    scope,
  );
}

/** Walk a closed list (newest first) from `since` on, until `match` or the list ends. */
async function walkClosed<T>(
  fetch: (page: GatewayPage) => Promise<T[]>,
  match: (item: T) => boolean,
  idOf: (item: T) => string,
  scope: LookupScope,
): Promise<T | undefined> {
  const page: GatewayPage = { marketSymbol: scope.marketSymbol, pageSize: PAGE_SIZE, startDate: new Date(scope.since - SLACK_MS) };
  const maxPages = scope.maxPages ?? 10;
  for (let i = 0; i < maxPages; i++) {
    const items = await fetch(page);
    const hit = items.find(match);
    if (hit) return hit;
    if (items.length < PAGE_SIZE) return undefined;
    page.nextPageToken = idOf(items[items.length - 1]!);
  }
  return undefined;
}
