/**
 * The hot lines of a rexbot recording read straight into events, without JSON.parse: `orderBook` and `trade`
 * messages exactly as the recorder writes them (the payload copied as the service wrote it, keys in a fixed order,
 * no whitespace):
 *
 *     {"t":1709251200010,"name":"orderBook","payload":{"marketSymbol":"BTC-USD","depth":500,"sequence":2,"bidDeltas":[],"askDeltas":[{"quantity":"1.2062","rate":"30009"}]}}
 *     {"t":1709251200030,"name":"trade","payload":{"sequence":8,"marketSymbol":"BTC-USD","deltas":[{"id":"a1","executedAt":"2023-11-14T22:13:20.004Z","quantity":"0.5","rate":"101","takerSide":"BUY"}]}}
 *
 * A line is read where it lies in the reader's block of text (`text[start, end)`): a string of its own per line was
 * ~32 bytes of garbage each. It is first checked whole against one regular expression of that canonical form
 * (sticky, at `start`, and its match must end at `end`; a strict subset of JSON
 * and of what the typed decoders accept: no escapes or control characters in strings, integers without leading
 * zeros, decimals in the plain `-?\d+(\.\d+)?` form, BUY or SELL), then read without checking its punctuation
 * again. Checking the literals one `startsWith` at a time cost more than everything else the reader did per line
 * (~100 ns a call on the 2-core machine); the compiled expression checks the whole line in about that time.
 * What the expression accepts decodes to exactly what the general way (JSON.parse, readEntry, the typed decoder)
 * builds; anything else, including values the decoders refuse (a negative quantity, a zero rate, a date
 * `Date.parse` cannot read), answers undefined and goes the general way, which also writes every error.
 */
import { type Decimal, parsePlainDecimal } from '../../src/core/decimal.js';
import { parseSharedDecimal } from '../../src/core/shared-decimal.js';
import type { OrderBookEntry, Trade } from '../../src/model/market.js';
import type { LineRef } from '../../src/sim/driver/replay-error.js';
import type { ReplayOrderBookDelta, ReplayTrade } from '../../src/sim/driver/replay-events.js';

const INT = '(?:0|[1-9]\\d{0,14})';
const DEC = '-?\\d+(?:\\.\\d+)?';
/** A JSON string's content without escapes or control characters. */
const TEXT = '[^"\\\\\\x00-\\x1f]';
const LEVEL = `\\{"quantity":"${DEC}","rate":"${DEC}"\\}`;
const TRADE = `\\{"id":"${TEXT}+","executedAt":"${TEXT}*","quantity":"${DEC}","rate":"${DEC}","takerSide":"(?:BUY|SELL)"\\}`;
const list = (item: string) => `\\[(?:${item}(?:,${item})*)?\\]`;

const BOOK_HEAD = ',"name":"orderBook","payload":{"marketSymbol":"';
const TRADE_HEAD = ',"name":"trade","payload":{"sequence":';
const BOOK_LINE = new RegExp(
  `\\{"t":${INT},"name":"orderBook","payload":\\{"marketSymbol":"${TEXT}*","depth":(?:1|25|500),"sequence":${INT},"bidDeltas":${list(LEVEL)},"askDeltas":${list(LEVEL)}\\}\\}`,
  'y',
);
const TRADE_LINE = new RegExp(
  `\\{"t":${INT},"name":"trade","payload":\\{"sequence":${INT},"marketSymbol":"${TEXT}+","deltas":${list(TRADE)}\\}\\}`,
  'y',
);

/** decimal.js's documented sign field (`s`: 1 or -1; -1 for -0 too). */
const signOf = (d: Decimal): number => (d as unknown as { s: number }).s;

/**
 * The list of a side without deltas (most book lines have one): one frozen empty list shared by every event, as the
 * deltas of a message are only read (a new `[]` was 32 bytes of garbage per line).
 */
const NO_LEVELS: OrderBookEntry[] = Object.freeze([]) as unknown as OrderBookEntry[];

/** Where the last read stopped (one reader runs at a time: no object per value). */
let at = 0;

/**
 * Lists are gathered here and copied out at their exact length: an array grown by push from empty gets room for 17
 * elements, ~150 bytes for what is usually one level or one trade, on every line.
 */
const scratch: unknown[] = [];
/** How many of `scratch` belong to the list being read (it is never shortened: setting a length is a runtime call). */
let gathering = 0;

/** The gathered list, exactly sized. */
function gathered<T>(): T[] {
  const n = gathering;
  gathering = 0;
  // A literal for the usual one or two: cheaper than the call into slice.
  return (n === 1 ? [scratch[0]] : n === 2 ? [scratch[0], scratch[1]] : scratch.slice(0, n)) as T[];
}

