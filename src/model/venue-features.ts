/**
 * What of the v3 interface a venue can do, in one table per venue: the single source of truth for three users
 * that must agree — the bot config refuses a strategy that declares a feature its venue lacks (runtime/
 * bot-plugins.ts), the gateway refuses it on the wire side with the same words (bittrex/v1/gateway), and the
 * gateway conformance suite runs every shared case the venue can express and reports the others as skipped with
 * the reason given here (test/conformance).
 *
 * A venue that declares nothing is the full v3 interface (the network gateway and the in-process simulator).
 */

/**
 * Order features beyond resting and immediate-or-cancel LIMIT orders, the ones a strategy declares it may use
 * (`uses` in defineStrategy) so a venue lacking one refuses the config at load.
 */
export const VENUE_FEATURES = ['marketOrders', 'ceilingOrders', 'conditionalOrders', 'fillOrKill', 'postOnly'] as const;
/** One of {@link VENUE_FEATURES}. */
export type VenueFeature = (typeof VENUE_FEATURES)[number];

/**
 * Everything a venue may lack: the order features, plus what a gateway answers that a strategy never declares
 * (candles, exchange-side client order ids, history paging, the exchange's own executions, sequences and times).
 */
export type VenueCapability =
  | VenueFeature
  /** GET /markets/{m}/candles and the candle channels. */
  | 'candles'
  /** clientOrderId kept by the exchange (queryable, refused when repeated, surviving a restart of the bot). */
  | 'exchangeClientOrderId'
  /** Closed orders paged by nextPageToken/previousPageToken and bounded by startDate/endDate. */
  | 'orderHistoryPaging'
  /** The exchange's own executions (ids, times, taker flag), listable at any time, not only those seen live. */
  | 'exchangeExecutions'
  /** REST snapshots and stream messages numbered by the exchange's stream sequences (the Sequence header). */
  | 'exchangeSequences'
  /** Orders carrying updatedAt (the time of their last change). */
  | 'orderUpdateTimes'
  /** Balances carrying the exchange's updatedAt. */
  | 'balanceUpdateTimes'
  /** Markets carrying their price precision, tags, terms of service and the countries they are prohibited in. */
  | 'marketDetails'
  /** Currencies carrying their tags and associated terms of service. */
  | 'currencyDetails';

/** A lacked capability: how it reads in a sentence, and why the venue cannot do it. */
export interface LackedCapability {
  /** Names the capability in a sentence: `MARKET orders`. */
  what: string;
  /** Why the venue lacks it, with the evidence (the seed section, the endpoint that has no such parameter). */
  why: string;
}

/** What a venue lacks (absent keys: it can do them). */
export type VenueLacks = Readonly<Partial<Record<VenueCapability, LackedCapability>>>;

/**
 * What the legacy v1.1 interface cannot express (seed 001 sections 2, 4, 6 and 9; the official v1.1 document):
 * it places LIMIT orders only, GOOD_TIL_CANCELLED or IMMEDIATE_OR_CANCEL (`/market/buylimit`, `/market/selllimit`
 * with `timeInForce` IOC or GTC), and its results carry fewer fields than v3's.
 */
export const V1_1_LACKS: VenueLacks = Object.freeze({
  marketOrders: { what: 'MARKET orders', why: 'v1.1 places LIMIT orders only (/market/buylimit and /market/selllimit)' },
  ceilingOrders: { what: 'ceiling orders', why: 'v1.1 places LIMIT orders only, by quantity (no ceiling parameter)' },
  conditionalOrders: {
    what: 'conditional orders (brackets, stops, trailing stops)',
    why: 'v1.1 places no conditional orders (IsConditional and Condition are read-only legacy flags; "conditional orders are separate in v3")',
  },
  fillOrKill: { what: 'FILL_OR_KILL orders', why: 'v1.1 timeInForce is IOC or GTC only ("FILL_OR_KILL added" in v3)' },
  postOnly: { what: 'post-only orders', why: 'v1.1 timeInForce is IOC or GTC only (no POST_ONLY_GOOD_TIL_CANCELLED)' },
  candles: { what: 'candles', why: 'v1.1 has no candle endpoint or callback (seed 001 sections 4 and 6)' },
  exchangeClientOrderId: {
    what: 'client order ids kept by the exchange',
    why: 'v1.1 orders have no clientOrderId: the gateway keeps the ids it placed, in this process only',
  },
  orderHistoryPaging: {
    what: 'closed-order paging by token and date range',
    why: '/account/getorderhistory takes a market filter only (seed 001 section 4)',
  },
  exchangeExecutions: {
    what: 'the exchange\'s executions',
    why: 'v1.1 reports an order\'s filled totals, never its fills: the gateway derives executions from the fills it sees, with its own ids and times, guessing the taker side',
  },
  exchangeSequences: {
    what: 'the exchange\'s stream sequences',
    why: 'v1.1 snapshots carry no Sequence and hub Nonces are per connection (seed 001 section 6): the gateway numbers its own',
  },
  orderUpdateTimes: { what: 'order update times', why: 'v1.1 REST orders carry Opened and Closed only (no Updated)' },
  balanceUpdateTimes: { what: 'balance update times', why: 'v1.1 REST balances carry no time (only uB deltas do)' },
  marketDetails: {
    what: 'market precision, tags, terms of service and prohibited countries',
    why: 'the v1.1 Market has no precision, tags or terms and IsRestricted is a flag, not a country list (seed 001 section 2): the gateway takes the precision from its config or the same engine\'s v3 markets, else the 8 decimals of the v1.1 wire',
  },
  currencyDetails: {
    what: 'currency tags and terms of service',
    why: 'the v1.1 Currency has neither (seed 001 section 2)',
  },
});

/**
 * The feature beyond resting and immediate-or-cancel LIMIT orders that an order of this type and time in force
 * needs, if any: what a venue lacking it refuses (the v1.1 gateway) and what `rexbot validate`'s rehearsal looks
 * for in the orders a strategy placed.
 *
 * @example
 * featureOfOrder({ type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL' }); // 'marketOrders'
 * featureOfOrder({ type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED' }); // undefined
 */
export function featureOfOrder(order: { type: string; timeInForce?: string | undefined }): VenueFeature | undefined {
  if (order.type === 'MARKET') return 'marketOrders';
  if (order.type === 'CEILING_LIMIT' || order.type === 'CEILING_MARKET') return 'ceilingOrders';
  if (order.timeInForce === 'FILL_OR_KILL') return 'fillOrKill';
  if (order.timeInForce === 'POST_ONLY_GOOD_TIL_CANCELLED') return 'postOnly';
  return undefined;
}

/** What a venue speaking `dialect` lacks: everything in {@link V1_1_LACKS} for v1.1, nothing for v3. */
export function venueLacks(dialect: 'v3' | 'v1'): VenueLacks {
  return dialect === 'v1' ? V1_1_LACKS : {};
}
