import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import type { NewOrder } from '../../../src/model/order.js';
import { createSimEngine } from '../../../src/sim/engine.js';
import type { SimEvent } from '../../../src/sim/events.js';
import { seqKey } from '../../../src/sim/sequences.js';
import { SimError } from '../../../src/sim/sim-error.js';

const START = Date.parse('2021-06-14T00:00:00Z');

function engine() {
  const clock = new VirtualClock(START);
  const e = createSimEngine({ clock });
  const events: SimEvent[] = [];
  e.bus.on((ev) => events.push(ev));
  return { clock, e, events };
}

const limit = (direction: 'BUY' | 'SELL', quantity: string, rate: string, timeInForce: NewOrder['timeInForce'] = 'GOOD_TIL_CANCELLED'): NewOrder => ({
  marketSymbol: 'BTC-USD', direction, type: 'LIMIT', timeInForce, quantity: dec(quantity), limit: dec(rate),
});

describe('SimEngine wiring', () => {
  it('serves markets and currencies as wire resources', () => {
    const { e } = engine();
    const m = e.market('btc-usd');
    expect(m).toMatchObject({ symbol: 'BTC-USD', precision: 3, status: 'ONLINE', associatedTermsOfService: [] });
    expect('makerFee' in m).toBe(false);
    expect(e.markets().map((x) => x.symbol)).toContain('ETH-BTC');
    expect(e.currency('XRP')).not.toHaveProperty('needsTag');
    expect(e.currencies().length).toBe(7);
  });

  it('participants are ordinary funded accounts; trades reach balances, market data and account volume', () => {
    const { e, events } = engine();
    const lp = e.createParticipant({ BTC: dec('1') });
    const user = e.createParticipant({ USD: dec('100000') });
    expect(e.funds.balance(lp, 'BTC').available.toFixed()).toBe('1');
    e.placeOrder(lp, limit('SELL', '0.5', '30000'));
    expect(e.ticker('BTC-USD').askRate.toFixed()).toBe('30000');
    e.placeOrder(user, limit('BUY', '0.2', '30000', 'IMMEDIATE_OR_CANCEL'));
    expect(e.ticker('BTC-USD').lastTradeRate.toFixed()).toBe('30000');
    const trades = e.trades('BTC-USD');
    expect(trades.data.map((t) => [t.quantity.toFixed(), t.takerSide])).toEqual([['0.2', 'BUY']]);
    expect(trades.sequence).toBe(e.sequence(seqKey.trade('BTC-USD')));
    expect(e.funds.balance(user, 'BTC').total.toFixed()).toBe('0.2');
    const balanceEvents = events.filter((ev) => ev.kind === 'balance' && ev.accountId === user);
    expect(balanceEvents.length).toBeGreaterThan(0);
    expect(e.funds.accountVolume(user).volume30days.toFixed()).toBe('6000');
    expect(e.orderBook('BTC-USD', 1).data.ask[0]!.quantity.toFixed()).toBe('0.3');
    for (const a of e.ledger.audit()) expect(a.discrepancy.isZero()).toBe(true);
  });

  it('refuses with 403 NOT_ALLOWED when the account\'s market policy forbids the direction', () => {
    const { e } = engine();
    const user = e.createParticipant({ USD: dec('100000') });
    e.funds.permissions.setMarketPolicy(user, 'BTC-USD', { buy: false });
    const err = (() => { try { e.placeOrder(user, limit('BUY', '0.01', '30000')); } catch (x) { return x; } })();
    expect(err).toBeInstanceOf(SimError);
    expect(err).toMatchObject({ status: 403, code: 'NOT_ALLOWED' });
    expect(e.funds.balance(user, 'USD').available.toFixed()).toBe('100000');
  });

  it('a stop order triggers through trading after the configured delay', async () => {
    const { e, clock } = engine();
    const lp = e.createParticipant({ BTC: dec('5'), USD: dec('200000') });
    const lp2 = e.createParticipant({ USD: dec('200000') });
    const user = e.createParticipant({ BTC: dec('1') });
    const stop = e.createConditionalOrder(user, {
      marketSymbol: 'BTC-USD',
      operand: 'LTE',
      triggerPrice: dec('29000'),
      orderToCreate: { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.1') },
    });
    e.placeOrder(lp, limit('BUY', '1', '28900'));
    e.placeOrder(lp, limit('SELL', '0.01', '28950'));
    e.placeOrder(lp2, limit('BUY', '0.01', '28950', 'IMMEDIATE_OR_CANCEL')); // a trade at 28950 <= 29000
    expect(e.getConditionalOrder(user, stop.id).status).toBe('OPEN');
    await clock.advance(e.config.conditionalTriggerDelayMs);
    const done = e.getConditionalOrder(user, stop.id);
    expect(done.status).toBe('COMPLETED');
    const placed = e.getOrder(user, done.createdOrderId!);
    expect(placed).toMatchObject({ type: 'MARKET', status: 'CLOSED' });
    expect(placed.fillQuantity.toFixed()).toBe('0.1');
  });

  it('OCO: a conditional order paired with a resting order shows the link and is cancelled when the order executes', () => {
    const { e } = engine();
    const lp = e.createParticipant({ USD: dec('200000') });
    const user = e.createParticipant({ BTC: dec('1') });
    const takeProfit = e.placeOrder(user, limit('SELL', '0.1', '35000'));
    const stop = e.createConditionalOrder(user, {
      marketSymbol: 'BTC-USD',
      operand: 'LTE',
      triggerPrice: dec('25000'),
      orderToCreate: { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.1') },
      orderToCancel: { type: 'ORDER', id: takeProfit.id },
    });
    expect(e.getOrder(user, takeProfit.id).orderToCancel).toEqual({ type: 'CONDITIONAL_ORDER', id: stop.id });
    e.placeOrder(lp, limit('BUY', '0.05', '35000', 'IMMEDIATE_OR_CANCEL'));
    expect(e.getConditionalOrder(user, stop.id).status).toBe('CANCELLED');
    expect(e.getOrder(user, takeProfit.id).status).toBe('OPEN');
  });

  it('order, execution and orderbook snapshots carry the sequences of their streams', () => {
    const { e, events } = engine();
    const lp = e.createParticipant({ BTC: dec('1') });
    const user = e.createParticipant({ USD: dec('100000') });
    e.placeOrder(lp, limit('SELL', '0.5', '30000'));
    e.placeOrder(user, limit('BUY', '0.1', '30000'));
    const lastOrderEvent = events.filter((ev) => ev.kind === 'order' && ev.accountId === user).at(-1)!;
    expect(e.openOrders(user).sequence).toBe((lastOrderEvent as { sequence: number }).sequence);
    expect(e.lastExecution(user).sequence).toBe(1);
    const lastBook = events.filter((ev) => ev.kind === 'orderBook' && ev.depth === 25).at(-1)!;
    expect(e.orderBook('BTC-USD', 25).sequence).toBe((lastBook as { sequence: number }).sequence);
  });
});
