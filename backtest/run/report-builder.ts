/**
 * Collects what a backtest run produces into a {@link ReportInput}: our orders and fills as the kernel saw them
 * (order events), the account's equity and positions sampled on virtual time, a price series per market (mids of
 * the recorded book), risk denials by reason, and the assumptions in force. Everything is plain data with exact
 * decimal strings; nothing depends on the wall clock, so the same run gives the same JSON.
 */
import { type Decimal, ZERO } from '../../src/core/decimal.js';
import { formatFixed } from '../../src/core/decimal-format.js';
import type { Order } from '../../src/model/order.js';
import type { OrderEvent } from '../../src/orders/order-events.js';
import type { SimEngine } from '../../src/sim/engine.js';
import type { ReportEquityPoint, ReportFill, ReportInput, ReportOrder, ReportPricePoint } from '../report/report-input.js';
import type { BacktestVenue } from '../venue/backtest-venue.js';

/**
 * `d.toFixed(8)` byte for byte (the report's decimal strings), without decimal.js's rounded copy: every order
 * event writes six of them (see src/core/decimal-format.ts and its randomized test against toFixed).
 */
function toWire8(d: Decimal): string {
  return formatFixed(d, 8);
}

/**
 * One string per distinct text among the recent ones. The report keeps every closed order's and every fill's
 * decimals as text until the run ends, and most of them repeat (the same size, the same few price levels): kept
 * as one string each, they cost a pointer rather than ~32 bytes. Bounded: past `max` texts it starts over, so a
 * run whose values never repeat pays one lookup per text and no memory.
 */
class TextPool {
  readonly #texts = new Map<string, string>();
  readonly #max: number;

  constructor(max = 4096) {
    this.#max = max;
  }

  /** `text`, or the equal string met before. */
  of(text: string): string {
    const known = this.#texts.get(text);
    if (known !== undefined) return known;
    if (this.#texts.size >= this.#max) this.#texts.clear();
    this.#texts.set(text, text);
    return text;
  }
}

/** Mid of a market's recorded book (or the side there is, or the last trade), undefined when nothing is known. */
export function recordedMid(venue: BacktestVenue, symbol: string): Decimal | undefined {
  const f = venue.feed(symbol);
  if (!f) return undefined;
  const bid = f.book.bid.best()?.rate;
  const ask = f.book.ask.best()?.rate;
  if (bid && ask) return bid.plus(ask).div(2);
  return bid ?? ask ?? f.trades().data[0]?.rate;
}

/** Accumulates the report of one run. */
export class ReportBuilder {
  readonly #venue: BacktestVenue;
  readonly #engine: SimEngine;
  readonly #valuation: string;
  readonly #initial: Record<string, Decimal>;
  /**
   * Each order's report line once it is closed (or rejected), and until then the order as last heard of (its
   * first event's time kept). A placement has two events (accepted, closed): its six decimals are formatted once,
   * at the last. Keeping the closed order's line rather than its `Order` (Dates, Decimals and their digit arrays)
   * is what lets a long run's memory grow by ~500 fewer bytes per order placed (1.31 -> 0.79 KB, measured): an active market maker places one
   * order every few dozen events, and the report must list them all.
   */
  readonly #orders = new Map<string, Followed | ReportOrder>();
  readonly #fills: ReportFill[] = [];
  readonly #text = new TextPool();
  readonly #equity: ReportEquityPoint[] = [];
  readonly #prices: Record<string, ReportPricePoint[]> = {};
  readonly #denials: Record<string, number> = {};
  /**
   * Whether a point has valued every holding yet (the curve and its metrics start at the first such point), or no
   * point ever can.
   */
  #valued = false;
  /** {@link ReportBuilder.sampleWhenFirstValued}'s list of holdings to value, made at its first call. */
  #held: Array<[string, Decimal]> | 'never' | undefined;

  constructor(venue: BacktestVenue, valuationCurrency: string, initial: Record<string, Decimal>) {
    this.#venue = venue;
    this.#engine = venue.engine;
    this.#valuation = valuationCurrency;
    this.#initial = initial;
    for (const m of venue.marketSymbols) this.#prices[m] = [];
  }

