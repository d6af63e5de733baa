/**
 * The hot lines of a rexbot recording read straight from the file's bytes into events, without decoding them or
 * JSON.parse: `orderBook` and `trade` messages exactly as the recorder writes them (the payload copied as the
 * service wrote it, keys in a fixed order, no whitespace):
 *
 *     {"t":1709251200010,"name":"orderBook","payload":{"marketSymbol":"BTC-USD","depth":500,"sequence":2,"bidDeltas":[],"askDeltas":[{"quantity":"1.2062","rate":"30009"}]}}
 *     {"t":1709251200030,"name":"trade","payload":{"sequence":8,"marketSymbol":"BTC-USD","deltas":[{"id":"a1","executedAt":"2023-11-14T22:13:20.004Z","quantity":"0.5","rate":"101","takerSide":"BUY"}]}}
 *
 * A line is read where it lies in the reader's block of bytes (`bytes[start, end)`), in one pass that checks its
 * form and reads its values: the canonical form only (a strict subset of JSON and of what the typed decoders
 * accept: strings of printable ASCII without escapes, integers of at most 15 digits without leading zeros, decimals
 * in the plain `-?\d+(\.\d+)?` form, depth 1, 25 or 500, BUY or SELL), ending exactly at `end`. The keys and
 * punctuation are compared 8 bytes at a time (byte-literal.ts). This replaced a whole-line regular expression over
 * the decoded text followed by a second pass that read the values: the expression alone cost about as much as
 * the reading, and decoding the text about a fifth of it. What the pass accepts decodes to exactly what the
 * general way (the line decoded, JSON.parse, readEntry, the typed decoder) builds; anything else, including values
 * the decoders refuse (a negative quantity, a zero rate, a trade of zero quantity, a value out of range, a date
 * `Date.parse` cannot read) and any line with non-ASCII bytes, answers undefined and goes the general way, which
 * also writes every error. Values read from a line refused further on are dropped.
 */
import { type Decimal, parsePlainDecimal, plainOfParts, scanned } from '../../src/core/decimal.js';
import { digitRun, scanEnd, scannedLong, scanPlainAt } from '../../src/core/decimal-scan.js';
import { sharedOfScanned } from '../../src/core/shared-decimal.js';
import { MAX_AMOUNT_EXPONENT } from '../../src/model/decode.js';
import type { OrderBookEntry, Trade } from '../../src/model/market.js';
import type { LineRef } from '../../src/sim/driver/replay-error.js';
import type { ReplayOrderBookDelta, ReplayTrade } from '../../src/sim/driver/replay-events.js';
import { Literal, has } from './byte-literal.js';
import { executedAt } from './trade-time.js';

const T = new Literal('{"t":');
const NAME = new Literal(',"name":"');
const BOOK = new Literal('orderBook","payload":{"marketSymbol":"');
const DEPTH = new Literal('","depth":');
const SEQUENCE = new Literal(',"sequence":');
const BIDS = new Literal(',"bidDeltas":[');
const ASKS = new Literal(',"askDeltas":[');
const QUANTITY = new Literal('{"quantity":"');
const RATE = new Literal('","rate":"');
const TRADE = new Literal('trade","payload":{"sequence":');
const SYMBOL = new Literal(',"marketSymbol":"');
const DELTAS = new Literal('","deltas":[');
const ID = new Literal('{"id":"');
const EXECUTED_AT = new Literal('","executedAt":"');
const TRADE_QUANTITY = new Literal('","quantity":"');
const TAKER_SIDE = new Literal('","takerSide":"');
const BUY = new Literal('BUY"}');
const SELL = new Literal('SELL"}');

/**
 * The list of a side without deltas (most book lines have one): one frozen empty list shared by every event, as the
 * deltas of a message are only read (a new `[]` was 32 bytes of garbage per line).
 */
const NO_LEVELS: OrderBookEntry[] = Object.freeze([]) as unknown as OrderBookEntry[];

/**
 * Where the last read stopped: the readers below return what they read (or -1 / undefined) and leave their end
 * here. A small integer field is stored in place; values are returned rather than kept in module variables, where
 * each store of a number beyond 2^31 (a time) allocated a box and each store of a new object paid a write barrier.
 */
const cur = { at: 0 };

