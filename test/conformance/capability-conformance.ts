/**
 * The capability half of the ExchangeGateway conformance suite (see gateway-conformance.ts): the gateway declares
 * the same table of what it lacks that the suite runs by; each order feature it lacks is refused before it
 * reaches the exchange, with NOT_SUPPORTED and the table's reason; and each field a capability stands for (left
 * out of the other cases' comparisons when lacked) is compared here on its own, so a venue lacking it shows one
 * skipped case naming it.
 */
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { ApiError } from '../../src/core/errors.js';
import type { NewConditionalOrder } from '../../src/model/conditional-order.js';
import type { NewOrder } from '../../src/model/order.js';
import { VENUE_FEATURES, type VenueFeature } from '../../src/model/venue-features.js';
import { seqKey } from '../../src/sim/sequences.js';
import type { Capabilities } from './conformance-capabilities.js';
import { limit, M, plain, type FreshTarget } from './conformance-helpers.js';

/** One well-formed request needing each order feature. */
const NEEDS: Record<VenueFeature, NewOrder | NewConditionalOrder> = {
  marketOrders: { marketSymbol: M, direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.1') },
  ceilingOrders: { marketSymbol: M, direction: 'BUY', type: 'CEILING_MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', ceiling: dec('3000') },
  conditionalOrders: { marketSymbol: M, operand: 'LTE', triggerPrice: dec('20000') },
  fillOrKill: limit('BUY', '28000', '0.1', { timeInForce: 'FILL_OR_KILL' }),
  postOnly: limit('BUY', '28000', '0.1', { timeInForce: 'POST_ONLY_GOOD_TIL_CANCELLED' }),
};

/** Register the capability tests; `fresh` builds a seeded target per test. */
export function describeCapabilityConformance(fresh: () => Promise<FreshTarget>, caps: Capabilities): void {
  describe('capabilities', () => {
    it('the gateway declares what it lacks as the suite runs it', async () => {
      const { g } = await fresh();
      expect(g.lacks ?? {}).toEqual(caps.lacks);
    });

    const lacked = caps.missing(VENUE_FEATURES);
    it.skipIf(lacked.length === 0)(
      `each order feature the venue lacks is refused as NOT_SUPPORTED with the reason, before it reaches the exchange${lacked.length === 0 ? ' [not applicable: the venue lacks no order feature]' : ''}`,
      async () => {
        const { g, engine, me } = await fresh();
        const before = engine.sequence(seqKey.account('order', me));
        for (const f of lacked) {
          const req = NEEDS[f];
          const p = 'operand' in req ? g.placeConditionalOrder(req) : g.placeOrder(req);
          const err = await p.then(() => undefined, (e: unknown) => e);
          expect(err, f).toBeInstanceOf(ApiError);
          expect((err as ApiError).code, f).toMatch(/^NOT_SUPPORTED/);
          expect((err as ApiError).detail, f).toContain(caps.lacks[f]!.why);
        }
        expect(engine.sequence(seqKey.account('order', me))).toBe(before);
        expect(engine.openOrders(me).data).toEqual([]);
      },
    );

    caps.it(['exchangeSequences'], 'REST snapshots carry the exchange\'s stream sequences', async () => {
      const { g, engine, me } = await fresh();
      await g.placeOrder(limit('BUY', '30000', '0.1', { timeInForce: 'IMMEDIATE_OR_CANCEL' }));
      expect((await g.orderBook(M, 25)).sequence).toBe(engine.orderBook(M, 25).sequence);
      expect((await g.trades(M)).sequence).toBe(engine.trades(M).sequence);
      expect((await g.balances()).sequence).toBe(engine.funds.balances(me).sequence);
      expect((await g.openOrders()).sequence).toBe(engine.openOrders(me).sequence);
      expect((await g.lastExecution()).sequence).toBe(engine.lastExecution(me).sequence);
    });

    caps.it(['orderUpdateTimes'], 'orders carry the engine\'s updatedAt', async () => {
      const { g, engine, me } = await fresh();
      const placed = await g.placeOrder(limit('BUY', '28000', '0.1'));
      expect(plain(placed.updatedAt)).toEqual(plain(engine.getOrder(me, placed.id).updatedAt));
      const cancelled = await g.cancelOrder(placed.id);
      expect(plain(cancelled.updatedAt)).toEqual(plain(engine.getOrder(me, placed.id).updatedAt));
    });

    caps.it(['exchangeClientOrderId'], 'the exchange keeps the clientOrderId: it is on the order another client reads', async () => {
      const { g, engine, me } = await fresh();
      const clientOrderId = '6b1bd5a4-9f0b-4e8a-a3f4-1a2b3c4d5e6f';
      const placed = await g.placeOrder(limit('BUY', '28000', '0.1', { clientOrderId }));
      expect(engine.getOrder(me, placed.id).clientOrderId).toBe(clientOrderId);
    });

    caps.it(['balanceUpdateTimes'], 'balances carry the engine\'s updatedAt', async () => {
      const { g, engine, me } = await fresh();
      const times = (list: { currencySymbol: string; updatedAt?: Date }[]) => plain(list.map((b) => [b.currencySymbol, b.updatedAt]));
      expect(times((await g.balances()).data)).toEqual(times(engine.funds.balances(me).data));
    });

    caps.it(['marketDetails'], 'markets carry the engine\'s precision, tags, terms of service and prohibited countries', async () => {
      const { g, engine } = await fresh();
      type Details = { symbol: string; precision: number; tags?: string[]; associatedTermsOfService?: string[]; prohibitedIn?: string[] };
      const details = (list: Details[]) => plain(list.map((m) => [m.symbol, m.precision, m.tags, m.associatedTermsOfService, m.prohibitedIn]));
      expect(details(await g.markets())).toEqual(details(engine.markets()));
    });

    caps.it(['currencyDetails'], 'currencies carry the engine\'s tags and terms of service', async () => {
      const { g, engine } = await fresh();
      const details = (list: { symbol: string; tags?: string[]; associatedTermsOfService?: string[] }[]) =>
        plain(list.map((c) => [c.symbol, c.tags, c.associatedTermsOfService]));
      expect(details(await g.currencies())).toEqual(details(engine.currencies()));
    });

    caps.it(['exchangeExecutions'], 'executions are the exchange\'s, ids and times included', async () => {
      const { g, engine, me } = await fresh();
      await g.placeOrder(limit('BUY', '30100', '0.6', { timeInForce: 'IMMEDIATE_OR_CANCEL' })); // two fills
      expect(plain(await g.executions())).toEqual(plain(engine.executions(me)));
      expect(plain(await g.lastExecution())).toEqual(plain(engine.lastExecution(me)));
    });
  });
}
