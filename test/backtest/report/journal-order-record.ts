/** A journal's `order` record for the journal report tests: a GOOD_TIL_CANCELLED LIMIT order of strategy `mm`. */
import { dec } from '../../../src/core/decimal.js';
import type { JournalRecord } from '../../../src/orders/journal-records.js';

/** The `order` record of client order `cid` placed at `at`, under intent key `k-<cid>`. */
export const orderRecord = (at: number, cid: string, direction: 'BUY' | 'SELL', quantity: string, limit = '100', market = 'BTC-USD'): JournalRecord => ({
  t: 'order',
  at,
  clientOrderId: cid,
  strategy: 'mm',
  intentKey: `k-${cid}`,
  role: 'order',
  order: { marketSymbol: market, direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec(quantity), limit: dec(limit), clientOrderId: cid },
});
