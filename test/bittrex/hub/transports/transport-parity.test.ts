/**
 * Both flavours see the same thing: for the same publications the classic transport and the @microsoft/signalr
 * transport emit the same method names with the same (still encoded) arguments, in the same order.
 */
import { expect, it } from 'vitest';
import { decodePayload } from '../../../../src/bittrex/hub/codec.js';
import { KEYS, authArgs, recorded, takeMessages, useTestHub } from './transport-kit.js';

const hub = useTestHub();

it('classic and core transports receive identical pushes', async () => {
  const classic = recorded('classic', hub.srv);
  const core = recorded('core', hub.srv);
  await Promise.all([classic.t.connect(), core.t.connect()]);
  const channels = ['heartbeat', 'trade_BTC-USD', 'tickers', 'candle_ETH-BTC_MINUTE_1', 'balance', 'subaccounts_execution'];
  for (const r of [classic, core]) {
    expect(await r.t.invoke('Authenticate', ...authArgs(KEYS.master, hub.clock.now()))).toEqual({ Success: true, ErrorCode: null });
    expect(await r.t.invoke('Subscribe', channels)).toEqual(channels.map(() => ({ Success: true, ErrorCode: null })));
  }

  const master = KEYS.master.accountId;
  for (let i = 1; i <= 5; i++) {
    hub.srv.hub.publish('trade_BTC-USD', 'trade', { sequence: i, marketSymbol: 'BTC-USD', deltas: [{ id: `t${i}`, rate: '1' }] });
    hub.srv.hub.publish('tickers', 'tickers', { sequence: i, deltas: [{ symbol: 'BTC-USD', lastTradeRate: String(i) }] });
  }
  hub.srv.hub.publish('candle_ETH-BTC_MINUTE_1', 'candle', { sequence: 1, marketSymbol: 'ETH-BTC', interval: 'MINUTE_1', delta: {} });
  hub.srv.hub.publish('balance', 'balance', { accountId: master, sequence: 4, delta: { currencySymbol: 'BTC' } }, { accountId: master });
  hub.srv.hub.publish('subaccounts_execution', 'execution', { accountId: KEYS.sub.accountId, sequence: 2, deltas: [] }, {
    accountId: KEYS.sub.accountId,
  });
  await hub.clock.advance(10_000);
  hub.srv.hub.expireAuth(); // no push: expiry is silent, only the warning is a message
  await Promise.all([classic.t.invoke('IsAuthenticated'), core.t.invoke('IsAuthenticated')]);

  const a = takeMessages(classic);
  const b = takeMessages(core);
  expect(a.length).toBe(5 * 2 + 3 + 2);
  expect(b).toEqual(a);
  expect(a.filter((m) => m.method === 'heartbeat')).toEqual([
    { method: 'heartbeat', args: [] },
    { method: 'heartbeat', args: [] },
  ]);
  expect(decodePayload(a.find((m) => m.method === 'execution')!.args[0] as string)).toEqual({
    accountId: KEYS.sub.accountId,
    sequence: 2,
    deltas: [],
  });
  await Promise.all([classic.t.close(), core.t.close()]);
});

it('authenticationExpiring arrives on both flavours with no arguments', async () => {
  const classic = recorded('classic', hub.srv);
  const core = recorded('core', hub.srv);
  await Promise.all([classic.t.connect(), core.t.connect()]);
  for (const r of [classic, core]) await r.t.invoke('Authenticate', ...authArgs(KEYS.other, hub.clock.now()));
  await hub.clock.advance(9 * 60_000);
  await Promise.all([classic.t.invoke('IsAuthenticated'), core.t.invoke('IsAuthenticated')]);
  const expiring = { method: 'authenticationExpiring', args: [] };
  expect(takeMessages(classic)).toEqual([expiring]);
  expect(takeMessages(core)).toEqual([expiring]);
  await Promise.all([classic.t.close(), core.t.close()]);
});
