/**
 * Numbers read from bytes (UTF-8 or ASCII text, not decoded) where they start, their end found by the scan itself,
 * for decoders that check a line's form and read its values in one pass (the rexbot reader's hot lines):
 * {@link digitRun} (a run of digits, four at a time) and {@link scanPlainAt} (the wire's plain decimal form, read
 * as {@link scanPlain} reads the same characters).
 */
import { scanned, scannedExponent } from './decimal.js';

/** Where the last {@link digitRun} or {@link scanPlainAt} stopped (a small integer field: stored in place). */
export const scanEnd = { at: 0 };

/** The last {@link scanPlainAt} read a value of more than 15 significant digits (its parts are not in `scanned`). */
let long = false;

/**
 * True when the last {@link scanPlainAt} read a value of more than 15 significant digits: `scanned` does not hold
 * its parts; build it with `parsePlainDecimal` over the range scanned.
 */
export function scannedLong(): boolean {
  return long;
}

/**
 * `v` followed by the digits from `bytes[i]` on, as many as there are before `end` (`v * 10^k + digits`; exact
 * while the result stays below 2^53); {@link scanEnd} is left after them. Four digits are checked and converted at
 * once where four lie ahead: a loop over single bytes costs some 30 machine instructions per byte in V8's optimized
 * code (its checks are not moved out of loops), about as much as the four-byte step.
 *
 * @example
 * const b = Buffer.from('t=1709251200010,'); digitRun(b, new DataView(b.buffer, b.byteOffset, b.length), 2, 16, 0) // 1709251200010, scanEnd.at 15
 */
export function digitRun(bytes: Uint8Array, view: DataView, i: number, end: number, v: number): number {
  while (i + 4 <= end) {
    const w = view.getUint32(i, true);
    // Each byte 0x30-0x39: its high half is 3, also after adding 6 (no byte carries into the next when the first test holds).
    if ((w & 0xf0f0f0f0) !== 0x30303030 || ((w + 0x06060606) & 0xf0f0f0f0) !== 0x30303030) break;
    const d = w - 0x30303030; // the digits, the first in the low byte
    const pairs = (d * 10 + (d >>> 8)) & 0x00ff00ff; // the first two and the last two as numbers 0-99
    v = v * 10000 + (pairs & 0xff) * 100 + (pairs >>> 16);
    i += 4;
  }
  for (; i < end; i++) {
    const d = bytes[i]! - 48;
    if (d < 0 || d > 9) break;
    v = v * 10 + d;
  }
  scanEnd.at = i;
  return v;
}

/**
 * Read the plain decimal form `-?\d+(\.\d+)?` that starts at `bytes[i]`, as far as it goes before `end`: the index
 * just after it (also in {@link scanEnd}), or -1 when no plain decimal starts there. Its sign, exponent and
 * significant digits go into `scanned` exactly as {@link scanPlain} puts them for that range (unless
 * {@link scannedLong}). A dot not followed by a digit is not part of the value, so `1.` ends before its dot; the
 * caller checks what follows (a closing quote, for the wire). One byte at a time, as scanPlain: wire values are
 * short, and four digits at a time (digitRun) took more instructions here than they saved (valgrind counts).
 *
 * @example
 * const b = Buffer.from('"rate":"30001.5"');
 * scanPlainAt(b, 8, 16) // 15, and scanned holds sign 1, e 4, v 300015, n 6
 */
export function scanPlainAt(bytes: Uint8Array, i: number, end: number): number {
  let sign = 1;
  if (i < end && bytes[i] === 45) {
    sign = -1;
    i++;
  }
  const begin = i;
  // As in scanPlain: the digits from the first significant one go into `v` (exact while at most 15), `vLast` and
  // `nLast` are the value and count up to the last non-zero digit (trailing zeros dropped).
  let dot = -1;
  let first = -1;
  let v = 0;
  let n = 0;
  let vLast = 0;
  let nLast = 0;
  for (; i < end; i++) {
    const d = bytes[i]! - 48;
    if (d >= 0 && d <= 9) {
      if (first >= 0) {
        n++;
        v = v * 10 + d;
        if (d !== 0) {
          vLast = v;
          nLast = n;
        }
      } else if (d !== 0) {
        first = i;
        v = vLast = d;
        n = nLast = 1;
      }
    } else if (d === -2 && dot < 0 && i > begin && i + 1 < end && bytes[i + 1]! - 48 >= 0 && bytes[i + 1]! - 48 <= 9) {
      dot = i; // a point with a digit on each side
    } else {
      break;
    }
  }
  if (i === begin) return -1;
  scanEnd.at = i;
  scanned.sign = sign;
  // More than 15 digits from the first significant one: `v` is not exact (scanPlain's LONG).
  long = n > 15;
  scanned.v = vLast;
  scanned.n = nLast;
  scannedExponent(first, dot < 0 ? i : dot);
  return i;
}
