/**
 * Numbers read from bytes (UTF-8 or ASCII text, not decoded) where they start, their end found by the scan itself,
 * for decoders that check a line's form and read its values in one pass (the rexbot reader's hot lines):
 * {@link digitRun} (a run of digits, four at a time) and {@link scanPlainAt} (the wire's plain decimal form, read
 * as {@link scanPlain} reads the same characters).
 */
import { scanned } from './decimal.js';

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

/** How many digits `v` (an integer, 1 <= v < 1e15) has. */
function digitCount(v: number): number {
  if (v < 1e8) return v < 1e4 ? (v < 1e2 ? (v < 1e1 ? 1 : 2) : v < 1e3 ? 3 : 4) : v < 1e6 ? (v < 1e5 ? 5 : 6) : v < 1e7 ? 7 : 8;
  return v < 1e12 ? (v < 1e10 ? (v < 1e9 ? 9 : 10) : v < 1e11 ? 11 : 12) : v < 1e13 ? 13 : v < 1e14 ? 14 : 15;
}

/**
 * Read the plain decimal form `-?\d+(\.\d+)?` that starts at `bytes[i]`, as far as it goes before `end`: the index
 * just after it (also in {@link scanEnd}), or -1 when no plain decimal starts there. Its sign, exponent and
 * significant digits go into `scanned` exactly as {@link scanPlain} puts them for that range (unless
 * {@link scannedLong}). A dot not followed by a digit is not part of the value, so `1.` ends before its dot; the
 * caller checks what follows (a closing quote, for the wire).
 *
 * @example
 * const b = Buffer.from('"rate":"30001.5"');
 * scanPlainAt(b, new DataView(b.buffer, b.byteOffset, b.length), 8, 16) // 15, and scanned holds sign 1, e 4, v 300015, n 6
 */
export function scanPlainAt(bytes: Uint8Array, view: DataView, i: number, end: number): number {
  let sign = 1;
  if (i < end && bytes[i] === 45) {
    sign = -1;
    i++;
  }
  // All digits, the integer part's and the fraction's, go into one integer; leading zeros add nothing to it.
  let v = digitRun(bytes, view, i, end, 0);
  let j = scanEnd.at;
  const intDigits = j - i;
  if (intDigits === 0) return -1;
  let digits = intDigits;
  if (j + 1 < end && bytes[j] === 46) {
    const f = j + 1;
    v = digitRun(bytes, view, f, end, v);
    if (scanEnd.at > f) {
      digits += scanEnd.at - f;
      j = scanEnd.at;
    }
  }
  scanEnd.at = j;
  scanned.sign = sign;
  // At least 1e15 exactly when more than 15 digits follow the first significant one (rounding cannot cross 1e15).
  long = v >= 1e15;
  if (long) return j;
  if (v === 0) {
    scanned.e = 0;
    scanned.v = 0;
    scanned.n = 0;
    return j;
  }
  const significant = digitCount(v);
  // The first significant digit is digit number `digits - significant` (0-based), `intDigits` of them before the point.
  scanned.e = intDigits - 1 - (digits - significant);
  // Trailing zeros dropped (exact: v < 2^50, so v / 10 rounds to an integer only when it is one).
  let n = significant;
  let q = Math.floor(v / 10);
  while (q * 10 === v) {
    v = q;
    n--;
    q = Math.floor(v / 10);
  }
  scanned.v = v;
  scanned.n = n;
  return j;
}
