/**
 * The time of a recorded trade (`executedAt`, read from a line's bytes where it lies) as `Date.parse` reads it,
 * without parsing nearly any of them: see {@link executedAt}.
 */

/**
 * The minute of the last canonical time {@link executedAt} parsed (`YYYY-MM-DDTHH:MM:`: its bytes 0-7 and 8-15 as
 * doubles, and byte 16), and its epoch ms. (Digits, `-`, `T` and `:` make normal doubles, equal only to the same
 * bytes; see byte-literal.ts.)
 */
let minute0 = Number.NaN;
let minute8 = Number.NaN;
let minute16 = -1;
let minuteMs = 0;

/** The digit at `i` as a number, or -1 when it is not a digit. */
function digitAt(bytes: Uint8Array, i: number): number {
  const c = bytes[i]! - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/**
 * The milliseconds of `SS.sssZ` at `i` (seconds 00-59, exactly three fraction digits, then Z and nothing else
 * before `end`), or -1 for any other form.
 */
function secondsMs(bytes: Uint8Array, i: number, end: number): number {
  if (end - i !== 7 || bytes[i + 2] !== 46 || bytes[i + 6] !== 90) return -1;
  const s1 = digitAt(bytes, i);
  const s2 = digitAt(bytes, i + 1);
  const m1 = digitAt(bytes, i + 3);
  const m2 = digitAt(bytes, i + 4);
  const m3 = digitAt(bytes, i + 5);
  if (s1 < 0 || s1 > 5 || s2 < 0 || m1 < 0 || m2 < 0 || m3 < 0) return -1;
  return (s1 * 10 + s2) * 1000 + m1 * 100 + m2 * 10 + m3;
}

/**
 * `Date.parse` of the ASCII time in `bytes[start, end)` (`view` over the same bytes), without parsing it when it is
 * in the service's canonical form `YYYY-MM-DDTHH:MM:SS.sssZ` and in the same minute as the last one parsed
 * (trades come in time order, so nearly all are): then it is that minute's time plus the seconds. `Date.parse`
 * read that minute with some seconds, so it reads it with any others (00-59) as the same minute plus those
 * seconds; hours 24 (valid only as 24:00:00.000) are never remembered. Costs a few ns instead of ~250 ns and a
 * string per trade.
 *
 * @example
 * const b = Buffer.from('"2024-03-01T00:00:00.030Z"');
 * executedAt(b, new DataView(b.buffer, b.byteOffset, b.length), 1, 25) // 1709251200030
 */
export function executedAt(bytes: Buffer, view: DataView, start: number, end: number): number {
  const seconds = secondsMs(bytes, start + 17, end);
  // seconds >= 0: the time is 24 bytes long, so bytes 0-16 lie in it.
  if (seconds >= 0 && view.getFloat64(start, true) === minute0 && view.getFloat64(start + 8, true) === minute8 && bytes[start + 16] === minute16) {
    return minuteMs + seconds;
  }
  const ms = Date.parse(bytes.toString('latin1', start, end));
  if (seconds >= 0 && !Number.isNaN(ms) && canonicalMinute(bytes, start)) {
    minute0 = view.getFloat64(start, true);
    minute8 = view.getFloat64(start + 8, true);
    minute16 = bytes[start + 16]!;
    minuteMs = ms - seconds;
  }
  return ms;
}

/** `bytes` at `start` are `YYYY-MM-DDTHH:MM:` with an hour below 24. */
function canonicalMinute(bytes: Uint8Array, start: number): boolean {
  for (let i = 0; i < 17; i++) {
    const c = bytes[start + i]!;
    const want = i === 4 || i === 7 ? 45 : i === 10 ? 84 : i === 13 || i === 16 ? 58 : -1; // - - T : :
    if (want >= 0 ? c !== want : c < 48 || c > 57) return false;
  }
  return digitAt(bytes, start + 11) * 10 + digitAt(bytes, start + 12) < 24;
}
