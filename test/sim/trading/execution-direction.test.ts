/**
 * Execution.direction: the service's executions carried the TRADE's taker side — on the maker's execution the
 * opposite of the maker order's direction (what ccxt's bittrex relies on, flipping it back for maker fills).
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import type { NewOrder } from '../../../src/model/order.js';
import { createSimEngine } from '../../../src/sim/engine.js';

const limit = (direction: 'BUY' | 'SELL', quantity: string, rate: string, timeInForce: NewOrder['timeInForce'] = 'GOOD_TIL_CANCELLED'): NewOrder => ({
  marketSymbol: 'BTC-USD', direction, type: 'LIMIT', timeInForce, quantity: dec(quantity), limit: dec(rate),
});

describe('execution direction', () => {
  it.each(['BUY', 'SELL'] as const)('is the taker side on both executions of a fill (taker %s)', (takerSide) => {
    const e = createSimEngine({ clock: new VirtualClock(Date.parse('2021-06-14T00:00:00Z')) });
    const maker = e.createParticipant({ BTC: dec('1'), USD: dec('100000') });
    const taker = e.createParticipant({ BTC: dec('1'), USD: dec('100000') });
    const makerSide = takerSide === 'BUY' ? 'SELL' : 'BUY';
    const resting = e.placeOrder(maker, limit(makerSide, '0.1', '30000'));
    const taking = e.placeOrder(taker, limit(takerSide, '0.1', '30000', 'IMMEDIATE_OR_CANCEL'));

    const [takerExec] = e.orderExecutions(taker, taking.id);
    const [makerExec] = e.orderExecutions(maker, resting.id);
    expect(takerExec).toMatchObject({ isTaker: true, direction: takerSide });
    expect(makerExec).toMatchObject({ isTaker: false, direction: takerSide });
    expect(e.executions(maker)[0]!.direction).toBe(takerSide);
    expect(e.trades('BTC-USD').data[0]!.takerSide).toBe(takerSide);
  });
});
