import { describe, expect, it } from 'vitest';
import { type Decimal, dec } from '../../../src/core/decimal.js';
import type { Trade } from '../../../src/model/market.js';
import { FEE_ACCOUNT_ID } from '../../../src/sim/ledger.js';
import { balances, brief, checkInvariants, refusal, setup } from './harness.js';

const ACCTS = ['maker', 'maker2', 'taker'];

function funded() {
  const h = setup();
  for (const a of ACCTS) {
    h.fund(a, 'BTC', '10');
    h.fund(a, 'USD', '100000');
  }
  return h;
}

describe('commission and proceeds', () => {
  it('settles a fill at the maker rate: buy total = proceeds + commission, sell received = proceeds - commission', () => {
    const h = funded();
    const maker = h.limit('maker', 'SELL', '0.5', '30000');
    const taker = h.limit('taker', 'BUY', '0.2', '30100');
    expect(brief(taker)).toEqual({ status: 'CLOSED', fillQuantity: '0.2', proceeds: '6000', commission: '21' });
    expect(taker.closedAt).toBeDefined();
    expect(brief(h.trading.getOrder('maker', maker.id))).toEqual({ status: 'OPEN', fillQuantity: '0.2', proceeds: '6000', commission: '21' });
    expect(h.bal('taker', 'USD').total.toFixed()).toBe('93979');
    expect(h.bal('taker', 'BTC').total.toFixed()).toBe('10.2');
    expect(h.bal('maker', 'USD').total.toFixed()).toBe('105979');
    expect(h.bal('maker', 'BTC').total.toFixed()).toBe('9.8');
    expect(h.bal('maker', 'BTC').held.toFixed()).toBe('0.3');
    expect(h.bal(FEE_ACCOUNT_ID, 'USD').total.toFixed()).toBe('42');
    checkInvariants(h, ACCTS);
  });

  it('uses per-market maker and taker rates and releases the unused commission reserve', () => {
    const base = setup();
    const markets = base.config.markets.map((m) => (m.symbol === 'BTC-USD' ? { ...m, makerFee: dec('0.001'), takerFee: dec('0.002') } : m));
    const h = setup({ markets });
    h.fund('maker', 'USD', '10000');
    h.fund('taker', 'BTC', '1');
    h.limit('maker', 'BUY', '0.1', '30000');
    // Reserve: 3000 + 3000 × max(0.001, 0.002) = 3006.
    expect(h.bal('maker', 'USD').held.toFixed()).toBe('3006');
    const t = h.limit('taker', 'SELL', '0.1', '29000', 'IMMEDIATE_OR_CANCEL');
    expect(brief(t)).toEqual({ status: 'CLOSED', fillQuantity: '0.1', proceeds: '3000', commission: '6' });
    expect(h.bal('taker', 'USD').total.toFixed()).toBe('2994');
    // The maker paid 3000 + 3 (maker rate) and got its extra 3 of reserve back.
    expect(h.bal('maker', 'USD').total.toFixed()).toBe('6997');
    expect(h.bal('maker', 'USD').held.toFixed()).toBe('0');
    expect(h.bal(FEE_ACCOUNT_ID, 'USD').total.toFixed()).toBe('9');
    checkInvariants(h, ['maker', 'taker']);
  });

  it('rounds each fill quote and commission down to 8 decimals, identically for both sides', () => {
    const h = setup();
    h.fund('maker', 'ETH', '10');
    h.fund('taker', 'BTC', '1');
    h.limit('maker', 'SELL', '0.12345678', '0.06123457', 'GOOD_TIL_CANCELLED', 'ETH-BTC');
    const t = h.limit('taker', 'BUY', '0.12345678', '0.07', 'FILL_OR_KILL', 'ETH-BTC');
    // 0.12345678 × 0.06123457 = 0.0075598246... -> 0.00755982; commission 0.00002645...
    expect(t.proceeds.toFixed()).toBe('0.00755982');
    expect(t.commission.toFixed()).toBe('0.00002645');
    expect(h.bal('maker', 'BTC').total.toFixed()).toBe(dec('0.00755982').minus('0.00002645').toFixed());
    checkInvariants(h, ['maker', 'taker']);
  });
});

