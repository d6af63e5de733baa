/**
 * Replay and brute-force defences of the hub's Authenticate (issue 9 item 8).
 *
 * - Replays: Authenticate's arguments (key, timestamp, random content, signature) verify anywhere in the
 *   timestamp tolerance, so captured arguments let a second connection in as the same account. An accepted set
 *   of arguments is remembered until it can no longer verify; the same set on another connection is refused.
 * - Repeated failures, per connection and per key: from the `freeFailures`-th on, the connection (or key) is locked for a
 *   period that doubles per further failure (capped). A locked connection's Authenticate calls are answered
 *   THROTTLED without being checked. A locked key is refused THROTTLED only on connections that have already
 *   failed: a connection that never failed may still try once, so the key's owner is never locked out by
 *   somebody else's guesses, while a guesser gets one try per new connection.
 */
import type { Clock } from '../../core/clock.js';

/** Options of {@link HubAuthGuard}. */
export interface HubAuthGuardOptions {
  clock: Clock;
  /** How long Authenticate arguments verify (the timestamp tolerance). */
  toleranceMs: number;
  /** Failures that lock, per connection and per key: the lock starts at this failure; default 5. */
  freeFailures?: number;
  /** First lock, doubled per further failure; default 1 s. */
  baseLockMs?: number;
  /** Longest lock; default 60 s. */
  maxLockMs?: number;
}

interface Failures {
  count: number;
  lockedUntil: number;
  lastAt: number;
}

/** See the module note. */
export class HubAuthGuard {
  readonly #clock: Clock;
  readonly #tolerance: number;
  readonly #free: number;
  readonly #base: number;
  readonly #max: number;
  readonly #accepted = new Map<string, { connection: string; until: number }>();
  readonly #byConnection = new Map<string, Failures>();
  readonly #byKey = new Map<string, Failures>();
  #nextPrune = 0;

  constructor(opts: HubAuthGuardOptions) {
    this.#clock = opts.clock;
    this.#tolerance = opts.toleranceMs;
    this.#free = opts.freeFailures ?? 5;
    this.#base = opts.baseLockMs ?? 1_000;
    this.#max = opts.maxLockMs ?? 60_000;
  }

  /** True when `connection` may try to authenticate as `apiKey` now (see the module note). */
  mayTry(connection: string, apiKey: unknown): boolean {
    const now = this.#clock.now();
    const conn = this.#byConnection.get(connection);
    if (conn && conn.lockedUntil > now) return false;
    const key = typeof apiKey === 'string' ? this.#byKey.get(apiKey.toLowerCase()) : undefined;
    return !(key && key.lockedUntil > now && conn !== undefined);
  }

  /** Count a failed Authenticate on `connection` (and of `apiKey` when it is a known key). */
  failed(connection: string, knownKey: string | undefined): void {
    const now = this.#clock.now();
    this.#prune(now);
    this.#bump(this.#byConnection, connection, now);
    // Keys match case-insensitively: counted in one case, or each spelling of a key would be a fresh key.
    if (knownKey !== undefined) this.#bump(this.#byKey, knownKey.toLowerCase(), now);
  }

  /**
   * An Authenticate with these (verified) arguments succeeded on `connection`: false when the same arguments
   * already authenticated another connection (a replay, to be refused).
   */
  accept(connection: string, args: readonly unknown[]): boolean {
    const now = this.#clock.now();
    this.#prune(now);
    const id = args.map((a) => (typeof a === 'string' ? a.toLowerCase() : String(a))).join(' ');
    const seen = this.#accepted.get(id);
    if (seen && seen.until >= now && seen.connection !== connection) return false;
    this.#accepted.set(id, { connection, until: Number(args[1]) + this.#tolerance });
    this.#byConnection.delete(connection);
    return true;
  }

  /** The connection is gone. */
  forget(connection: string): void {
    this.#byConnection.delete(connection);
  }

  #bump(map: Map<string, Failures>, id: string, now: number): void {
    const f = map.get(id) ?? { count: 0, lockedUntil: 0, lastAt: now };
    // A quiet hour forgives.
    if (now - f.lastAt > 3_600_000) f.count = 0;
    f.count++;
    f.lastAt = now;
    const over = f.count - this.#free + 1;
    if (over > 0) f.lockedUntil = now + Math.min(this.#max, this.#base * 2 ** Math.min(30, over - 1));
    map.set(id, f);
  }

  #prune(now: number): void {
    if (now < this.#nextPrune) return;
    this.#nextPrune = now + 10_000;
    for (const [id, a] of this.#accepted) if (a.until < now) this.#accepted.delete(id);
    for (const [k, f] of this.#byKey) if (now - f.lastAt > 3_600_000) this.#byKey.delete(k);
  }
}