/** The digits at `i` up to the first non-digit, as a number; sets `at` after them (the line was checked). */
function digits(text: string, i: number): number {
  let v = 0;
  for (let c = text.charCodeAt(i); c >= 48 && c <= 57; c = text.charCodeAt(++i)) v = v * 10 + (c - 48);
  at = i;
  return v;
}

/** The string content starting at `i` (after its opening quote); sets `at` on its closing quote. */
function str(text: string, i: number): string {
  at = text.indexOf('"', i);
  return text.slice(i, at);
}

/** The market symbol {@link symbol} read last (lines of one market repeat it). */
let lastSymbol = '';

/**
 * {@link str} for a market symbol: the one read last when the characters are the same, so a line of the market read
 * before costs no string (a copy of up to 12 characters, 32 bytes, per line otherwise).
 */
function symbol(text: string, i: number): string {
  const end = text.indexOf('"', i);
  at = end;
  const n = end - i;
  const last = lastSymbol;
  if (n === last.length) {
    let k = 0;
    while (k < n && text.charCodeAt(i + k) === last.charCodeAt(k)) k++;
    if (k === n) return last;
  }
  lastSymbol = text.slice(i, end);
  return lastSymbol;
}

/** `re` (sticky) matches `text` from `start` exactly to `end`: the line there is whole in the canonical form. */
function matchesLine(re: RegExp, text: string, start: number, end: number): boolean {
  re.lastIndex = start;
  return re.test(text) && re.lastIndex === end;
}

/** The minute of the last canonical time {@link executedAt} read (`YYYY-MM-DDTHH:MM:`, copied) and its epoch ms. */
let minuteText = '';
let minuteMs = 0;

