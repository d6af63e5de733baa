/**
 * Nothing thrown while serving one hub connection may leave its socket or request handler (issue 9: a RangeError
 * from one frame ended the whole process, and the paper bot running it in-process). A failure is reported and
 * closes that connection only; the others go on. The failure is injected by making the hub's `open` throw, which
 * both flavours call while serving the client (Core: at the handshake record; classic: at the upgrade).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { type HubServer, startHubServer } from '../../../src/server/hub/attach-hub.js';
import { RawClassicClient, RawCoreClient, testBackend } from './hub-test-kit.js';

describe('a failure inside one hub connection', () => {
  let srv: HubServer;
  const reported: string[] = [];
  beforeAll(async () => {
    srv = await startHubServer({ backend: testBackend(), clock: new VirtualClock(Date.parse('2021-06-14T01:53:38Z')), onInternalError: (err, where) => reported.push(`${where}: ${(err as Error).message}`) });
  });
  afterAll(async () => {
    await srv.close();
  });

  /** Make the hub's next `open` throw, as a bug would. */
  function breakNextOpen(): void {
    const hub = srv.hub;
    const real = hub.open.bind(hub);
    hub.open = () => {
      hub.open = real;
      throw new Error('injected failure');
    };
  }

  it('Core: closes that connection (1011) and reports it; other connections keep working', async () => {
    const classic = new RawClassicClient(srv.classicUrl);
    await classic.open();
    const core = new RawCoreClient(srv.coreUrl);
    expect(await core.open()).toEqual({});
    breakNextOpen();
    const victim = new RawCoreClient(srv.coreUrl);
    void victim.open().catch(() => undefined);
    expect(await victim.closed).toBe(1011);
    expect(reported.some((r) => /^core hub connection .*: injected failure$/.test(r))).toBe(true);
    expect((await core.invoke('IsAuthenticated', [])).result).toBe(false);
    expect((await classic.invoke('IsAuthenticated', [])).R).toBe(false);
    classic.close();
    core.close();
  });

  it('classic: the socket of that client only is dropped and is reported; the server keeps serving', async () => {
    const other = new RawCoreClient(srv.coreUrl);
    await other.open();
    breakNextOpen();
    const victim = new RawClassicClient(srv.classicUrl);
    void victim.open().catch(() => undefined);
    await victim.closed;
    expect(reported.some((r) => /^GET \/signalr\/connect: injected failure$/.test(r))).toBe(true);
    expect((await other.invoke('IsAuthenticated', [])).result).toBe(false);
    const again = new RawClassicClient(srv.classicUrl);
    await again.open();
    expect((await again.invoke('IsAuthenticated', [])).R).toBe(false);
    other.close();
    again.close();
  });
});

describe('a hub method that fails with a fault of ours', () => {
  it('answers "internal error" to the caller and reports the fault, on both flavours', async () => {
    const reported: string[] = [];
    // The backend throws where the hub asks it whether a market exists (a Subscribe to a market's channel).
    const backend = { ...testBackend(), marketExists: (): boolean => { throw new Error('injected backend failure'); } };
    const srv = await startHubServer({ backend, clock: new VirtualClock(Date.parse('2021-06-14T01:53:38Z')), onInternalError: (err, where) => reported.push(`${where}: ${(err as Error).message}`) });
    try {
      const classic = new RawClassicClient(srv.classicUrl);
      await classic.open();
      expect((await classic.invoke('Subscribe', [['ticker_BTC-USD']])).E).toBe('internal error in Subscribe');
      const core = new RawCoreClient(srv.coreUrl);
      await core.open();
      expect((await core.invoke('Subscribe', [['ticker_BTC-USD']])).error).toBe('internal error in Subscribe');
      expect(reported).toEqual([
        'classic hub c3 method Subscribe: injected backend failure',
        'core hub method Subscribe: injected backend failure',
      ]);
      classic.close();
      core.close();
    } finally {
      await srv.close();
    }
  });
});
