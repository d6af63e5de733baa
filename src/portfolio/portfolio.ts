/**
 * Positions and PnL per strategy and per market, fed by the order manager's `fill` events.
 *
 * Accounting (see {@link Position}): FIFO lots, exact decimals; commission (quote currency) is charged to
 * realized PnL when paid. A fill's value is `quantity × rate` exactly; the exchange cuts each fill's quote amount
 * to 8 decimals, so balances may differ from these figures by at most 1e-8 per fill.
 *
 * Currencies: every market's PnL is kept in its own quote currency. Aggregates (equity, unrealized, daily PnL,
 * drawdown) are in the portfolio's reporting currency — `quoteCurrency`, or the quote currency of the first
 * market filled. Amounts in another quote currency Q are converted with the marks of `Q-<reporting>` (or the
 * inverse of `<reporting>-Q`). Without such a mark (a book emptied, a stream down) the amount is valued at the
 * last rate seen (or the last fill rate of a position in that market) and the valuation says it is STALE; it is
 * never silently left out, which would move equity by the whole amount and fake (or hide) a drawdown (an open
 * position whose own market has no mark is valued at its last fill rate, and is stale too). Only an
 * amount with no rate ever known is left out, and the valuation says so (`unvalued`): the risk engine then does
 * not judge its limits on that figure.
 *
 * Equity is PnL-based: zero at start, realized + unrealized afterwards. {@link Portfolio.markToMarket} records a
 * point of the equity curve, from which the maximum drawdown and the daily PnL (UTC day of the clock) follow.
 */
import { Observable, Subject } from 'rxjs';
import type { Clock } from '../core/clock.js';
import { type Decimal, deq, ZERO } from '../core/decimal.js';
import { dadd } from '../core/decimal-fast.js';
import { RecentIds } from '../core/recent-ids.js';
import type { OrderEvent } from '../orders/order-events.js';
import { type EquityCurveState, type EquityPoint, EquityCurve } from './equity-curve.js';
import { Position, type PositionSnapshot, type PositionView } from './position.js';

/** The `fill` order event the portfolio consumes. */
export type FillEvent = Extract<OrderEvent, { type: 'fill' }>;

/** Mark (mid) price of a market, or undefined when there is none. */
export type Marks = (marketSymbol: string) => Decimal | undefined;

/**
 * Equity and how sure it is: `stale` lists the currencies valued at a last known rate instead of a current mark,
 * `unvalued` those with no rate at all (left out of `equity`).
 */
export interface EquityValuation {
  equity: Decimal;
  stale: string[];
  unvalued: string[];
}

/** A conversion mark: one unit of a currency is `mark` reporting units, or 1 / `mark` when `inverse`. */
interface Rate {
  mark: Decimal;
  inverse: boolean;
}

/** Options of a {@link Portfolio}. */
export interface PortfolioOptions {
  /** Time of equity points and the UTC day of daily PnL. */
  clock: Clock;
  /** Reporting currency of aggregates; default: the quote currency of the first market filled. */
  quoteCurrency?: string;
  /** Equity points kept (oldest dropped first; peak and max drawdown are unaffected). Default 10,000. */
  maxEquityPoints?: number;
  /** Fill ids remembered to drop duplicates (order manager replays after a reconnect): at least the last this many, at most twice. Default 100,000. */
  maxRememberedFills?: number;
}

/** Quote currency of a `BASE-QUOTE` market symbol. */
export function quoteOf(marketSymbol: string): string {
  const dash = marketSymbol.indexOf('-');
  return dash < 0 ? marketSymbol : marketSymbol.slice(dash + 1);
}

/** Base currency of a `BASE-QUOTE` market symbol. */
function baseOf(marketSymbol: string): string {
  const dash = marketSymbol.indexOf('-');
  return dash < 0 ? marketSymbol : marketSymbol.slice(0, dash);
}

/**
 * Positions and PnL.
 *
 * @example
 * const portfolio = new Portfolio({ clock, quoteCurrency: 'USD' });
 * orderManager.events$.pipe(filter((e) => e.type === 'fill')).subscribe((f) => portfolio.onFill(f));
 * portfolio.position('BTC-USD', 'mm');                          // signed base quantity of strategy 'mm'
 * const marks = (m: string) => marketStore.mid(m);
 * portfolio.markToMarket(marks);                                 // records an equity point
 * portfolio.dailyPnl(marks).toString();
 */
