import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha512Hex } from '../../../src/bittrex/rest/hmac-sha512.js';
import { mulberry32 } from '../../../src/core/prng.js';

const reference = (secret: string, message: string) => createHmac('sha512', secret).update(message).digest('hex');

/** Characters of every UTF-8 length, a lone surrogate (encoded as U+FFFD by both) and NUL. */
const ALPHABET = ['a', 'Z', '0', '/', '?', '&', '=', ' ', '\u0000', '\u007f', 'é', 'ß', '€', '中', '😀', '\ud800'];

function randomText(rand: () => number, maxLength: number): string {
  const length = Math.floor(rand() * (maxLength + 1));
  let s = '';
  for (let i = 0; i < length; i++) s += rand() < 0.6 ? String.fromCharCode(32 + Math.floor(rand() * 95)) : ALPHABET[Math.floor(rand() * ALPHABET.length)]!;
  return s;
}

describe('hmacSha512Hex (two one-shot hashes over cached key pads)', () => {
  it('gives createHmac\'s digest on random keys and messages', () => {
    const rand = mulberry32(20261127);
    for (let i = 0; i < 3000; i++) {
      // Keys around the 128-byte block (shorter ones are padded, longer ones hashed first) and well past it.
      const secret = randomText(rand, i % 3 === 0 ? 300 : 140);
      const message = randomText(rand, i % 50 === 0 ? 3000 : 400);
      expect(hmacSha512Hex(secret, message), JSON.stringify([secret, message])).toBe(reference(secret, message));
    }
  });

  it('handles keys of exactly 127, 128 and 129 bytes and the empty key', () => {
    for (const secret of ['', 'k'.repeat(127), 'k'.repeat(128), 'k'.repeat(129), 'é'.repeat(64), 'é'.repeat(65)]) {
      for (const message of ['', 'm', '1700000000000http://127.0.0.1:8080/v3/ordersPOST']) {
        expect(hmacSha512Hex(secret, message)).toBe(reference(secret, message));
      }
    }
  });

  it('stays right for a cached secret after longer and shorter messages', () => {
    const secret = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
    for (const message of ['x'.repeat(5000), 'short', '中'.repeat(2000), '', 'y'.repeat(100)]) {
      expect(hmacSha512Hex(secret, message)).toBe(reference(secret, message));
    }
  });

  it('keeps every secret apart when the cache starts over (more secrets than it holds)', () => {
    for (let i = 0; i < 600; i++) {
      const secret = `secret-${i}`;
      expect(hmacSha512Hex(secret, `m${i}`)).toBe(reference(secret, `m${i}`));
    }
    expect(hmacSha512Hex('secret-1', 'm1')).toBe(reference('secret-1', 'm1'));
  });
});
