/**
 * The v1.1 hub over the simulator engine: the {@link V1HubBackend} answers in v1.1 terms, and
 * {@link bridgeEventsToV1Hub} turns the engine's v3 events into the hub's uE / uS / uL / uO / uB.
 *
 * v3 → v1.1 conversions the hub needs (seed 001, "Key field renames", read backwards):
 * - market `ETH-BTC` (base-quote) is `BTC-ETH` (quote-base);
 * - a trade's uuid gets a stable int FillId; takerSide is the fill's OrderType; executedAt its TimeStamp;
 * - a summary joins the v3 summary and ticker: bidRate/askRate/lastTradeRate → Bid/Ask/Last, quoteVolume →
 *   BaseVolume, volume → Volume, and PrevDay = Last / (1 + percentChange/100), the rate a day ago;
 * - an order's fillQuantity becomes QuantityRemaining = quantity − fillQuantity; proceeds → Price; commission →
 *   CommissionPaid; timeInForce IOC → ImmediateOrCancel; status CLOSED → Closed / IsOpen false; the uO Type is
 *   OPEN (nothing filled yet), PARTIAL (some filled, still open), FILL (closed fully filled) or CANCEL.
 * - Deprecated in v3 and sent as their neutral value: OpenBuyOrders/OpenSellOrders (the served book's level
 *   counts), CancelInitiated false, IsConditional false, Pending 0, AutoSell false.
 */
import { createHash } from 'node:crypto';
import { type Decimal, ZERO } from '../../core/decimal.js';
import type { Balance } from '../../model/wallet.js';
import type { MarketSummary, Ticker, Trade } from '../../model/market.js';
import type { Order } from '../../model/order.js';
import type { SimEngine } from '../../sim/engine.js';
import type { V1BalanceDeltaBalance, V1DeltaFill, V1OrderDelta, V1StateFill, V1SummaryDelta } from '../../wire/v1-hub/messages.js';
import { FillIds } from './market-deltas.js';
import type { V1Hub } from './v1-hub.js';
import type { V1ExchangeSnapshot, V1HubBackend } from './v1-hub-types.js';

/** Fills a QueryExchangeState result carries, as the original did. */
export const V1_STATE_FILLS = 100;

/** `ETH-BTC` → `BTC-ETH` (and back: the reversal is its own inverse). */
export function reverseMarketName(name: string): string {
  const i = name.indexOf('-');
  return i < 0 ? name : `${name.slice(i + 1)}-${name.slice(0, i)}`;
}

/** A small int that stands for an account uuid (uB's AccountId was an int on v1.1). */
function accountInt(accountId: string): number {
  return createHash('sha256').update(accountId).digest().readUInt32BE(0) & 0x7fffffff;
}

/** The backend plus the per-server state the bridge shares with it (fill ids). */
export interface V1EngineBackend extends V1HubBackend {
  readonly fillIds: FillIds;
  /** A v1.1 summary of one v3 market symbol. */
  summaryOf(symbol: string): V1SummaryDelta;
}

/**
 * Answer the v1.1 hub's questions from `engine`.
 *
 * @example
 * const v1 = new V1Hub({ backend: v1EngineBackend(engine) });
 */
export function v1EngineBackend(engine: SimEngine): V1EngineBackend {
  const fillIds = new FillIds();
  const accounts = engine.funds.accounts;
  const symbolOf = (v1Name: string): string | undefined => {
    const symbol = reverseMarketName(v1Name.toUpperCase());
    return engine.catalog.markets().some((m) => m.symbol === symbol) ? symbol : undefined;
  };
  const summaryOf = (symbol: string): V1SummaryDelta => {
    const created = engine.catalog.markets().find((m) => m.symbol === symbol)?.createdAt ?? new Date(0);
    const book = engine.orderBook(symbol, 500).data;
    return v1Summary(engine.summary(symbol), engine.ticker(symbol), created, book.bid.length, book.ask.length);
  };
  return {
    fillIds,
    summaryOf,
    findKey(apiKey) {
      const k = accounts.findKey(apiKey);
      return k ? { secret: k.secret, accountId: k.accountId } : undefined;
    },
    marketName(name) {
      const symbol = symbolOf(name);
      return symbol === undefined ? undefined : reverseMarketName(symbol);
    },
    exchangeState(marketName): V1ExchangeSnapshot {
      const symbol = reverseMarketName(marketName);
      const book = engine.orderBook(symbol, 500).data;
      const trades = engine.trades(symbol).data.slice(0, V1_STATE_FILLS);
      return {
        MarketName: marketName,
        Buys: book.bid.map((l) => ({ Quantity: l.quantity, Rate: l.rate })),
        Sells: book.ask.map((l) => ({ Quantity: l.quantity, Rate: l.rate })),
        Fills: trades.map((t) => stateFill(t, fillIds.of(t.id))),
      };
    },
    summaries() {
      return engine.catalog.markets().map((m) => summaryOf(m.symbol));
    },
  };
}

