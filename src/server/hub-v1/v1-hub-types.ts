/**
 * What the simulator's v1.1 hub (`c2`) needs from the exchange, in v1.1 terms: markets by their v1.1 name
 * (`BTC-ETH`, quote first), books and fills as the QueryExchangeState result carries them, summaries as uS
 * carries them. The adapter over the engine (v1-engine-backend.ts) does the v3 → v1.1 conversion through the
 * mapping; the hub itself knows neither the engine nor v3.
 */
import type { V1BookLevel, V1StateFill, V1SummaryDelta } from '../../wire/v1/hub/messages.js';

/** A market's book and recent fills, without the nonce (the hub numbers it per connection). */
export interface V1ExchangeSnapshot {
  MarketName: string;
  /** Best (highest) first. */
  Buys: V1BookLevel[];
  /** Best (lowest) first. */
  Sells: V1BookLevel[];
  /** Newest first. */
  Fills: V1StateFill[];
}

/** The exchange as the v1.1 hub sees it. */
export interface V1HubBackend {
  /** Look up an API key: its secret and the account it acts for; undefined when unknown. */
  findKey(apiKey: string): { secret: string; accountId: string } | undefined;
  /** Canonical v1.1 name of a market (`btc-eth` → `BTC-ETH`), or undefined when no such market exists. */
  marketName(name: string): string | undefined;
  /** Book and recent fills of an existing market (by canonical v1.1 name). */
  exchangeState(marketName: string): V1ExchangeSnapshot;
  /** Every market's summary. */
  summaries(): V1SummaryDelta[];
  /** The summaries' sequence now: the nonce QuerySummaryState answers with, and the last uS was numbered. */
  summariesNonce(): number;
}
