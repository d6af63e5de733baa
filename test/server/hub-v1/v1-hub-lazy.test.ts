/**
 * The v1.1 hub builds uS / uL, uO and uB payloads only for connections that will receive them: building them (a
 * whole-book read for summaries, a hash per account id) when nobody listens was a measurable part of placing an
 * order. Over the engine, summaries are not even built by the engine until a connection subscribes to them; their
 * nonce is the engine's summaries sequence, which moves on either way, so a late subscriber sees what it missed.
 */
import { describe, expect, it, vi } from 'vitest';
import { createHmac } from 'node:crypto';
import { VirtualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { createSimEngine } from '../../../src/sim/engine.js';
import { seqKey } from '../../../src/sim/sequences.js';
import { bridgeEventsToV1Hub, v1EngineBackend } from '../../../src/server/hub-v1/v1-engine-backend.js';
import { inflateV1Payload } from '../../../src/wire/v1/hub/protocol.js';
import type { V1SummaryDelta } from '../../../src/wire/v1/hub/messages.js';
import { V1Hub } from '../../../src/server/hub-v1/v1-hub.js';

const SECRET = 'secret';

function hubWithConnection() {
  const hub = new V1Hub({
    nonceOffset: () => 1000,
    backend: {
      findKey: (k) => (k === 'key' ? { secret: SECRET, accountId: 'acct' } : undefined),
      marketName: () => undefined,
      exchangeState: () => ({ MarketName: 'USD-BTC', Buys: [], Sells: [], Fills: [] }),
      summaries: () => [],
      summariesNonce: () => 2,
    },
  });
  const pushes: { target: string; payload: unknown }[] = [];
  const conn = hub.open('c1', 'classic', {
    push: (target, argsJson) => pushes.push({ target, payload: inflateV1Payload((JSON.parse(argsJson) as string[])[0]) }),
    terminate: () => {},
  });
  return { hub, conn, pushes };
}

const summary = (): V1SummaryDelta => ({
  MarketName: 'USD-BTC', High: dec('1'), Low: dec('1'), Volume: dec('1'), Last: dec('1'), BaseVolume: dec('1'),
  TimeStamp: new Date(0), Bid: dec('1'), Ask: dec('1'), OpenBuyOrders: 0, OpenSellOrders: 0, PrevDay: dec('1'), Created: new Date(0),
});

describe('v1.1 hub payloads nobody receives', () => {
  it('are not built, and uS is numbered by the source\'s sequence, which counted every change', async () => {
    const { hub, conn, pushes } = hubWithConnection();
    const build = vi.fn(() => [summary()]);
    expect(hub.wantsSummaries).toBe(false);
    hub.summariesChanged(1, build);
    hub.summariesChanged(2, build);
    const order = vi.fn(() => ({ AccountUuid: 'acct', Type: 0, Order: {} }) as never);
    const balance = vi.fn(() => ({}) as never);
    hub.orderChanged('acct', order);
    hub.balanceChanged('acct', balance);
    expect(build).not.toHaveBeenCalled();
    expect(order).not.toHaveBeenCalled();
    expect(balance).not.toHaveBeenCalled();
    expect(pushes).toHaveLength(0);

    // Once someone listens, the payload is built once per change and the nonce shows the changes it missed.
    expect(conn.invoke('SubscribeToSummaryDeltas', [])).toBe(true);
    expect(hub.wantsSummaries).toBe(true);
    expect((conn.invoke('QuerySummaryState', []) as unknown as string).length).toBeGreaterThan(0);
    hub.summariesChanged(3, build);
    expect(build).toHaveBeenCalledTimes(1);
    expect(pushes.map((p) => [p.target, String((p.payload as { N: unknown }).N)])).toEqual([['uS', '1003']]);
    conn.closed();
    expect(hub.wantsSummaries).toBe(false);
  });

  it('over the engine: no summaries are built without a subscriber, and a late one continues the engine\'s sequence', async () => {
    const clock = new VirtualClock(Date.parse('2021-06-14T00:00:00Z'));
    const engine = createSimEngine({ clock });
    const backend = v1EngineBackend(engine);
    const summaryOf = vi.spyOn(backend, 'summaryOf');
    const hub = new V1Hub({ backend, clock, nonceOffset: () => 1000 });
    const stop = bridgeEventsToV1Hub(engine, hub, backend);
    const lp = engine.createParticipant({ BTC: dec('10'), USD: dec('1000000') });
    const taker = engine.createParticipant({ USD: dec('1000000') });
    const trade = async () => {
      engine.placeOrder(lp, { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('30000') });
      engine.placeOrder(taker, { marketSymbol: 'BTC-USD', direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.01'), limit: dec('30000') });
      await clock.advance(1000);
    };
    try {
      await trade();
      await trade();
      // Nobody subscribed: the engine built no summary for the hub, yet its sequence (REST's Sequence) moved on.
      expect(engine.bus.wants('marketSummaries')).toBe(false);
      expect(summaryOf).not.toHaveBeenCalled();
      const missed = engine.sequence(seqKey.summaries());
      expect(missed).toBeGreaterThanOrEqual(2);

      const pushes: { target: string; payload: unknown }[] = [];
      const conn = hub.open('c1', 'classic', {
        push: (target, argsJson) => pushes.push({ target, payload: inflateV1Payload((JSON.parse(argsJson) as string[])[0]) }),
        terminate: () => {},
      });
      expect(conn.invoke('SubscribeToSummaryDeltas', [])).toBe(true);
      expect(engine.bus.wants('marketSummaries')).toBe(true);
      const state = inflateV1Payload(conn.invoke('QuerySummaryState', []) as string) as { N: unknown };
      expect(String(state.N)).toBe(String(1000 + missed));
      await trade();
      const uS = pushes.filter((p) => p.target === 'uS').map((p) => String((p.payload as { N: unknown }).N));
      expect(uS).toEqual([String(1000 + missed + 1)]);
      conn.closed();
      expect(engine.bus.wants('marketSummaries')).toBe(false);
    } finally {
      stop();
      engine.dispose();
    }
  });

  it('are built once an authenticated connection of that account is open', async () => {
    const { hub, conn, pushes } = hubWithConnection();
    const challenge = conn.invoke('GetAuthContext', ['key']) as string;
    expect(conn.invoke('Authenticate', ['key', createHmac('sha512', SECRET).update(challenge).digest('hex')])).toBe(true);
    const other = vi.fn(() => ({}) as never);
    hub.balanceChanged('someone-else', other);
    expect(other).not.toHaveBeenCalled();
    const balance = vi.fn(() => ({ Currency: 'BTC' }) as never);
    hub.balanceChanged('acct', balance);
    expect(balance).toHaveBeenCalledTimes(1);
    expect(pushes.map((p) => p.target)).toEqual(['uB']);
  });
});
