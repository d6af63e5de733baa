import { afterEach, describe, expect, it } from 'vitest';
import { HubAuthError, HubConnectionLostError } from '../../../src/bittrex/hub/hub-errors.js';
import { balancePayload, harness, T0, type Harness } from './hub-client-harness.js';

const MIN = 60_000;

let h: Harness;
afterEach(async () => {
  await h?.client.stop();
});

describe('hub client: authentication renewal', () => {
  it('renews on authenticationExpiring while still authenticated: private channels asked again, no resync', async () => {
    h = harness();
    h.heartbeats();
    await h.client.start();
    await h.client.subscribe(['order']);
    await h.clock.advance(9 * MIN);
    const authsBefore = h.hub.calls('Authenticate').length;

    h.hub.current.push('authenticationExpiring', []);
    await h.clock.advance(0);

    expect(h.hub.calls('Authenticate')).toHaveLength(authsBefore + 1);
    expect(h.hub.calls('IsAuthenticated').length).toBeGreaterThan(0);
    // After connect and subscribe(['order']), each renewal (the scheduled one at 9 minutes and this one) asks
    // for the private channels again (the race below says why) and nothing else.
    const calls = h.hub.calls('Subscribe').map((c) => c.args);
    expect(calls.slice(0, 2)).toEqual([[['heartbeat']], [['order']]]);
    expect(calls.slice(2)).toEqual([[['order']], [['order']]]);
    expect(h.hub.current.subscriptions.has('order')).toBe(true);
    expect(h.lifecycle.filter((e) => e.type === 'authenticated' && e.renewal)).not.toHaveLength(0);
    expect(h.lifecycle.some((e) => e.type === 'resubscribed')).toBe(false);
    expect(h.hub.transports).toHaveLength(1);
  });

  it('renews proactively before the 10-minute lifetime ends when authenticationExpiring never arrives', async () => {
    h = harness();
    h.heartbeats();
    await h.client.start();
    const first = h.hub.calls('Authenticate')[0]!.at!;

    await h.clock.advanceTo(first + 10 * MIN - 1);
    const auths = h.hub.calls('Authenticate');
    expect(auths.length).toBeGreaterThanOrEqual(2);
    expect(auths[1]!.at! - first).toBeLessThan(10 * MIN);

    // And it keeps doing so, every lifetime, on the same connection.
    await h.clock.advance(30 * MIN);
    expect(h.hub.calls('Authenticate').length).toBeGreaterThanOrEqual(5);
    expect(h.hub.transports).toHaveLength(1);
    expect(h.errors).toEqual([]);
  });

  it('after a lapse re-authenticates and re-subscribes the private channels the server cancelled', async () => {
    h = harness();
    h.heartbeats();
    await h.client.start();
    await h.client.subscribe(['order', 'balance', 'trade_BTC-USD']);

    h.hub.current.expireAuth(); // the server ended authentication and dropped the private subscriptions
    expect(h.hub.publish('balance', 'balance', balancePayload(1))).toBe(0);
    h.hub.current.push('authenticationExpiring', []);
    await h.clock.advance(0);

    const resubscribe = h.hub.calls('Subscribe').at(-1)!;
    expect(resubscribe.args).toEqual([['order', 'balance']]);
    expect(h.hub.current.authenticated).toBe(true);
    const event = h.lifecycle.find((e) => e.type === 'resubscribed');
    expect(event).toMatchObject({ type: 'resubscribed', epoch: 1, channels: ['order', 'balance'], reason: 'auth-lapsed' });

    expect(h.hub.publish('balance', 'balance', balancePayload(2))).toBe(1);
    expect(h.messages.filter((m) => m.name === 'balance')).toHaveLength(1);
    expect(h.hub.transports).toHaveLength(1);
  });

  it('a private message that arrives with the resubscription answer follows the resubscribed event', async () => {
    h = harness();
    h.heartbeats();
    await h.client.start();
    await h.client.subscribe(['order', 'balance', 'trade_BTC-USD']);
    const seen: string[] = [];
    h.client.lifecycle$.subscribe((e) => seen.push(e.type));
    h.client.messages$.subscribe((m) => seen.push(`message ${m.name}`));
    h.hub.current.expireAuth();
    // The server sends a balance update of the new subscription before its answer to Subscribe reaches the client
    // (on a real socket: in the same read): the stream must learn of the lapse before it sees that message.
    h.hub.handlers.set('Subscribe', (args, t) => {
      const channels = args[0] as string[];
      for (const c of channels) t.subscriptions.add(c);
      if (channels.includes('balance')) h.hub.publish('balance', 'balance', balancePayload(3));
      return channels.map(() => ({ Success: true, ErrorCode: null }));
    });
    h.hub.current.push('authenticationExpiring', []);
    await h.clock.advance(0);
    expect(seen.filter((x) => x === 'resubscribed' || x === 'message balance')).toEqual(['resubscribed', 'message balance']);
    // Nothing stays held: later messages flow at once.
    h.hub.publish('balance', 'balance', balancePayload(4));
    expect(seen.filter((x) => x === 'message balance')).toHaveLength(2);
  });

  it('authentication that ends between IsAuthenticated and Authenticate does not leave the private streams dead', async () => {
    h = harness();
    h.heartbeats();
    await h.client.start();
    await h.client.subscribe(['order', 'balance', 'trade_BTC-USD']);
    // The server answers "authenticated", then its authentication ends before our Authenticate arrives: the
    // private subscriptions are cancelled, and from now on every IsAuthenticated says true.
    let once = true;
    h.hub.handlers.set('IsAuthenticated', (_args, t) => {
      const answer = t.authenticated;
      if (once) {
        once = false;
        t.expireAuth();
      }
      return answer;
    });
    h.hub.current.push('authenticationExpiring', []);
    await h.clock.advance(0);
    expect(h.hub.current.subscriptions.has('order')).toBe(true);
    expect(h.hub.current.subscriptions.has('balance')).toBe(true);
    expect(h.hub.publish('balance', 'balance', balancePayload(1))).toBe(1);
    expect(h.messages.filter((m) => m.name === 'balance')).toHaveLength(1);
    await h.clock.advance(30 * 60_000); // later renewals keep them
    expect(h.hub.publish('balance', 'balance', balancePayload(2))).toBe(1);
    expect(h.errors).toEqual([]);
    expect(h.hub.transports).toHaveLength(1);
  });

  it('takes authentication for lapsed when the renewal comes within seconds of its end, whatever the server says', async () => {
    // The server's 10 minutes began a one-way trip before our clock saw its answer: 2 s before the end by our
    // clock, the private subscriptions may already be gone, so the streams resync rather than trust them.
    h = harness({ authRenewAfterMs: 10 * MIN - 2_000 });
    h.heartbeats();
    await h.client.start();
    await h.client.subscribe(['execution']);
    h.hub.handlers.set('IsAuthenticated', () => true);
    await h.clock.advanceTo(T0 + 10 * MIN - 1_000);
    expect(h.lifecycle.find((e) => e.type === 'resubscribed')).toMatchObject({ channels: ['execution'], reason: 'auth-lapsed' });
  });

  it('knows from its own clock that authentication lapsed when the renewal comes late', async () => {
    // Renewal only at 11 minutes: the server has already cancelled private subscriptions by then.
    h = harness({ authRenewAfterMs: 11 * MIN });
    h.heartbeats();
    await h.client.start();
    await h.client.subscribe(['execution']);
    h.hub.handlers.set('IsAuthenticated', () => true); // even a server that answers wrongly cannot mislead it
    await h.clock.advanceTo(T0 + 10 * MIN);
    h.hub.current.expireAuth();

    await h.clock.advanceTo(T0 + 11 * MIN + 1);
    expect(h.hub.calls('Subscribe').at(-1)!.args).toEqual([['execution']]);
    expect(h.hub.current.subscriptions.has('execution')).toBe(true);
    expect(h.lifecycle.some((e) => e.type === 'resubscribed')).toBe(true);
  });

  it('drops the connection when renewal is refused, and a new connection authenticates afresh', async () => {
    h = harness();
    h.heartbeats();
    await h.client.start();
    await h.client.subscribe(['order']);
    let refuse = true;
    h.hub.handlers.set('Authenticate', (_args, t) => {
      if (refuse) {
        refuse = false;
        return { Success: false, ErrorCode: 'INVALID_TIMESTAMP' };
      }
      t.authenticated = true;
      return { Success: true };
    });

    h.hub.current.push('authenticationExpiring', []);
    await h.clock.advance(0);
    const authError = h.errors.find((e): e is HubAuthError => e instanceof HubAuthError);
    expect(authError?.errorCode).toBe('INVALID_TIMESTAMP');
    expect(authError?.renewal).toBe(true);
    expect(h.errors.some((e) => e instanceof HubConnectionLostError && e.reason === 'auth-renewal-failed')).toBe(true);
    expect(h.hub.transports[0]!.closed).toBe(true);

    await h.clock.advance(5_000);
    expect(h.hub.transports).toHaveLength(2);
    expect(h.hub.calls('Authenticate', 1)).toHaveLength(1);
    expect(h.hub.calls('Subscribe', 1).map((c) => c.args)).toEqual([[['heartbeat', 'order']]]);
    expect(h.lifecycle.at(-1)).toMatchObject({ type: 'reconnected', epoch: 2, reason: 'auth-renewal-failed' });
  });

  it('ignores authenticationExpiring on a connection without credentials', async () => {
    h = harness({ credentials: undefined });
    await h.client.start();
    h.hub.current.push('authenticationExpiring', []);
    await h.clock.advance(0);
    expect(h.hub.calls('Authenticate')).toHaveLength(0);
    expect(h.errors).toEqual([]);
  });
});