/** A JSON integer of at most 15 digits without a leading zero at `i` (end in `cur.at`), or -1. */
function int(b: Uint8Array, v: DataView, i: number, end: number): number {
  if (i >= end) return -1;
  const c = b[i]!;
  if (c === 48) {
    cur.at = i + 1;
    return 0;
  }
  if (c < 49 || c > 57) return -1;
  const n = digitRun(b, v, i, end, 0);
  if (scanEnd.at - i > 15) return -1;
  cur.at = scanEnd.at;
  return n;
}

/**
 * Where the bytes a JSON string may hold unescaped, of printable ASCII, end from `i` on: at `"`, `\`, a control
 * character, a non-ASCII byte or `end`.
 */
function textEnd(b: Uint8Array, i: number, end: number): number {
  for (; i < end; i++) {
    const c = b[i]!;
    if (c < 32 || c > 127 || c === 34 || c === 92) return i;
  }
  return i;
}

/** A string's content from `i` (after its opening quote; its closing quote's index in `cur.at`), or undefined. */
function textAt(b: Buffer, i: number, end: number): string | undefined {
  const e = textEnd(b, i, end);
  if (e >= end || b[e] !== 34) return undefined;
  cur.at = e;
  return b.toString('latin1', i, e);
}

/** The market symbol {@link symbolAt} read last (lines of one market repeat it), and its bytes. */
let lastSymbol = '';
let lastSymbolBytes = new Uint8Array(0);

/**
 * {@link textAt} for a market symbol: the one read last when the bytes are the same, so a line of the market read
 * before costs no string (a copy of up to 12 characters, 32 bytes, per line otherwise).
 */
function symbolAt(b: Buffer, i: number, end: number): string | undefined {
  const last = lastSymbolBytes;
  const n = last.length;
  if (i + n < end && b[i + n] === 34) {
    let k = 0;
    while (k < n && b[i + k] === last[k]) k++;
    if (k === n) {
      cur.at = i + n;
      return lastSymbol;
    }
  }
  const s = textAt(b, i, end);
  if (s !== undefined) {
    lastSymbol = s;
    lastSymbolBytes = new Uint8Array(b.subarray(i, cur.at)); // a copy: the block's bytes are reused
  }
  return s;
}

/**
 * The plain decimal at `i` followed by its closing quote: the quote's index (the value in `scanned`), or -1. Also
 * -1 when it is out of range ({@link MAX_AMOUNT_EXPONENT}: a rate of 1e400 or a 400-digit quantity is no market's),
 * so the line goes the general way, which names the field: the scan has the exponent in `scanned.e` already (long
 * values too), so the bound is one comparison per value.
 */
function decimalAt(b: Uint8Array, i: number, end: number): number {
  const e = scanPlainAt(b, i, end);
  return e >= 0 && e < end && b[e] === 34 && scanned.e <= MAX_AMOUNT_EXPONENT ? e : -1;
}

/**
 * The plain decimal at `i` up to its closing quote (whose index goes to `cur.at`), new; undefined when not one, when
 * negative (decimal.js calls -0 negative), or when zero and `positive` (the decoders' rules: a book level's quantity
 * may be 0, a trade's may not). A zero is never long: it has no significant digit.
 */
function plainAt(b: Buffer, i: number, end: number, positive: boolean): Decimal | undefined {
  const e = decimalAt(b, i, end);
  if (e < 0 || scanned.sign < 0 || (positive && !scannedLong() && scanned.v === 0)) return undefined;
  cur.at = e;
  return scannedLong() ? parsePlainDecimal(b.toString('latin1', i, e), 0, e - i)! : plainOfParts(scanned.sign, scanned.e, scanned.v, scanned.n);
}

/**
 * {@link plainAt}, shared with the same value read lately. Rates repeat (a few price levels over and over); sizes
 * mostly do not, and a table churned by them kept young decimals alive across collections (more CPU, in the no-op
 * run and reading).
 */
function sharedAt(b: Buffer, i: number, end: number, positive: boolean): Decimal | undefined {
  const e = decimalAt(b, i, end);
  if (e < 0) return undefined;
  cur.at = e;
  if (scannedLong()) return scanned.sign < 0 && positive ? undefined : parsePlainDecimal(b.toString('latin1', i, e), 0, e - i)!;
  return positive && (scanned.sign < 0 || scanned.v === 0) ? undefined : sharedOfScanned();
}

