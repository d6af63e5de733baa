/**
 * Executions (fills as seen by one account), per account in execution order. Executions are immutable, so the
 * stored objects are handed out as they are.
 */
import type { Execution } from '../model/order.js';
import { DEFAULT_RETENTION, dropCount, type RetentionLimits, Tombstones } from './retention.js';
import { notFound } from './sim-error.js';

/** Executions of all accounts. */
export class ExecutionStore {
  readonly #byAccount = new Map<string, Execution[]>();
  readonly #byId = new Map<string, { accountId: string; execution: Execution }>();
  readonly #retention: RetentionLimits;
  readonly #now: () => number;
  /** Ids of executions dropped by retention (retention.ts). */
  readonly dropped = new Tombstones();

  /** `now` is the engine clock; executions are kept per `retention` (default {@link DEFAULT_RETENTION}). */
  constructor(now: () => number = Date.now, retention: RetentionLimits = DEFAULT_RETENTION) {
    this.#now = now;
    this.#retention = retention;
  }

  /** Record an execution of `accountId`. */
  add(accountId: string, execution: Execution): void {
    let list = this.#byAccount.get(accountId);
    if (!list) this.#byAccount.set(accountId, (list = []));
    list.push(execution);
    this.#byId.set(execution.id.toLowerCase(), { accountId, execution });
    const now = this.#now();
    const k = dropCount(list, this.#retention, executedAt, now);
    if (k === 0) return;
    for (const old of list.splice(0, k)) {
      this.#byId.delete(old.id.toLowerCase());
      this.dropped.add(old.id, now);
    }
  }

  /** One execution of `accountId`; 404 NOT_FOUND when unknown or another account's. */
  get(accountId: string, id: string): Execution {
    const e = typeof id === 'string' ? this.#byId.get(id.toLowerCase()) : undefined;
    if (!e || e.accountId !== accountId) throw notFound('NOT_FOUND', `execution ${String(id)} not found`);
    return e.execution;
  }

  /** Executions of `accountId`, newest first, optionally of one market. */
  list(accountId: string, marketSymbol?: string): Execution[] {
    const list = this.#byAccount.get(accountId);
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
    const list = this.#byAccount.get(accountId);
    return list?.[list.length - 1];
  }
}

function executedAt(e: Execution): number {
  return e.executedAt.getTime();
}
