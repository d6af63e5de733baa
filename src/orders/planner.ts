/**
 * The planner: turns one {@link Intent} into concrete steps given what the manager currently follows. Pure and
 * synchronous — it reads the view, decides, and leaves sending (and risk) to the order manager:
 *
 * - place → cancels of the key's previous live orders (a re-emitted key REPLACES its wish) + one NewOrder;
 * - cancel / cancelAll → cancels of this strategy's orders and conditional orders (never through risk);
 * - quotes → the minimal ladder difference ({@link diffLadder}) as one batch; deferred while the key still has
 *   requests without an answer, so two ladders never race;
 * - bracket → the entry (the OCO legs follow its fill, see planner-bracket.ts);
 * - trailingStop → one conditional order with trailingStopPercent (replacing the key's previous one);
 * - targetPosition → one IOC LIMIT for the difference, priced at mid ± maxSlippage; deferred while the key's
 *   previous order is still live, since its fills change the difference.
 */
import { type Decimal, dec } from '../core/decimal.js';
import type { Intent, OrderSpec, ProposedOrder, QuotesIntent } from '../model/intent.js';
import type { Market } from '../model/market.js';
import type { InFlightConditional } from './in-flight-conditional.js';
import type { InFlightOrder } from './in-flight.js';
import type { InFlightFilter } from './in-flight-registry.js';
import type { BracketLegs, OrderRole } from './journal-records.js';
import { diffLadder, type LadderLevel, type RestingQuote } from './planner-quotes.js';
import { propose, reducesPosition, roundRate, stopOperand, type ConditionalTrigger } from './planner-orders.js';

/** What the planner reads. */
export interface PlannerView {
  market(symbol: string): Market | undefined;
  /** Mid of the synchronized book, if any. */
  mid(symbol: string): Decimal | undefined;
  /** The strategy's position in the market's base currency (long > 0). */
  position(marketSymbol: string, strategy: string): Decimal;
  liveOrders(filter: InFlightFilter): InFlightOrder[];
  liveConditionals(filter: InFlightFilter): InFlightConditional[];
  orderById(orderId: string): InFlightOrder | undefined;
}

/** One order to place, before risk. */
export interface PlannedOrder {
  proposal: ProposedOrder;
  role: OrderRole;
  bracket?: BracketLegs | undefined;
}

/** One conditional order to place, before risk (risk sees its orderToCreate). */
export interface PlannedConditional {
  proposal: ProposedOrder;
  role: OrderRole;
  trigger: ConditionalTrigger;
}

/** A concrete step. */
export type PlanStep =
  | { kind: 'cancel'; orders: InFlightOrder[]; conditionals: InFlightConditional[] }
  | { kind: 'place'; order: PlannedOrder }
  | { kind: 'conditional'; conditional: PlannedConditional }
  | { kind: 'batch'; cancels: InFlightOrder[]; places: PlannedOrder[] };

/** The planner's answer for one intent. */
export type Plan =
  | { kind: 'steps'; steps: PlanStep[] }
  /** The key is busy; run the intent again when its pending requests are answered. */
  | { kind: 'defer' }
  /** Nothing can be done with it; `code` is stable (metrics, strategy logic). */
  | { kind: 'reject'; code: string; message: string };

/** Slippage used by targetPosition when the intent names none (0.5 %). */
export const DEFAULT_MAX_SLIPPAGE = dec('0.005');

/**
 * Plan an intent.
 *
 * @example
 * const plan = planIntent('mm', { kind: 'quotes', key: 'l', marketSymbol: 'BTC-USD', bids, asks }, view);
 * if (plan.kind === 'steps') for (const s of plan.steps) execute(s);
 */