/**
 * One level at `i` (its `{`); `cur.at` after its `}`. Undefined when it is not one or one the decoder refuses: a
 * negative quantity (decimal.js calls -0 negative) or a rate not above zero.
 */
function levelAt(b: Buffer, v: DataView, i: number, end: number): OrderBookEntry | undefined {
  if (!has(v, i, end, QUANTITY)) return undefined;
  const quantity = plainAt(b, i + 13, end, false);
  if (quantity === undefined || !has(v, cur.at, end, RATE)) return undefined;
  const rate = sharedAt(b, cur.at + 10, end, true);
  const e = cur.at + 1;
  if (rate === undefined || e >= end || b[e] !== 125) return undefined; // "}
  cur.at = e + 1;
  return { quantity, rate };
}

/**
 * The levels of a list whose `[` is just before `i`; `cur.at` after its `]`. Undefined when a level is not one
 * (see {@link levelAt}) or the list is not a list. The first two are kept in locals and the list made at its exact
 * length (an array grown by push from empty gets room for 17 elements, ~150 bytes, on every line).
 */
function levels(b: Buffer, v: DataView, i: number, end: number): OrderBookEntry[] | undefined {
  if (i < end && b[i] === 93) {
    cur.at = i + 1;
    return NO_LEVELS;
  }
  const l0 = levelAt(b, v, i, end);
  if (l0 === undefined) return undefined;
  const c0 = listNext(b, end);
  if (c0 !== 44) return c0 === 93 ? [l0] : undefined;
  const l1 = levelAt(b, v, cur.at, end);
  if (l1 === undefined) return undefined;
  const c1 = listNext(b, end);
  if (c1 !== 44) return c1 === 93 ? [l0, l1] : undefined;
  const out = [l0, l1];
  for (;;) {
    const l = levelAt(b, v, cur.at, end);
    if (l === undefined) return undefined;
    out.push(l);
    const c = listNext(b, end);
    if (c !== 44) return c === 93 ? out : undefined;
  }
}

/** The byte at `cur.at` (a list's `,` or `]`, or anything else), stepping over it; -1 at `end`. */
function listNext(b: Uint8Array, end: number): number {
  const i = cur.at;
  if (i >= end) return -1;
  cur.at = i + 1;
  return b[i]!;
}

/**
 * How a line's end is known: `exact` — the caller found it (the line is `[start, end)`); otherwise the line is read
 * from its start up to the first `\n` at or after it, or `end` (the block's end), found by the read itself.
 */
const read = { exact: true, nl: 0 };

/**
 * `}}` at `i`, and the line ends there: at `end` when the caller gave the line's end; else at the `\n` after it (one
 * `\r` before that `\n` is not part of the line, as line-source.ts's `byteLineEnd` has it) or at `end`, whose index goes to
 * `read.nl`. No `\n` can be inside a line read (no key, value or literal holds one), so what is read up to here is the
 * same in both cases.
 */
function closes(b: Uint8Array, i: number, end: number): boolean {
  if (i + 2 > end || b[i] !== 125 || b[i + 1] !== 125) return false;
  let j = i + 2;
  if (read.exact) return j === end;
  if (j < end && b[j] === 13) j++;
  if (j < end && b[j] !== 10) return false;
  read.nl = j;
  return true;
}

/**
 * The start of a book line of one market, from `,"name":"` to `"sequence":` included (its market symbol and depth
 * in it), as bytes read and checked before: a line of that market starts the same, so comparing those bytes in 8-byte
 * words (~10 for a market's usual run) stands for the five checks and the symbol read they passed. Kept for the
 * first {@link BOOK_RUNS} markets seen (a file interleaves its markets' lines; a cache of one would be replaced on
 * nearly every line), and never replaced: a market beyond them is read the whole way, as before.
 */
interface BookRun {
  readonly bytes: Literal;
  readonly marketSymbol: string;
  readonly depth: 1 | 25 | 500;
}
const BOOK_RUNS = 4;
const bookRuns: BookRun[] = [];

