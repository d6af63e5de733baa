/**
 * The classic transport reads the real service's frames exactly as it reads the simulator's.
 *
 * Real frames come from test/fixtures/v3-capture (the 2021 cryptofeed capture of socket-v3.bittrex.com; source and
 * licence notice in that folder's README.txt and LICENSE.cryptofeed.txt). A small fake server replays them over a
 * real socket, so the transport meets the service's actual init frame, reply frames, group-token frames (`G`),
 * keep-alives and pushes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { parseClassicServerFrame, type ClassicServerFrame } from '../../../../src/bittrex/hub/classic-transport.js';
import { decodePayload } from '../../../../src/bittrex/hub/codec.js';
import { WireFormatError } from '../../../../src/core/errors.js';
import { loadCapture } from '../../../fixtures/v3-capture/load-capture.js';
import { RawClassicClient } from '../../../server/hub/hub-test-kit.js';
import { closedEvent, recorded, takeMessages, useTestHub } from './transport-kit.js';

const capture = loadCapture();
const realFrames = capture.frames.map((f) => f.text);

const hub = useTestHub();

/**
 * A classic server that negotiates and starts like the real one, sends `initFrame`, and answers every invocation
 * with `reply(id)` followed by `after` (frames sent verbatim).
 */
async function fakeClassicServer(initFrame: string, reply: (id: string) => string, after: string[]): Promise<{ url: string; close(): Promise<void> }> {
  const wss = new WebSocketServer({ noServer: true });
  const http: Server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(req.url?.includes('/negotiate') ? '{"ConnectionToken":"t","TryWebSockets":true,"ProtocolVersion":"1.5"}' : '{"Response":"started"}');
  });
  http.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.send(initFrame);
      ws.on('message', (d) => {
        ws.send(reply(String((JSON.parse(String(d)) as { I: number }).I)));
        for (const f of after) ws.send(f);
      });
    }),
  );
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/signalr`,
    async close() {
      wss.close();
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    },
  };
}

/** A parsed frame with the values that legitimately differ (cursor, payload text) replaced by their types. */
function shape(f: ClassicServerFrame): unknown {
  if (f.kind !== 'messages') return f;
  return { ...f, cursor: typeof f.cursor, messages: f.messages.map((m) => ({ ...m, args: m.args.map((a) => typeof a) })) };
}

describe('classic frames: real capture versus simulator', () => {
  it('every frame of the capture parses, and every push payload decodes', () => {
    const counts: Record<string, number> = {};
    for (const text of realFrames) {
      const f = parseClassicServerFrame(text);
      counts[f.kind] = (counts[f.kind] ?? 0) + 1;
      if (f.kind === 'messages') for (const m of f.messages) for (const a of m.args) decodePayload(a as string);
    }
    expect(counts).toMatchObject({ messages: expect.any(Number), result: expect.any(Number), keepAlive: expect.any(Number) });
    expect(counts.messages).toBeGreaterThan(1000);
  });

  it('a real order-book push and the simulator push of the same payload parse to the same shape', async () => {
    const realText = realFrames.find((t) => t.includes('"orderBook"'))!;
    const real = parseClassicServerFrame(realText);
    const payload = decodePayload((real as { messages: { args: string[] }[] }).messages[0]!.args[0]!) as object;
    expect(payload).toMatchObject({ marketSymbol: 'BTC-EUR', depth: 500, sequence: expect.any(Number) });

    // The transport under test, and a raw client on the same hub that keeps the simulator's frame text.
    const r = recorded('classic', hub.srv);
    await r.t.connect();
    await r.t.invoke('Subscribe', ['orderbook_BTC-EUR_500']);
    const c = new RawClassicClient(hub.srv.classicUrl);
    await c.open();
    await c.subscribe('orderbook_BTC-EUR_500');
    hub.srv.hub.publish('orderbook_BTC-EUR_500', 'orderBook', payload);
    await Promise.all([c.barrier(), r.t.invoke('IsAuthenticated')]);
    const ours = parseClassicServerFrame(c.raw.find((t) => t.includes('"orderBook"'))!);

    expect(shape(ours)).toEqual(shape(real));
    expect(shape(real)).toEqual({
      kind: 'messages',
      cursor: 'string',
      init: false,
      disconnect: false,
      messages: [{ hub: 'C3', method: 'orderBook', args: ['string'] }],
    });
    const [event] = takeMessages(r);
    expect(event!.method).toBe('orderBook');
    expect(decodePayload(event!.args[0] as string)).toEqual(payload);
    expect(parseClassicServerFrame(c.raw[0]!)).toMatchObject({ kind: 'messages', init: true, messages: [] });
    c.close();
    await r.t.close();
  });

  it('the transport turns the real frame sequence into the same events the parser describes', async () => {
    const init = realFrames[0]!;
    const replyOf = (id: string): string => realFrames.find((t) => t.startsWith('{"R"'))!.replace(/"I":"\d+"/, `"I":"${id}"`);
    // The capture's own replies (ids 1-10) would answer this client's calls out of turn; replay everything else.
    const replay = realFrames.slice(1, 200).filter((t) => !t.startsWith('{"R"'));
    const fake = await fakeClassicServer(init, replyOf, replay);
    const r = recorded('classic', hub.srv, fake.url);
    await r.t.connect();
    expect(await r.t.invoke('Subscribe', ['orderbook_BTC-EUR_500'])).toEqual([{ Success: true, ErrorCode: null }]);

    const expected = replay
      .map(parseClassicServerFrame)
      .flatMap((f) => (f.kind === 'messages' ? f.messages.map((m) => ({ method: m.method, args: m.args })) : []));
    expect(expected.length).toBeGreaterThan(50);
    // The last replayed push is in when a second round trip (which replays everything again) has come back.
    await r.t.invoke('IsAuthenticated');
    expect(takeMessages(r).slice(0, expected.length)).toEqual(expected);
    await r.t.close();
    await fake.close();
  });

  it('rejects what no classic server sends', () => {
    expect(() => parseClassicServerFrame('nope')).toThrow(WireFormatError);
    expect(() => parseClassicServerFrame('{"M":{}}')).toThrow(/M is not an array/);
    expect(() => parseClassicServerFrame('{"M":[{"H":"C3","A":[]}]}')).toThrow(/M\[0\]\.M/);
  });

  it('a malformed frame from the server closes the transport with a WireFormatError', async () => {
    const fake = await fakeClassicServer('{"C":"1","S":1,"M":[]}', () => '{"M":"oops"}', []);
    const r = recorded('classic', hub.srv, fake.url);
    await r.t.connect();
    const pending = r.t.invoke('Subscribe', ['heartbeat']);
    const closed = await closedEvent(r);
    expect(closed.type === 'closed' && closed.error).toBeInstanceOf(WireFormatError);
    await expect(pending).rejects.toThrow(/connection closed before the reply/);
    await fake.close();
  });
});
