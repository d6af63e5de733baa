/**
 * One connection token, one connection: a socket opened on a token that already has one (here the v1.1 hub `c2`
 * after the v3 hub `c3`) replaces the first, which is closed. It was left open and forgotten: no keep-alives, out
 * of `abort`'s reach (found by an attack pass; only a client misusing its own token could do it).
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClassicClient } from '../hub/hub-test-kit.js';
import { startFixture, type SimFixture } from '../sim-fixture.js';

let fx: SimFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => {
  await fx.close();
});

describe('the classic endpoint', () => {
  it('closes the first socket of a token when a second one opens on it, whatever hub it names', async () => {
    const first = new RawClassicClient(fx.sim.hubUrl, 'c3');
    await first.open();
    const q = new URLSearchParams({ transport: 'webSockets', clientProtocol: '1.5', connectionToken: first.token, connectionData: '[{"name":"c2"}]' });
    const second = new WebSocket(`${fx.sim.hubUrl.replace(/^http/, 'ws')}/connect?${q}`);
    const init = await new Promise<string>((resolve, reject) => {
      second.once('message', (d) => resolve(String(d)));
      second.once('error', reject);
    });
    expect(JSON.parse(init)).toMatchObject({ S: 1 });
    expect(await first.closed).toBe(1000);
    expect(second.readyState).toBe(WebSocket.OPEN);
    second.terminate();
  });
});
