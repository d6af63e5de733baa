/**
 * What `rexbot validate`'s rehearsal learns from the order events of its strategies, beyond their failures: intents
 * the order manager denied as malformed (a quantity given as a number, not a Decimal), which a run would deny one
 * by one while the strategy went on; and orders the bot's venue cannot place (a MARKET order on the v1.1
 * interface) from a strategy that did not declare them in `uses`, which the rehearsal's simulator accepts but a run
 * on that venue would see refused, one by one. Both are the plugin's mistakes, found before trading. It also counts
 * the orders the risk engine denied, by reason, so that a rehearsal whose every order was denied (an account with
 * nothing to trade) does not pass as a strategy that traded.
 */
import type { Observable, Subscription } from 'rxjs';
import { featureOfOrder, type VenueCapability, type VenueLacks } from '../model/venue-features.js';
import type { OrderEvent } from '../orders/order-events.js';

/** Intents of one strategy the order manager denied as malformed (INVALID_INTENT). */
export interface InvalidIntents {
  count: number;
  /** The first one's intent key. */
  key: string;
  /** The first one's reason: the field and what was wrong with it. */
  reason: string;
}

/** Orders of one strategy needing what the venue lacks. */
export interface UnsupportedOrders {
  count: number;
  /** The first one's intent key. */
  key: string;
  /** What it needed, in a sentence (`MARKET orders`), and why the venue cannot do it. */
  what: string;
  why: string;
  /** The `uses` entry that declares it (`marketOrders`). */
  feature: VenueCapability;
}

/** Orders of one strategy the risk engine denied (INVALID_INTENT aside: see {@link InvalidIntents}). */
export interface RiskDenials {
  count: number;
  /** How many denials named each reason code (a denial may name several), in the order first met. */
  codes: Map<string, number>;
}

/** The findings per strategy name, filled while the events flow. */
export interface RehearsalFindings {
  readonly invalidIntents: ReadonlyMap<string, InvalidIntents>;
  readonly unsupportedOrders: ReadonlyMap<string, UnsupportedOrders>;
  readonly riskDenials: ReadonlyMap<string, RiskDenials>;
  /** Stop watching. */
  stop(): void;
}

/**
 * Watch `events$` (the kernel's order events) against what the venue `lacks`.
 *
 * @example
 * const findings = watchRehearsal(kernel.orders.events$, venueLacks('v1'));
 * // ... rehearse ...
 * findings.stop();
 * findings.unsupportedOrders.get('cross'); // { count: 3, key: 'x:BTC-USD:6', what: 'MARKET orders', ... }
 */
export function watchRehearsal(events$: Observable<OrderEvent>, lacks: VenueLacks): RehearsalFindings {
  const invalidIntents = new Map<string, InvalidIntents>();
  const unsupportedOrders = new Map<string, UnsupportedOrders>();
  const riskDenials = new Map<string, RiskDenials>();
  const conditionals = new Set<string>();
  const unsupported = (strategy: string, key: string, feature: VenueCapability | undefined): void => {
    const lacked = feature === undefined ? undefined : lacks[feature];
    if (feature === undefined || lacked === undefined) return;
    const seen = unsupportedOrders.get(strategy);
    if (seen) seen.count++;
    else unsupportedOrders.set(strategy, { count: 1, key, what: lacked.what, why: lacked.why, feature });
  };
  const sub: Subscription = events$.subscribe((e) => {
    if (e.type === 'accepted') unsupported(e.strategy, e.intentKey, featureOfOrder(e.order));
    else if (e.type === 'conditional') {
      // One event per change of a conditional order: count each order once.
      if (conditionals.has(e.conditionalOrder.id)) return;
      conditionals.add(e.conditionalOrder.id);
      unsupported(e.strategy, e.intentKey, 'conditionalOrders');
    }
    else if (e.type === 'denied') {
      const bad = e.reasons.find((r) => r.code === 'INVALID_INTENT');
      if (!bad) {
        let d = riskDenials.get(e.strategy);
        if (!d) riskDenials.set(e.strategy, (d = { count: 0, codes: new Map() }));
        d.count++;
        for (const code of new Set(e.reasons.map((r) => r.code))) d.codes.set(code, (d.codes.get(code) ?? 0) + 1);
        return;
      }
      const seen = invalidIntents.get(e.strategy);
      if (seen) seen.count++;
      else invalidIntents.set(e.strategy, { count: 1, key: e.intentKey, reason: withoutStrategyPrefix(bad.message, e.strategy) });
    }
  });
  return { invalidIntents, unsupportedOrders, riskDenials, stop: () => sub.unsubscribe() };
}

/** The order manager's reasons begin `strategy 'name': `; the rehearsal's report names the strategy itself. */
function withoutStrategyPrefix(message: string, strategy: string): string {
  const prefix = `strategy '${strategy}': `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}
