/**
 * The seed's rule-4 synchronizer (section 6), generic over any (sequenced stream, snapshot with Sequence) pair:
 *
 *   (a) subscribe — the caller's job, before {@link Synchronizer.start};
 *   (b) queue messages as they arrive ({@link Synchronizer.push});
 *   (c) fetch the snapshot and its Sequence (`fetchSnapshot`);
 *   (d) if that sequence is lower than the first queued message's, fetch again;
 *   (e) drop queued messages with sequence ≤ the snapshot's;
 *   (f) apply the rest in order;
 *   (g) continue while each message's sequence is exactly one more than the last;
 *   (h) on any gap, go back to (b).
 *
 * Messages with a sequence at or below the last applied one are duplicates and are dropped silently: that is
 * what feeding several redundant connections into ONE synchronizer produces (their sequences agree), and it
 * is how such connections are merged. A book is only ever reported `live` when it equals the service's state
 * at the reported sequence.
 */
import { BehaviorSubject, type Observable } from 'rxjs';
import type { Clock, TimerHandle } from '../core/clock.js';
import { WireFormatError } from '../core/errors.js';

/** Why a synchronizer went back to queueing. */
export type ResyncReason = 'gap' | 'snapshot-behind' | 'error' | 'reconnect';

/**
 * Synchronizer status. `live.sequence` is the sequence at which it went live (read {@link Synchronizer.sequence}
 * for the latest); statuses are emitted on transitions only, never per message.
 * For `gap`, `expected` is the next sequence wanted and `got` the one that arrived; for `snapshot-behind`,
 * `expected` is the first queued sequence and `got` the snapshot's.
 */
export type SyncStatus =
  | { state: 'synchronizing' }
  | { state: 'live'; sequence: number }
  | { state: 'resyncing'; reason: ResyncReason; expected?: number; got?: number; error?: unknown };

/** A snapshot and the value of its `Sequence` header. */
export interface SequencedSnapshot<S> {
  data: S;
  sequence: number;
}

/**
 * Where synchronized state lives (a store, through a small adapter). `reset` replaces everything with a
 * snapshot; `apply` applies one message. Either may throw on bad data: the synchronizer then resyncs with
 * reason `error`, so a half-applied message is overwritten by the next snapshot before anyone sees `live`.
 */
export interface StateApplier<S, M> {
  reset(snapshot: S, sequence: number): void;
  apply(message: M, sequence: number): void;
}

/** Retry schedule for failed or behind snapshot fetches: `initialDelayMs * factor^(n-1)`, capped. */
export interface RetryPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  factor: number;
}

/** Defaults for {@link RetryPolicy}: 250 ms doubling up to 30 s (snapshots count against the REST call budget). */
export const DEFAULT_RETRY: RetryPolicy = { initialDelayMs: 250, maxDelayMs: 30_000, factor: 2 };

/** The knobs every synchronizer shares (wiring helpers take these and pass them on). */
export interface SyncTuning {
  clock: Clock;
  retry?: Partial<RetryPolicy> | undefined;
  /**
   * How long a live synchronizer holds a message that skipped ahead, waiting for the missing ones, before
   * treating it as a gap. 0 (default) follows rule (h) literally. With redundant connections a few hundred ms
   * lets another connection's copy fill a message one connection lost, without a snapshot round trip.
   */
  reorderWindowMs?: number | undefined;
  /** Most messages kept queued; beyond it the oldest are dropped (rule (d) then refetches). Default 10,000. */
  maxQueued?: number | undefined;
}

/** Just the {@link SyncTuning} fields of `options` (so wiring helpers do not leak their other fields). */
export function tuningOf(options: SyncTuning): SyncTuning {
  return { clock: options.clock, retry: options.retry, reorderWindowMs: options.reorderWindowMs, maxQueued: options.maxQueued };
}

/** Options of a {@link Synchronizer}. */
export interface SynchronizerOptions<S, M extends { readonly sequence: number }> extends SyncTuning {
  /** Names the stream in statuses and errors, e.g. `orderbook_BTC-USD_25`. */
  name: string;
  applier: StateApplier<S, M>;
  /** Step (c): the REST snapshot with the same parameters as the subscription, and its Sequence header. */
  fetchSnapshot: () => Promise<SequencedSnapshot<S>>;
}

/** Counters for telemetry and tests. */
export interface SyncStats {
  applied: number;
  /** Messages at or below the last applied sequence, or repeated while queued. */
  duplicates: number;
  /** Queued messages dropped because the snapshot already contained them (step (e)). */
  dropped: number;
  gaps: number;
  snapshots: number;
  fetchErrors: number;
  applyErrors: number;
}

type Mode = 'idle' | 'fetching' | 'waiting' | 'live' | 'stopped';