export class Portfolio {
  readonly #clock: Clock;
  #quote: string | undefined;
  readonly #positions = new Map<string, Position>();
  readonly #curve: EquityCurve;
  readonly #seen: RecentIds;
  readonly #changes = new Subject<FillEvent>();
  /** Last mark seen per currency linking it to the reporting currency (`inverse`: of `<reporting>-<currency>`). */
  readonly #rates = new Map<string, Rate>();
  #valuation: EquityValuation = { equity: ZERO, stale: [], unvalued: [] };
  /** Bumped by every change to the positions or the reporting currency (what a valuation reads besides marks). */
  #version = 0;
  /** The last {@link Portfolio.markToMarket} valuation and the marks it read, while reusing it is exact (see there). */
  #memo: { version: number; marks: (Decimal | undefined)[]; valuation: EquityValuation } | undefined;
  readonly #staleness = new Subject<EquityValuation>();

  /** Every fill applied (duplicates are not re-emitted), after the positions hold it. */
  readonly changes$: Observable<FillEvent> = this.#changes.asObservable();

  /**
   * The marked valuation each time its stale or unvalued currencies change (see {@link Portfolio.markToMarket}):
   * the kernel logs it; an empty pair of lists means equity is current again.
   */
  readonly staleness$: Observable<EquityValuation> = this.#staleness.asObservable();

  constructor(opts: PortfolioOptions) {
    this.#clock = opts.clock;
    this.#quote = opts.quoteCurrency;
    this.#curve = new EquityCurve(opts.clock.now(), opts.maxEquityPoints);
    this.#seen = new RecentIds(opts.maxRememberedFills ?? 100_000);
  }

  /** The reporting currency (undefined until set or until the first fill). */
  get quoteCurrency(): string | undefined {
    return this.#quote;
  }

