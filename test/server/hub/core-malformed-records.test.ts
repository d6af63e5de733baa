/**
 * ASP.NET Core records whose `type` or `invocationId` has the wrong shape (found by test/server/hub-fuzz.test.ts):
 * they used to be ignored in silence, so a client that sent `"type":"1"` or a numeric `invocationId` waited forever
 * for a Completion. As ASP.NET Core's JSON protocol does, the server now answers a Close record naming the problem
 * and closes that connection only; unknown integer types stay ignored (the protocol reserves them for the future).
 */
import { describe, expect, it } from 'vitest';
import { RawCoreClient, useTestHub } from './hub-test-kit.js';

const hub = useTestHub();

async function opened(): Promise<RawCoreClient> {
  const c = new RawCoreClient(hub.srv.coreUrl);
  expect(await c.open()).toEqual({});
  return c;
}

describe('Core records of the wrong shape', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['type missing', { invocationId: '1', target: 'IsAuthenticated', arguments: [] }, /missing required property 'type'/],
    ['type a string', { type: '1', invocationId: '1', target: 'IsAuthenticated', arguments: [] }, /'type' must be an integer, got "1"/],
    ['type a fraction', { type: 1.5, invocationId: '1', target: 'IsAuthenticated', arguments: [] }, /'type' must be an integer/],
    ['invocationId a number', { type: 1, invocationId: 7, target: 'IsAuthenticated', arguments: [] }, /'invocationId' must be a string, got 7/],
    ['invocationId an object', { type: 1, invocationId: { a: 1 }, target: 'Subscribe', arguments: [['heartbeat']] }, /'invocationId' must be a string/],
  ];
  for (const [name, record, error] of cases) {
    it(`${name}: Close record with the reason, only that connection closes`, async () => {
      const c = await opened();
      const other = await opened();
      c.sendRaw(JSON.stringify(record) + '\x1e');
      expect(await c.records.next((r) => r.type === 7)).toEqual({ type: 7, error: expect.stringMatching(error), allowReconnect: true });
      await c.closed;
      expect((await other.invoke('IsAuthenticated', [])).result).toBe(false);
      other.close();
    });
  }

  it('unknown integer types and a null invocationId are no protocol error', async () => {
    const c = await opened();
    c.sendRaw('{"type":99,"invocationId":"z"}\x1e{"type":1,"invocationId":null,"target":"IsAuthenticated","arguments":[]}\x1e');
    expect(await c.invoke('IsAuthenticated', [])).toEqual({ type: 3, invocationId: '1', result: false });
    expect(c.records.all.filter((r) => r.type !== 6)).toEqual([{}, { type: 3, invocationId: '1', result: false }]);
    c.close();
  });
});
