/**
 * Each example strategy trades end to end against the simulator server, over real HTTP and hub connections:
 * orders are accepted and filled on the exchange, and after the kernel stops without cancelling, the journal, the
 * stores and the portfolio agree with the engine (open orders, balances, client ids, positions, ledger).
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import type { OrderEvent } from '../../src/orders/order-events.js';
import { engineExecutions, engineOpenOrders, stopWithoutCancelling, useE2E, waitFor } from './e2e-harness.js';


const start = useE2E();

const ofType = <T extends OrderEvent['type']>(events: readonly OrderEvent[], type: T) =>
  events.filter((e): e is Extract<OrderEvent, { type: T }> => e.type === type);

describe('market-maker', () => {
  it('quotes a ladder through POST /batch, gets filled by takers, and the journal and stores agree with the engine', async () => {
    const t = await start({
      simYaml: `
demo: { balances: { USD: "100000", BTC: "2" } }
driver:
  kind: synthetic
  seed: 11
  markets: [BTC-USD]
  tickMs: 200
  makers: { halfSpreadBps: 10 }
  takers: { ratePerMinute: 60, clustering: 0 }
  # Stopping the driver freezes the market with the makers' quotes still on the book (see the end of the test).
  cancelOnStop: false
`,
      strategies: [{ name: 'mm', use: 'market-maker', markets: ['BTC-USD'], params: { spread: '0.0004', levels: 2, levelSpacing: '0.0005', size: '0.002', throttleMs: 300 } }],
      // Not a test of the submit-rate brake (test/orders/rate-retry.test.ts is): with the default budget (120
      // orders a minute) a slow run, where the live market moves for long before the takers get the fills in,
      // spends it on requotes, and the last ladder before the market froze comes back only when the brake's
      // minute admits it again — too close to the final wait's 60 s. The budget is out of reach here.
      risk: { submitRate: { maxOrders: 1_000_000, windowMs: 60_000 } },
    });
    // The ladder reaches the exchange: two bids and two asks of the demo account.
    await waitFor(() => {
      const open = engineOpenOrders(t);
      expect(open.filter((o) => o.direction === 'BUY')).toHaveLength(2);
      expect(open.filter((o) => o.direction === 'SELL')).toHaveLength(2);
      expect(ofType(t.events, 'accepted').length).toBeGreaterThanOrEqual(4);
    });

    // A taker of the test's own hits our best bid and lifts our best ask (ours are the best: 2 bps inside the
    // synthetic makers' 10) until the bot was filled on both sides, twice on the bid so it ends up long.
    const taker = t.participant();
    const filled = (direction: 'BUY' | 'SELL') => new Set(ofType(t.events, 'fill').filter((f) => f.direction === direction).map((f) => f.orderId)).size;
    await waitFor(() => {
      const open = engineOpenOrders(t);
      const bid = open.filter((o) => o.direction === 'BUY').sort((a, b) => b.limit!.cmp(a.limit!))[0];
      const ask = open.filter((o) => o.direction === 'SELL').sort((a, b) => a.limit!.cmp(b.limit!))[0];
      if (bid && filled('BUY') < 2) {
        taker.place({ marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.002'), limit: bid.limit! });
      }
      if (ask && filled('SELL') < 1) {
        taker.place({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.002'), limit: ask.limit! });
      }
      expect(filled('BUY')).toBeGreaterThanOrEqual(2);
      expect(filled('SELL')).toBeGreaterThanOrEqual(1);
    });
    expect(engineExecutions(t).length).toBeGreaterThanOrEqual(2);
    // Every fill event names the ladder's key.
    expect(new Set(ofType(t.events, 'fill').map((f) => f.intentKey))).toEqual(new Set(['mm:BTC-USD']));

    // Freeze the market (nobody else trades from here on; the makers' quotes stay) and let the bot's ladder come to
    // rest: it requotes after its last fill. Stopping in the middle of a live market would leave zero or more quotes
    // resting depending on how fast this machine is; the agreement below must be about resting orders and fills.
    t.sim.driver.stop();
    await waitFor(() => expect(engineOpenOrders(t)).toHaveLength(4));
    await stopWithoutCancelling(t, ['BTC-USD'], waitFor);
    expect(engineOpenOrders(t)).toHaveLength(4);
  });
});

describe('grid', () => {
  it('lays a grid around the mid, re-places the opposite order one step up when a buy fills, and agrees with the engine', async () => {
    const t = await start({
      simYaml: `
demo: { balances: { USD: "100000", BTC: "2" } }
driver:
  kind: synthetic
  seed: 12
  markets: [BTC-USD]
  tickMs: 200
  makers: { halfSpreadBps: 40 }
  takers: { ratePerMinute: 20, clustering: 0 }
`,
      // Lines 10 bps apart around the first mid: inside the synthetic makers' 40 bps, so the grid is the touch.
      strategies: [{ name: 'grid', use: 'grid', markets: ['BTC-USD'], params: { range: '0.002', levels: 4, quantity: '0.002' } }],
    });
    // Two buys below the mid and two sells above (the line at the mid stays empty unless the mid sits between lines).
    await waitFor(() => {
      const open = engineOpenOrders(t);
      expect(open.filter((o) => o.direction === 'BUY').length).toBeGreaterThanOrEqual(2);
      expect(open.filter((o) => o.direction === 'SELL').length).toBeGreaterThanOrEqual(2);
      expect(ofType(t.events, 'accepted').length).toBeGreaterThanOrEqual(4);
    });
    const keyOf = new Map(ofType(t.events, 'accepted').map((e) => [e.order.id, e.intentKey]));
    const line = (key: string) => Number(key.slice('grid:BTC-USD:'.length));

    // Sell into the highest grid buy (its whole quantity, never below its price) until one buy filled completely.
    const taker = t.participant();
    let filledKey: string | undefined;
    await waitFor(() => {
      const buys = engineOpenOrders(t).filter((o) => o.direction === 'BUY' && keyOf.has(o.id)).sort((a, b) => b.limit!.cmp(a.limit!));
      const complete = ofType(t.events, 'closed').find((e) => e.order.direction === 'BUY' && e.order.fillQuantity?.eq(e.order.quantity!));
      if (!complete && buys[0]) {
        const o = buys[0];
        taker.place({ marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: o.quantity!.minus(o.fillQuantity!), limit: o.limit! });
      }
      expect(complete).toBeDefined();
      filledKey = complete!.intentKey;
    });
    await waitFor(() => expect(ofType(t.events, 'fill').some((f) => f.intentKey === filledKey && f.direction === 'BUY')).toBe(true));

    // The grid answers with a sell one line up, and it rests on the exchange (or already traded).
    const next = `grid:BTC-USD:${line(filledKey!) + 1}`;
    await waitFor(() => {
      const sell = ofType(t.events, 'accepted').find((e) => e.intentKey === next && e.order.direction === 'SELL');
      expect(sell).toBeDefined();
    });
    expect(engineExecutions(t).length).toBeGreaterThanOrEqual(1);

    await stopWithoutCancelling(t, ['BTC-USD'], waitFor);
    expect(engineOpenOrders(t).length).toBeGreaterThan(0);
  });
});

describe('ma-crossover', () => {
  it('buys on a golden cross and sells what it holds on the death cross, from the trades the test makes', async () => {
    const t = await start({
      simYaml: `
demo: { balances: { USD: "100000", BTC: "2" } }
driver:
  kind: synthetic
  seed: 13
  markets: [BTC-USD]
  tickMs: 200
  takers: { ratePerMinute: 0 }
`,
      // Only the test trades (no noise takers): the trade prices, hence the averages, are the test's to move.
      strategies: [{ name: 'ma', use: 'ma-crossover', markets: ['BTC-USD'], params: { source: 'trades', fast: 2, slow: 4, orderType: 'MARKET', quantity: '0.002' } }],
    });
    const trader = t.participant();
    const trade = (direction: 'BUY' | 'SELL') =>
      trader.place({ marketSymbol: 'BTC-USD', direction, type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.0006') });
    const tradesSeen = () => t.kernel.live.market.trades('BTC-USD').length;
    const intents = () => t.kernel.strategies[0]!.intentCount;
    // One trade at a time, each seen by the bot before the next, until the strategy reacts: a trade reaches the
    // strategy in the same synchronous publish that stores it, so an intent it causes is counted by then.
    const tradeUntilIntent = async (directions: readonly ('BUY' | 'SELL')[]) => {
      const start = intents();
      for (const d of directions) {
        const before = tradesSeen();
        trade(d);
        await waitFor(() => expect(tradesSeen()).toBeGreaterThan(before));
        if (intents() > start) return;
      }
      expect.fail(`no intent after ${directions.join(', ')}`);
    };
    // Trades at the bid, then at the ask: the fast average crosses above the slow one on the first trade at the ask.
    await tradeUntilIntent(['SELL', 'SELL', 'SELL', 'SELL', 'BUY', 'BUY']);
    await waitFor(() => {
      expect(ofType(t.events, 'fill').some((f) => f.direction === 'BUY')).toBe(true);
      expect(t.kernel.portfolio.position('BTC-USD').toFixed()).toBe('0.002');
    });
    // (The REST answer may come after the fill the streams reported: wait for the acceptance too.)
    await waitFor(() => {
      const buyOrder = ofType(t.events, 'accepted').find((e) => e.order.direction === 'BUY');
      expect(buyOrder?.order.type).toBe('MARKET');
      expect(buyOrder?.intentKey).toMatch(/^ma:BTC-USD:/);
    });

    // Back to the bid: the death cross sells the position.
    await tradeUntilIntent(['SELL', 'SELL', 'SELL', 'SELL']);
    await waitFor(() => {
      expect(ofType(t.events, 'fill').some((f) => f.direction === 'SELL')).toBe(true);
      expect(t.kernel.portfolio.position('BTC-USD').isZero()).toBe(true);
    });
    await waitFor(() => expect(ofType(t.events, 'accepted').filter((e) => e.intentKey.startsWith('ma:')).map((e) => e.order.direction)).toEqual(['BUY', 'SELL']));

    await stopWithoutCancelling(t, ['BTC-USD'], waitFor);
    const execs = engineExecutions(t);
    expect(execs.length).toBeGreaterThanOrEqual(2);
  });
});

describe('breakout-bracket', () => {
  it('buys the breakout above the last candle high, then arms the take-profit and stop-loss as an OCO pair on the exchange', async () => {
    // The exchange runs on a virtual clock (the bot and the hub's heartbeats on the system clock): the test closes
    // a one-minute candle by moving exchange time, instead of waiting for a real minute to pass.
    const t = await start({
      simYaml: `
clock: virtual
demo: { balances: { USD: "100000", BTC: "2" } }
driver: { kind: none }
`,
      strategies: [{
        name: 'breakout',
        use: 'breakout-bracket',
        markets: ['BTC-USD'],
        params: { lookback: 1, interval: 'MINUTE_1', quantity: '0.002', takeProfit: '0.02', stopLoss: '0.01', entrySlippage: '0.001' },
      }],
    });
    const clock = t.sim.clock;
    if (!(clock instanceof VirtualClock)) throw new Error('expected the simulator on a virtual clock');
    // The test is the market: a maker with a bid and two asks, and a taker printing trades.
    const maker = t.participant();
    const taker = t.participant();
    const gtc = (direction: 'BUY' | 'SELL', quantity: string, limit: string) =>
      maker.place({ marketSymbol: 'BTC-USD', direction, type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec(quantity), limit: dec(limit) });
    const buy = (quantity: string) =>
      taker.place({ marketSymbol: 'BTC-USD', direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec(quantity) });
    const candles = () => t.kernel.live.market.candles('BTC-USD', 'MINUTE_1');

    gtc('BUY', '0.05', '29900');
    gtc('SELL', '0.001', '30000');
    gtc('SELL', '0.05', '30100');
    // Minute 0: a trade at 30000 sets the channel high.
    buy('0.001');
    await waitFor(() => expect(candles().at(-1)?.high.toFixed()).toBe('30000'));
    // Minute 1: the trade at 30100 closes above it — a breakout.
    await clock.advanceTo(Math.floor(clock.now() / 60_000) * 60_000 + 60_000 + 1_000);
    buy('0.001');
    await waitFor(() => expect(candles().length).toBeGreaterThanOrEqual(2));

    // The entry (LIMIT IOC capped 0.1 % above 30100) fills against the maker's ask ...
    await waitFor(() => {
      const fill = ofType(t.events, 'fill').find((f) => f.intentKey.startsWith('breakout:BTC-USD:'));
      expect(fill?.direction).toBe('BUY');
      expect(t.kernel.portfolio.position('BTC-USD').toFixed()).toBe('0.002');
    });
    await waitFor(() => {
      const entry = ofType(t.events, 'accepted').find((e) => e.intentKey.startsWith('breakout:'));
      expect(entry?.order).toMatchObject({ direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL' });
      expect(entry?.order.limit?.toFixed()).toBe('30130.1');
    });

    // ... and then both exits rest on the exchange as conditional orders cancelling each other.
    await waitFor(() => {
      const open = t.sim.engine.openConditionalOrders(t.account, 'BTC-USD').data;
      expect(open).toHaveLength(2);
      const tp = open.find((c) => c.operand === 'GTE')!;
      const sl = open.find((c) => c.operand === 'LTE')!;
      expect(tp.triggerPrice!.toFixed()).toBe('30702');
      expect(sl.triggerPrice!.toFixed()).toBe('29799');
      expect(tp.orderToCreate).toMatchObject({ direction: 'SELL', type: 'LIMIT' });
      expect(tp.orderToCreate!.quantity!.toFixed()).toBe('0.002');
      expect(sl.orderToCreate).toMatchObject({ direction: 'SELL', type: 'MARKET' });
      expect(sl.orderToCreate!.quantity!.toFixed()).toBe('0.002');
      expect(sl.orderToCancel).toEqual({ type: 'CONDITIONAL_ORDER', id: tp.id });
    });
    // The bot heard back about both legs, and its store follows them.
    await waitFor(() => {
      expect(ofType(t.events, 'conditional').length).toBeGreaterThanOrEqual(2);
      expect(t.kernel.live.account!.openConditionalOrders('BTC-USD')).toHaveLength(2);
    });

    await stopWithoutCancelling(t, ['BTC-USD'], waitFor);
    expect(t.sim.engine.openConditionalOrders(t.account).data).toHaveLength(2);
  });
});