describe('time in force behaviour', () => {
  it('GTC rests the remainder after a partial fill and keeps exactly the remainder reserved', () => {
    const h = funded();
    h.limit('maker', 'SELL', '0.1', '30000');
    const t = h.limit('taker', 'BUY', '0.3', '30010');
    expect(brief(t)).toEqual({ status: 'OPEN', fillQuantity: '0.1', proceeds: '3000', commission: '10.5' });
    expect(h.trading.reads.orderBook('BTC-USD', 1).data.bid.map((e) => [e.quantity.toFixed(), e.rate.toFixed()])).toEqual([['0.2', '30010']]);
    checkInvariants(h, ACCTS);
  });

  it('IOC fills what it can and closes the rest (CLOSED with a partial fill)', () => {
    const h = funded();
    h.limit('maker', 'SELL', '0.1', '30000');
    h.limit('maker2', 'SELL', '0.1', '30005');
    h.limit('maker', 'SELL', '0.1', '30100');
    const t = h.limit('taker', 'BUY', '0.5', '30050', 'IMMEDIATE_OR_CANCEL');
    expect(brief(t)).toEqual({ status: 'CLOSED', fillQuantity: '0.2', proceeds: '6000.5', commission: '21.00175' });
    expect(h.trading.reads.orderBook('BTC-USD', 25).data.bid).toEqual([]);
    checkInvariants(h, ACCTS);
  });

  it('IOC with nothing to match closes with no fill', () => {
    const h = funded();
    const t = h.limit('taker', 'BUY', '0.5', '30050', 'IMMEDIATE_OR_CANCEL');
    expect(brief(t)).toEqual({ status: 'CLOSED', fillQuantity: '0', proceeds: '0', commission: '0' });
    expect(h.bal('taker', 'USD').held.toFixed()).toBe('0');
  });

  it('FOK fills completely or is refused with FILL_OR_KILL and nothing changes', () => {
    const h = funded();
    h.limit('maker', 'SELL', '0.1', '30000');
    const before = balances(h, ACCTS);
    const events = h.events.length;
    const e = refusal(() => h.limit('taker', 'BUY', '0.2', '30000', 'FILL_OR_KILL'));
    expect(e).toMatchObject({ status: 409, code: 'FILL_OR_KILL' });
    expect(balances(h, ACCTS)).toEqual(before);
    expect(h.events.length).toBe(events);
    expect(h.trading.reads.openOrders('taker').data).toEqual([]);
    expect(h.trading.reads.closedOrders('taker')).toEqual([]);
    const ok = h.limit('taker', 'BUY', '0.1', '30000', 'FILL_OR_KILL');
    expect(brief(ok).status).toBe('CLOSED');
    expect(ok.fillQuantity.toFixed()).toBe('0.1');
  });

  it('POST_ONLY rests when it would not trade and is refused with POST_ONLY when it would', () => {
    const h = funded();
    h.limit('maker', 'SELL', '0.1', '30000');
    const rest = h.limit('taker', 'BUY', '0.1', '29999', 'POST_ONLY_GOOD_TIL_CANCELLED');
    expect(rest.status).toBe('OPEN');
    const before = balances(h, ACCTS);
    expect(refusal(() => h.limit('taker', 'BUY', '0.1', '30000', 'POST_ONLY_GOOD_TIL_CANCELLED'))).toMatchObject({ status: 409, code: 'POST_ONLY' });
    expect(balances(h, ACCTS)).toEqual(before);
  });
});

describe('price-time priority', () => {
  it('fills better rates first, then older orders first at equal rates', () => {
    const h = funded();
    const first = h.limit('maker', 'BUY', '0.1', '30000');
    const second = h.limit('maker2', 'BUY', '0.1', '30000');
    const better = h.limit('maker2', 'BUY', '0.1', '30001');
    h.limit('taker', 'SELL', '0.15', '29000', 'IMMEDIATE_OR_CANCEL');
    expect(h.trading.getOrder('maker2', better.id).status).toBe('CLOSED');
    expect(h.trading.getOrder('maker', first.id).fillQuantity.toFixed()).toBe('0.05');
    expect(h.trading.getOrder('maker2', second.id).fillQuantity.toFixed()).toBe('0');
    const execs = h.trading.reads.orderExecutions('taker', h.trading.reads.closedOrders('taker')[0]!.id);
    expect(execs.map((e) => e.rate.toFixed())).toEqual(['30000', '30001']); // newest first
    checkInvariants(h, ACCTS);
  });
});

