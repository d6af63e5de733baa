/**
 * One placement is one moment: the order's times, its executions' and the `updatedAt` of every balance it
 * changes (both accounts, both currencies) are the time trading read once for the operation — the ledger is told
 * that time instead of reading the clock per balance (trading.ts, ledger.ts). A clock that moves on at every read
 * would show any second read.
 */
import { describe, expect, it } from 'vitest';
import { type Clock, VirtualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { createSimEngine } from '../../../src/sim/engine.js';
import { START } from '../sim-fixture.js';

/** A virtual clock whose time moves on by one millisecond at every read. */
function tickingClock(): Clock {
  const base = new VirtualClock(START);
  let reads = 0;
  return {
    now: () => base.now() + reads++,
    setTimeout: (fn, ms) => base.setTimeout(fn, ms),
    setInterval: (fn, ms) => base.setInterval(fn, ms),
    sleep: (ms) => base.sleep(ms),
  };
}

describe('the time of an operation', () => {
  for (const [makerSide, takerSide] of [['SELL', 'BUY'], ['BUY', 'SELL']] as const) {
    it(`stamps the order, its executions and every balance it changed alike (taker ${takerSide})`, () => {
      const engine = createSimEngine({ clock: tickingClock() });
      const maker = engine.createParticipant({ BTC: dec('10'), USD: dec('1000000') });
      const taker = engine.createParticipant({ BTC: dec('10'), USD: dec('1000000') });
      engine.placeOrder(maker, { marketSymbol: 'BTC-USD', direction: makerSide, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('2'), limit: dec('30000') });
      const o = engine.placeOrder(taker, { marketSymbol: 'BTC-USD', direction: takerSide, type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('1'), limit: dec('30000') });
      expect(o.fillQuantity.toString()).toBe('1');
      const t = o.createdAt.getTime();
      expect(o.closedAt?.getTime()).toBe(t);
      for (const a of [maker, taker]) {
        for (const e of engine.executions(a, {})) expect(e.executedAt.getTime()).toBe(t);
        for (const cur of ['BTC', 'USD']) expect(engine.ledger.get(a, cur).updatedAt, `${cur} of ${a === maker ? 'maker' : 'taker'}`).toBe(t);
      }
      engine.dispose();
    });
  }
});
