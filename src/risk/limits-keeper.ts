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
  #lastEquity: string | undefined;
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
    const key = JSON.stringify({ kept, limits });
    const equityText = equity.toFixed();
    const changed = key !== this.#lastKey;
    const stale = equityText !== this.#lastEquity && now - this.#lastWrite >= this.#equityEveryMs;
    if (!force && !changed && !stale) return false;
    this.#o.write({ at: now, curve, risk: limits });
    this.#lastKey = key;
    this.#lastEquity = equityText;
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