  /** Follow the kernel's order events. */
  onOrderEvent = (e: OrderEvent): void => {
    switch (e.type) {
      case 'accepted':
      case 'closed': {
        const known = this.#orders.get(e.clientOrderId);
        // A closed order's line is final: nothing later takes it back to a followed order. (A rejection's line is
        // not: an order the venue did accept under that id after all replaces it, as it always has.)
        if (known && !('order' in known) && known.outcome !== 'REJECTED') return;
        const createdAt = known?.createdAt ?? e.order.createdAt.getTime();
        // Closed for good: its line now, and the order goes. Anything else is refreshed from the engine at build.
        if (e.type === 'closed' && e.order.status !== 'OPEN') this.#orders.set(e.clientOrderId, reportOrder(e.order, e.strategy, e.clientOrderId, createdAt, this.#text));
        else this.#orders.set(e.clientOrderId, { order: e.order, strategy: e.strategy, createdAt });
        return;
      }
      case 'rejected': {
        // Only a placement the venue refused (or that was sent and never found) is an order placed and rejected, as a
        // journal report counts them. An intent the planner refused was never sent: counted with the denials by its
        // code. A rejection under the id of an order the venue accepted is a cancel that failed: the order stands.
        if (e.clientOrderId === undefined) {
          this.#denials[e.code] = (this.#denials[e.code] ?? 0) + 1;
          return;
        }
        const known = this.#orders.get(e.clientOrderId);
        if (known && ('order' in known || known.outcome !== 'REJECTED')) return;
        // The market and side of the request: the venue made no order to take them from.
        this.#orders.set(e.clientOrderId, {
          clientOrderId: e.clientOrderId,
          strategy: e.strategy,
          marketSymbol: e.marketSymbol ?? '',
          direction: e.direction ?? 'BUY',
          type: '',
          createdAt: e.at,
          closedAt: e.at,
          outcome: 'REJECTED',
          rejectCode: e.code,
          fillQuantity: toWire8(ZERO),
          proceeds: toWire8(ZERO),
          commission: toWire8(ZERO),
        });
        return;
      }
      case 'fill':
        this.#fills.push({
          // When it happened at the venue (the bot hears of it a market-data latency later).
          at: this.#executedAt(e.executionId) ?? e.at,
          marketSymbol: e.marketSymbol,
          orderId: e.orderId,
          clientOrderId: e.clientOrderId,
          strategy: e.strategy,
          direction: e.direction,
          quantity: this.#text.of(toWire8(e.quantity)),
          rate: this.#text.of(toWire8(e.rate)),
          commission: this.#text.of(toWire8(e.commission)),
          isTaker: e.isTaker,
        });
        return;
      case 'denied':
        for (const r of e.reasons) this.#denials[r.code] = (this.#denials[r.code] ?? 0) + 1;
        return;
      default:
        return;
    }
  };

  /** Sample equity, positions and prices now. */
  sample(at: number): void {
    const totals = this.#totals();
    const { value: equity, complete } = this.#valueOf(totals);
    const stale = !complete;
    const positions: Record<string, string> = {};
    for (const m of this.#venue.marketSymbols) {
      const base = this.#engine.catalog.market(m).baseCurrencySymbol;
      positions[m] = toWire8((totals[base] ?? ZERO).minus(this.#initial[base] ?? ZERO));
      const mid = recordedMid(this.#venue, m);
      if (mid) this.#prices[m]!.push({ at, price: toWire8(mid) });
    }
    const hold = this.#valueOf(this.#initial);
    const last = this.#equity[this.#equity.length - 1];
    const point: ReportEquityPoint = { at, equity: toWire8(equity), positions, ...(stale ? { stale: true } : {}) };
    if (hold.complete) point.hold = toWire8(hold.value);
    if (!stale) this.#valued = true;
    if (last && last.at === at) this.#equity[this.#equity.length - 1] = point;
    else this.#equity.push(point);
  }

  /**
   * Sample now if every starting holding has a rate now and no point had one yet; the run calls it after each
   * event until then. The curve, and so the total's net PnL and the hold line, start at the first moment they can
   * be valued, before any order: starting at the next interval sample instead left the fills before it out of the
   * total while the market's PnL counted them (~58 USD of a test run with 10 s samples).
   */
  sampleWhenFirstValued(at: number): void {
    if (this.#valued) return;
    const held = (this.#held ??= this.#valuable());
    // A holding no market of the run can ever value: the curve stays stale (as said), and no event pays for asking.
    if (held === 'never') {
      this.#valued = true;
      return;
    }
    for (let i = 0; i < held.length; i++) if (this.#value(held[i]![0], held[i]![1]) === undefined) return;
    this.sample(at);
  }

  /** The starting holdings that need a rate, or `never` when one of them has no market to take it from. */
  #valuable(): Array<[string, Decimal]> | 'never' {
    const out: Array<[string, Decimal]> = [];
    for (const [currency, amount] of Object.entries(this.#initial)) {
      if (amount.isZero() || currency === this.#valuation) continue;
      if (!this.#venue.feed(`${currency}-${this.#valuation}`) && !this.#venue.feed(`${this.#valuation}-${currency}`)) return 'never';
      out.push([currency, amount]);
    }
    return out;
  }

  /** The report; orders still open are refreshed from the engine. */
  build(run: Omit<ReportInput, 'orders' | 'fills' | 'equity' | 'prices' | 'denials' | 'initialBalances' | 'finalBalances' | 'valuationCurrency'>): ReportInput {
    // Orders still open are refreshed from the engine.
    const orders: ReportOrder[] = [];
    for (const [cid, f] of this.#orders) {
      if (!('order' in f)) orders.push(f);
      else orders.push(reportOrder(f.order.status === 'OPEN' ? this.#engine.getOrder(this.#venue.accountId, f.order.id) : f.order, f.strategy, cid, f.createdAt, this.#text));
    }
    const strings = (r: Record<string, Decimal>) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)).map(([c, v]) => [c, toWire8(v)]));
    return {
      ...run,
      valuationCurrency: this.#valuation,
      initialBalances: strings(this.#initial),
      finalBalances: strings(this.#totals()),
      orders,
      fills: this.#fills,
      equity: this.#equity,
      prices: this.#prices,
      denials: this.#denials,
    };
  }

  #executedAt(executionId: string): number | undefined {
    try {
      return this.#engine.execution(this.#venue.accountId, executionId).executedAt.getTime();
    } catch {
      return undefined;
    }
  }

  /**
   * `balances` valued at the current rates: the sum of those with a rate, and whether every non-zero one had one
   * (the account's equity is stale otherwise; the starting balances' hold value unknown).
   */
  #valueOf(balances: Record<string, Decimal>): { value: Decimal; complete: boolean } {
    let value = ZERO;
    let complete = true;
    for (const [currency, amount] of Object.entries(balances)) {
      const v = this.#value(currency, amount);
      if (v === undefined) complete = false;
      else value = value.plus(v);
    }
    return { value, complete };
  }

  #totals(): Record<string, Decimal> {
    const out: Record<string, Decimal> = {};
    for (const c of Object.keys(this.#initial)) out[c] = ZERO;
    for (const b of this.#engine.funds.balances(this.#venue.accountId).data) out[b.currencySymbol] = b.total;
    return out;
  }

  #value(currency: string, amount: Decimal): Decimal | undefined {
    if (currency === this.#valuation) return amount;
    if (amount.isZero()) return ZERO;
    const direct = this.#venue.feed(`${currency}-${this.#valuation}`) ? recordedMid(this.#venue, `${currency}-${this.#valuation}`) : undefined;
    if (direct) return amount.mul(direct);
    const inverse = this.#venue.feed(`${this.#valuation}-${currency}`) ? recordedMid(this.#venue, `${this.#valuation}-${currency}`) : undefined;
    if (inverse && !inverse.isZero()) return amount.div(inverse);
    return undefined;
  }
}

/** An order the report follows: its latest state, and when it was first heard of. */
interface Followed {
  order: Order;
  strategy: string | undefined;
  createdAt: number;
}

function reportOrder(o: Order, strategy: string | undefined, clientOrderId: string, createdAt: number, text: TextPool): ReportOrder {
  const open = o.status === 'OPEN';
  const complete = o.quantity !== undefined && o.fillQuantity.eq(o.quantity);
  // One literal with every member, an absent one undefined (report.json leaves those out, and sorts keys): the
  // line's fields all sit inside the object. Added one by one, ten of them went to a separate backing store
  // (~25 bytes more for each of the lines a long run keeps, measured).
  return {
    clientOrderId,
    id: o.id,
    strategy,
    marketSymbol: o.marketSymbol,
    direction: o.direction,
    type: o.type,
    quantity: o.quantity === undefined ? undefined : text.of(toWire8(o.quantity)),
    limit: o.limit === undefined ? undefined : text.of(toWire8(o.limit)),
    ceiling: o.ceiling === undefined ? undefined : text.of(toWire8(o.ceiling)),
    timeInForce: o.timeInForce,
    createdAt,
    closedAt: o.closedAt?.getTime(),
    outcome: open ? 'OPEN' : complete || (o.quantity === undefined && o.fillQuantity.gt(0)) ? 'CLOSED' : 'CANCELLED',
    fillQuantity: text.of(toWire8(o.fillQuantity)),
    proceeds: text.of(toWire8(o.proceeds)),
    commission: text.of(toWire8(o.commission)),
  };
}
