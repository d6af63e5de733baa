import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentHash, hexEquals, signHubAuth, signRequest } from '../../../src/bittrex/rest/auth.js';
import { repoPath } from '../../helpers/shared.js';

interface Vector {
  name: string;
  input: { subaccountId: string | null };
  request: { method: string; url: string; body: string | null };
  headers: Record<string, string>;
}
interface HubVector {
  frame: { A: [string, number, string, string] };
  expectedLower: string;
  expectedUpperOfficialSample: string;
}
const file = JSON.parse(readFileSync(repoPath('test/fixtures/signature-vectors.json'), 'utf8')) as {
  apiKey: string;
  secret: string;
  vectors: Vector[];
  wsAuthenticate: HubVector[];
};
const creds = { apiKey: file.apiKey, apiSecret: file.secret };
const signed = file.vectors.filter((v) => v.headers['Api-Signature']);

describe('REST signing', () => {
  it('has the 24 signed vectors of the independent client', () => {
    expect(signed).toHaveLength(24);
  });

  it.each(signed.map((v) => [v.name, v] as const))('reproduces %s', (_name, v) => {
    const h = signRequest(creds, {
      method: v.request.method,
      uri: v.request.url,
      body: v.request.body ?? undefined,
      timestamp: v.headers['Api-Timestamp']!,
      subaccountId: v.input.subaccountId ?? undefined,
    });
    expect(h['Api-Content-Hash']).toBe(v.headers['Api-Content-Hash']);
    expect(h['Api-Signature']).toBe(v.headers['Api-Signature']);
    expect(h['Api-Subaccount-Id']).toBe(v.headers['Api-Subaccount-Id']);
  });

  it('a wrong secret gives a different signature', () => {
    const v = signed[0]!;
    const h = signRequest({ ...creds, apiSecret: 'wrong' }, { method: 'GET', uri: v.request.url, timestamp: v.headers['Api-Timestamp']! });
    expect(hexEquals(h['Api-Signature'], v.headers['Api-Signature']!)).toBe(false);
  });

  it('hashes the empty body as SHA-512 of ""', () => {
    expect(contentHash(undefined)).toMatch(/^cf83e135/);
    expect(contentHash('')).toBe(contentHash(undefined));
  });

  it('compares hex case-insensitively', () => {
    expect(hexEquals('ABcd', 'abCD')).toBe(true);
    expect(hexEquals('abcd', 'abce')).toBe(false);
    expect(hexEquals('abcd', 'abc')).toBe(false);
  });
});

describe('hub authentication signing', () => {
  it.each(file.wsAuthenticate.map((v, i) => [i, v] as const))('reproduces vector %i', (_i, v) => {
    const [apiKey, timestamp, randomContent] = v.frame.A;
    const a = signHubAuth(creds, timestamp, randomContent);
    expect(a.apiKey).toBe(apiKey);
    expect(a.signature).toBe(v.expectedLower);
    expect(hexEquals(a.signature, v.expectedUpperOfficialSample)).toBe(true);
  });
});
