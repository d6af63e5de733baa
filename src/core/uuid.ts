/**
 * Random (version 4) uuids that allocate only the returned string.
 *
 * `crypto.randomUUID` builds its text by concatenating twenty pieces, which leaves ~0.5 KB of intermediate strings
 * per id; the simulator draws three or four ids per trading order (order, executions, trade), so that was ~2 KB of
 * the ~65 KB an order allocated (issue 9 item 9). Here the random bytes come from the same source (a batch of
 * `crypto.randomFillSync`, as `randomUUID` caches too) and are formatted into one reused buffer.
 */
import { randomFillSync } from 'node:crypto';

/** Ids drawn per refill of the random bytes. */
const BATCH = 128;
const random = Buffer.alloc(16 * BATCH);
let next = BATCH;
const text = Buffer.alloc(36);
const HEX = Buffer.from('0123456789abcdef', 'latin1');
const DASH = 0x2d;

/**
 * The uuid text of the 16 bytes of `bytes` at `offset`, with the version (4) and variant (10xx) bits set as
 * RFC 9562 requires of a random uuid: lower-case `xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx`.
 */
export function formatUuidV4(bytes: Uint8Array, offset = 0): string {
  let p = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) text[p++] = DASH;
    let b = bytes[offset + i]!;
    if (i === 6) b = (b & 0x0f) | 0x40;
    else if (i === 8) b = (b & 0x3f) | 0x80;
    text[p++] = HEX[b >> 4]!;
    text[p++] = HEX[b & 15]!;
  }
  return text.toString('latin1', 0, 36);
}

/** A random uuid, like `crypto.randomUUID()` (same format, same random source). */
export function randomUuid(): string {
  if (next === BATCH) {
    randomFillSync(random);
    next = 0;
  }
  return formatUuidV4(random, 16 * next++);
}