/** The digit at `i` as a number, or -1 when it is not a digit. */
function digitAt(text: string, i: number): number {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/**
 * The milliseconds of `SS.sssZ` at `i` (seconds 00-59, exactly three fraction digits, then Z and nothing else
 * before `end`), or -1 for any other form.
 */
function secondsMs(text: string, i: number, end: number): number {
  if (end - i !== 7 || text.charCodeAt(i + 2) !== 46 || text.charCodeAt(i + 6) !== 90) return -1;
  const s1 = digitAt(text, i);
  const s2 = digitAt(text, i + 1);
  const m1 = digitAt(text, i + 3);
  const m2 = digitAt(text, i + 4);
  const m3 = digitAt(text, i + 5);
  if (s1 < 0 || s1 > 5 || s2 < 0 || m1 < 0 || m2 < 0 || m3 < 0) return -1;
  return (s1 * 10 + s2) * 1000 + m1 * 100 + m2 * 10 + m3;
}

/**
 * `Date.parse` of the time in `text[start, end)`, without parsing it when it is in the service's canonical form
 * `YYYY-MM-DDTHH:MM:SS.sssZ` and in the same minute as the last one parsed (trades come in time order, so
 * nearly all are): then it is that minute's time plus the seconds. `Date.parse` read that minute with some
 * seconds, so it reads it with any others (00-59) as the same minute plus those seconds; hours 24 (valid only
 * as 24:00:00.000) are never remembered. Costs ~20 ns instead of ~250 ns and a string per trade.
 */
function executedAt(text: string, start: number, end: number): number {
  const seconds = secondsMs(text, start + 17, end);
  if (seconds >= 0 && minuteText.length === 17) {
    let i = 0;
    while (i < 17 && text.charCodeAt(start + i) === minuteText.charCodeAt(i)) i++;
    if (i === 17) return minuteMs + seconds;
  }
  const ms = Date.parse(text.slice(start, end));
  if (seconds >= 0 && !Number.isNaN(ms) && canonicalMinute(text, start)) {
    // Copied: a slice of the line would keep the line's whole block of text alive.
    const codes: number[] = [];
    for (let i = 0; i < 17; i++) codes.push(text.charCodeAt(start + i));
    minuteText = String.fromCharCode(...codes);
    minuteMs = ms - seconds;
  }
  return ms;
}

/** `text` at `start` is `YYYY-MM-DDTHH:MM:` with an hour below 24. */
function canonicalMinute(text: string, start: number): boolean {
  for (let i = 0; i < 17; i++) {
    const c = text.charCodeAt(start + i);
    const want = i === 4 || i === 7 ? 45 : i === 10 ? 84 : i === 13 || i === 16 ? 58 : -1; // - - T : :
    if (want >= 0 ? c !== want : c < 48 || c > 57) return false;
  }
  return digitAt(text, start + 11) * 10 + digitAt(text, start + 12) < 24;
}

/**
 * The levels of a checked list whose `[` is just before `i`; sets `at` after its `]`. Undefined when a level is
 * one the decoder refuses: a negative quantity (decimal.js calls -0 negative) or a rate not above zero.
 */
function levels(text: string, i: number): OrderBookEntry[] | undefined {
  if (text.charCodeAt(i) === 93) {
    at = i + 1;
    return NO_LEVELS;
  }
  while (text.charCodeAt(i) !== 93) {
    const qStart = i + 13; // {"quantity":"
    const qEnd = text.indexOf('"', qStart);
    const rStart = qEnd + 10; // ","rate":"
    const rEnd = text.indexOf('"', rStart);
    // Rates repeat (a few price levels over and over): one Decimal per rate seen lately. Sizes mostly do not, and a
    // table churned by them kept young decimals alive across collections (more CPU, in the no-op run and reading).
    const quantity = parsePlainDecimal(text, qStart, qEnd)!;
    const rate = parseSharedDecimal(text, rStart, rEnd)!;
    if (signOf(quantity) < 0 || signOf(rate) < 0 || rate.isZero()) {
      gathering = 0;
      return undefined;
    }
    scratch[gathering++] = { quantity, rate };
    i = rEnd + 2; // "}
    if (text.charCodeAt(i) === 44) i++;
  }
  at = i + 1;
  return gathered<OrderBookEntry>();
}

/**
 * The `orderBookDelta` event of a canonical recorded `orderBook` line (`text[start, end)`, by default the whole
 * text), or undefined (then read it the general way).
 *
 * @example
 * orderBookLineEvent('{"t":5,"name":"orderBook","payload":{"marketSymbol":"A-B","depth":25,"sequence":7,"bidDeltas":[],"askDeltas":[]}}', ref)?.sequence // 7
 */
export function orderBookLineEvent(text: string, source: LineRef, start = 0, end = text.length): ReplayOrderBookDelta | undefined {
  if (!matchesLine(BOOK_LINE, text, start, end)) return undefined;
  const t = digits(text, start + 5);
  const marketSymbol = symbol(text, at + BOOK_HEAD.length);
  const depth = digits(text, at + 10); // ","depth":
  const sequence = digits(text, at + 12); // ,"sequence":
  const bidDeltas = levels(text, at + 14); // ,"bidDeltas":[
  if (bidDeltas === undefined) return undefined;
  const askDeltas = levels(text, at + 14); // ,"askDeltas":[
  if (askDeltas === undefined) return undefined;
  return { kind: 'orderBookDelta', at: t, marketSymbol, depth, sequence, bidDeltas, askDeltas, source };
}

/**
 * The `trade` event of a canonical recorded `trade` line (`text[start, end)`, by default the whole text), or
 * undefined (then read it the general way).
 *
 * @example
 * tradeLineEvent('{"t":5,"name":"trade","payload":{"sequence":1,"marketSymbol":"A-B","deltas":[]}}', ref)?.trades // []
 */
export function tradeLineEvent(text: string, source: LineRef, start = 0, end = text.length): ReplayTrade | undefined {
  if (!matchesLine(TRADE_LINE, text, start, end)) return undefined;
  const t = digits(text, start + 5);
  const sequence = digits(text, at + TRADE_HEAD.length);
  const marketSymbol = symbol(text, at + 17); // ,"marketSymbol":"
  let i = at + 12; // ","deltas":[
  while (text.charCodeAt(i) !== 93) {
    const id = str(text, i + 7); // {"id":"
    const tStart = at + 16; // ","executedAt":"
    at = text.indexOf('"', tStart);
    const ms = executedAt(text, tStart, at);
    if (Number.isNaN(ms)) {
      gathering = 0;
      return undefined;
    }
    const qStart = at + 14; // ","quantity":"
    const qEnd = text.indexOf('"', qStart);
    const rStart = qEnd + 10; // ","rate":"
    const rEnd = text.indexOf('"', rStart);
    const quantity = parsePlainDecimal(text, qStart, qEnd)!;
    const rate = parseSharedDecimal(text, rStart, rEnd)!;
    const buy = text.charCodeAt(rEnd + 15) === 66; // ","takerSide":" then B(UY) or S(ELL)
    scratch[gathering++] = { id, executedAt: new Date(ms), quantity, rate, takerSide: buy ? 'BUY' : 'SELL' };
    i = rEnd + (buy ? 20 : 21); // ...BUY"} or ...SELL"}
    if (text.charCodeAt(i) === 44) i++;
  }
  return { kind: 'trade', at: t, marketSymbol, sequence, trades: gathered<Trade>(), source };
}
