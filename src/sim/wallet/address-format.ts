/**
 * Plausible-looking blockchain addresses and transaction ids for the simulated wallet. They only need to look
 * like their chain's format (clients display and echo them) and be unique; nothing validates them on a chain.
 */
import { randomBytes, randomInt } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A fresh address in the chain's usual shape: `0x`+40 hex for ETH-family coin types, base58 otherwise. */
export function newAddress(coinType: string): string {
  if (coinType.startsWith('ETH')) return `0x${randomBytes(20).toString('hex')}`;
  const prefix = coinType === 'RIPPLE' ? 'r' : coinType === 'ADA' ? 'DdzFF' : '1';
  return prefix + base58(34 - prefix.length);
}

/** A deposit tag (a positive 31-bit integer, as XRP destination tags are). */
export function newAddressTag(): string {
  return String(randomInt(1, 2 ** 31 - 1));
}

/** A 64-hex transaction id. */
export function newTxId(): string {
  return randomBytes(32).toString('hex');
}

function base58(n: number): string {
  const bytes = randomBytes(n);
  let s = '';
  for (const b of bytes) s += BASE58[b % BASE58.length];
  return s;
}