/** The rest of an `orderBook` line from just after `"name":"` (time `t`), or undefined. */
function bookLine(b: Buffer, v: DataView, source: LineRef, i: number, end: number, t: number): ReplayOrderBookDelta | undefined {
  if (!has(v, i, end, BOOK)) return undefined;
  const marketSymbol = symbolAt(b, i + 38, end);
  if (marketSymbol === undefined || !has(v, cur.at, end, DEPTH)) return undefined;
  const runStart = i - 9;
  i = cur.at + 10;
  const c = i + 3 <= end ? b[i] : 0; // at least ,"sequence": follows
  const depth = c === 49 ? 1 : c === 50 && b[i + 1] === 53 ? 25 : c === 53 && b[i + 1] === 48 && b[i + 2] === 48 ? 500 : 0;
  i += depth === 1 ? 1 : depth === 25 ? 2 : 3;
  if (depth === 0 || !has(v, i, end, SEQUENCE)) return undefined;
  if (bookRuns.length < BOOK_RUNS) keepRun(b, runStart, i + 12, marketSymbol, depth);
  return bookRest(b, v, source, i + 12, end, t, marketSymbol, depth);
}

/** Keep the checked start of a book line `b[from, to)` as a {@link BookRun}, unless one holds it already. */
function keepRun(b: Buffer, from: number, to: number, marketSymbol: string, depth: 1 | 25 | 500): void {
  const text = b.toString('latin1', from, to);
  // A literal is printable ASCII; a symbol may hold DEL (0x7f), which the run then leaves to the whole way.
  if (!/^[\x20-\x7e]+$/.test(text)) return;
  for (const r of bookRuns) if (r.bytes.text === text) return;
  bookRuns.push({ bytes: new Literal(text), marketSymbol, depth });
}

/** A book line from its sequence at `i` (market and depth read before it), or undefined. */
function bookRest(b: Buffer, v: DataView, source: LineRef, i: number, end: number, t: number, marketSymbol: string, depth: 1 | 25 | 500): ReplayOrderBookDelta | undefined {
  const sequence = int(b, v, i, end);
  if (sequence < 0 || !has(v, cur.at, end, BIDS)) return undefined;
  const bidDeltas = levels(b, v, cur.at + 14, end);
  if (bidDeltas === undefined || !has(v, cur.at, end, ASKS)) return undefined;
  const askDeltas = levels(b, v, cur.at + 14, end);
  if (askDeltas === undefined || !closes(b, cur.at, end)) return undefined;
  return { kind: 'orderBookDelta', at: t, marketSymbol, depth, sequence, bidDeltas, askDeltas, source };
}

/**
 * One trade at `i` (its `{`); `cur.at` after its `}`. Undefined when it is not one, its time is not a date, or it
 * has a value decodeTrade refuses.
 */
function tradeAt(b: Buffer, v: DataView, i: number, end: number): Trade | undefined {
  if (!has(v, i, end, ID)) return undefined;
  const id = textAt(b, i + 7, end);
  if (id === undefined || id.length === 0 || !has(v, cur.at, end, EXECUTED_AT)) return undefined;
  const tStart = cur.at + 16;
  const tEnd = textEnd(b, tStart, end);
  if (!has(v, tEnd, end, TRADE_QUANTITY)) return undefined;
  const ms = executedAt(b, v, tStart, tEnd);
  if (Number.isNaN(ms)) return undefined;
  // Quantity and rate above zero, as decodeTrade requires: anything else goes the general way, which refuses it.
  const quantity = plainAt(b, tEnd + 14, end, true);
  if (quantity === undefined || !has(v, cur.at, end, RATE)) return undefined;
  const rate = sharedAt(b, cur.at + 10, end, true);
  if (rate === undefined || !has(v, cur.at, end, TAKER_SIDE)) return undefined;
  i = cur.at + 15;
  const buy = has(v, i, end, BUY);
  if (!buy && !has(v, i, end, SELL)) return undefined;
  cur.at = i + (buy ? 5 : 6);
  return { id, executedAt: new Date(ms), quantity, rate, takerSide: buy ? 'BUY' : 'SELL' };
}

/** The trades of a list whose `[` is just before `i`; `cur.at` after its `]`. Undefined when not such a list. */
function trades(b: Buffer, v: DataView, i: number, end: number): Trade[] | undefined {
  if (i < end && b[i] === 93) {
    cur.at = i + 1;
    return [];
  }
  const t0 = tradeAt(b, v, i, end);
  if (t0 === undefined) return undefined;
  const c0 = listNext(b, end);
  if (c0 !== 44) return c0 === 93 ? [t0] : undefined;
  const out = [t0];
  for (;;) {
    const t = tradeAt(b, v, cur.at, end);
    if (t === undefined) return undefined;
    out.push(t);
    const c = listNext(b, end);
    if (c !== 44) return c === 93 ? out : undefined;
  }
}

