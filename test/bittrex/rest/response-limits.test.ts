/**
 * A hostile or broken server cannot hold a REST request forever or fill the bot's memory: a body dripped slower
 * than the idle timeout is cut at three timeouts, an endless body at 64 MiB (found by an attack pass: a bot stuck
 * on its first GET /markets with no line said, or 3 GB in 8 s). Both clients (v3 and v1.1) and the hub's
 * negotiate are covered; the errors say which request and why.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ClassicHubTransport } from '../../../src/bittrex/hub/classic-transport.js';
import { createRestClient } from '../../../src/bittrex/rest/client.js';
import { createThrottler } from '../../../src/bittrex/rest/throttler.js';
import { createV1RestClient } from '../../../src/bittrex/v1/rest/v1-rest-client.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A server whose every answer is 200 and a body written by `write` (until the socket goes). */
async function hostile(write: (res: import('node:http').ServerResponse) => void): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    write(res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const drip = (res: import('node:http').ServerResponse) => {
  res.write('{');
  const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), 50);
};
const endless = (res: import('node:http').ServerResponse) => {
  const chunk = Buffer.alloc(1 << 20, 0x20);
  res.write('[');
  const more = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', more);
  };
  more();
};

describe('REST responses a server cannot make the client hold', () => {
  it('a body dripped forever is cut at three idle timeouts (v3 and v1.1)', async () => {
    const base = await hostile(drip);
    const v3 = createRestClient({ baseUrl: `${base}/v3`, timeoutMs: 200, throttler: createThrottler({ callsPerMinute: 1e9 }) });
    await expect(v3.ping.get()).rejects.toThrow(/GET \/v3\/ping: the response body did not arrive whole within 600 ms/);
    await v3.close();
    const v1 = createV1RestClient({ baseUrl: `${base}/api/v1.1`, timeoutMs: 200 });
    await expect(v1.public.getMarkets()).rejects.toThrow(/the response body did not arrive whole within 600 ms/);
    await v1.close();
  });

  it('a body without end is refused past 64 MiB, without holding more', async () => {
    const base = await hostile(endless);
    const v3 = createRestClient({ baseUrl: `${base}/v3`, throttler: createThrottler({ callsPerMinute: 1e9 }) });
    await expect(v3.ping.get()).rejects.toThrow(/GET \/v3\/ping: the response body is over 67108864 bytes; not read further/);
    await v3.close();
  });

  it("a hub's negotiate answering without end is refused past 1 MiB", async () => {
    const base = await hostile(endless);
    const hub = new ClassicHubTransport({ url: `${base}/signalr` });
    await expect(hub.connect()).rejects.toThrow(/negotiate answered more than 1048576 bytes; not read further/);
    await hub.close();
  });
});
