/**
 * The stream half of the ExchangeGateway conformance suite (see gateway-conformance.ts): subscriptions deliver,
 * for this account only, the messages of what it does, continuing the sequences of the REST snapshots; refusals
 * name each channel with the hub's code; unsubscribe and close behave alike on every gateway.
 */
import { describe, expect, it } from 'vitest';
import { HubSubscriptionError } from '../../src/bittrex/hub/hub-errors.js';
import type { StreamMessage, StreamMessageData } from '../../src/bittrex/hub/messages.js';
import { dec } from '../../src/core/decimal.js';
import type { Execution } from '../../src/model/order.js';
import type { OrderBook } from '../../src/model/market.js';
import type { Capabilities } from './conformance-capabilities.js';
import { eventually, limit, M, plain, recordStreams, type FreshTarget } from './conformance-helpers.js';

type Data<N extends StreamMessage['name']> = StreamMessageData<N>;
/** The payloads of the messages named `name`, in arrival order. */
export const of = <N extends StreamMessage['name']>(messages: readonly StreamMessage[], name: N): Data<N>[] =>
  messages.filter((m) => m.name === name).map((m) => m.data as Data<N>);

/** The book `snapshot` with `deltas` applied in order (quantity 0 removes a level). */
function applyBook(snapshot: OrderBook, deltas: readonly Data<'orderBook'>[]): unknown {
  const side = (levels: OrderBook['bid'], changes: (d: Data<'orderBook'>) => OrderBook['bid'], desc: boolean) => {
    const at = new Map(levels.map((l) => [l.rate.toFixed(), l]));
    for (const d of deltas) for (const l of changes(d)) (l.quantity.isZero() ? at.delete(l.rate.toFixed()) : at.set(l.rate.toFixed(), l));
    return [...at.values()].sort((a, b) => (desc ? b.rate.comparedTo(a.rate) : a.rate.comparedTo(b.rate)));
  };
  return plain({ bid: side(snapshot.bid, (d) => d.bidDeltas, true), ask: side(snapshot.ask, (d) => d.askDeltas, false) });
}

