/**
 * The v1.1 hub over the simulator engine: the {@link V1HubBackend} answers in v1.1 terms, and
 * {@link bridgeEventsToV1Hub} turns the engine's v3 events into the hub's uE / uS / uL / uO / uB.
 *
 * The v3 → v1.1 conversions are the shared mapping's (wire/v1/mapping: names reversed, summaries, trades,
 * orders, balances); what only the hub has is added here:
 * - fills get stable int ids (v1.1 `FillId`/`Id`) per server, so a snapshot's fills and later uE fills agree;
 * - uO's Type: OPEN (open, nothing filled), PARTIAL (open, some filled), FILL (closed fully filled), CANCEL;
 *   and its Id (an int) and IsOpen / Updated, which the REST order has not;
 * - uB's AccountId is an int on v1.1 (a uuid in v3): a stable hash of the account id.
 */
import { createHash } from 'node:crypto';
import { ZERO } from '../../core/decimal.js';
import type { Balance } from '../../model/wallet.js';
import type { Trade } from '../../model/market.js';
import type { Order } from '../../model/order.js';
import type { SimEngine } from '../../sim/engine.js';
import type { SimEvent } from '../../sim/events.js';
import { seqKey } from '../../sim/sequences.js';
import { balanceToV1, orderToV1, summaryToV1, tradeToV1 } from '../../wire/v1/mapping/index.js';
import { symbolToV1Market, v1MarketToSymbol } from '../../wire/v1/market-name.js';
import type { V1BalanceDeltaBalance, V1DeltaFill, V1OrderDelta, V1StateFill, V1SummaryDelta } from '../../wire/v1/hub/messages.js';
import { NumericIds } from '../v1/numeric-ids.js';
import type { V1Hub } from './v1-hub.js';
import type { V1ExchangeSnapshot, V1HubBackend } from './v1-hub-types.js';

/** Fills a QueryExchangeState result carries, as the original did. */
export const V1_STATE_FILLS = 100;

/** A stable non-negative int standing for a uuid (v1.1 numbered what v3 identifies by uuid). */
function intOf(uuid: string): number {
  return createHash('sha256').update(uuid).digest().readUInt32BE(0) & 0x7fffffff;
}

/** The backend plus the per-server state the bridge shares with it (fill ids). */
export interface V1EngineBackend extends V1HubBackend {
  /** Int fill ids (v1.1 `FillId`/`Id`) of trade uuids, so a snapshot's fills and later uE fills agree. */
  readonly fillIds: NumericIds;
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
  // Old trades are never asked for again once they left every market's recent list.
  const fillIds = new NumericIds(50_000);
  const accounts = engine.funds.accounts;
  const summaryOf = (symbol: string): V1SummaryDelta => {
    const created = engine.catalog.markets().find((m) => m.symbol === symbol)?.createdAt ?? new Date(0);
    const book = engine.orderBook(symbol, 500).data;
    const s = summaryToV1(engine.summary(symbol), engine.ticker(symbol), { created, openBuyOrders: book.bid.length, openSellOrders: book.ask.length });
    // The REST form allows nulls (markets that never traded); the hub's always carried numbers.
    return {
      MarketName: s.MarketName,
      High: s.High ?? ZERO,
      Low: s.Low ?? ZERO,
      Volume: s.Volume ?? ZERO,
      Last: s.Last ?? ZERO,
      BaseVolume: s.BaseVolume ?? ZERO,
      TimeStamp: s.TimeStamp,
      Bid: s.Bid ?? ZERO,
      Ask: s.Ask ?? ZERO,
      OpenBuyOrders: s.OpenBuyOrders ?? 0,
      OpenSellOrders: s.OpenSellOrders ?? 0,
      PrevDay: s.PrevDay ?? ZERO,
      Created: s.Created ?? created,
    };
  };
  return {
    fillIds,
    summaryOf,
    findKey(apiKey) {
      const k = accounts.findKey(apiKey);
      return k ? { secret: k.secret, accountId: k.accountId } : undefined;
    },
    marketName(name) {
      const symbol = v1MarketToSymbol(name);
      return symbol !== undefined && engine.catalog.markets().some((m) => m.symbol === symbol) ? symbolToV1Market(symbol) : undefined;
    },
    exchangeState(marketName): V1ExchangeSnapshot {
      const symbol = v1MarketToSymbol(marketName) as string;
      const book = engine.orderBook(symbol, 500).data;
      const trades = engine.trades(symbol).data.slice(0, V1_STATE_FILLS);
      // Trades of a market nobody followed yet were not numbered (see the bridge): numbered now oldest first,
      // so ids still grow with time within the market, as the ones numbered while it is followed do.
      for (let i = trades.length - 1; i >= 0; i--) fillIds.idOf(trades[i]!.id);
      return {
        MarketName: marketName,
        Buys: book.bid.map((l) => ({ Quantity: l.quantity, Rate: l.rate })),
        Sells: book.ask.map((l) => ({ Quantity: l.quantity, Rate: l.rate })),
        Fills: trades.map((t) => stateFill(t, fillIds.idOf(t.id))),
      };
    },
    summaries() {
      return engine.catalog.markets().map((m) => summaryOf(m.symbol));
    },
    summariesNonce() {
      return engine.sequence(seqKey.summaries());
    },
  };
}

