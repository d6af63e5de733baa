/**
 * Executions (fills as seen by one account), per account in execution order. Executions are immutable, so the
 * stored objects are handed out as they are.
 */
import type { Execution } from '../model/order.js';
import { DEFAULT_RETENTION, dropCount, type RetentionLimits, Tombstones } from './retention.js';
import { notFound } from './sim-error.js';

/** One account's executions, and the id index of a prefix of them (see {@link ExecutionStore}). */
interface AccountExecutions {
  /** In execution order, oldest first. */
  list: Execution[];
  /** Lower-cased id -> execution, for `list[0, indexed)`. */
  index: Map<string, Execution>;
  /** How many executions from the front of `list` are in `index`. */
  indexed: number;
}

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
  readonly #byAccount = new Map<string, AccountExecutions>();
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
    if (!acc) this.#byAccount.set(accountId, (acc = { list: [], index: new Map(), indexed: 0 }));
    const list = acc.list;
    list.push(execution);
    const k = dropCount(list, this.#retention, executedAt, now);
    if (k === 0) return;
    const gone = list.splice(0, k);
    const ids = new Array<string>(gone.length);
    for (let i = 0; i < gone.length; i++) {
      ids[i] = gone[i]!.id;
      if (i < acc.indexed) acc.index.delete(ids[i]!.toLowerCase());
    }
    this.dropped.addAll(ids, now);
    acc.indexed = Math.max(0, acc.indexed - k);
  }

  /** One execution of `accountId`; 404 NOT_FOUND when unknown or another account's. */
  get(accountId: string, id: string): Execution {
    const acc = this.#byAccount.get(accountId);
    const e = acc !== undefined && typeof id === 'string' ? this.#indexOf(acc).get(id.toLowerCase()) : undefined;
    if (!e) throw notFound('NOT_FOUND', `execution ${String(id)} not found`);
    return e;
  }

  /** The account's index, brought up to date with its list. */
  #indexOf(acc: AccountExecutions): Map<string, Execution> {
    const { list, index } = acc;
    for (let i = acc.indexed; i < list.length; i++) index.set(list[i]!.id.toLowerCase(), list[i]!);
    acc.indexed = list.length;
    return index;
  }

  /** Executions of `accountId`, newest first, optionally of one market. */
  list(accountId: string, marketSymbol?: string): Execution[] {
    const list = this.#byAccount.get(accountId)?.list;
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
    const list = this.#byAccount.get(accountId)?.list;
    return list?.[list.length - 1];
  }
}

function executedAt(e: Execution): number {
  return e.executedAt.getTime();
}
