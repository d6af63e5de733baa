import { randomFillSync, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatUuidV4, randomUuid } from '../../src/core/uuid.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The general path: hex of the bytes with the version and variant bits set, cut at the dashes. */
function reference(bytes: Uint8Array): string {
  const b = Buffer.from(bytes);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

describe('randomUuid', () => {
  it('formats any 16 bytes as the general path does', () => {
    const bytes = new Uint8Array(16 * 2000);
    randomFillSync(bytes);
    for (let i = 0; i < 2000; i++) expect(formatUuidV4(bytes, 16 * i)).toBe(reference(bytes.subarray(16 * i, 16 * i + 16)));
    for (const fill of [0x00, 0xff, 0x0f, 0xf0]) expect(formatUuidV4(new Uint8Array(16).fill(fill))).toBe(reference(new Uint8Array(16).fill(fill)));
  });

  it('has the format of crypto.randomUUID and does not repeat across refills', () => {
    expect(randomUUID()).toMatch(V4);
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const id = randomUuid();
      expect(id).toMatch(V4);
      seen.add(id);
    }
    expect(seen.size).toBe(1000);
  });

  it('returns independent strings (the formatting buffer is reused)', () => {
    const a = randomUuid();
    const copy = `${a}`;
    randomUuid();
    expect(a).toBe(copy);
  });
});
