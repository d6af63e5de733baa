/** The public shapes of the Redis-shared throttler (shared-throttler.ts): its options, stats and interface. */
import type { BudgetRule } from './shared-budget.js';
import type { RequestPriority, Throttler, ThrottlerOptions, ThrottlerStats } from './throttler.js';

/** Where a process takes its calls from right now. */
export type SharedBudgetMode = 'shared' | 'fallback';

/** The shared-budget part of {@link ThrottlerStats}. */
export interface SharedThrottlerStats {
  /** `fallback` from the moment Redis failed until the first call granted by Redis again. */
  mode: SharedBudgetMode;
  /** The numbers the budget is shared by. */
  rule: Readonly<BudgetRule>;
  /** Times this process left the shared budget for its local share. */
  fallbacks: number;
  /** Redis commands that failed. */
  redisErrors: number;
  /** True while a request to Redis for a slot is outstanding. */
  asking: boolean;
  /** True while the connection to Redis is up. */
  connected: boolean;
  /** Calls started, per priority (so a dashboard can see cancels going through). */
  startedByPriority: Record<RequestPriority, number>;
}

/** Options of `createSharedThrottler`. */
export interface SharedThrottlerOptions extends ThrottlerOptions {
  /** Redis URL (`redis://host:port`). */
  url: string;
  /** The API key whose budget is shared (hashed before it reaches Redis). */
  apiKey: string;
  /** Processes that may share the key. */
  maxProcesses: number;
  /** Calls a minute this process may start alone while Redis is unreachable. Default floor(callsPerMinute / maxProcesses). */
  fallbackShare?: number | undefined;
  /** Calls a minute only cancels may use. Default ceil(callsPerMinute / 10). */
  cancelReserve?: number | undefined;
  /** No call starts within this many ms either side of a minute boundary. Default 250. */
  boundaryGuardMs?: number | undefined;
  /** Redis key prefix. Default `rexbot:ratelimit:`. */
  keyPrefix?: string | undefined;
  /** This process's member id. Default a random UUID. */
  memberId?: string | undefined;
  /** While Redis is failing, how often (clock ms) to check whether it answers again. Default 1000. */
  probeMs?: number | undefined;
  /** When a minute's cap is lowered for declared processes that have not joined, re-ask after this many ms. Default 2000. */
  partialPollMs?: number | undefined;
  /** Where the switches to and from the fallback are reported. */
  logger?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void } | undefined;
}

/** A throttler sharing its budget through Redis. */
export interface SharedThrottler extends Throttler {
  stats(): ThrottlerStats & { shared: SharedThrottlerStats };
  /**
   * Resolves true once Redis is connected, false if it is not within `timeoutMs` (real time: a network wait).
   * Calls scheduled before the connection is up are spent from the fallback share, so wait for this at start.
   */
  connected(timeoutMs?: number): Promise<boolean>;
  /** Stop: calls still queued are rejected, the Redis connection is closed. */
  close(): Promise<void>;
}
