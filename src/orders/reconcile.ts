/**
 * Reconciliation on start: the journal against the exchange, before any strategy runs.
 *
 * For every journaled request whose outcome is not known to be final (intent written, sent, acknowledged):
 * - acknowledged → read it by exchange id (open snapshot, else GET by id);
 * - never acknowledged → find it by client id in the open snapshot, else in the closed list since the intent was
 *   written. Found → adopted (followed again) or settled; not found in a COMPLETE closed list → the exchange
 *   never received it (counted as lost: nothing was placed, nothing is re-sent — the strategy decides anew).
 * Then executions: everything after the last journaled fill (rule 5: GET /executions paging from it), or since
 * the oldest unresolved request when the journal has no fill, keeping those of our orders not yet journaled; an
 * order whose fill quantity is still not covered gets its market's executions since its creation.
 *
 * Anything that cannot be settled — a lookup that failed, an acknowledged order the exchange does not know, a
 * closed list too long to prove absence, fills that cannot be found — leaves the order unaccounted for, and
 * {@link reconcileJournal} REFUSES with a {@link ReconcileError} listing each one: trading on a wrong picture of
 * what is in flight is how bots double their orders. Orders open on the exchange that the journal never saw
 * (manual orders) are reported, never cancelled.
 */
import type { Logger } from 'pino';
import { type Decimal, ZERO } from '../core/decimal.js';
import { RexbotError } from '../core/errors.js';
import type { ExchangeGateway, GatewayPage } from '../gateway/exchange-gateway.js';
import type { ConditionalOrder } from '../model/conditional-order.js';
import type { Execution, Order } from '../model/order.js';
import { pageExecutionsSince } from '../sync/execution-sync.js';
import type { JournaledConditional, JournaledOrder, JournaledRequest, JournalState } from './journal-state.js';

/** What reconciliation found. */
export interface ReconcileReport {
  /** Journaled requests whose outcome was open and is now settled (adopted, closed meanwhile, or never placed). */
  accountedFor: number;
  /** Client ids of orders and conditional orders found live on the exchange and followed again. */
  adopted: string[];
  /** Client ids of requests the exchange never received (nothing was placed; nothing is re-sent). */
  lost: string[];
  /** Orders open on the exchange that the journal never saw (manual orders): reported, not cancelled. */
  unknownOpenOrders: Order[];
  /** Fills found on the exchange that the journal had not recorded. */
  recoveredFills: number;
}

/** One journaled request that could not be settled, and why. */
export interface Unaccounted {
  id: string;
  reason: string;
}

/** Reconciliation refused: some orders are not accounted for. Strategies must not start. */
export class ReconcileError extends RexbotError {
  readonly unaccounted: readonly Unaccounted[];
  constructor(unaccounted: Unaccounted[]) {
    super(
      'RECONCILE_UNACCOUNTED',
      `reconciliation refused: ${unaccounted.length} order(s) not accounted for: ${unaccounted
        .slice(0, 10)
        .map((u) => `${u.id} (${u.reason})`)
        .join('; ')}${unaccounted.length > 10 ? '; ...' : ''}`,
    );
    this.unaccounted = unaccounted;
  }
}

/** The settled state of one journaled request. */
export type Resolution =
  | { request: JournaledRequest; outcome: 'notPlaced' }
  | { request: JournaledOrder; outcome: 'found'; order: Order }
  | { request: JournaledConditional; outcome: 'found'; conditional: ConditionalOrder; createdOrder: Order | undefined };

/** A bracket entry that filled but whose exit legs were (partly) never placed: the manager places them. */
export interface BracketToResume {
  request: JournaledOrder;
  filled: Decimal;
}

/** Everything the manager needs to resume. */
export interface ReconcileResult {
  report: ReconcileReport;
  resolutions: Resolution[];
  /** Executions of our orders that the journal lacks, oldest first. */
  executions: Execution[];
  brackets: BracketToResume[];
}

/** Options of {@link reconcileJournal}. */
export interface ReconcileOptions {
  gateway: ExchangeGateway;
  state: JournalState;
  log?: Logger | undefined;
  /** Closed-list and execution pages to walk at most per market (default 20 × 200). */
  maxPages?: number;
}

const PAGE = 200;
/** Clock skew between bot and exchange, plus the endpoints' whole-second date filters. */
const SLACK_MS = 60_000;

/**
 * Settle the journal against the exchange; throws {@link ReconcileError} when anything stays unaccounted for.
 *
 * @example
 * const { report } = await reconcileJournal({ gateway, state: journal.takeStateAtOpen() });
 * log.info(report, 'reconciled'); // only now may strategies start
 */
