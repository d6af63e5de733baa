/**
 * Recorded prices and sizes repeat: a book moves over a few hundred price levels, and sizes such as "0" (a level
 * removed) or a strategy's round lot come back on line after line. Decimals are immutable, so a value read once
 * can be handed out again for the same text instead of being built anew (and collected again) every time.
 *
 * The cache is direct-mapped and bounded: a slot per hash of the text, the text kept as bytes (never as a slice of
 * the line, which would keep the whole block of text the line came from alive), a newer text taking the slot of
 * an older one. A hit compares the whole text, so a hit is always the value {@link parsePlainDecimal} builds.
 */
import { type Decimal, parsePlainDecimal } from '../../src/core/decimal.js';

/** Slots (a power of two): room for every price level of a busy book and the commonest sizes. */
const SLOTS = 4096;
/** Longer texts are parsed each time (a plain decimal of more characters is rare, and seldom repeats). */
const MAX_CHARS = 24;

/** The text of slot `s` is `chars[s * MAX_CHARS, s * MAX_CHARS + lengths[s])`; length 0 is an empty slot. */
const chars = new Uint8Array(SLOTS * MAX_CHARS);
const lengths = new Uint8Array(SLOTS);
const values: (Decimal | undefined)[] = new Array<Decimal | undefined>(SLOTS).fill(undefined);

/**
 * {@link parsePlainDecimal} of `text[start, end)`, the same value and possibly the same object as an earlier call
 * with the same text gave (Decimals are immutable, so nobody can tell but by `===`).
 *
 * @example
 * cachedPlainDecimal('"30009"', 1, 6) === cachedPlainDecimal('{"rate":"30009"}', 9, 14) // true (most likely)
 */
export function cachedPlainDecimal(text: string, start: number, end: number): Decimal | undefined {
  const length = end - start;
  if (length <= 0 || length > MAX_CHARS) return parsePlainDecimal(text, start, end);
  let h = length;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  const slot = (h ^ (h >>> 13)) & (SLOTS - 1);
  const at = slot * MAX_CHARS;
  if (lengths[slot] === length) {
    let i = 0;
    while (i < length && chars[at + i] === text.charCodeAt(start + i)) i++;
    if (i === length) return values[slot];
  }
  const value = parsePlainDecimal(text, start, end);
  // Only plain decimals are kept: their characters are ASCII, so a byte holds each exactly.
  if (value !== undefined) {
    for (let i = 0; i < length; i++) chars[at + i] = text.charCodeAt(start + i);
    lengths[slot] = length;
    values[slot] = value;
  }
  return value;
}