export function planIntent(strategy: string, intent: Intent, view: PlannerView): Plan {
  switch (intent.kind) {
    case 'place': {
      const market = view.market(intent.order.marketSymbol);
      if (!market) return unknownMarket(intent.order.marketSymbol);
      const previous = view.liveOrders({ strategy, intentKey: intent.key });
      const position = view.position(intent.order.marketSymbol, strategy);
      return steps(cancelStep(previous, []), { kind: 'place', order: { proposal: propose(intent.order, strategy, intent.key, position), role: 'order' } });
    }
    case 'cancel': {
      if (intent.orderId !== undefined) {
        const o = view.orderById(intent.orderId);
        if (!o || o.strategy !== strategy || o.isFinal) {
          return { kind: 'reject', code: 'UNKNOWN_ORDER', message: `no live order ${intent.orderId} of strategy ${strategy}` };
        }
        return steps(cancelStep([o], []));
      }
      if (intent.targetKey === undefined) return { kind: 'reject', code: 'INVALID_INTENT', message: 'cancel needs targetKey or orderId' };
      const filter = { strategy, intentKey: intent.targetKey };
      return steps(cancelStep(view.liveOrders(filter), view.liveConditionals(filter)));
    }
    case 'cancelAll': {
      const filter = { strategy, marketSymbol: intent.marketSymbol };
      return steps(cancelStep(view.liveOrders(filter), view.liveConditionals(filter)));
    }
    case 'quotes':
      return planQuotes(strategy, intent, view);
    case 'bracket': {
      const market = view.market(intent.entry.marketSymbol);
      if (!market) return unknownMarket(intent.entry.marketSymbol);
      const long = intent.entry.direction === 'BUY';
      const sane = long ? intent.stopLoss.lt(intent.takeProfit) : intent.stopLoss.gt(intent.takeProfit);
      if (!sane) {
        return { kind: 'reject', code: 'INVALID_INTENT', message: `bracket ${intent.key}: stopLoss must be on the losing side of takeProfit` };
      }
      // Replacing a bracket withdraws an entry that has not traded yet; legs protecting a filled entry stay.
      const previous = view.liveOrders({ strategy, intentKey: intent.key }).filter((o) => o.role === 'entry' && !o.order?.fillQuantity.gt(0));
      const position = view.position(intent.entry.marketSymbol, strategy);
      return steps(cancelStep(previous, []), {
        kind: 'place',
        order: {
          proposal: propose(intent.entry, strategy, intent.key, position),
          role: 'entry',
          bracket: { takeProfit: intent.takeProfit, stopLoss: intent.stopLoss },
        },
      });
    }
    case 'trailingStop': {
      if (!view.market(intent.marketSymbol)) return unknownMarket(intent.marketSymbol);
      if (!intent.trailingStopPercent.gt(0)) return { kind: 'reject', code: 'INVALID_INTENT', message: 'trailingStopPercent must be > 0' };
      const previous = view.liveConditionals({ strategy, intentKey: intent.key });
      const spec: OrderSpec = {
        marketSymbol: intent.marketSymbol,
        direction: intent.direction,
        type: 'MARKET',
        timeInForce: 'IMMEDIATE_OR_CANCEL',
        quantity: intent.quantity,
      };
      const position = view.position(intent.marketSymbol, strategy);
      return steps(cancelStep([], previous), {
        kind: 'conditional',
        conditional: {
          proposal: propose(spec, strategy, intent.key, position),
          role: 'trailingStop',
          trigger: { operand: stopOperand(intent.direction), trailingStopPercent: intent.trailingStopPercent },
        },
      });
    }
    case 'targetPosition': {
      const market = view.market(intent.marketSymbol);
      if (!market) return unknownMarket(intent.marketSymbol);
      if (view.liveOrders({ strategy, intentKey: intent.key }).length > 0) return { kind: 'defer' };
      const position = view.position(intent.marketSymbol, strategy);
      const diff = intent.position.sub(position);
      if (diff.abs().lt(market.minTradeSize) || diff.isZero()) return steps();
      const mid = view.mid(intent.marketSymbol);
      if (!mid) return { kind: 'reject', code: 'NO_MID_PRICE', message: `no synchronized mid for ${intent.marketSymbol}` };
      const slippage = intent.maxSlippage ?? DEFAULT_MAX_SLIPPAGE;
      const direction = diff.gt(0) ? 'BUY' : 'SELL';
      const limit = roundRate(direction === 'BUY' ? mid.mul(slippage.add(1)) : mid.mul(dec(1).sub(slippage)), market.precision, direction);
      const quantity = diff.abs();
      const proposal: ProposedOrder = {
        marketSymbol: intent.marketSymbol,
        direction,
        type: 'LIMIT',
        timeInForce: 'IMMEDIATE_OR_CANCEL',
        quantity,
        limit,
        strategy,
        intentKey: intent.key,
        reducesPosition: reducesPosition(direction, quantity, position),
      };
      return steps({ kind: 'place', order: { proposal, role: 'target' } });
    }
  }
}