  /**
   * Apply one fill. A fill already applied (same order id and execution id) is ignored, so replays are safe.
   * Throws a RangeError for a non-positive quantity, a non-positive rate or a negative commission.
   */
  onFill(f: FillEvent): void {
    const id = `${f.orderId}|${f.executionId}`;
    if (this.#seen.has(id)) return;
    if (!f.quantity.gt(ZERO) || !f.rate.gt(ZERO) || f.commission.lt(ZERO)) {
      throw new RangeError(`portfolio: invalid fill ${id} (quantity ${f.quantity}, rate ${f.rate}, commission ${f.commission})`);
    }
    this.#seen.add(id);
    const quote = quoteOf(f.marketSymbol);
    this.#quote ??= quote;
    const key = `${f.strategy}|${f.marketSymbol}`;
    let p = this.#positions.get(key);
    if (!p) {
      p = new Position(f.strategy, f.marketSymbol, quote);
      this.#positions.set(key, p);
    }
    p.apply(f.direction, f.quantity, f.rate, f.commission);
    this.#version++;
    this.#changes.next(f);
  }

  /**
   * Replace one (strategy, market) position with a snapshot (the order journal's, after it compacted the fills
   * it was built from). Fills applied afterwards count on top of it.
   */
  restorePosition(s: PositionSnapshot): void {
    const quote = quoteOf(s.marketSymbol);
    this.#quote ??= quote;
    this.#positions.set(`${s.strategy}|${s.marketSymbol}`, Position.restore(s, quote));
    this.#version++;
  }

  /** Signed base position in `marketSymbol` of `strategy`, or of all strategies together. */
  position(marketSymbol: string, strategy?: string): Decimal {
    // A plain loop: asked at every requote, where the generator of #select cost an object and its protocol.
    let sum = ZERO;
    for (const p of this.#positions.values()) {
      if (p.marketSymbol === marketSymbol && (strategy === undefined || p.strategy === strategy)) sum = dadd(sum, p.quantity);
    }
    return sum;
  }

  /** Average entry price of `strategy`'s open position in `marketSymbol`; undefined when flat. */
  avgEntryPrice(marketSymbol: string, strategy: string): Decimal | undefined {
    return this.#positions.get(`${strategy}|${marketSymbol}`)?.avgEntryPrice;
  }

  /**
   * Realized PnL (closed lots minus commission) of `strategy` or all, over the markets quoted in `currency`
   * (default: the reporting currency). Not converted: use {@link Portfolio.equity} for a cross-currency total.
   */
  realizedPnl(strategy?: string, currency: string | undefined = this.#quote): Decimal {
    let sum = ZERO;
    for (const p of this.#select(strategy)) if (p.quoteCurrency === currency) sum = sum.plus(p.realizedPnl);
    return sum;
  }

  /** Commission paid by `strategy` or all, in markets quoted in `currency` (default: the reporting currency). */
  commission(strategy?: string, currency: string | undefined = this.#quote): Decimal {
    let sum = ZERO;
    for (const p of this.#select(strategy)) if (p.quoteCurrency === currency) sum = sum.plus(p.commission);
    return sum;
  }

  /**
   * Unrealized PnL of the open lots at `marks`, in the reporting currency. A market without a mark is valued at
   * its last fill rate.
   */
  unrealizedPnl(marks: Marks, strategy?: string): Decimal {
    const v = { stale: new Set<string>(), unvalued: new Set<string>() };
    let sum = ZERO;
    for (const p of this.#select(strategy)) {
      if (p.quantity.isZero()) continue;
      const c = this.#convert(p.unrealizedPnl(marks(p.marketSymbol) ?? p.lastRate), p.quoteCurrency, marks, v);
      if (c) sum = sum.plus(c);
    }
    return sum;
  }

  /**
   * Realized + unrealized PnL in the reporting currency (other quote currencies converted at `marks`, else at the
   * last rate seen: see {@link Portfolio.valueEquity}).
   */
  equity(marks: Marks, strategy?: string): Decimal {
    return this.valueEquity(marks, strategy).equity;
  }

  /** {@link Portfolio.equity} with the currencies it could only value at an old rate, or not at all. */
  valueEquity(marks: Marks, strategy?: string): EquityValuation {
    return this.#value(marks, strategy, undefined);
  }

  /** {@link Portfolio.valueEquity}, noting in `seen` the mark read for each position, in order. */
  #value(marks: Marks, strategy: string | undefined, seen: (Decimal | undefined)[] | undefined): EquityValuation {
    // The risk engine values at every order it evaluates, mostly one position in the reporting currency with
    // nothing stale: a plain loop (no generator of #select) and the sets only made for a position that needs them.
    let v: { stale: Set<string>; unvalued: Set<string> } | undefined;
    let sum = ZERO;
    for (const p of this.#positions.values()) {
      if (strategy !== undefined && p.strategy !== strategy) continue;
      let mark = marks(p.marketSymbol);
      seen?.push(mark);
      if (!mark) {
        // An open position without a mark is valued at its last fill rate: stale, like a missing conversion.
        v ??= { stale: new Set<string>(), unvalued: new Set<string>() };
        if (!p.quantity.isZero()) v.stale.add(baseOf(p.marketSymbol));
        mark = p.lastRate;
      }
      const pnl = dadd(p.realizedPnl, p.unrealizedPnl(mark));
      // In the reporting currency (or zero) an amount is its own value: #convert would return it untouched.
      if (p.quoteCurrency === this.#quote || pnl.isZero()) {
        sum = dadd(sum, pnl);
        continue;
      }
      v ??= { stale: new Set<string>(), unvalued: new Set<string>() };
      const c = this.#convert(pnl, p.quoteCurrency, marks, v);
      if (c) sum = dadd(sum, c);
    }
    return v ? { equity: sum, stale: [...v.stale].sort(), unvalued: [...v.unvalued].sort() } : { equity: sum, stale: [], unvalued: [] };
  }

  /**
   * Record the portfolio's equity at `marks` now as a point of the equity curve, and return it. Its valuation is
   * {@link Portfolio.lastValuation}; a change in what is stale is emitted on {@link Portfolio.staleness$}.
   */
  markToMarket(marks: Marks): EquityPoint {
    const v = this.#markedValuation(marks);
    const before = this.#valuation;
    this.#valuation = v;
    // The same valuation again (reused: nothing changed) has the same lists.
    if (v !== before && (before.stale.join() !== v.stale.join() || before.unvalued.join() !== v.unvalued.join())) this.#staleness.next(v);
    return this.#curve.record(this.#clock.now(), v.equity);
  }

  /**
   * The valuation for markToMarket. The risk engine marks at every order it evaluates, mostly with nothing filled
   * and the same marks as the last time: the last valuation is then the answer. It is reused only when no position
   * or reporting currency changed since (the version), every position is quoted in the reporting currency (so no
   * conversion mark or remembered rate was read) and each position's mark equals the one it was made with.
   */
  #markedValuation(marks: Marks): EquityValuation {
    const memo = this.#memo;
    if (memo && memo.version === this.#version) {
      let i = 0;
      let same = true;
      for (const p of this.#positions.values()) {
        const mark = marks(p.marketSymbol);
        const was = memo.marks[i++];
        if (mark === undefined || was === undefined ? mark !== was : mark !== was && !deq(mark, was)) {
          same = false;
          break;
        }
      }
      if (same) return memo.valuation;
    }
    const seen: (Decimal | undefined)[] = [];
    const valuation = this.#value(marks, undefined, seen);
    let single = true;
    for (const p of this.#positions.values()) if (p.quoteCurrency !== this.#quote) single = false;
    this.#memo = single ? { version: this.#version, marks: seen, valuation } : undefined;
    return valuation;
  }

  /** The valuation of the last {@link Portfolio.markToMarket}. */
  get lastValuation(): EquityValuation {
    return this.#valuation;
  }

  /**
   * PnL since the open of the UTC day of `now` (default: the clock's now): equity at `marks` minus the equity
   * last recorded before that day began. Mark regularly (the risk engine does) for an accurate day open.
   */
  dailyPnl(marks: Marks, now: number = this.#clock.now()): Decimal {
    return this.equity(marks).minus(this.#curve.dayOpen(now));
  }

  /** Equity at the open of the UTC day of `now` (default: the clock's now): the last recorded before it began. */
  dayOpenEquity(now: number = this.#clock.now()): Decimal {
    return this.#curve.dayOpen(now);
  }

  /** Current drawdown from the peak of the recorded equity points (≥ 0). */
  drawdown(): Decimal {
    return this.#curve.drawdown;
  }

  /** Largest peak-to-trough fall of the recorded equity since start (≥ 0). */
  maxDrawdown(): Decimal {
    return this.#curve.maxDrawdown;
  }

  /** What a restart needs to carry the equity curve on (day open, peak, last point): see {@link Portfolio.restoreEquity}. */
  equityState(): EquityCurveState {
    return this.#curve.state();
  }

  /**
   * After a restart, once the positions are restored: carry the equity curve on from `saved` (the state the last
   * run journaled), so the day open and the peak are what they would have been had the process never stopped.
   * Without a saved state (a journal from before it was kept), the curve starts again at the equity now, so the
   * restored positions' PnL counts neither as today's nor as a fall from a peak of zero.
   */
  restoreEquity(saved: EquityCurveState | undefined, marks: Marks): void {
    if (saved) this.#curve.restore(saved);
    else this.#curve.rebase(this.#clock.now(), this.equity(marks));
  }

  /** The recorded equity points, oldest first (bounded). */
  equityCurve(): readonly EquityPoint[] {
    return this.#curve.points();
  }

  /** Snapshots of every (strategy, market) position ever filled, or of one strategy's. */
  positions(strategy?: string): PositionView[] {
    return [...this.#select(strategy)].map((p) => p.view());
  }

  /** Strategies with at least one fill. */
  strategies(): string[] {
    return [...new Set([...this.#positions.values()].map((p) => p.strategy))];
  }

  *#select(strategy: string | undefined): Iterable<Position> {
    for (const p of this.#positions.values()) if (strategy === undefined || p.strategy === strategy) yield p;
  }

  /**
   * `amount` of `from` in the reporting currency: at the current mark linking the two (remembered), else at the
   * last rate seen or a position's last fill rate in a market linking them (`from` noted as stale), else
   * undefined (noted as unvalued).
   */
  #convert(amount: Decimal, from: string, marks: Marks, note: { stale: Set<string>; unvalued: Set<string> }): Decimal | undefined {
    if (from === this.#quote || amount.isZero()) return amount;
    const direct = marks(`${from}-${this.#quote}`);
    let rate: Rate | undefined;
    if (direct?.gt(ZERO)) rate = { mark: direct, inverse: false };
    else {
      const inverse = marks(`${this.#quote}-${from}`);
      if (inverse?.gt(ZERO)) rate = { mark: inverse, inverse: true };
    }
    if (rate) this.#rates.set(from, rate);
    else {
      rate = this.#rates.get(from) ?? this.#lastFillRate(from);
      if (!rate) {
        note.unvalued.add(from);
        return undefined;
      }
      note.stale.add(from);
    }
    return rate.inverse ? amount.div(rate.mark) : amount.times(rate.mark);
  }

  // The last fill rate of a position in a market linking `from` and the reporting currency, if any.
  #lastFillRate(from: string): Rate | undefined {
    for (const p of this.#positions.values()) {
      if (!p.lastRate.gt(ZERO)) continue;
      if (p.marketSymbol === `${from}-${this.#quote}`) return { mark: p.lastRate, inverse: false };
      if (p.marketSymbol === `${this.#quote}-${from}`) return { mark: p.lastRate, inverse: true };
    }
    return undefined;
  }
}