/**
 * Keeps one piece of state in step with one sequenced stream.
 *
 * @example
 * const sync = new Synchronizer({
 *   name: 'orderbook_BTC-USD_25',
 *   applier: { reset: (s, seq) => book.reset(s, seq), apply: (m) => book.applyDeltas(m.bidDeltas, m.askDeltas, m.sequence) },
 *   fetchSnapshot: () => rest.orderBook('BTC-USD', 25), // { data, sequence }
 *   clock: systemClock,
 * });
 * sync.status$.subscribe((s) => log.info(s));
 * hubMessages$.subscribe((m) => sync.push(m)); // after Subscribe succeeded
 * sync.start();
 */
export class Synchronizer<S, M extends { readonly sequence: number }> {
  readonly name: string;
  readonly stats: SyncStats = { applied: 0, duplicates: 0, dropped: 0, gaps: 0, snapshots: 0, fetchErrors: 0, applyErrors: 0 };
  readonly #opts: SynchronizerOptions<S, M>;
  readonly #retry: RetryPolicy;
  readonly #status = new BehaviorSubject<SyncStatus>({ state: 'synchronizing' });
  /** Queued messages, sorted by sequence, one per sequence. While live: only messages that skipped ahead. */
  #queue: M[] = [];
  #mode: Mode = 'idle';
  #current: number | undefined;
  #epoch = 0;
  #attempts = 0;
  #timer: TimerHandle | undefined;

