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

  it('compares a digest with any string as lower-casing both and comparing the bytes would', () => {
    // The reference: what hexEquals did with Buffers and timingSafeEqual (equal lengths, then equal bytes). One
    // side is always a digest the verifier computed (lower-case hex); the other is whatever a client sent.
    const reference = (a: string, b: string) => Buffer.from(a.toLowerCase()).equals(Buffer.from(b.toLowerCase()));
    const chars = ['a', 'A', 'f', 'F', '0', '9', 'g', 'G', '\u0010', '\u0019', '@', '`', 'é', 'É', 'İ', 'K'];
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    let equal = 0;
    for (let i = 0; i < 20_000; i++) {
      const len = 1 + rnd(4);
      let a = '';
      for (let k = 0; k < len; k++) a += '0123456789abcdef'[rnd(16)];
      // b: a with some characters swapped for others (often a case change), sometimes one longer.
      let b = '';
      for (const c of a) b += rnd(3) === 0 ? chars[rnd(chars.length)] : rnd(2) === 0 ? c.toUpperCase() : c;
      if (rnd(10) === 0) b += 'a';
      const want = reference(a, b);
      if (want) equal++;
      expect(hexEquals(a, b), JSON.stringify([a, b])).toBe(want);
      expect(hexEquals(b, a), JSON.stringify([b, a])).toBe(want);
    }
    expect(equal).toBeGreaterThan(1000);
  });

  it('folds exactly A-Z and nothing else, for every UTF-16 code unit (the fold has no branch)', () => {
    const fold = (c: number) => (c >= 65 && c <= 90 ? c | 32 : c);
    const ch = (c: number) => String.fromCharCode(c);
    for (let c = 0; c < 0x10000; c++) {
      expect(hexEquals(ch(c), ch(fold(c)))).toBe(true);
      if (hexEquals(`0${ch(c)}`, `0${ch(c ^ 32)}`) !== (fold(c) === fold(c ^ 32))) expect.fail(`code unit ${c}`);
      if (hexEquals(ch(c), ch(c + 1)) !== (fold(c) === fold(c + 1))) expect.fail(`code unit ${c} and the next`);
    }
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
