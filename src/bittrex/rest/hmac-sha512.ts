/**
 * HMAC-SHA512 as two one-shot SHA-512s over precomputed key pads (RFC 2104):
 * `HMAC(K, m) = H((K0 ⊕ opad) ‖ H((K0 ⊕ ipad) ‖ m))`, where K0 is the key zero-padded to the 128-byte block
 * (a key longer than a block is hashed first).
 *
 * Why not `createHmac`: every signed request is signed by the client and checked by the server, and each
 * `createHmac(..).update(..).digest()` builds an Hmac object (a stream Transform with a native handle) and sets the
 * key up again. Here the pads are made once per secret and an HMAC is two `crypto.hash` calls (Node >= 20.12) over
 * a reused buffer: the same digest (tested against `createHmac` on random keys and messages) without the objects.
 * The secret's pads stay in this process only, in a bounded cache, and are never logged.
 */
import { hash as oneShotHash } from 'node:crypto';

/** SHA-512's block size in bytes. */
const BLOCK = 128;
/** SHA-512's digest size in bytes. */
const DIGEST = 64;

/** A secret's padded key blocks: K0 ⊕ ipad and K0 ⊕ opad. */
interface KeyPads {
  inner: Buffer;
  outer: Buffer;
}

const padsBySecret = new Map<string, KeyPads>();
/** A process that sees more secrets than this starts its cache over rather than keeping every secret it saw. */
const MAX_CACHED_SECRETS = 256;

/** The inner hash's input: the inner pad, then the message (grown when a message does not fit). */
let innerInput = Buffer.allocUnsafe(BLOCK + 1024);
/** The outer hash's input: the outer pad, then the inner digest. */
const outerInput = Buffer.allocUnsafe(BLOCK + DIGEST);
/** Whose pads the two inputs start with now: one key signs nearly every request, so they are rarely copied in. */
let padsLoaded: KeyPads | undefined;

function padsOf(secret: string): KeyPads {
  let pads = padsBySecret.get(secret);
  if (pads === undefined) {
    if (padsBySecret.size >= MAX_CACHED_SECRETS) padsBySecret.clear();
    let key: Uint8Array = Buffer.from(secret, 'utf8');
    if (key.length > BLOCK) key = oneShotHash('sha512', key, 'buffer');
    const inner = Buffer.alloc(BLOCK, 0x36);
    const outer = Buffer.alloc(BLOCK, 0x5c);
    for (let i = 0; i < key.length; i++) {
      inner[i]! ^= key[i]!;
      outer[i]! ^= key[i]!;
    }
    padsBySecret.set(secret, (pads = { inner, outer }));
  }
  return pads;
}

/**
 * Lowercase hex HMAC-SHA512 of `message` (its UTF-8 bytes) keyed by `secret` (its UTF-8 bytes): exactly
 * `createHmac('sha512', secret).update(message).digest('hex')`.
 */
export function hmacSha512Hex(secret: string, message: string): string {
  const pads = padsOf(secret);
  // UTF-8 takes at most 3 bytes per UTF-16 unit; grow first so a write is never cut short.
  if (message.length * 3 > innerInput.length - BLOCK) {
    const need = Buffer.byteLength(message, 'utf8');
    if (need > innerInput.length - BLOCK) {
      innerInput = Buffer.allocUnsafe(BLOCK + need);
      padsLoaded = undefined;
    }
  }
  if (padsLoaded !== pads) {
    pads.inner.copy(innerInput, 0);
    pads.outer.copy(outerInput, 0);
    padsLoaded = pads;
  }
  const n = innerInput.write(message, BLOCK, 'utf8');
  // The inner digest goes into the outer input as its 64 bytes: its 'binary' (latin1) text is one character per
  // byte, a flat one-byte string, cheaper than a Buffer made to be copied once.
  outerInput.write(oneShotHash('sha512', innerInput.subarray(0, BLOCK + n), 'binary'), BLOCK, 'binary');
  return oneShotHash('sha512', outerInput, 'hex');
}