function stateFill(t: Trade, id: number): V1StateFill {
  const h = tradeToV1(t, id);
  return { Id: h.Id, TimeStamp: h.TimeStamp, Quantity: h.Quantity, Price: h.Price, Total: h.Total, FillType: h.FillType, OrderType: h.OrderType, Uuid: t.id };
}

/** A v3 trade as a uE fill. */
export function deltaFill(t: Trade, fillId: number): V1DeltaFill {
  return { FillId: fillId, OrderType: t.takerSide, Rate: t.rate, Quantity: t.quantity, TimeStamp: t.executedAt };
}

/** A v3 order change as a uO message (without its per-connection nonce). */
export function v1OrderDelta(accountId: string, o: Order): Omit<V1OrderDelta, 'Nonce'> {
  const v = orderToV1(o);
  const closed = o.status === 'CLOSED';
  const filled = o.fillQuantity;
  const type = !closed ? (filled.isZero() ? 0 : 1) : v.QuantityRemaining.isZero() && !filled.isZero() ? 2 : 3;
  const order: V1OrderDelta['Order'] = {
    Uuid: o.id,
    OrderUuid: v.OrderUuid,
    Id: intOf(o.id),
    Exchange: v.Exchange,
    OrderType: v.OrderType,
    Quantity: v.Quantity,
    QuantityRemaining: v.QuantityRemaining,
    Limit: v.Limit ?? v.Price,
    CommissionPaid: v.CommissionPaid,
    Price: v.Price,
    Opened: v.Opened,
    IsOpen: !closed,
    CancelInitiated: v.CancelInitiated,
    ImmediateOrCancel: v.ImmediateOrCancel,
    IsConditional: v.IsConditional,
    Condition: 'NONE',
    Updated: o.updatedAt ?? o.closedAt ?? o.createdAt,
  };
  if (v.PricePerUnit !== null) order.PricePerUnit = v.PricePerUnit;
  if (v.Closed !== null) order.Closed = v.Closed;
  return { AccountUuid: accountId, Type: type, Order: order };
}

/** A v3 balance change as a uB balance. */
export function v1BalanceDelta(accountId: string, b: Balance): V1BalanceDeltaBalance {
  const v = balanceToV1(b);
  return {
    Uuid: accountId,
    AccountId: intOf(accountId),
    Currency: v.Currency,
    Balance: v.Balance,
    Available: v.Available,
    Pending: v.Pending ?? ZERO,
    Requested: v.Requested ?? false,
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
  // v1.1 names of v3 symbols, remembered: every book change and trade needs one (a regex and two strings each).
  const names = new Map<string, string>();
  const v1Name = (symbol: string): string => {
    let name = names.get(symbol);
    if (name === undefined) names.set(symbol, (name = symbolToV1Market(symbol)));
    return name;
  };
  // What this bridge acts on: summary events while a connection wants uS or uL (the engine then builds them;
  // their nonce is the engine's summaries sequence, which moves on whether or not anyone listens), book and trade
  // events once the hub follows a market (it keeps per-market state from then on), account deltas only while a
  // connection is open.
  const interest = (kind: SimEvent['kind']): boolean =>
    (kind === 'marketSummaries' && hub.wantsSummaries) ||
    ((kind === 'orderBook' || kind === 'trade') && hub.followsMarkets) ||
    ((kind === 'order' || kind === 'balance') && hub.hasConnections);
  return engine.bus.on((e) => {
    switch (e.kind) {
      case 'orderBook': {
        // The served book is the depth-500 view; its deltas are what a full-book v1.1 client needs.
        if (e.depth !== 500) return;
        const name = v1Name(e.marketSymbol);
        for (const d of e.bidDeltas) hub.levelChanged(name, 'buy', d.rate, d.quantity);
        for (const d of e.askDeltas) hub.levelChanged(name, 'sell', d.rate, d.quantity);
        return;
      }
      case 'trade': {
        const name = v1Name(e.marketSymbol);
        // A market nobody follows gets no fill id yet: the snapshot that starts following it numbers its trades.
        if (!hub.follows(name)) return;
        for (const t of e.deltas) hub.filled(name, deltaFill(t, backend.fillIds.idOf(t.id)));
        return;
      }
      // Built only when a connection will receive them: nobody may be listening, and these read the book or hash.
      case 'marketSummaries':
        if (e.deltas.length > 0) hub.summariesChanged(e.sequence, () => e.deltas.map((s) => backend.summaryOf(s.symbol)));
        return;
      case 'order':
        hub.orderChanged(e.accountId, () => v1OrderDelta(e.accountId, e.delta));
        return;
      case 'balance':
        hub.balanceChanged(e.accountId, () => v1BalanceDelta(e.accountId, e.delta));
        return;
      default:
        return;
    }
  }, interest);
}
