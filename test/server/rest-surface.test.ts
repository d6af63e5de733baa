/**
 * The server's REST surface against the official document: every method and path of
 * ../shared/reference/api-spec-v3.json (70 pairs) is routed — answered by its handler, never "no such endpoint" or
 * 405, never a 500 — with ids that exist nowhere and empty bodies, so each answers its own refusal. The
 * behaviour of each endpoint is proven in the resource files next to this one.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasShared, sharedPath } from '../helpers/shared.js';
import { type SimFixture, startFixture, type TestAccount } from './sim-fixture.js';

interface Spec {
  paths: Record<string, Record<string, unknown>>;
}

const VALUES: Record<string, string> = {
  marketSymbol: 'BTC-USD',
  currencySymbol: 'BTC',
  symbol: 'BTC',
  candleType: 'TRADE',
  candleInterval: 'MINUTE_1',
  year: '2021',
  month: '6',
  day: '14',
  txId: 'no-such-tx',
};

// The official document lives in the team's shared folder beside the repository.
describe.skipIf(!hasShared)('REST surface of the official document', () => {
  let fx: SimFixture;
  let me: TestAccount;
  const pairs: Array<[string, string]> = [];

  beforeAll(async () => {
    fx = await startFixture();
    me = await fx.account({ USD: '1' });
    const spec = JSON.parse(readFileSync(sharedPath('reference', 'api-spec-v3.json'), 'utf8')) as Spec;
    for (const [path, ops] of Object.entries(spec.paths)) {
      for (const method of Object.keys(ops)) {
        if (['get', 'head', 'post', 'put', 'delete'].includes(method)) pairs.push([method.toUpperCase(), path]);
      }
    }
  });
  afterAll(async () => {
    await fx.close();
  });

  it('routes all 70 method/path pairs (and the legacy allowed-addresses path) to their handlers', async () => {
    expect(pairs).toHaveLength(70);
    const routed: string[] = [];
    for (const [method, template] of [...pairs, ['GET', '/withdrawals/whitelistAddresses'] as [string, string]]) {
      const target = template.replace(/\{(\w+)\}/g, (_, name: string) => VALUES[name] ?? randomUUID());
      const r = await fx.signed(me, method, target, method === 'POST' ? { body: '{}' } : {});
      const router404 = r.status === 404 && String(r.json?.detail ?? '').startsWith('no such endpoint');
      expect({ pair: `${method} ${template}`, status: r.status, router404 }).toEqual({ pair: `${method} ${template}`, status: expect.any(Number), router404: false });
      expect(r.status, `${method} ${target}`).not.toBe(405);
      expect(r.status, `${method} ${target}: ${r.text}`).toBeLessThan(500);
      if (method === 'HEAD' && r.status === 200) expect(r.headers.sequence, `${method} ${target}`).toMatch(/^\d+$/);
      routed.push(`${method} ${template} ${r.status}`);
    }
    expect(routed).toHaveLength(71);
  });
});
