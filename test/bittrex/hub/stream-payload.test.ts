import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseClassicFrame } from '../../../src/bittrex/hub/classic-frames.js';
import { decodePayload, encodePayload, inflatePayload } from '../../../src/bittrex/hub/codec.js';
import { decodeStreamMessage } from '../../../src/bittrex/hub/messages.js';
import { decodeStreamPayload, readOrderBookText } from '../../../src/bittrex/hub/stream-payload.js';
import { WireFormatError } from '../../../src/core/errors.js';
import { loadCapture } from '../../fixtures/v3-capture/load-capture.js';
import { Prng } from '../../sync/prng.js';

/** The outcome of a decode as comparable text: the message (decimals as their text) or the error. */
function outcome(decode: () => unknown): string {
  try {
    return `ok ${JSON.stringify(decode())}`;
  } catch (e) {
    return `${e instanceof WireFormatError ? 'WireFormatError' : 'other'} ${(e as Error).message}`;
  }
}

const reference = (name: string, arg: unknown) => outcome(() => decodeStreamMessage(name, decodePayload(arg as string)));
const fast = (name: string, arg: unknown) => outcome(() => decodeStreamPayload(name, arg));
const wire = (text: string): string => deflateRawSync(Buffer.from(text, 'utf8')).toString('base64');

describe('decodeStreamPayload', () => {
  it('decodes every captured message exactly as decodeStreamMessage(decodePayload(...)) does', () => {
    let books = 0;
    for (const f of loadCapture().frames) {
      const frame = parseClassicFrame(f.text);
      if (frame.kind !== 'push') continue;
      for (const m of frame.messages) {
        if (m.args.length === 0) continue;
        expect(fast(m.method, m.args[0])).toBe(reference(m.method, m.args[0]));
        if (m.method === 'orderBook') {
          books++;
          // The captured service payloads are in the canonical form the fast reader takes.
          expect(readOrderBookText(inflatePayload(m.args[0]))).toBeDefined();
        }
      }
    }
    expect(books).toBeGreaterThan(1000);
  });

  it('reads the canonical form itself and leaves every other form to the general decoder, with the same result', () => {
    const canonical = JSON.stringify({
      marketSymbol: 'BTC-USD',
      depth: 25,
      sequence: 120,
      bidDeltas: [{ quantity: '0.50000000', rate: '30000.12300000' }, { quantity: '0', rate: '29999.00000000' }],
      askDeltas: [{ quantity: '1.25000000', rate: '30001.00000000' }],
    });
    expect(readOrderBookText(canonical)).toBeDefined();
    expect(readOrderBookText(inflatePayload(encodePayload({ marketSymbol: 'X-Y', depth: 500, sequence: 0, bidDeltas: [], askDeltas: [] })))).toBeDefined();
    const rng = new Prng(5);
    const alphabet = ['"', '\\', '-', '0', '1', '9', '.', 'e', ',', ':', '{', '}', '[', ']', ' ', 'x', '\u0001', 'ü', 'n'];
    let fallbacks = 0;
    let errors = 0;
    for (let k = 0; k < 2_000; k++) {
      let text = canonical;
      for (let edits = 1 + rng.int(2); edits > 0; edits--) {
        const at = rng.int(text.length + 1);
        const op = rng.int(3);
        const ch = alphabet[rng.int(alphabet.length)]!;
        text = op === 0 ? text.slice(0, at) + ch + text.slice(at) : op === 1 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + ch + text.slice(at + 1);
      }
      if (readOrderBookText(text) === undefined) fallbacks++;
      const arg = wire(text);
      const want = reference('orderBook', arg);
      if (!want.startsWith('ok')) errors++;
      expect(fast('orderBook', arg), text).toBe(want);
    }
    // Both ways were exercised, and many edits broke the message outright.
    expect(fallbacks).toBeGreaterThan(700);
    expect(errors).toBeGreaterThan(300);
  });

  it('keeps the errors of each step: the payload encoding, then the stream content', () => {
    expect(fast('orderBook', 42)).toBe('WireFormatError hub payload: <root> is not a base64 string: number');
    expect(fast('orderBook', '!!')).toMatch(/^WireFormatError hub payload: <root> is not base64 text/);
    expect(fast('orderBook', wire('{"marketSymbol":'))).toMatch(/^WireFormatError hub payload: <root> is not JSON after inflate/);
    const negative = wire('{"marketSymbol":"X-Y","depth":25,"sequence":1,"bidDeltas":[{"quantity":"-1","rate":"2"}],"askDeltas":[]}');
    expect(fast('orderBook', negative)).toBe('WireFormatError stream orderBook: bidDeltas[0].quantity is negative: -1');
    // Out of range (more than 31 digits before the point, as amountProblem): the canonical form too goes the
    // reference way, which names the field; 31 digits are read by the fast reader.
    const book = (q: string, r: string) => `{"marketSymbol":"X-Y","depth":25,"sequence":1,"bidDeltas":[],"askDeltas":[{"quantity":"${q}","rate":"${r}"}]}`;
    for (const [text, field] of [[book('1', '9'.repeat(400)), 'rate'], [book(`${'9'.repeat(400)}.5`, '1'), 'quantity'], [book('1', '1e400'), 'rate']] as const) {
      expect(readOrderBookText(text)).toBeUndefined();
      expect(fast('orderBook', wire(text))).toMatch(new RegExp(`^WireFormatError stream orderBook: askDeltas\\[0\\]\\.${field} is out of range: .{1,60}$`));
    }
    const edge = book(`${'9'.repeat(31)}.5`, '9'.repeat(31));
    expect(readOrderBookText(edge)).toBeDefined();
    expect(fast('orderBook', wire(edge))).toBe(reference('orderBook', wire(edge)));
    expect(fast('nope', wire('{}'))).toBe('WireFormatError stream nope: <root> is not a known stream message');
    // Numbers a double cannot hold are judged from the text sent: a sequence past 2^53 is refused with its own
    // digits, a trade quantity sent as a bare number keeps all of them (JSON.parse made it 1).
    const bigSequence = wire('{"marketSymbol":"X-Y","depth":25,"sequence":9007199254740993,"bidDeltas":[],"askDeltas":[]}');
    expect(fast('orderBook', bigSequence)).toBe('WireFormatError stream orderBook: sequence is not an integer: 9007199254740993');
    const trade = wire('{"sequence":3,"marketSymbol":"X-Y","deltas":[{"id":"t1","executedAt":"2021-06-14T00:00:00Z","quantity":1.0000000000000001,"rate":"2","takerSide":"BUY"}]}');
    expect(fast('trade', trade)).toMatch(/^ok .*"quantity":"1.0000000000000001"/);

    const ticker = { symbol: 'BTC-USD', lastTradeRate: '1', bidRate: '0.9', askRate: '1.1' };
    expect(fast('ticker', encodePayload(ticker))).toBe(reference('ticker', encodePayload(ticker)));
  });
});