/** The rest of a `trade` line from just after `"name":"` (time `t`), or undefined. */
function tradeLine(b: Buffer, v: DataView, source: LineRef, i: number, end: number, t: number): ReplayTrade | undefined {
  if (!has(v, i, end, TRADE)) return undefined;
  const sequence = int(b, v, i + 29, end);
  if (sequence < 0 || !has(v, cur.at, end, SYMBOL)) return undefined;
  const marketSymbol = symbolAt(b, cur.at + 17, end);
  if (marketSymbol === undefined || marketSymbol.length === 0 || !has(v, cur.at, end, DELTAS)) return undefined;
  const list = trades(b, v, cur.at + 12, end);
  if (list === undefined || !closes(b, cur.at, end)) return undefined;
  return { kind: 'trade', at: t, marketSymbol, sequence, trades: list, source };
}

/**
 * The event of a canonical recorded `orderBook` or `trade` line in `bytes[start, end)` (`view` over the same bytes),
 * or undefined (then read it the general way). Nothing outside `[start, end)` is read.
 *
 * @example
 * const b = Buffer.from('{"t":5,"name":"trade","payload":{"sequence":1,"marketSymbol":"A-B","deltas":[]}}');
 * recordedLineEvent(b, new DataView(b.buffer, b.byteOffset, b.length), ref, 0, b.length)?.kind // 'trade'
 */
export function recordedLineEvent(bytes: Buffer, view: DataView, source: LineRef, start: number, end: number): ReplayOrderBookDelta | ReplayTrade | undefined {
  read.exact = true;
  return lineEvent(bytes, view, source, start, end);
}

/**
 * {@link recordedLineEvent} of the line that starts at `start` and ends at the first `\n` from there (or at `limit`,
 * the end of the bytes the caller holds), found by the read itself: the reader then needs no separate scan for
 * the line's end. The index of that `\n` (or `limit`) goes to `lineEnd.at` when the line is read; undefined when it
 * is not (then find its end and read it the general way). What it reads is exactly what {@link recordedLineEvent}
 * reads from the line; nothing after its `\n` counts.
 *
 * @example
 * const b = Buffer.from('{"t":5,"name":"trade","payload":{"sequence":1,"marketSymbol":"A-B","deltas":[]}}\n{"t":6');
 * recordedLineFrom(b, new DataView(b.buffer, b.byteOffset, b.length), ref, 0, b.length)?.kind // 'trade'; lineEnd.at: 80
 */
export function recordedLineFrom(bytes: Buffer, view: DataView, source: LineRef, start: number, limit: number): ReplayOrderBookDelta | ReplayTrade | undefined {
  read.exact = false;
  const e = lineEvent(bytes, view, source, start, limit);
  if (e !== undefined) lineEnd.at = read.nl;
  return e;
}

/** Where the line {@link recordedLineFrom} read last ends (its `\n`, or the limit). */
export const lineEnd = { at: 0 };

/** {@link recordedLineEvent} or {@link recordedLineFrom}, as `read.exact` says. */
function lineEvent(bytes: Buffer, view: DataView, source: LineRef, start: number, end: number): ReplayOrderBookDelta | ReplayTrade | undefined {
  if (!has(view, start, end, T)) return undefined;
  const t = int(bytes, view, start + 5, end);
  const i = cur.at;
  if (t < 0) return undefined;
  // A book line of a market read before: its start as checked then (see BookRun).
  for (let k = 0; k < bookRuns.length; k++) {
    const r = bookRuns[k]!;
    if (has(view, i, end, r.bytes)) return bookRest(bytes, view, source, i + r.bytes.length, end, t, r.marketSymbol, r.depth);
  }
  if (!has(view, i, end, NAME) || i + 9 >= end) return undefined;
  const c = bytes[i + 9];
  return c === 111 ? bookLine(bytes, view, source, i + 9, end, t) : c === 116 ? tradeLine(bytes, view, source, i + 9, end, t) : undefined;
}
