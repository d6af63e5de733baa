/**
 * Publishes the engine's events on the hub: each {@link SimEvent} becomes the seed's stream message on its
 * channel, with the sequence the engine numbered it with (the same counter the REST Sequence header reads).
 * Sub-account events go out twice: on the plain private channel (for a key acting as that sub-account) and on
 * `subaccounts_<stream>` (for the master managing it), as the seed's rule 2 describes.
 */
import type { SimEvent, SimEventBus } from '../sim/events.js';
import { toWire } from '../model/encode.js';
import type { Hub } from './hub/hub.js';

/** Which channel and message name each private event kind uses. */
const PRIVATE: Record<'balance' | 'order' | 'execution' | 'conditionalOrder' | 'deposit', string> = {
  balance: 'balance',
  order: 'order',
  execution: 'execution',
  conditionalOrder: 'conditional_order',
  deposit: 'deposit',
};

/** Start forwarding `bus` events to `hub`. Returns a function that stops it. */
export function bridgeEventsToHub(bus: SimEventBus, hub: Hub, isSubaccount: (accountId: string) => boolean): () => void {
  return bus.on((e) => publishEvent(hub, e, isSubaccount), () => hub.hasSubscriptions);
}

function publishEvent(hub: Hub, e: SimEvent, isSubaccount: (accountId: string) => boolean): void {
  // No subscription at all (a simulator driven over REST only): nothing to build, not even a channel name. The
  // engine emits a score of events per order, so this is most of what an unwatched simulator spends here.
  if (!hub.hasSubscriptions) return;
  // Wire form (decimals as 8-dp strings, dates ISO) built lazily: only when a connection will receive it.
  switch (e.kind) {
    case 'orderBook':
      hub.publish(`orderbook_${e.marketSymbol}_${e.depth}`, 'orderBook', () => wire({ marketSymbol: e.marketSymbol, depth: e.depth, sequence: e.sequence, bidDeltas: e.bidDeltas, askDeltas: e.askDeltas }));
      return;
    case 'trade':
      hub.publish(`trade_${e.marketSymbol}`, 'trade', () => wire({ sequence: e.sequence, marketSymbol: e.marketSymbol, deltas: e.deltas }));
      return;
    case 'ticker':
      hub.publish(`ticker_${e.delta.symbol}`, 'ticker', () => wire(e.delta));
      return;
    case 'tickers':
      hub.publish('tickers', 'tickers', () => wire({ sequence: e.sequence, deltas: e.deltas }));
      return;
    case 'marketSummary':
      hub.publish(`market_summary_${e.delta.symbol}`, 'marketSummary', () => wire(e.delta));
      return;
    case 'marketSummaries':
      hub.publish('market_summaries', 'marketSummaries', () => wire({ sequence: e.sequence, deltas: e.deltas }));
      return;
    case 'candle':
      // The stream carries TRADE candles only (its snapshot is .../candles/{interval}/recent, i.e. TRADE).
      if (e.candleType !== 'TRADE') return;
      hub.publish(`candle_${e.marketSymbol}_${e.interval}`, 'candle', () => wire({ sequence: e.sequence, marketSymbol: e.marketSymbol, interval: e.interval, delta: e.delta }));
      return;
    // Payload builders are passed inline (never named constants): the engine publishes every event, mostly to
    // nobody, and under tsx each named closure costs a defineProperty per event.
    case 'execution':
      publishPrivate(hub, PRIVATE.execution, 'execution', e, isSubaccount);
      return;
    case 'balance':
    case 'order':
    case 'conditionalOrder':
    case 'deposit':
      publishPrivate(hub, PRIVATE[e.kind], e.kind, e, isSubaccount);
      return;
  }
}

type PrivateEvent = Extract<SimEvent, { accountId: string }>;

function privatePayload(e: PrivateEvent): object {
  return e.kind === 'execution'
    ? wire({ accountId: e.accountId, sequence: e.sequence, deltas: e.deltas })
    : wire({ accountId: e.accountId, sequence: e.sequence, delta: e.delta });
}

function publishPrivate(hub: Hub, channel: string, name: string, e: PrivateEvent, isSubaccount: (id: string) => boolean): void {
  const accountId = e.accountId;
  if (!isSubaccount(accountId)) {
    hub.publish(channel, name, () => privatePayload(e), { accountId });
    return;
  }
  // Built once even when both channels have recipients.
  const cache: { built?: object } = {};
  hub.publish(channel, name, () => (cache.built ??= privatePayload(e)), { accountId });
  hub.publish(`subaccounts_${channel}`, name, () => (cache.built ??= privatePayload(e)), { accountId });
}

function wire(value: object): object {
  return toWire(value, 'fixed8') as object;
}