describe('market and ceiling orders', () => {
  it('MARKET buy walks the book; MARKET sell on an empty book closes unfilled', () => {
    const h = funded();
    h.limit('maker', 'SELL', '0.1', '30000');
    h.limit('maker2', 'SELL', '0.1', '31000');
    const buy = h.trading.placeOrder('taker', h.order('MARKET', 'BUY', 'IMMEDIATE_OR_CANCEL', { quantity: '0.15' }));
    expect(brief(buy)).toEqual({ status: 'CLOSED', fillQuantity: '0.15', proceeds: '4550', commission: '15.925' });
    const sell = h.trading.placeOrder('taker', h.order('MARKET', 'SELL', 'IMMEDIATE_OR_CANCEL', { quantity: '0.05' }));
    expect(brief(sell)).toEqual({ status: 'CLOSED', fillQuantity: '0', proceeds: '0', commission: '0' });
    checkInvariants(h, ACCTS);
  });

  it('CEILING_MARKET buy spends at most the ceiling including commission', () => {
    const h = funded();
    h.limit('maker', 'SELL', '0.01', '30000');
    h.limit('maker2', 'SELL', '1', '30500');
    const before = h.bal('taker', 'USD').total;
    const o = h.trading.placeOrder('taker', h.order('CEILING_MARKET', 'BUY', 'IMMEDIATE_OR_CANCEL', { ceiling: '1000' }));
    const spent = before.minus(h.bal('taker', 'USD').total);
    expect(spent.toFixed()).toBe(o.proceeds.plus(o.commission).toFixed());
    expect(spent.lte(1000)).toBe(true);
    expect(spent.gt(dec('999.9'))).toBe(true);
    expect(o.quantity).toBeUndefined();
    expect(o.ceiling?.toFixed()).toBe('1000');
    checkInvariants(h, ACCTS);
  });

  it('CEILING_LIMIT sell receives at most the ceiling net of commission and respects its limit', () => {
    const h = funded();
    h.limit('maker', 'BUY', '0.01', '30000');
    h.limit('maker2', 'BUY', '1', '29000');
    const o = h.trading.placeOrder('taker', h.order('CEILING_LIMIT', 'SELL', 'IMMEDIATE_OR_CANCEL', { ceiling: '1000', limit: '29500' }));
    expect(o.fillQuantity.toFixed()).toBe('0.01');
    const full = h.trading.placeOrder('taker', h.order('CEILING_LIMIT', 'SELL', 'FILL_OR_KILL', { ceiling: '500', limit: '28000' }));
    const received: Decimal = full.proceeds.minus(full.commission);
    expect(received.lte(500) && received.gt(dec('499.9'))).toBe(true);
    expect(refusal(() => h.trading.placeOrder('taker', h.order('CEILING_LIMIT', 'SELL', 'FILL_OR_KILL', { ceiling: '5000000', limit: '28000' })))).toMatchObject({ code: 'FILL_OR_KILL' });
    checkInvariants(h, ACCTS);
  });
});

describe('self-trade', () => {
  it('refuses a taker that would reach its own resting order, before any fill', () => {
    const h = funded();
    h.limit('maker', 'SELL', '0.1', '30000');
    h.limit('taker', 'SELL', '0.1', '30001');
    const before = balances(h, ACCTS);
    expect(refusal(() => h.limit('taker', 'BUY', '0.2', '30002'))).toMatchObject({ status: 409, code: 'SELF_TRADE' });
    expect(balances(h, ACCTS)).toEqual(before);
    // Stopping before the own order is fine.
    expect(h.limit('taker', 'BUY', '0.1', '30002').status).toBe('CLOSED');
  });
});