export async function reconcileJournal(opts: ReconcileOptions): Promise<ReconcileResult> {
  const { gateway, state } = opts;
  const maxPages = opts.maxPages ?? 20;
  const unaccounted: Unaccounted[] = [];
  const open = (await gateway.openOrders()).data;
  const openConditional = (await gateway.openConditionalOrders()).data;
  const openById = new Map(open.map((o) => [o.id, o]));
  const openByClientId = new Map(open.filter((o) => o.clientOrderId !== undefined).map((o) => [o.clientOrderId!, o]));
  const openCondById = new Map(openConditional.map((c) => [c.id, c]));
  const openCondByClientId = new Map(
    openConditional.filter((c) => c.clientConditionalOrderId !== undefined).map((c) => [c.clientConditionalOrderId!, c]),
  );
  const closedOrders = new ClosedIndex<Order>((p) => gateway.closedOrders(p), (o) => o.id, (o) => o.clientOrderId, maxPages);
  const closedConditionals = new ClosedIndex<ConditionalOrder>(
    (p) => gateway.closedConditionalOrders(p),
    (c) => c.id,
    (c) => c.clientConditionalOrderId,
    maxPages,
  );

  const unresolved = state.unresolved();
  const resolutions: Resolution[] = [];
  for (const r of unresolved) {
    const id = clientIdOf(r);
    try {
      if (r.kind === 'order') {
        let order: Order | undefined;
        if (r.orderId !== undefined) order = openById.get(r.orderId) ?? (await gateway.order(r.orderId));
        else {
          order = openByClientId.get(r.clientOrderId);
          if (!order) {
            const found = await closedOrders.find(r.request.marketSymbol, r.clientOrderId, r.at);
            if (found === 'incomplete') throw new Error('closed orders too many to prove it was never placed');
            order = found;
          }
        }
        resolutions.push(order ? { request: r, outcome: 'found', order } : { request: r, outcome: 'notPlaced' });
      } else {
        let cond: ConditionalOrder | undefined;
        if (r.id !== undefined) cond = openCondById.get(r.id) ?? (await gateway.conditionalOrder(r.id));
        else {
          cond = openCondByClientId.get(r.clientConditionalOrderId);
          if (!cond) {
            const found = await closedConditionals.find(r.request.marketSymbol, r.clientConditionalOrderId, r.at);
            if (found === 'incomplete') throw new Error('closed conditional orders too many to prove it was never placed');
            cond = found;
          }
        }
        if (!cond) {
          resolutions.push({ request: r, outcome: 'notPlaced' });
          continue;
        }
        const createdId = cond.createdOrderId ?? r.createdOrderId;
        const createdOrder = createdId === undefined ? undefined : (openById.get(createdId) ?? (await gateway.order(createdId)));
        resolutions.push({ request: r, outcome: 'found', conditional: cond, createdOrder });
      }
    } catch (e) {
      unaccounted.push({ id, reason: `lookup failed: ${(e as Error).message}` });
    }
  }

  // Which exchange order ids are ours (journaled acks, found orders, orders created by our conditional orders).
  const ours = new Map<string, string>();
  for (const o of state.orders.values()) if (o.orderId !== undefined) ours.set(o.orderId, o.clientOrderId);
  for (const c of state.conditionals.values()) if (c.createdOrderId !== undefined) ours.set(c.createdOrderId, c.clientConditionalOrderId);
  const foundOrders: { id: string; order: Order }[] = [];
  for (const res of resolutions) {
    if (res.outcome !== 'found') continue;
    if (res.request.kind === 'order' && 'order' in res) foundOrders.push({ id: res.request.clientOrderId, order: res.order });
    if (res.request.kind === 'conditional' && 'conditional' in res && res.createdOrder) {
      foundOrders.push({ id: res.request.clientConditionalOrderId, order: res.createdOrder });
    }
  }
  for (const f of foundOrders) ours.set(f.order.id, f.id);

  const executions = new Map<string, Execution>();
  const keep = (list: readonly Execution[]) => {
    for (const e of list) if (ours.has(e.orderId) && !state.fills.has(e.id)) executions.set(e.id, e);
  };
  try {
    if (state.lastFill) {
      keep(await pageExecutionsSince((p) => gateway.executions(p), state.lastFill.executionId, { pageSize: PAGE, maxPages: maxPages * 5 }));
    } else if (unresolved.length > 0) {
      const since = Math.min(...unresolved.map((r) => r.at));
      keep(await walk((p) => gateway.executions(p), { startDate: new Date(since - SLACK_MS) }, (e) => e.id, maxPages));
    }
  } catch (e) {
    unaccounted.push({ id: 'executions', reason: `fetching executions failed: ${(e as Error).message}` });
  }
  // Every found order's fill quantity must be covered by known fills, or a position would be wrong.
  for (const { id, order } of foundOrders) {
    const covered = () => state.filledQuantity(id, ZERO).add(sumFor(executions, order.id));
    if (covered().gte(order.fillQuantity)) continue;
    try {
      keep(
        await walk(
          (p) => gateway.executions(p),
          { marketSymbol: order.marketSymbol, startDate: new Date(order.createdAt.getTime() - SLACK_MS) },
          (e) => e.id,
          maxPages,
        ),
      );
    } catch (e) {
      opts.log?.warn({ err: e, id }, 'fetching executions of an order failed');
    }
    if (covered().lt(order.fillQuantity)) {
      unaccounted.push({ id, reason: `fills missing: order filled ${order.fillQuantity.toFixed()}, executions found ${covered().toFixed()}` });
    }
  }

  if (unaccounted.length > 0) throw new ReconcileError(unaccounted);

  const journaledClientIds = new Set(state.orders.keys());
  const unknownOpenOrders = open.filter((o) => !ours.has(o.id) && !(o.clientOrderId !== undefined && journaledClientIds.has(o.clientOrderId)));
  const adopted = resolutions
    .filter((r) => r.outcome === 'found' && ('order' in r ? r.order.status === 'OPEN' : r.conditional.status === 'OPEN' || r.createdOrder?.status === 'OPEN'))
    .map((r) => clientIdOf(r.request));
  const lost = resolutions.filter((r) => r.outcome === 'notPlaced').map((r) => clientIdOf(r.request));
  const sorted = [...executions.values()].sort((a, b) => a.executedAt.getTime() - b.executedAt.getTime());

  return {
    report: { accountedFor: resolutions.length, adopted, lost, unknownOpenOrders, recoveredFills: sorted.length },
    resolutions,
    executions: sorted,
    brackets: bracketsToResume(state, resolutions),
  };
}

