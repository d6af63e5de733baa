/**
 * A v1.1 hub call the server never answers fails after the invoke timeout and drops the connection (its owner
 * reconnects), as on the v3 hub: a bot's start waited forever on such a server, saying nothing (attack pass).
 */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { HubTransport, TransportEvent } from '../../../../src/bittrex/hub/transport.js';
import { V1HubClient } from '../../../../src/bittrex/v1/hub/v1-hub-client.js';

describe('V1HubClient calls', () => {
  it('fail when unanswered within invokeTimeoutMs, and close the connection', async () => {
    let closed = 0;
    const silent: HubTransport = {
      connect: async () => undefined,
      invoke: () => new Promise(() => undefined),
      events$: new Subject<TransportEvent>(),
      close: async () => void closed++,
    };
    const c = new V1HubClient({ url: 'http://127.0.0.1:1/signalr', transport: silent, invokeTimeoutMs: 50 });
    await c.connect();
    await expect(c.queryExchangeState('USD-BTC')).rejects.toThrow(/QueryExchangeState: no answer within 50 ms; the connection is dropped/);
    expect(closed).toBe(1);
  });

  it('an answered call is not affected', async () => {
    const answering: HubTransport = {
      connect: async () => undefined,
      invoke: async () => true,
      events$: new Subject<TransportEvent>(),
      close: async () => undefined,
    };
    const c = new V1HubClient({ url: 'http://127.0.0.1:1/signalr', transport: answering, invokeTimeoutMs: 50 });
    expect(await c.subscribeToExchangeDeltas('USD-BTC')).toBe(true);
  });
});
