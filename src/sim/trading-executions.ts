/**
 * Executions (fills as seen by one account), per account in execution order. Executions are immutable, so the
 * stored objects are handed out as they are.
 */
import type { Execution } from '../model/order.js';
import { LazyIdList } from './lazy-id-list.js';
import { DEFAULT_RETENTION, dropCount, type RetentionLimits, Tombstones } from './retention.js';
import { notFound } from './sim-error.js';

/**
 * Executions of all accounts.
 *
 * The id index (for `GET /executions/{id}`) is built when asked, not per execution: every fill adds two
 * executions, and a map insertion for each (a hashed uuid and an entry object in a table of up to 10 000 per
 * account) was paid on the order path for a lookup that most clients never make. {@link get} first indexes
 * whatever was added since the previous lookup of that account, so the total work is the same when clients do
 * look every execution up, and an answer is the same as an index kept up to date at every add.
 */
export class ExecutionStore {
  readonly #byAccount = new Map<string, LazyIdList<Execution>>();
  readonly #retention: RetentionLimits;
  readonly #now: () => number;
  /** Ids of executions dropped by retention (retention.ts). */
  readonly dropped = new Tombstones();

  /** `now` is the engine clock; executions are kept per `retention` (default {@link DEFAULT_RETENTION}). */
  constructor(now: () => number = Date.now, retention: RetentionLimits = DEFAULT_RETENTION) {
    this.#now = now;
    this.#retention = retention;
  }

  /** Record an execution of `accountId`; `now` (default the clock's) is the time retention judges ages by. */
  add(accountId: string, execution: Execution, now: number = this.#now()): void {
    let acc = this.#byAccount.get(accountId);
    if (!acc) this.#byAccount.set(accountId, (acc = new LazyIdList(executionId)));
    acc.push(execution);
    const k = dropCount(acc.items, this.#retention, executedAt, now);
    if (k > 0) this.dropped.addAll(acc.dropFront(k), now);
  }

  /** One execution of `accountId`; 404 NOT_FOUND when unknown or another account's. */
  get(accountId: string, id: string): Execution {
    const acc = this.#byAccount.get(accountId);
    const e = acc !== undefined && typeof id === 'string' ? acc.get(id.toLowerCase()) : undefined;
    if (!e) throw notFound('NOT_FOUND', `execution ${String(id)} not found`);
    return e;
  }

  /** Executions of `accountId`, newest first, optionally of one market. */
  list(accountId: string, marketSymbol?: string): Execution[] {
    const list = this.#byAccount.get(accountId)?.items;
    if (!list) return [];
    const out: Execution[] = [];
    for (let i = list.length - 1; i >= 0; i--) {
      const e = list[i]!;
      if (!marketSymbol || e.marketSymbol === marketSymbol) out.push(e);
    }
    return out;
  }

  /** The most recent execution of `accountId`, if any. */
  last(accountId: string): Execution | undefined {
    const list = this.#byAccount.get(accountId)?.items;
    return list?.[list.length - 1];
  }
}

function executionId(e: Execution): string {
  return e.id;
}

function executedAt(e: Execution): number {
  return e.executedAt.getTime();
}
