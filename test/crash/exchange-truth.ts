/**
 * The exchange's side of the crash-safety test: the simulator's control API (faults, ledger audit) and what the
 * account holds according to the v3 REST interface (every open and closed order, every execution, balances),
 * read with the demo key like any client would.
 */
import { createRestClient } from '../../src/bittrex/rest/index.js';
import { createThrottler } from '../../src/bittrex/rest/throttler.js';
import { systemClock } from '../../src/core/clock.js';
import { type Decimal, dec, ZERO } from '../../src/core/decimal.js';
import type { Balance, Execution, Order } from '../../src/model/index.js';
import type { SimReady } from './crash-processes.js';

/** Call the simulator's control API; throws on a non-2xx answer. */
export async function control(ready: SimReady, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${ready.control}${path}`, {
    method,
    headers: { Authorization: `Bearer ${ready.controlToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** One currency of GET /control/audit. */
export interface AuditRow {
  currency: string;
  total: string;
  held: string;
  credited: string;
  debited: string;
  discrepancy: string;
}

/** What the exchange says the account holds. */
export interface AccountTruth {
  /** Open and closed orders, each once. */
  orders: Order[];
  executions: Execution[];
  balances: Balance[];
}

/** Read every order (open + all closed pages), every execution (all pages) and the balances over REST. */
export async function readAccount(ready: SimReady, credentials: { apiKey: string; apiSecret: string }): Promise<AccountTruth> {
  const client = createRestClient({
    baseUrl: ready.rest,
    credentials,
    // The simulator runs without a call limit; the default 60/min budget would only make the walk slow.
    throttler: createThrottler({ clock: systemClock, callsPerMinute: 60_000 }),
  });
  try {
    const open = (await client.orders.listOpen()).data;
    const closed: Order[] = [];
    for await (const o of client.orders.iterateClosed({}, { pageSize: 200 })) closed.push(o);
    const executions: Execution[] = [];
    for await (const e of client.executions.iterate({}, { pageSize: 200 })) executions.push(e);
    const balances = await client.balances.list();
    return { orders: [...open, ...closed], executions, balances: balances.data };
  } finally {
    await client.close();
  }
}

/**
 * Balances the account must hold: the initial ones moved by every execution (base ± quantity, quote ∓ quantity ×
 * rate, commission always paid in the quote currency). The direction comes from the order, never from the
 * execution (on a maker fill the execution's optional direction is the taker's).
 */
export function balancesFromFills(initial: Record<string, string>, orders: readonly Order[], executions: readonly Execution[]): Map<string, Decimal> {
  const out = new Map<string, Decimal>(Object.entries(initial).map(([c, v]) => [c, dec(v)]));
  const add = (c: string, d: Decimal) => out.set(c, (out.get(c) ?? ZERO).plus(d));
  const byId = new Map(orders.map((o) => [o.id, o]));
  for (const e of executions) {
    const order = byId.get(e.orderId);
    if (!order) throw new Error(`execution ${e.id} of an order ${e.orderId} the account does not list`);
    const [base, quote] = e.marketSymbol.split('-') as [string, string];
    const value = e.quantity.times(e.rate);
    if (order.direction === 'BUY') {
      add(base, e.quantity);
      add(quote, value.plus(e.commission).negated());
    } else {
      add(base, e.quantity.negated());
      add(quote, value.minus(e.commission));
    }
  }
  return out;
}