function planQuotes(strategy: string, intent: QuotesIntent, view: PlannerView): Plan {
  const market = view.market(intent.marketSymbol);
  if (!market) return unknownMarket(intent.marketSymbol);
  const live = view.liveOrders({ strategy, intentKey: intent.key });
  // An unanswered placement or cancel means the resting set is not known yet: wait for it.
  // A loop rather than live.some(...): no closure per intent (a throttled market maker plans one per window).
  for (const o of live) if (o.isUnacknowledged || o.state === 'CANCEL_PENDING') return { kind: 'defer' };
  const desired: LadderLevel[] = [];
  for (const q of intent.bids) desired.push({ direction: 'BUY', rate: roundRate(q.rate, market.precision, 'BUY'), quantity: q.quantity });
  for (const q of intent.asks) desired.push({ direction: 'SELL', rate: roundRate(q.rate, market.precision, 'SELL'), quantity: q.quantity });
  const resting: RestingQuote<InFlightOrder>[] = [];
  const stray: InFlightOrder[] = [];
  for (const o of live) {
    const rate = o.order?.limit ?? o.request?.limit;
    const remaining = o.remaining;
    if (o.marketSymbol !== intent.marketSymbol || rate === undefined || remaining === undefined) stray.push(o);
    else resting.push({ direction: o.direction, rate, quantity: remaining, ref: o });
  }
  const diff = diffLadder(resting, desired);
  const position = view.position(intent.marketSymbol, strategy);
  // The proposal written out: what propose() makes of this spec, key for key, without copying a spec per level.
  // A loop into a literal, not map(): see ORDER_LISTS in order-lists.ts.
  const places: PlannedOrder[] = [];
  for (const l of diff.place) {
    places.push({
      role: 'quote',
      proposal: {
        marketSymbol: intent.marketSymbol,
        direction: l.direction,
        type: 'LIMIT',
        timeInForce: 'GOOD_TIL_CANCELLED',
        quantity: l.quantity,
        limit: l.rate,
        strategy,
        intentKey: intent.key,
        reducesPosition: reducesPosition(l.direction, l.quantity, position),
      },
    });
  }
  // Strays first, then the ladder's cancels: one array rather than a spread of two.
  const cancels = stray;
  for (const c of diff.cancel) cancels.push(c.ref);
  if (cancels.length === 0 && places.length === 0) return { kind: 'steps', steps: [] };
  return { kind: 'steps', steps: [{ kind: 'batch', cancels, places }] };
}

function steps(...list: (PlanStep | undefined)[]): Plan {
  return { kind: 'steps', steps: list.filter((s): s is PlanStep => s !== undefined) };
}

function cancelStep(orders: InFlightOrder[], conditionals: InFlightConditional[]): PlanStep | undefined {
  return orders.length === 0 && conditionals.length === 0 ? undefined : { kind: 'cancel', orders, conditionals };
}

function unknownMarket(symbol: string): Plan {
  return { kind: 'reject', code: 'MARKET_DOES_NOT_EXIST', message: `unknown market ${symbol}` };
}
