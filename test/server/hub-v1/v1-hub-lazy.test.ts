/**
 * The v1.1 hub builds uS / uL, uO and uB payloads only for connections that will receive them: the engine reports
 * every change, and building them (a whole-book read for summaries, a hash per account id) when nobody listens
 * was a measurable part of placing an order. Numbering stays as before: the summary nonce moves on either way.
 */
import { describe, expect, it, vi } from 'vitest';
import { createHmac } from 'node:crypto';
import { dec } from '../../../src/core/decimal.js';
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
  it('are not built, and the summary nonce still counts every change', async () => {
    const { hub, conn, pushes } = hubWithConnection();
    const build = vi.fn(() => [summary()]);
    hub.summariesChanged(build);
    hub.summariesChanged(build);
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
    hub.summariesChanged(build);
    expect(build).toHaveBeenCalledTimes(1);
    expect(pushes.map((p) => [p.target, String((p.payload as { N: unknown }).N)])).toEqual([['uS', '1003']]);
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
