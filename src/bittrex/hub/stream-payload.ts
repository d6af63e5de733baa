/**
 * From a hub message's wire argument to a typed {@link StreamMessage} in one step, with a fast path for the
 * order-book stream.
 *
 * `decodeStreamMessage(name, decodePayload(arg))` is the reference. For orderBook (the hottest stream) the
 * profile of stream-latency had JSON.parse of the inflated text as the largest single cost: it builds a generic
 * object graph and a string per value, which the typed decoder then reads back to build Decimals. The service
 * (and the simulator) write these payloads in one canonical form, keys in a fixed order and no whitespace:
 *
 *     {"marketSymbol":"BTC-EUR","depth":500,"sequence":3209226,"bidDeltas":[],"askDeltas":[{"quantity":"0","rate":"32601.41900000"}]}
 *
 * {@link readOrderBookText} reads exactly that form straight into the typed message. It is a strict subset of
 * JSON and of what the typed decoder accepts (no escapes, decimals in the plain `-?\d+(\.\d+)?` form, the same
 * level checks), so whatever it accepts decodes to the same message the reference would build; anything else,
 * well-formed or not, answers undefined and goes the reference way, which also writes every error.
 */
import { parsePlainDecimal, type Decimal } from '../../core/decimal.js';
import type { OrderBookDepth, OrderBookEntry } from '../../model/index.js';
import { MAX_AMOUNT_EXPONENT } from '../../model/decode.js';
import { inflatePayload, parsePayloadText } from './codec.js';
import { decodeStreamMessage, streamMessageName, type OrderBookMessage, type StreamMessage } from './messages.js';

const QUOTE = 34;
const BACKSLASH = 92;

/** decimal.js's documented sign field (`s`: 1 or -1; both for zero). */
const signOf = (d: Decimal): number => (d as unknown as { s: number }).s;

/** Position after `"` + a JSON string without escapes or control characters starting at `from`, or -1. */
function stringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i;
    if (c < 0x20 || c === BACKSLASH) return -1;
  }
  return -1;
}

/** A JSON integer `0|[1-9][0-9]*` of at most 15 digits (always safe) at `from`, ending before `text[end]`. */
function integerAt(text: string, from: number, end: number): number {
  const n = end - from;
  if (n < 1 || n > 15 || (n > 1 && text.charCodeAt(from) === 48)) return -1;
  let v = 0;
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** Where {@link readLevels} stopped: just after the `]` of the list it read. */
interface Cursor {
  at: number;
}

const LEVEL_QUANTITY = '{"quantity":"';
const LEVEL_RATE = '","rate":"';

/** `[` levels `]` at `cursor.at` (which points just after the `[`). */
function readLevels(text: string, cursor: Cursor): OrderBookEntry[] | undefined {
  const out: OrderBookEntry[] = [];
  let i = cursor.at;
  if (text.charCodeAt(i) === 93) {
    cursor.at = i + 1;
    return out;
  }
  for (;;) {
    if (!text.startsWith(LEVEL_QUANTITY, i)) return undefined;
    const qStart = i + LEVEL_QUANTITY.length;
    const qEnd = text.indexOf('"', qStart);
    if (qEnd < 0 || !text.startsWith(LEVEL_RATE, qEnd)) return undefined;
    const rStart = qEnd + LEVEL_RATE.length;
    const rEnd = text.indexOf('"', rStart);
    // The decimal reader accepts only [-0-9.], so a quote found by indexOf really closes each string.
    if (rEnd < 0 || text.charCodeAt(rEnd + 1) !== 125) return undefined;
    const quantity = parsePlainDecimal(text, qStart, qEnd);
    const rate = parsePlainDecimal(text, rStart, rEnd);
    // The typed decoder's level checks: quantity not negative (decimal.js calls -0 negative), rate above zero, both
    // in range (`e`, a field of the parsed value: one comparison each); the reference way words the error.
    if (quantity === undefined || rate === undefined || signOf(quantity) < 0 || signOf(rate) < 0 || rate.isZero()) return undefined;
    if (quantity.e > MAX_AMOUNT_EXPONENT || rate.e > MAX_AMOUNT_EXPONENT) return undefined;
    out.push({ quantity, rate });
    i = rEnd + 2;
    const next = text.charCodeAt(i);
    if (next === 93) {
      cursor.at = i + 1;
      return out;
    }
    if (next !== 44) return undefined;
    i++;
  }
}

/**
 * Read an orderBook payload written in the canonical form (see the top of this file) into the typed message, or
 * answer undefined when the text is in any other form (the caller then decodes it the general way).
 *
 * @example
 * readOrderBookText('{"marketSymbol":"BTC-USD","depth":25,"sequence":7,"bidDeltas":[],"askDeltas":[]}')
 * // { marketSymbol: 'BTC-USD', depth: 25, sequence: 7, bidDeltas: [], askDeltas: [] }
 */
export function readOrderBookText(text: string): OrderBookMessage | undefined {
  if (!text.startsWith('{"marketSymbol":"')) return undefined;
  const symbolEnd = stringEnd(text, 17);
  if (symbolEnd < 0 || !text.startsWith(',"depth":', symbolEnd + 1)) return undefined;
  let i = symbolEnd + 10;
  let depth: OrderBookDepth;
  if (text.startsWith('25,', i)) depth = 25;
  else if (text.startsWith('500,', i)) depth = 500;
  else if (text.startsWith('1,', i)) depth = 1;
  else return undefined;
  i += depth === 1 ? 2 : depth === 25 ? 3 : 4;
  if (!text.startsWith('"sequence":', i)) return undefined;
  i += 11;
  const seqEnd = text.indexOf(',', i);
  const sequence = seqEnd < 0 ? -1 : integerAt(text, i, seqEnd);
  if (sequence < 0 || !text.startsWith(',"bidDeltas":[', seqEnd)) return undefined;
  const cursor: Cursor = { at: seqEnd + 14 };
  const bidDeltas = readLevels(text, cursor);
  if (bidDeltas === undefined || !text.startsWith(',"askDeltas":[', cursor.at)) return undefined;
  cursor.at += 14;
  const askDeltas = readLevels(text, cursor);
  if (askDeltas === undefined || cursor.at !== text.length - 1 || text.charCodeAt(cursor.at) !== 125) return undefined;
  return { marketSymbol: text.slice(17, symbolEnd), depth, sequence, bidDeltas, askDeltas };
}

/**
 * Decode one stream message from its wire argument (base64 of raw deflate of JSON): the same result and the same
 * errors as `decodeStreamMessage(name, decodePayload(arg))`, faster for orderBook (see the top of this file).
 * Throws {@link WireFormatError}: `hub payload` for the encoding, `stream <name>` for the content.
 *
 * @example
 * const msg = decodeStreamPayload('orderBook', frame.messages[0].args[0]);
 * if (msg.name === 'orderBook') book.apply(msg.data);
 */
export function decodeStreamPayload(name: string, arg: unknown): StreamMessage {
  const text = inflatePayload(arg);
  if (streamMessageName(name) === 'orderBook') {
    const data = readOrderBookText(text);
    if (data !== undefined) return { name: 'orderBook', data };
  }
  return decodeStreamMessage(name, parsePayloadText(text));
}
