/**
 * A `trade` stream payload read straight from its text, the way the hub client reads `orderBook` payloads
 * (src/bittrex/hub/stream-payload.ts): recordings copy payloads exactly as the service wrote them, keys in a fixed
 * order and no whitespace,
 *
 *     {"sequence":8,"marketSymbol":"BTC-USD","deltas":[{"id":"a1","executedAt":"2023-11-14T22:13:20.004Z","quantity":"0.5","rate":"101","takerSide":"BUY"}]}
 *
 * and JSON.parse plus the generic decoder was the largest cost of reading a recording's trade lines. This reads
 * only that canonical form (no escapes, plain decimals, BUY/SELL, a date Date.parse accepts, a non-empty id) into
 * what decodeStreamMessage('trade', …) builds; anything else answers undefined and goes the reference way, which
 * also writes every error.
 */
import { parsePlainDecimal } from '../../src/core/decimal.js';
import type { TradeMessage } from '../../src/bittrex/hub/messages.js';
import type { Trade } from '../../src/model/market.js';

/** Position of the closing quote of a string starting at `from` (after its opening quote), or -1 if it has escapes. */
function stringEnd(text: string, from: number): number {
  const q = text.indexOf('"', from);
  if (q < 0) return -1;
  for (let i = from; i < q; i++) if (text.charCodeAt(i) === 92) return -1;
  return q;
}

/**
 * The trade message written canonically in `text[start, end)`, or undefined.
 *
 * @example
 * readTradeText('{"sequence":1,"marketSymbol":"BTC-USD","deltas":[]}', 0, 52)?.sequence // 1
 */
export function readTradeText(text: string, start: number, end: number): TradeMessage | undefined {
  if (!text.startsWith('{"sequence":', start)) return undefined;
  let i = start + 12;
  let sequence = 0;
  const seqStart = i;
  for (let c = text.charCodeAt(i); c >= 48 && c <= 57; c = text.charCodeAt(++i)) sequence = sequence * 10 + (c - 48);
  if (i === seqStart || i - seqStart > 15 || !text.startsWith(',"marketSymbol":"', i)) return undefined;
  i += 17;
  const symEnd = stringEnd(text, i);
  if (symEnd <= i || !text.startsWith('","deltas":[', symEnd)) return undefined;
  const marketSymbol = text.slice(i, symEnd);
  i = symEnd + 12;
  const deltas: Trade[] = [];
  if (text.charCodeAt(i) !== 93) {
    for (;;) {
      if (!text.startsWith('{"id":"', i)) return undefined;
      i += 7;
      const idEnd = stringEnd(text, i);
      if (idEnd <= i || !text.startsWith('","executedAt":"', idEnd)) return undefined;
      const id = text.slice(i, idEnd);
      i = idEnd + 16;
      const atEnd = stringEnd(text, i);
      if (atEnd < 0 || !text.startsWith('","quantity":"', atEnd)) return undefined;
      const ms = Date.parse(text.slice(i, atEnd));
      if (Number.isNaN(ms)) return undefined;
      i = atEnd + 14;
      const qEnd = text.indexOf('"', i);
      const quantity = qEnd < 0 ? undefined : parsePlainDecimal(text, i, qEnd);
      if (quantity === undefined || !text.startsWith('","rate":"', qEnd)) return undefined;
      i = qEnd + 10;
      const rEnd = text.indexOf('"', i);
      const rate = rEnd < 0 ? undefined : parsePlainDecimal(text, i, rEnd);
      if (rate === undefined || !text.startsWith('","takerSide":"', rEnd)) return undefined;
      i = rEnd + 15;
      let takerSide: 'BUY' | 'SELL';
      if (text.startsWith('BUY"}', i)) {
        takerSide = 'BUY';
        i += 5;
      } else if (text.startsWith('SELL"}', i)) {
        takerSide = 'SELL';
        i += 6;
      } else return undefined;
      deltas.push({ id, executedAt: new Date(ms), quantity, rate, takerSide });
      const c = text.charCodeAt(i);
      if (c === 93) break;
      if (c !== 44) return undefined;
      i++;
    }
  }
  // `]}` closes the deltas and the payload, exactly at the end.
  return i + 2 === end && text.charCodeAt(i) === 93 && text.charCodeAt(i + 1) === 125 ? { sequence, marketSymbol, deltas } : undefined;
}
