import { describe, expect, it } from 'vitest';
import { readTradeText } from '../../../backtest/readers/trade-text.js';
import { decodeStreamMessage } from '../../../src/bittrex/hub/messages.js';

const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
const read = (text: string) => readTradeText(text, 0, text.length);

describe('readTradeText (the recording reader fast path for trade payloads)', () => {
  it('reads the canonical form into exactly what the reference decoder builds', () => {
    for (const text of [
      '{"sequence":8,"marketSymbol":"BTC-USD","deltas":[{"id":"a1","executedAt":"2023-11-14T22:13:20.004Z","quantity":"0.50000000","rate":"101.00000000","takerSide":"BUY"}]}',
      '{"sequence":1234567,"marketSymbol":"ETH-BTC","deltas":[{"id":"x","executedAt":"2021-06-14T01:53:39Z","quantity":"1","rate":"0.06","takerSide":"SELL"},{"id":"y","executedAt":"2021-06-14T01:53:39.5Z","quantity":"2.5","rate":"0.061","takerSide":"BUY"}]}',
      '{"sequence":0,"marketSymbol":"A-B","deltas":[]}',
    ]) {
      const fast = read(text);
      expect(fast).toBeDefined();
      const reference = decodeStreamMessage('trade', JSON.parse(text));
      expect(plain(fast)).toEqual(plain(reference.data));
      expect(fast!.deltas.map((d) => d.quantity.toFixed())).toEqual((reference.data as { deltas: { quantity: { toFixed(): string } }[] }).deltas.map((d) => d.quantity.toFixed()));
    }
  });

  it('answers undefined for anything else, leaving it to the reference decoder', () => {
    for (const text of [
      '{"sequence": 8,"marketSymbol":"BTC-USD","deltas":[]}', // whitespace
      '{"marketSymbol":"BTC-USD","sequence":8,"deltas":[]}', // key order
      '{"sequence":8,"marketSymbol":"BTC-USD","deltas":[{"id":"a\\"1","executedAt":"2023-11-14T22:13:20Z","quantity":"1","rate":"1","takerSide":"BUY"}]}', // escape
      '{"sequence":8,"marketSymbol":"BTC-USD","deltas":[{"id":"a","executedAt":"yesterday","quantity":"1","rate":"1","takerSide":"BUY"}]}',
      '{"sequence":8,"marketSymbol":"BTC-USD","deltas":[{"id":"a","executedAt":"2023-11-14T22:13:20Z","quantity":"1e-8","rate":"1","takerSide":"BUY"}]}',
      '{"sequence":8,"marketSymbol":"BTC-USD","deltas":[{"id":"a","executedAt":"2023-11-14T22:13:20Z","quantity":"1","rate":"1","takerSide":"buy"}]}',
      '{"sequence":8,"marketSymbol":"BTC-USD","deltas":[{"id":"","executedAt":"2023-11-14T22:13:20Z","quantity":"1","rate":"1","takerSide":"BUY"}]}',
      '{"sequence":8,"marketSymbol":"BTC-USD","deltas":[]}x',
      '{"sequence":8,"marketSymbol":"BTC-USD","deltas":[',
    ]) {
      expect(read(text), text).toBeUndefined();
    }
  });
});
