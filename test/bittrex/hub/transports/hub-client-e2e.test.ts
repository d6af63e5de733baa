/**
 * End to end over real sockets: the hub client on each transport against the simulator's hub — authenticate,
 * subscribe, decode pushes, and come back (reconnect, re-authenticate, resubscribe) after the server drops every
 * socket.
 */
import { firstValueFrom } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { createHubClient } from '../../../../src/bittrex/hub/hub-client.js';
import { createHubTransport } from '../../../../src/bittrex/hub/transport.js';
import { KEYS, useTestHub } from './transport-kit.js';

// The client runs on the system clock, so the hub's (virtual) clock starts at the real time for Authenticate's
// timestamp window; hub timers still only move when a test advances them.
const hub = useTestHub({ startMs: Date.now() });

describe.each(['classic', 'core'] as const)('hub client over the %s transport', (kind) => {
  it('streams decoded messages and recovers from a dropped socket', async () => {
    const url = kind === 'classic' ? hub.srv.classicUrl : hub.srv.coreUrl;
    const client = createHubClient({
      transport: () => createHubTransport(kind, { url }),
      credentials: { apiKey: KEYS.master.apiKey, apiSecret: KEYS.master.secret },
      reconnect: { initialDelayMs: 10, maxDelayMs: 50, jitter: 0 },
    });
    await client.start();
    const results = await client.subscribe(['orderbook_BTC-USD_25', 'order']);
    expect(results.map((r) => r.success)).toEqual([true, true]);

    const book = (sequence: number) => ({
      marketSymbol: 'BTC-USD',
      depth: 25,
      sequence,
      bidDeltas: [{ quantity: '1.00000000', rate: '30000.00000000' }],
      askDeltas: [],
    });
    let got = firstValueFrom(client.stream('orderBook'));
    hub.srv.hub.publish('orderbook_BTC-USD_25', 'orderBook', book(5));
    expect((await got).message).toMatchObject({ marketSymbol: 'BTC-USD', depth: 25, sequence: 5 });

    const reconnected = firstValueFrom(client.reconnects$);
    for (const c of hub.srv.hub.connections().filter((x) => x.flavour === kind)) hub.srv.hub.close(c.id);
    await reconnected;
    // `reconnected` comes after re-authentication and resubscription on the new socket.
    const conn = hub.srv.hub.connections().filter((x) => x.flavour === kind);
    expect(conn).toHaveLength(1);
    expect(conn[0]!.accountId).toBe(KEYS.master.accountId);
    expect([...conn[0]!.subscriptions].sort()).toEqual(['heartbeat', 'order', 'orderbook_BTC-USD_25']);

    got = firstValueFrom(client.stream('orderBook'));
    hub.srv.hub.publish('orderbook_BTC-USD_25', 'orderBook', book(6));
    expect((await got).message).toMatchObject({ sequence: 6 });
    await client.stop();
    // The server forgets the socket when its close handshake ends, which may be just after the client's.
    await vi.waitFor(() => expect(hub.srv.hub.connections().filter((x) => x.flavour === kind)).toEqual([]));
  });
});
