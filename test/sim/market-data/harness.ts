/** Shared set-up for the market data tests: a MarketData over the default catalog, a virtual clock and a recorder. */
import { randomUUID } from 'node:crypto';
import { type Decimal, dec } from '../../../src/core/decimal.js';
import type { Trade } from '../../../src/model/market.js';
import type { SimEvent, SimEventInterest } from '../../../src/sim/events.js';
import { MarketData, type MarketDataOptions } from '../../../src/sim/market-data/market-data.js';
import { START, simFoundations } from '../sim-fixture.js';

export { refusal } from '../sim-fixture.js';

/** 2021-06-14T00:00:00Z, a UTC midnight (so every interval starts here). */
export const T0 = START;
export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

export function setup(options: MarketDataOptions = {}, start = T0, interest?: SimEventInterest) {
  const { clock, bus, sequences, catalog, events } = simFoundations({}, start, interest);
  const md = new MarketData({ clock, bus, sequences, catalog }, options);
  /** Record one trade per [rate, quantity] at the clock's current time, as one taker order. */
  const trade = (market: string, ...fills: Array<[rate: string, qty: string]>): Trade[] => {
    const trades = fills.map(([rate, qty]) => mkTrade(clock.now(), dec(rate), dec(qty)));
    md.recordTrades(market, trades);
    return trades;
  };
  const of = <K extends SimEvent['kind']>(kind: K) => events.filter((e): e is Extract<SimEvent, { kind: K }> => e.kind === kind);
  return { clock, bus, sequences, catalog, md, events, trade, of };
}

export function mkTrade(at: number, rate: Decimal, quantity: Decimal, takerSide: 'BUY' | 'SELL' = 'BUY'): Trade {
  return { id: randomUUID(), executedAt: new Date(at), quantity, rate, takerSide };
}

/** Decimal fields as plain strings, for readable equality assertions. */
export function plain(o: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    out[k] = v instanceof Date ? v.toISOString() : typeof v === 'object' && v !== null && 'toFixed' in v ? String(v) : v;
  }
  return out;
}