/** Register the stream tests; `fresh` builds a seeded target per test, `caps` says what the venue can express. */
export function describeStreamConformance(fresh: () => Promise<FreshTarget>, caps: Capabilities): void {
  const expectSame = (actual: unknown, truth: unknown): void => caps.same(actual, truth);
  describe('streams', () => {
    it('deliver the book, order, balance and execution messages of this account, continuing the snapshots', async () => {
      const { g, engine, me, maker } = await fresh();
      const rec = recordStreams(g);
      await g.streams.subscribe([`orderbook_${M}_25`, `trade_${M}`, 'order', 'balance', 'execution']);
      const book = await g.orderBook(M, 25);
      const trades = await g.trades(M);
      const orders = await g.openOrders();
      const balances = await g.balances();
      const last = await g.lastExecution();
      const theirs = engine.placeOrder(maker, limit('BUY', '27000', '0.1')); // the book moves; not our order
      const order = await g.placeOrder(limit('BUY', '30000', '0.6')); // 0.5 fills, 0.1 rests at 30,000
      const usd = () => engine.funds.balances(me).data.find((b) => b.currencySymbol === 'USD');
      await eventually(() => {
        expect(of(rec.messages, 'order').map((m) => m.delta.id)).toContain(order.id);
        expect(of(rec.messages, 'execution').flatMap((m) => m.deltas.map((e) => e.orderId))).toContain(order.id);
        // Caught up: the book rebuilt from the stream is the engine's, and the last USD balance message is the engine's.
        expect(applyBook(book.data, of(rec.messages, 'orderBook'))).toEqual(plain(engine.orderBook(M, 25).data));
        expectSame(of(rec.messages, 'balance').filter((m) => m.delta.currencySymbol === 'USD').at(-1)?.delta, usd());
      });
      rec.stop();
      const bookMsgs = of(rec.messages, 'orderBook');
      expect(bookMsgs.map((m) => m.sequence)).toEqual(bookMsgs.map((_, i) => book.sequence + 1 + i));
      if (caps.missing(['exchangeSequences']).length === 0) {
        expect(bookMsgs.at(-1)?.sequence).toBe(engine.orderBook(M, 25).sequence);
        expect(of(rec.messages, 'balance').at(-1)?.sequence).toBe(engine.funds.balances(me).sequence);
      }
      expect(bookMsgs.every((m) => m.marketSymbol === M && m.depth === 25)).toBe(true);
      expect(bookMsgs[0]!.bidDeltas.map((d) => d.rate.toFixed())).toEqual(['27000']);
      const orderMsgs = of(rec.messages, 'order');
      expect(orderMsgs.map((m) => m.sequence)).toEqual(orderMsgs.map((_, i) => orders.sequence + 1 + i));
      expect(orderMsgs.every((m) => m.accountId === me)).toBe(true);
      expect(orderMsgs.map((m) => m.delta.id)).not.toContain(theirs.id);
      expectSame(orderMsgs.at(-1)!.delta, engine.getOrder(me, order.id));
      const balanceMsgs = of(rec.messages, 'balance');
      expect(balanceMsgs[0]!.sequence).toBe(balances.sequence + 1);
      expect(balanceMsgs.every((m) => m.accountId === me)).toBe(true);
      const executionMsgs = of(rec.messages, 'execution');
      expect(executionMsgs[0]!.sequence).toBe(last.sequence + 1);
      const byId = (a: Execution, b: Execution) => a.id.localeCompare(b.id);
      expectSame(executionMsgs.flatMap((m) => m.deltas).sort(byId), [...engine.orderExecutions(me, order.id)].sort(byId));
      const tradeMsgs = of(rec.messages, 'trade');
      expect(tradeMsgs.map((m) => [m.sequence, m.marketSymbol])).toEqual([[trades.sequence + 1, M]]);
      expect(tradeMsgs[0]!.deltas.map((t) => [t.rate.toFixed(), t.quantity.toFixed()])).toEqual([['30000', '0.5']]);
      const lastBalance = new Map(balanceMsgs.map((m) => [m.delta.currencySymbol, m.delta]));
      for (const [currency, b] of lastBalance) expectSame(b, engine.funds.balances(me).data.find((x) => x.currencySymbol === currency));
    });

    it('a depth-1 book stream keeps the top level: an order entering it and leaving it again', async () => {
      const { g, engine } = await fresh();
      const rec = recordStreams(g);
      await g.streams.subscribe([`orderbook_${M}_1`]);
      const snapshot = await g.orderBook(M, 1);
      expect(plain(snapshot.data)).toEqual(plain(engine.orderBook(M, 1).data));
      const rebuilt = () => applyBook(snapshot.data, of(rec.messages, 'orderBook').filter((m) => m.sequence > snapshot.sequence));
      const best = await g.placeOrder(limit('BUY', '29500', '0.1')); // the new best bid
      await eventually(() => expect(rebuilt()).toEqual(plain(engine.orderBook(M, 1).data)));
      await g.cancelOrder(best.id); // 29,000 is the best bid again
      await eventually(() => expect(rebuilt()).toEqual(plain(engine.orderBook(M, 1).data)));
      rec.stop();
      expect(of(rec.messages, 'orderBook').every((m) => m.depth === 1 && m.marketSymbol === M)).toBe(true);
      expect((rebuilt() as { bid: { rate: string }[] }).bid.map((l) => l.rate)).toEqual(['29000']);
    });

    caps.it(['conditionalOrders'], 'deliver the conditional order messages of this account, continuing the snapshot', async () => {
      const { g, engine, me } = await fresh();
      const rec = recordStreams(g);
      await g.streams.subscribe(['conditional_order']);
      const conditionals = await g.openConditionalOrders();
      const cond = await g.placeConditionalOrder({ marketSymbol: M, operand: 'GTE', triggerPrice: dec('40000') });
      await eventually(() => expect(of(rec.messages, 'conditionalOrder').map((m) => m.delta.id)).toContain(cond.id));
      rec.stop();
      const condMsgs = of(rec.messages, 'conditionalOrder');
      expect(condMsgs.map((m) => [m.sequence, m.accountId])).toEqual([[conditionals.sequence + 1, me]]);
      expectSame(condMsgs[0]!.delta, engine.getConditionalOrder(me, cond.id));
    });

    caps.it(['candles'], 'candles: the snapshot and the candle stream continue each other, and a trade updates the current candle', async () => {
      const { g, engine } = await fresh();
      if (!g.candles) throw new Error('gateway serves no candles');
      const rec = recordStreams(g);
      await g.streams.subscribe([`candle_${M}_MINUTE_1`]);
      const snapshot = await g.candles(M, 'MINUTE_1');
      expectSame(snapshot.data, engine.candles(M, 'TRADE', 'MINUTE_1').data);
      await g.placeOrder(limit('BUY', '30000', '0.1')); // trades 0.1 against the seeded ask at 30,000
      await eventually(() => expect(of(rec.messages, 'candle').at(-1)?.sequence).toBe(engine.candles(M, 'TRADE', 'MINUTE_1').sequence));
      rec.stop();
      const msgs = of(rec.messages, 'candle');
      expect(msgs.map((m) => m.sequence)).toEqual(msgs.map((_, i) => snapshot.sequence + 1 + i));
      expect(msgs.every((m) => m.marketSymbol === M && m.interval === 'MINUTE_1')).toBe(true);
      const current = msgs.at(-1)!.delta;
      expectSame(current, engine.candles(M, 'TRADE', 'MINUTE_1').data.at(-1));
      expect(current.close.toFixed()).toBe('30000');
    });

    it('unsubscribing stops a channel; the others go on', async () => {
      const { g, me } = await fresh();
      await g.streams.subscribe(['order', 'balance']);
      await g.streams.unsubscribe(['balance']);
      const rec = recordStreams(g);
      const placed = await g.placeOrder(limit('BUY', '28000', '0.1'));
      await g.cancelOrder(placed.id);
      // The cancel's order message comes after every message of the placement.
      await eventually(() => expect(of(rec.messages, 'order').map((m) => m.delta.status)).toEqual(['OPEN', 'CLOSED']));
      rec.stop();
      expect(rec.messages.map((m) => m.name)).toEqual(['order', 'order']);
      expect(of(rec.messages, 'order').every((m) => m.accountId === me)).toBe(true);
    });

    it('a refused channel is named in a HubSubscriptionError; the channels accepted with it deliver', async () => {
      const { g } = await fresh();
      const err = await g.streams.subscribe(['order', 'orderbook_NOPE-USD_25', 'orderbook_BTC-USD_7']).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HubSubscriptionError);
      const message = (err as Error).message;
      expect(message).toContain('orderbook_NOPE-USD_25');
      expect(message).toContain('orderbook_BTC-USD_7');
      const refused = (err as { failures?: readonly HubSubscriptionError[] }).failures ?? [err as HubSubscriptionError];
      expect(refused.map((f) => [f.channel, f.errorCode])).toEqual([
        ['orderbook_NOPE-USD_25', 'MARKET_DOES_NOT_EXIST'],
        ['orderbook_BTC-USD_7', 'INVALID_CHANNEL'],
      ]);
      const rec = recordStreams(g);
      const placed = await g.placeOrder(limit('BUY', '28000', '0.1'));
      await eventually(() => expect(of(rec.messages, 'order').map((m) => m.delta.id)).toEqual([placed.id]));
      rec.stop();
    });

    it('the connection epoch is at least 1 once subscribed; close() completes it and later subscriptions fail', async () => {
      const t = await fresh();
      await t.g.streams.subscribe(['order']);
      const epochs: number[] = [];
      let completed = false;
      t.g.streams.connectionEpoch$.subscribe({ next: (e) => epochs.push(e), complete: () => (completed = true) });
      expect(epochs.at(-1)).toBeGreaterThanOrEqual(1);
      await t.g.close();
      expect(completed).toBe(true);
      await expect(t.g.streams.subscribe(['order'])).rejects.toThrow();
    });
  });
}