function stateFill(t: Trade, id: number): V1StateFill {
  return {
    Id: id,
    TimeStamp: t.executedAt,
    Quantity: t.quantity,
    Price: t.rate,
    Total: t.quantity.mul(t.rate),
    FillType: 'FILL',
    OrderType: t.takerSide,
    Uuid: t.id,
  };
}

/** A v3 trade as a uE fill. */
export function deltaFill(t: Trade, fillId: number): V1DeltaFill {
  return { FillId: fillId, OrderType: t.takerSide, Rate: t.rate, Quantity: t.quantity, TimeStamp: t.executedAt };
}

/** A v3 summary and ticker as one v1.1 summary. */
export function v1Summary(s: MarketSummary, t: Ticker, created: Date, openBuys: number, openSells: number): V1SummaryDelta {
  const last = t.lastTradeRate;
  const pct = s.percentChange;
  const prevDay: Decimal = pct === undefined || pct.lte(-100) ? last : last.div(pct.div(100).add(1)).toDecimalPlaces(8);
  return {
    MarketName: reverseMarketName(s.symbol),
    High: s.high,
    Low: s.low,
    Volume: s.volume,
    Last: last,
    BaseVolume: s.quoteVolume,
    TimeStamp: s.updatedAt,
    Bid: t.bidRate,
    Ask: t.askRate,
    OpenBuyOrders: openBuys,
    OpenSellOrders: openSells,
    PrevDay: prevDay,
    Created: created,
  };
}

/** A v3 order change as a uO message (without its per-connection nonce). */
export function v1OrderDelta(accountId: string, o: Order): Omit<V1OrderDelta, 'Nonce'> {
  const quantity = o.quantity ?? ZERO;
  const closed = o.status === 'CLOSED';
  const filled = o.fillQuantity;
  const type = !closed ? (filled.isZero() ? 0 : 1) : filled.gte(quantity) && !quantity.isZero() ? 2 : 3;
  const order: V1OrderDelta['Order'] = {
    Uuid: o.id,
    OrderUuid: o.id,
    Id: accountInt(o.id),
    Exchange: reverseMarketName(o.marketSymbol),
    OrderType: `LIMIT_${o.direction}`,
    Quantity: quantity,
    QuantityRemaining: quantity.sub(filled),
    Limit: o.limit ?? ZERO,
    CommissionPaid: o.commission,
    Price: o.proceeds,
    Opened: o.createdAt,
    IsOpen: !closed,
    CancelInitiated: false,
    ImmediateOrCancel: o.timeInForce === 'IMMEDIATE_OR_CANCEL' || o.timeInForce === 'FILL_OR_KILL',
    IsConditional: false,
    Updated: o.updatedAt ?? o.closedAt ?? o.createdAt,
  };
  if (!filled.isZero()) order.PricePerUnit = o.proceeds.div(filled).toDecimalPlaces(8);
  if (o.closedAt) order.Closed = o.closedAt;
  return { AccountUuid: accountId, Type: type, Order: order };
}

/** A v3 balance change as a uB balance. */
export function v1BalanceDelta(accountId: string, b: Balance): V1BalanceDeltaBalance {
  return {
    Uuid: accountId,
    AccountId: accountInt(accountId),
    Currency: b.currencySymbol,
    Balance: b.total,
    Available: b.available,
    Pending: ZERO,
    Requested: false,
    Updated: b.updatedAt,
    AutoSell: false,
  };
}

/**
 * Forward the engine's events to the v1.1 hub. Returns a function that stops it.
 *
 * @example
 * const stop = bridgeEventsToV1Hub(engine, v1, backend);
 */
export function bridgeEventsToV1Hub(engine: SimEngine, hub: V1Hub, backend: V1EngineBackend): () => void {
  return engine.bus.on((e) => {
    switch (e.kind) {
      case 'orderBook': {
        // The served book is the depth-500 view; its deltas are what a full-book v1.1 client needs.
        if (e.depth !== 500) return;
        const name = reverseMarketName(e.marketSymbol);
        for (const d of e.bidDeltas) hub.levelChanged(name, 'buy', d.rate, d.quantity);
        for (const d of e.askDeltas) hub.levelChanged(name, 'sell', d.rate, d.quantity);
        return;
      }
      case 'trade': {
        const name = reverseMarketName(e.marketSymbol);
        for (const t of e.deltas) hub.filled(name, deltaFill(t, backend.fillIds.of(t.id)));
        return;
      }
      case 'marketSummaries':
        hub.summariesChanged(e.deltas.map((s) => backend.summaryOf(s.symbol)));
        return;
      case 'order':
        hub.orderChanged(e.accountId, v1OrderDelta(e.accountId, e.delta));
        return;
      case 'balance':
        hub.balanceChanged(e.accountId, v1BalanceDelta(e.accountId, e.delta));
        return;
      default:
        return;
    }
  });
}
