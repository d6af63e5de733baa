/**
 * Limits across restarts. The daily loss counts from the equity at the open of the UTC day, the drawdown from
 * the equity peak, and a restriction (REDUCING, HALTED) holds until its day ends or a person lifts it. None of
 * that can be rebuilt from fills: the order journal restores positions with their whole realized PnL, so
 * without this a restart would count yesterday's PnL as today's and forget peaks and halts.
 *
 * {@link LimitsKeeper} journals the portfolio's {@link EquityCurveState} and the engine's {@link RiskLimitState}
 * as a `limits` record whenever something a restart needs changes (day, day open, peaks, restriction: checked at
 * every `checkEveryMs`, written at once), and the last equity at most every `equityEveryMs` otherwise (it moves
 * with every mark; it is what a restart on a later day opens that day at). {@link restoreLimitState} hands the
 * newest record back after a restart, once the positions are restored. A clean stop writes a last record; after
 * a crash the peak is at most `checkEveryMs` old and the last equity at most `equityEveryMs`.
 */
import type { Clock, TimerHandle } from '../core/clock.js';
import { deq, isDecimal } from '../core/decimal.js';
import type { EquityCurveState } from '../portfolio/equity-curve.js';
import type { Marks, Portfolio } from '../portfolio/portfolio.js';
import type { RiskEngine, RiskLimitState } from './risk-engine.js';

/** What is journaled and restored. */
export interface LimitsSnapshot {
  at: number;
  curve: EquityCurveState;
  risk: RiskLimitState;
}

/** Options of a {@link LimitsKeeper}. */
export interface LimitsKeeperOptions {
  clock: Clock;
  portfolio: Portfolio;
  risk: RiskEngine;
  /** Persist a snapshot (the kernel appends a `limits` journal record). */
  write: (snapshot: LimitsSnapshot) => void;
  /** How often to look for a change, ms (the kernel uses the risk engine's evaluation interval). */
  checkEveryMs: number;
  /** Longest time the journaled last equity may lag a changed one, ms. Default 60,000. */
  equityEveryMs?: number;
}

/**
 * Journals the limit state when it changes.
 *
 * @example
 * const keeper = new LimitsKeeper({ clock, portfolio, risk, checkEveryMs: 1_000, write: (s) => journal.append({ t: 'limits', ...s }) });
 * keeper.start();
 * // ... on shutdown, before the journal closes:
 * keeper.close();
 */
export class LimitsKeeper {
  readonly #o: LimitsKeeperOptions;
  readonly #equityEveryMs: number;
  #timer: TimerHandle | undefined;
  #lastKey: string | undefined;
  /** What #lastKey was made from: while every part is the same value object again, the key is the same text. */
  #lastParts: unknown[] | undefined;
  #lastEquityValue: EquityCurveState['equity'] | undefined;
  #lastWrite = Number.NEGATIVE_INFINITY;

  constructor(opts: LimitsKeeperOptions) {
    this.#o = opts;
    this.#equityEveryMs = opts.equityEveryMs ?? 60_000;
  }

  /** Write the current state (a restart must find one even if nothing changes) and check every `checkEveryMs`. */
  start(): void {
    if (this.#timer) return;
    this.check(true);
    this.#timer = this.#o.clock.setInterval(() => this.check(), this.#o.checkEveryMs);
  }

  /** Write a snapshot if something a restart needs changed (or `force`). Returns whether it wrote. */
  check(force = false): boolean {
    const { clock, portfolio, risk } = this.#o;
    const now = clock.now();
    // The engine re-evaluates first (marks the curve, rolls the day, tightens), as its own interval would.
    risk.refresh();
    const curve = portfolio.equityState();
    const limits = risk.limitState();
    const { at: _at, equity, ...kept } = curve;
    // Checked every `checkEveryMs` with mostly nothing changed: the peaks, day open and restriction are then the
    // very objects they were, and the key need not be written out again to compare.
    const parts = sameParts(this.#lastParts, kept, limits);
    const key = parts === undefined ? this.#lastKey : JSON.stringify({ kept, limits });
    // Compared by value with the equity last written (equal decimals write the same text): written out as text
    // only in the record, not at every check.
    const last = this.#lastEquityValue;
    const equityMoved = last === undefined || (equity !== last && !deq(equity, last));
    const changed = key !== this.#lastKey;
    // New objects with the text already written: remember them, so the next check compares them by identity.
    if (!changed && parts !== undefined) this.#lastParts = parts;
    const stale = equityMoved && now - this.#lastWrite >= this.#equityEveryMs;
    if (!force && !changed && !stale) return false;
    this.#o.write({ at: now, curve, risk: limits });
    this.#lastKey = key;
    this.#lastParts = parts ?? this.#lastParts;
    this.#lastEquityValue = equity;
    this.#lastWrite = now;
    return true;
  }

  /** Stop checking and write the final state (call before the journal closes). */
  close(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
    this.check(true);
  }
}

/**
 * The top-level values of `kept` and `limits` in key order, or undefined when they are exactly `last` (same keys,
 * each value the same primitive or the same immutable decimal object, so JSON.stringify would write the same
 * text). A value of any other kind (an object that could have changed inside) always counts as new.
 */
function sameParts(last: unknown[] | undefined, kept: object, limits: object): unknown[] | undefined {
  const parts: unknown[] = [];
  let same = last !== undefined;
  for (const o of [kept, limits]) {
    for (const k in o) {
      const v = (o as Record<string, unknown>)[k];
      const i = parts.length;
      parts.push(k, v);
      if (same && (last![i] !== k || last![i + 1] !== v || !(typeof v !== 'object' || v === null || isDecimal(v)))) same = false;
    }
    parts.push('|');
    if (same && last![parts.length - 1] !== '|') same = false;
  }
  return same && parts.length === last!.length ? undefined : parts;
}

/**
 * After a restart, with the journal's positions already in the portfolio: carry the equity curve and the risk
 * limits on from `saved` (the newest `limits` record), or, without one, start both from the equity now.
 *
 * @example
 * for (const p of journal.state.positions()) portfolio.restorePosition(p);
 * restoreLimitState(journal.state.limits, portfolio, risk, (m) => marketStore.mid(m));
 */
export function restoreLimitState(saved: Omit<LimitsSnapshot, 'at'> | undefined, portfolio: Portfolio, risk: RiskEngine, marks: Marks): void {
  portfolio.restoreEquity(saved?.curve, marks);
  risk.restoreLimits(saved?.risk);
}
