/**
 * Requests Node's HTTP parser refuses before any handler runs (found by test/server/rest-fuzz.test.ts): an unknown
 * or lower-case method and a request line over the 16 KiB header limit used to get Node's bare `400 Bad Request` /
 * `431` with an empty body. They answer a JSON `{code, detail}` like every other refusal, saying what was wrong and
 * where, with the same statuses; the connection is closed and the server goes on serving.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimFixture, startFixture } from './sim-fixture.js';

/** Write `raw` on a fresh connection and read until the server closes it. */
async function exchange(port: number, raw: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (d: Buffer) => chunks.push(d));
  socket.write(raw);
  await new Promise<void>((resolve, reject) => {
    socket.once('close', () => resolve());
    socket.once('error', reject);
  });
  return Buffer.concat(chunks).toString('utf8');
}

/** The responses in `text`, split on status lines: status and parsed JSON body. */
function responses(text: string): Array<{ status: number; json: any }> {
  return text
    .split(/(?=HTTP\/1\.1 \d{3})/)
    .filter(Boolean)
    .map((r) => {
      const [head, body] = r.split('\r\n\r\n');
      return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head!)![1]), json: body ? JSON.parse(body) : undefined };
    });
}

describe('HTTP requests the parser refuses', () => {
  let fx: SimFixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => {
    await fx.close();
  });

  it('an unknown method gets 400 BAD_REQUEST naming the request line', async () => {
    const [r] = responses(await exchange(fx.sim.port, 'FOO /v3/ping HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(r).toEqual({ status: 400, json: { code: 'BAD_REQUEST', detail: expect.stringContaining('FOO /v3/ping') } });
    expect(r!.json.detail).toMatch(/unknown HTTP method/);
  });

  it('a request line over the header limit gets 431 with a JSON body saying so', async () => {
    const [r] = responses(await exchange(fx.sim.port, `GET /v3/markets/${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(r).toEqual({ status: 431, json: { code: 'BAD_REQUEST', detail: expect.stringMatching(/exceed 16384 bytes in "GET \/v3\/markets\/x+…"/) } });
  });

  it('a bad request after a good one on a keep-alive connection: the good one is answered, then the refusal', async () => {
    const text = await exchange(fx.sim.port, 'GET /v3/ping HTTP/1.1\r\nHost: x\r\n\r\nget /v3/ping HTTP/1.1\r\nHost: x\r\n\r\n');
    const rs = responses(text);
    expect(rs.map((r) => r.status)).toEqual([200, 400]);
    expect(rs[0]!.json).toEqual({ serverTime: expect.any(Number) });
    expect(rs[1]!.json.code).toBe('BAD_REQUEST');
    expect((await fx.raw('GET', '/ping')).status).toBe(200);
  });
});