/** Filled bracket entries not yet armed (a crash came between the fill and the legs) none of whose legs finished. */
function bracketsToResume(state: JournalState, resolutions: readonly Resolution[]): BracketToResume[] {
  const found = new Map<string, Order>();
  for (const r of resolutions) if (r.outcome === 'found' && 'order' in r) found.set(r.request.clientOrderId, r.order);
  const out: BracketToResume[] = [];
  for (const o of state.orders.values()) {
    if (!o.bracket || o.armed || o.legs.length >= 2) continue;
    const legs = o.legs.map((id) => state.conditionals.get(id));
    // A finished leg means the bracket already did its work (or was withdrawn): never re-arm it.
    if (legs.some((l) => !l || l.status === 'closed' || l.status === 'rejected' || l.status === 'lost')) continue;
    const order = found.get(o.clientOrderId);
    let filled: Decimal;
    if (order) {
      if (order.status !== 'CLOSED') continue;
      filled = order.fillQuantity;
    } else if (o.status === 'closed') filled = state.filledQuantity(o.clientOrderId, ZERO);
    else continue;
    if (filled.gt(0)) out.push({ request: o, filled });
  }
  return out;
}

/** Closed items of each market since a time, fetched once, looked up by client id. */
class ClosedIndex<T> {
  readonly #cache = new Map<string, { since: number; byClientId: Map<string, T>; complete: boolean }>();
  constructor(
    private readonly fetch: (page: GatewayPage) => Promise<T[]>,
    private readonly idOf: (item: T) => string,
    private readonly clientIdOf: (item: T) => string | undefined,
    private readonly maxPages: number,
  ) {}

  async find(marketSymbol: string, clientId: string, since: number): Promise<T | undefined | 'incomplete'> {
    let entry = this.#cache.get(marketSymbol);
    if (!entry || entry.since > since) {
      const items = await walkWithEnd(this.fetch, { marketSymbol, startDate: new Date(since - SLACK_MS) }, this.idOf, this.maxPages);
      const byClientId = new Map<string, T>();
      for (const i of items.items) {
        const cid = this.clientIdOf(i);
        if (cid !== undefined) byClientId.set(cid, i);
      }
      entry = { since, byClientId, complete: items.complete };
      this.#cache.set(marketSymbol, entry);
    }
    const hit = entry.byClientId.get(clientId);
    if (hit) return hit;
    return entry.complete ? undefined : 'incomplete';
  }
}

/** Every item of a newest-first list matching `base`, following nextPageToken. */
async function walk<T>(fetch: (p: GatewayPage) => Promise<T[]>, base: GatewayPage, idOf: (item: T) => string, maxPages: number): Promise<T[]> {
  return (await walkWithEnd(fetch, base, idOf, maxPages)).items;
}

async function walkWithEnd<T>(
  fetch: (p: GatewayPage) => Promise<T[]>,
  base: GatewayPage,
  idOf: (item: T) => string,
  maxPages: number,
): Promise<{ items: T[]; complete: boolean }> {
  const items: T[] = [];
  const page: GatewayPage = { ...base, pageSize: PAGE };
  for (let i = 0; i < maxPages; i++) {
    const got = await fetch(page);
    items.push(...got);
    if (got.length < PAGE) return { items, complete: true };
    page.nextPageToken = idOf(got[got.length - 1]!);
  }
  return { items, complete: false };
}

function sumFor(executions: ReadonlyMap<string, Execution>, orderId: string): Decimal {
  let q = ZERO;
  for (const e of executions.values()) if (e.orderId === orderId) q = q.add(e.quantity);
  return q;
}

function clientIdOf(r: JournaledRequest): string {
  return r.kind === 'order' ? r.clientOrderId : r.clientConditionalOrderId;
}