describe('executions, trades and hooks', () => {
  it('records one execution per side per fill, public trades with takerSide, and reports to the hooks in order', () => {
    const h = funded();
    const calls: string[] = [];
    let trades: Trade[] = [];
    h.trading.connect({
      marketData: {
        recordTrades: (m, t) => { calls.push(`trades ${m} ${t.length}`); trades = t; },
        updateTop: (m, bid, ask) => calls.push(`top ${m} ${bid?.toFixed() ?? '-'} ${ask?.toFixed() ?? '-'}`),
      },
      conditionalOrders: {
        onTrades: (m, t) => calls.push(`cond ${m} ${t.length}`),
        onOrderExecuted: (a, id) => calls.push(`executed ${a} ${id}`),
      },
    });
    const m1 = h.limit('maker', 'SELL', '0.1', '30000');
    h.trading.linkOrderToCancel('maker', m1.id, { type: 'CONDITIONAL_ORDER', id: '11111111-1111-1111-1111-111111111111' });
    h.limit('maker2', 'SELL', '0.1', '30001');
    calls.length = 0;
    const t = h.limit('taker', 'BUY', '0.15', '30001', 'IMMEDIATE_OR_CANCEL');
    expect(calls).toEqual(['top BTC-USD - 30001', 'trades BTC-USD 2', 'cond BTC-USD 2', `executed maker ${m1.id}`]);
    expect(trades.map((x) => [x.quantity.toFixed(), x.rate.toFixed(), x.takerSide])).toEqual([['0.1', '30000', 'BUY'], ['0.05', '30001', 'BUY']]);
    const te = h.trading.reads.orderExecutions('taker', t.id);
    expect(te.every((e) => e.isTaker && e.orderId === t.id)).toBe(true);
    const me = h.trading.reads.executions('maker');
    expect(me).toHaveLength(1);
    expect(me[0]).toMatchObject({ isTaker: false, orderId: m1.id, marketSymbol: 'BTC-USD' });
    expect(me[0]!.commission.toFixed()).toBe('10.5');
    expect(h.trading.reads.lastExecution('maker').data.lastId).toBe(me[0]!.id);
    expect(h.trading.reads.execution('maker', me[0]!.id).id).toBe(me[0]!.id);
    expect(refusal(() => h.trading.reads.execution('taker', me[0]!.id))).toMatchObject({ status: 404 });
    // A second fill of the linked order does not report again; neither does a cancel.
    calls.length = 0;
    h.trading.cancelOrder('maker2', h.trading.reads.openOrders('maker2').data[0]!.id);
    expect(calls.filter((c) => c.startsWith('executed'))).toEqual([]);
  });

  it('publishes order and execution events with contiguous per-account sequences, after the state changed', () => {
    const h = funded();
    const seen: string[] = [];
    h.bus.on((e) => {
      if (e.kind === 'order') {
        // The state an event describes is already readable.
        expect(h.trading.getOrder(e.accountId, e.delta.id).status).toBe(e.delta.status);
        seen.push(`order ${e.accountId} ${e.sequence} ${e.delta.status}`);
      }
      if (e.kind === 'execution') seen.push(`execution ${e.accountId} ${e.sequence} ${e.deltas.length}`);
    });
    const m = h.limit('maker', 'SELL', '0.2', '30000');
    h.limit('taker', 'BUY', '0.1', '30000');
    h.trading.cancelOrder('maker', m.id);
    expect(seen).toEqual([
      'order maker 1 OPEN',
      'order taker 1 CLOSED',
      'order maker 2 OPEN',
      'execution taker 1 1',
      'execution maker 1 1',
      'order maker 3 CLOSED',
    ]);
    expect(h.trading.reads.openOrders('maker').sequence).toBe(3);
  });

  it('publishes operations in order when a listener places an order synchronously (re-entrancy)', () => {
    const h = funded();
    const log: string[] = [];
    let reacted = false;
    h.bus.on((e) => {
      if (e.kind === 'orderBook' && e.depth === 1) log.push(`book1 ${e.sequence} ${e.askDeltas.map((d) => `${d.quantity.toFixed()}@${d.rate.toFixed()}`).join(',')}`);
      if (e.kind === 'order' && e.accountId === 'taker') {
        log.push(`order taker ${e.sequence} ${e.delta.status}`);
        if (!reacted && e.delta.fillQuantity.gt(0)) {
          reacted = true;
          // A strategy reacting to its fill by re-quoting, inside the publication of the fill.
          h.limit('taker', 'SELL', '0.1', '30500');
        }
      }
    });
    h.limit('maker', 'SELL', '0.1', '30000');
    h.limit('taker', 'BUY', '0.1', '30000');
    expect(log).toEqual([
      'book1 1 0.1@30000',
      'order taker 1 CLOSED',
      'book1 2 0@30000',
      'order taker 2 OPEN',
      'book1 3 0.1@30500',
    ]);
    expect(h.trading.reads.orderBook('BTC-USD', 1).sequence).toBe(3);
    checkInvariants(h, ACCTS);
  });
});
