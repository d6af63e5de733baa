/**
 * Rule 5 (seed section 6): executions. The `execution` stream is sequenced like the others, but its
 * "snapshot" is GET /executions/last-id (the Sequence and the id of the most recent execution). On every
 * (re)sync: if that id is already in the local cache nothing was missed; otherwise fetch the executions
 * after the newest cached one with GET /executions (paging) and add them, deduplicated by id. Executions are
 * immutable, so a resync adds what is missing and never clears what is known.
 *
 * This reuses the generic {@link Synchronizer}: the snapshot step is "last-id, then the missed executions",
 * and its Sequence is the last-id Sequence, so rule-4 steps (d)–(h) apply unchanged.
 */
import type { Execution } from '../model/index.js';
import type { ExecutionMessage } from '../bittrex/hub/messages.js';
import { Synchronizer, tuningOf, type SyncTuning } from './synchronizer.js';

/** GET /executions/last-id: the id of the most recent execution (absent when there is none) and the Sequence. */
export interface ExecutionLastId {
  lastId?: string | undefined;
  sequence: number;
}

/** What execution sync needs from the local cache (an AccountStore has all of it). */
export interface ExecutionCache {
  hasExecution(id: string): boolean;
  newestExecution(): Execution | undefined;
  addExecutions(executions: readonly Execution[]): unknown;
}

/** Options of {@link syncExecutions}. */
export interface ExecutionSyncOptions extends SyncTuning {
  cache: ExecutionCache;
  /** GET /executions/last-id. */
  fetchLastId: () => Promise<ExecutionLastId>;
  /**
   * Executions after the one with id `sinceId` (all of them, any order), or the most recent page when
   * `sinceId` is undefined (empty cache). {@link pageExecutionsSince} builds this from GET /executions.
   */
  fetchExecutionsSince: (sinceId: string | undefined) => Promise<Execution[]>;
  /** For statuses and errors; default `execution`. */
  name?: string;
}

/**
 * Keep `cache` complete with the `execution` stream of one account.
 *
 * @example
 * const sync = syncExecutions({ cache: accountStore, clock,
 *   fetchLastId: () => rest.executionsLastId(),
 *   fetchExecutionsSince: (id) => pageExecutionsSince((p) => rest.executions(p), id) });
 */
export function syncExecutions(opts: ExecutionSyncOptions): Synchronizer<Execution[], ExecutionMessage> {
  const { cache } = opts;
  return new Synchronizer<Execution[], ExecutionMessage>({
    ...tuningOf(opts),
    name: opts.name ?? 'execution',
    fetchSnapshot: async () => {
      const { lastId, sequence } = await opts.fetchLastId();
      if (lastId === undefined || cache.hasExecution(lastId)) return { data: [], sequence };
      const missed = await opts.fetchExecutionsSince(cache.newestExecution()?.id);
      return { data: missed, sequence };
    },
    applier: {
      reset: (missed) => cache.addExecutions(chronological(missed)),
      apply: (m) => cache.addExecutions(m.deltas),
    },
  });
}

function chronological(list: readonly Execution[]): Execution[] {
  return [...list].sort((a, b) => a.executedAt.getTime() - b.executedAt.getTime());
}

/** One page request of GET /executions (seed pagination parameters). */
export interface ExecutionPageRequest {
  pageSize: number;
  /** Id of the first item of the page after which to look; the page ends just before it (newer items). */
  previousPageToken?: string;
}

/**
 * Walk GET /executions towards newer items, starting after `sinceId`, and return everything found, oldest
 * first. The list is sorted newest first, so `previousPageToken = id` gives the page of items just newer
 * than `id`; the next token is that page's newest item. Stops on a short page or after `maxPages` (a
 * safety bound: the missed ones beyond it arrive by the next resync). Without `sinceId` (nothing cached),
 * only the most recent page is fetched: history before the cache is not "missed".
 *
 * @example
 * const missed = await pageExecutionsSince((req) => rest.getExecutions(req), newestKnownId);
 */
export async function pageExecutionsSince(
  fetchPage: (request: ExecutionPageRequest) => Promise<Execution[]>,
  sinceId: string | undefined,
  options: { pageSize?: number; maxPages?: number } = {},
): Promise<Execution[]> {
  const pageSize = options.pageSize ?? 200;
  const maxPages = options.maxPages ?? 50;
  if (sinceId === undefined) return chronological(await fetchPage({ pageSize }));
  const seen = new Set<string>([sinceId]);
  const out: Execution[] = [];
  let token = sinceId;
  for (let page = 0; page < maxPages; page++) {
    const items = await fetchPage({ pageSize, previousPageToken: token });
    let fresh = 0;
    for (const e of items) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      out.push(e);
      fresh++;
    }
    // A short page is the newest one; a page with nothing new means the server ignored the token.
    if (items.length < pageSize || fresh === 0) break;
    token = newest(items).id;
  }
  return chronological(out);
}

function newest(items: readonly Execution[]): Execution {
  let best = items[0]!;
  for (const e of items) if (e.executedAt.getTime() > best.executedAt.getTime()) best = e;
  return best;
}