  constructor(options: SynchronizerOptions<S, M>) {
    this.#opts = options;
    this.name = options.name;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** Status transitions; replays the current status to new subscribers. Completes on {@link stop}. */
  get status$(): Observable<SyncStatus> {
    return this.#status.asObservable();
  }

  /** The current status. */
  get status(): SyncStatus {
    return this.#status.value;
  }

  /** Sequence of the last applied message or snapshot while live; undefined otherwise. */
  get sequence(): number | undefined {
    return this.#mode === 'live' ? this.#current : undefined;
  }

  /** Number of messages queued (waiting for a snapshot, or held in the reorder window). */
  get queued(): number {
    return this.#queue.length;
  }

  /** Step (c): start fetching the snapshot. Call once the subscription is in place. Idempotent. */
  start(): void {
    if (this.#mode === 'idle') this.#fetch();
  }

  /**
   * Feed one stream message (from any of the connections carrying this stream). A message whose sequence is
   * not a non-negative integer is refused with {@link WireFormatError} and changes nothing.
   */
  push(message: M): void {
    if (this.#mode === 'stopped') return;
    const seq = message.sequence;
    if (!Number.isSafeInteger(seq) || seq < 0) {
      throw new WireFormatError(`stream ${this.name}`, 'sequence', `is not a non-negative integer: ${String(seq)}`);
    }
    if (this.#mode !== 'live') {
      this.#enqueue(message);
      return;
    }
    const current = this.#current!;
    if (seq <= current) {
      this.stats.duplicates++;
      return;
    }
    if (seq === current + 1) {
      // Nothing queued and no reorder timer (the usual message): #drainLive would find nothing to do.
      if (this.#applyOne(message) && (this.#queue.length > 0 || this.#timer !== undefined)) this.#drainLive();
      return;
    }
    const window = this.#opts.reorderWindowMs ?? 0;
    if (window > 0 && this.#queue.length < this.#maxQueued()) {
      this.#enqueue(message);
      this.#timer ??= this.#opts.clock.setTimeout(() => this.#reorderExpired(), window);
      return;
    }
    this.#enqueue(message);
    this.#gap(current + 1, seq);
  }

  /**
   * The transport reconnected: messages may have been lost while it was down, and a quiet stream would not
   * reveal the gap until its next message, so resync now. Queued messages stay (sequences are per stream,
   * not per connection).
   */
  reconnect(): void {
    if (this.#mode === 'live') this.#resync({ state: 'resyncing', reason: 'reconnect' });
  }

  /** Stop: cancel timers, ignore in-flight snapshots and further messages, complete {@link status$}. */
  stop(): void {
    if (this.#mode === 'stopped') return;
    this.#mode = 'stopped';
    this.#epoch++;
    this.#cancelTimer();
    this.#queue = [];
    this.#status.complete();
  }

  #maxQueued(): number {
    return this.#opts.maxQueued ?? 10_000;
  }

  #emit(status: SyncStatus): void {
    this.#status.next(status);
  }

  #cancelTimer(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  /** Insert keeping the queue sorted and unique by sequence; the common case is an append. */
  #enqueue(message: M): void {
    const q = this.#queue;
    const seq = message.sequence;
    if (q.length === 0 || q[q.length - 1]!.sequence < seq) q.push(message);
    else {
      let lo = 0;
      let hi = q.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (q[mid]!.sequence < seq) lo = mid + 1;
        else hi = mid;
      }
      if (q[lo]!.sequence === seq) {
        this.stats.duplicates++;
        return;
      }
      q.splice(lo, 0, message);
    }
    // Bounded: drop the oldest. If the snapshot then predates the first kept message, rule (d) refetches.
    if (q.length > this.#maxQueued()) q.shift();
  }

  #resync(status: SyncStatus & { state: 'resyncing' }): void {
    this.#cancelTimer();
    this.#emit(status);
    this.#fetch();
  }

  #gap(expected: number, got: number): void {
    this.stats.gaps++;
    this.#resync({ state: 'resyncing', reason: 'gap', expected, got });
  }

  #reorderExpired(): void {
    this.#timer = undefined;
    const first = this.#queue[0];
    if (this.#mode === 'live' && first !== undefined) this.#gap(this.#current! + 1, first.sequence);
  }

  #fetch(): void {
    this.#cancelTimer();
    this.#mode = 'fetching';
    const epoch = ++this.#epoch;
    let pending: Promise<SequencedSnapshot<S>>;
    try {
      pending = this.#opts.fetchSnapshot();
    } catch (err) {
      pending = Promise.reject(err);
    }
    pending.then(
      (snap) => {
        if (epoch === this.#epoch) this.#onSnapshot(snap);
      },
      (err: unknown) => {
        if (epoch === this.#epoch) this.#retryLater({ state: 'resyncing', reason: 'error', error: err }, true);
      },
    );
  }

  #retryLater(status: SyncStatus & { state: 'resyncing' }, fetchError: boolean): void {
    if (fetchError) this.stats.fetchErrors++;
    this.#attempts++;
    this.#emit(status);
    const r = this.#retry;
    const delay = Math.min(r.maxDelayMs, r.initialDelayMs * r.factor ** (this.#attempts - 1));
    this.#mode = 'waiting';
    this.#timer = this.#opts.clock.setTimeout(() => {
      this.#timer = undefined;
      if (this.#mode === 'waiting') this.#fetch();
    }, delay);
  }

  #onSnapshot(snap: SequencedSnapshot<S>): void {
    const snapSeq = snap.sequence;
    if (!Number.isSafeInteger(snapSeq) || snapSeq < 0) {
      const error = new Error(`${this.name}: snapshot Sequence is not a non-negative integer: ${String(snapSeq)}`);
      this.#retryLater({ state: 'resyncing', reason: 'error', error }, true);
      return;
    }
    this.stats.snapshots++;
    const first = this.#queue[0];
    if (first !== undefined && snapSeq < first.sequence - 1) {
      // (d) refetch when the snapshot is older than the queue. A snapshot exactly one behind the first queued
      // message leaves no hole — that message is the next step of (g) — so refetching would only spend the
      // per-minute call budget (the seed's "lower than" read as "lower than first - 1": same books, fewer calls).
      this.#retryLater({ state: 'resyncing', reason: 'snapshot-behind', expected: first.sequence, got: snapSeq }, false);
      return;
    }
    // (e)
    let skip = 0;
    while (skip < this.#queue.length && this.#queue[skip]!.sequence <= snapSeq) skip++;
    this.stats.dropped += skip;
    this.#queue = this.#queue.slice(skip);
    try {
      this.#opts.applier.reset(snap.data, snapSeq);
    } catch (error) {
      this.stats.applyErrors++;
      this.#retryLater({ state: 'resyncing', reason: 'error', error }, false);
      return;
    }
    this.#current = snapSeq;
    this.#mode = 'live';
    // (f), (g)
    if (!this.#drainLive()) return;
    const next = this.#queue[0];
    if (next !== undefined) {
      // The queue itself had a hole right after the snapshot: back to (b).
      this.#gap(this.#current + 1, next.sequence);
      return;
    }
    this.#attempts = 0;
    this.#emit({ state: 'live', sequence: this.#current });
  }

  /** Apply queued messages that continue the sequence. False when an apply failed (a resync is under way). */
  #drainLive(): boolean {
    const q = this.#queue;
    let i = 0;
    while (i < q.length && q[i]!.sequence <= this.#current! + 1) {
      const m = q[i++]!;
      if (m.sequence <= this.#current!) continue;
      if (!this.#applyOne(m)) {
        // #applyOne already started a resync; keep what is left for after the next snapshot.
        this.#queue = q.slice(i);
        return false;
      }
    }
    if (i > 0) this.#queue = q.slice(i);
    if (this.#queue.length === 0) this.#cancelTimer();
    return true;
  }

  #applyOne(message: M): boolean {
    try {
      this.#opts.applier.apply(message, message.sequence);
    } catch (error) {
      this.stats.applyErrors++;
      this.#resync({ state: 'resyncing', reason: 'error', error });
      return false;
    }
    this.#current = message.sequence;
    this.stats.applied++;
    return true;
  }
}
