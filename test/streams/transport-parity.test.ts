/**
 * The @microsoft/signalr (core) transport receives the same decoded messages as the classic one: two gateways
 * on the same simulator, one per flavour, subscribed to the same public and private channels while a
 * participant trades, see the same typed messages in the same order. (test/bittrex/hub/transports/
 * transport-parity.test.ts shows the same for the still-encoded frames of a hand-published sequence.)
 */
import { isDeepStrictEqual } from 'node:util';
import { afterEach, expect, it, vi } from 'vitest';
import { createBittrexGateway, type BittrexGateway } from '../../src/bittrex/gateway.js';
import type { StreamMessage } from '../../src/bittrex/hub/messages.js';
import { MARKET, plain, startWorld, Trader, type SimWorld } from './stream-harness.js';

let world: SimWorld;
const gateways: BittrexGateway[] = [];

afterEach(async () => {
  for (const g of gateways.splice(0)) await g.close();
  await world?.close();
});

it('classic and core gateways decode the same messages in the same order', async () => {
  world = await startWorld();
  const trader = new Trader(world, 3);
  trader.seedBook();
  const channels = [`orderbook_${MARKET}_25`, `orderbook_${MARKET}_1`, `trade_${MARKET}`, 'balance', 'order', 'execution'];
  const received = new Map<string, StreamMessage[]>();
  for (const kind of ['classic', 'core'] as const) {
    const g = createBittrexGateway({
      restUrl: world.sim.restUrl,
      hubUrl: kind === 'classic' ? world.sim.hubUrl : world.sim.coreHubUrl,
      transport: kind,
      credentials: { apiKey: world.me.apiKey, apiSecret: world.me.apiSecret },
    });
    gateways.push(g);
    const list: StreamMessage[] = [];
    received.set(kind, list);
    g.streams.messages$.subscribe((m) => list.push(m));
    await g.streams.subscribe(channels);
  }

  await trader.run(60);
  trader.touchAll();
  const { engine, me } = world;
  // Each connection receives in publication order, so once both hold the last message of every stream, both
  // hold everything published since they subscribed.
  const last = (list: StreamMessage[], name: StreamMessage['name'], pick: (m: StreamMessage) => boolean = () => true) =>
    list.filter((m) => m.name === name && pick(m)).at(-1)?.data as { sequence: number } | undefined;
  await vi.waitFor(() => {
    for (const list of received.values()) {
      expect(last(list, 'orderBook', (m) => m.name === 'orderBook' && m.data.depth === 25)?.sequence).toBe(engine.orderBook(MARKET, 25).sequence);
      expect(last(list, 'orderBook', (m) => m.name === 'orderBook' && m.data.depth === 1)?.sequence).toBe(engine.orderBook(MARKET, 1).sequence);
      expect(last(list, 'trade')?.sequence).toBe(engine.trades(MARKET).sequence);
      expect(last(list, 'balance')?.sequence).toBe(engine.funds.balances(me.accountId).sequence);
      expect(last(list, 'order')?.sequence).toBe(engine.openOrders(me.accountId).sequence);
      expect(last(list, 'execution')?.sequence).toBe(engine.lastExecution(me.accountId).sequence);
    }
  });

  const classic = received.get('classic')!;
  const core = received.get('core')!;
  expect(new Set(classic.map((m) => m.name))).toEqual(new Set(['orderBook', 'trade', 'balance', 'order', 'execution']));
  // The core gateway subscribed a moment later: compare from the first message both saw.
  const start = classic.findIndex((m) => isDeepStrictEqual(plain(m), plain(core[0])));
  expect(start).toBeGreaterThanOrEqual(0);
  expect(plain(classic.slice(start))).toEqual(plain(core));
  expect(core.length).toBeGreaterThan(100);
});
