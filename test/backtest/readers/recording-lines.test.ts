import { describe, expect, it } from 'vitest';
import { lineEnd, recordedLineEvent, recordedLineFrom } from '../../../backtest/readers/recording-lines.js';
import { recordingParser } from '../../../backtest/readers/rexbot.js';
import { eventsOfMessage } from '../../../backtest/readers/stream-events.js';
import { decodeStreamMessage } from '../../../src/bittrex/hub/messages.js';
import { readEntry } from '../../../src/recorder/recording-reader.js';
import { Prng } from '../../sync/prng.js';
import { equalTo, holds, sameAs } from '../../helpers/cheap-expect.js';

const ref = { file: 'r.jsonl', line: 2 };
const HEADER_LINE = '{"format":"rexbot-recording","version":1,"startedAt":0,"channels":[],"source":{"hub":"h","rest":"r","transport":"classic"}}';

/** What the reader's general way makes of a line: the event as comparable text, or why it refuses it. */
function general(text: string): string {
  try {
    const entry = readEntry(JSON.parse(text), 2);
    if (typeof entry === 'string' || entry.kind !== 'message') return 'refused';
    const events = eventsOfMessage(decodeStreamMessage(entry.name, entry.payload), entry.t, ref);
    return events?.length === 1 ? `ok ${JSON.stringify(events[0])}` : 'refused';
  } catch {
    return 'refused';
  }
}

/** Lines around the one read where it lies in a block (the reader's way): a line must be read up to its end only. */
const NEIGHBOURS = ['', 'x', '{"t":1,"name":"orderBook"}', ']}}', '"}]}}', '{"t":9,"name":"trade","payload":{"sequence":1,"marketSymbol":"A-B","deltas":[]}}'];
let around = 0;

/** The event {@link recordedLineEvent} reads from `bytes[start, end)`, as comparable text, or undefined. */
function readAt(bytes: Buffer, start: number, end: number): string | undefined {
  const e = recordedLineEvent(bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), ref, start, end);
  return e === undefined ? undefined : `ok ${JSON.stringify(e)}`;
}

/**
 * The fast way: the event as the same text, or undefined when it leaves the line to the general way. The line's
 * bytes are read alone, and also inside a block of bytes between other lines (as the reader hands them to the
 * parser's `bytesAt`, by the function and by the parser itself): every way must give the same answer.
 */
function fast(text: string | Buffer): string | undefined {
  const line = typeof text === 'string' ? Buffer.from(text) : text;
  const alone = readAt(line, 0, line.length);
  const before = Buffer.from(`${NEIGHBOURS[around % NEIGHBOURS.length]!}\n`);
  const after = Buffer.from(`${around % 3 === 0 ? '\r\n' : '\n'}${NEIGHBOURS[(around + 2) % NEIGHBOURS.length]!}`);
  around++;
  const block = Buffer.concat([before, line, after]);
  const start = before.length;
  const end = start + line.length;
  // Called some 30,000 times: each check is compared in plain code first, and the line's text built only for one
  // that differs.
  const shown = () => line.toString('utf8');
  sameAs(readAt(block, start, end), alone, shown);
  // Read from its start, finding its own end: the same, ending at its `\n` in the block (after a `\r` if one
  // follows), or at the end of the bytes given when it is alone.
  const nl = after[0] === 13 ? end + 1 : end;
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const from = (bytes: Buffer, v: DataView, at: number, limit: number) => {
    const e = recordedLineFrom(bytes, v, ref, at, limit);
    return e === undefined ? undefined : `ok ${JSON.stringify(e)} ${lineEnd.at}`;
  };
  sameAs(from(block, view, start, block.length), alone === undefined ? undefined : `${alone} ${nl}`, shown);
  sameAs(from(line, new DataView(line.buffer, line.byteOffset, line.byteLength), 0, line.length), alone === undefined ? undefined : `${alone} ${line.length}`, shown);
  // The parser's fast path (after its header line) reads the same, and says so exactly when it read it.
  const parser = recordingParser();
  parser.line(HEADER_LINE, { file: 'r.jsonl', line: 1 }, { event() {}, ignore() {} });
  const got: unknown[] = [];
  const read = parser.bytesAt!(block, view, start, block.length, ref, { event: (x) => void got.push(x), ignore: () => got.push('ignored') });
  equalTo([read, read >= 0 ? `ok ${JSON.stringify(got[0])}` : got.length], [alone !== undefined ? nl : -1, alone ?? 0], shown);
  return alone;
}

/** A random line of the canonical form (values of every kind the decoders accept or refuse), with its parts. */
function randomLine(rng: Prng): string {
  const digits = (n: number) => Array.from({ length: n }, () => String(rng.int(10))).join('');
  const int = () => (rng.chance(0.1) ? '0' : `${1 + rng.int(9)}${digits(rng.int(rng.chance(0.1) ? 16 : 12))}`);
  const dec = () =>
    `${rng.chance(0.05) ? '-' : ''}${rng.chance(0.3) ? '0' : digits(1 + rng.int(rng.chance(0.1) ? 18 : 6))}${rng.chance(0.7) ? `.${digits(1 + rng.int(rng.chance(0.1) ? 18 : 8))}` : ''}`;
  const symbol = () => rng.pick(['BTC-USD', 'ETH-BTC', 'A', '', 'X-Y', 'LONGERSYMBOL-USDT']);
  const list = (item: () => string) => `[${Array.from({ length: rng.chance(0.3) ? 0 : 1 + rng.int(3) }, item).join(',')}]`;
  if (rng.chance(0.6)) {
    const level = () => `{"quantity":"${dec()}","rate":"${dec()}"}`;
    return `{"t":${int()},"name":"orderBook","payload":{"marketSymbol":"${symbol()}","depth":${rng.pick(['1', '25', '500', '50'])},"sequence":${int()},"bidDeltas":${list(level)},"askDeltas":${list(level)}}}`;
  }
  const two = (n: number) => String(n).padStart(2, '0');
  const time = () => `2024-0${1 + rng.int(9)}-${two(1 + rng.int(28))}T${two(rng.int(24))}:${two(rng.int(60))}:${two(rng.int(60))}${rng.chance(0.9) ? `.${digits(3)}` : ''}Z`;
  const trade = () => `{"id":"${rng.pick(['a1', 's123', '3c2e6b1e-8a44-4d35-9f5a-2a1b8c7d6e5f', ''])}","executedAt":"${time()}","quantity":"${dec()}","rate":"${dec()}","takerSide":"${rng.pick(['BUY', 'SELL', 'BUY', 'SELL', 'HOLD'])}"}`;
  return `{"t":${int()},"name":"trade","payload":{"sequence":${int()},"marketSymbol":"${symbol()}","deltas":${list(trade)}}}`;
}

const BOOK =
  '{"t":1709251200010,"name":"orderBook","payload":{"marketSymbol":"BTC-USD","depth":500,"sequence":2,"bidDeltas":[{"quantity":"0.50000000","rate":"30000.12300000"},{"quantity":"0","rate":"29999"}],"askDeltas":[{"quantity":"1.2062","rate":"30009"}]}}';
const TRADE =
  '{"t":1709251200030,"name":"trade","payload":{"sequence":8,"marketSymbol":"BTC-USD","deltas":[{"id":"a1","executedAt":"2023-11-14T22:13:20.004Z","quantity":"0.5","rate":"101","takerSide":"BUY"},{"id":"b2","executedAt":"2021-06-14T01:53:39Z","quantity":"2.50000000","rate":"0.061","takerSide":"SELL"}]}}';

describe('recording lines read without JSON.parse (the rexbot reader fast path)', () => {
  it('reads the canonical orderBook and trade lines into exactly the events the general way builds', () => {
    for (const text of [
      BOOK,
      TRADE,
      '{"t":0,"name":"orderBook","payload":{"marketSymbol":"X-Y","depth":1,"sequence":0,"bidDeltas":[],"askDeltas":[]}}',
      '{"t":5,"name":"orderBook","payload":{"marketSymbol":"X-Y","depth":25,"sequence":123456789012345,"bidDeltas":[{"quantity":"0.0","rate":"1"}],"askDeltas":[]}}',
      '{"t":5,"name":"trade","payload":{"sequence":0,"marketSymbol":"A-B","deltas":[]}}',
      '{"t":5,"name":"trade","payload":{"sequence":1,"marketSymbol":"A-B","deltas":[{"id":"x","executedAt":"2021-06-14T01:53:39.5Z","quantity":"0.00000001","rate":"0.1","takerSide":"SELL"}]}}',
      // 31 digits before the point: the largest the decoders take (amountProblem)
      BOOK.replace('"rate":"30009"', `"rate":"${'9'.repeat(31)}.5"`),
      TRADE.replace('"quantity":"0.5"', `"quantity":"${'9'.repeat(31)}"`),
    ]) {
      const want = general(text);
      expect(want, text).toMatch(/^ok /);
      expect(fast(text), text).toBe(want);
    }
  });

  it('leaves every other form, and values the decoders refuse, to the general way', () => {
    for (const text of [
      BOOK.replace('"depth":500', '"depth": 500'), // whitespace
      BOOK.replace('"t":1709251200010', '"t":01709251200010'), // not JSON
      BOOK.replace('"quantity":"1.2062"', '"quantity":"1.2e3"'), // not the plain form
      BOOK.replace('"quantity":"1.2062"', '"quantity":"-1.2062"'), // a negative quantity is refused
      BOOK.replace('"quantity":"0"', '"quantity":"-0"'),
      BOOK.replace('"rate":"30009"', '"rate":"0.000"'), // a rate must be above zero
      BOOK.replace('"depth":500', '"depth":50'),
      BOOK.replace('BTC-USD', 'BTC\\u002dUSD'), // escape
      `${BOOK} `,
      TRADE.replace('"quantity":"0.5"', '"quantity":"0.000"'), // a trade of nothing is refused
      TRADE.replace('"quantity":"0.5"', '"quantity":"-0.5"'),
      TRADE.replace('"rate":"101"', '"rate":"0"'), // at no price
      TRADE.replace('"rate":"101"', '"rate":"-101"'),
      TRADE.replace('"takerSide":"BUY"', '"takerSide":"buy"'),
      TRADE.replace('2023-11-14T22:13:20.004Z', 'yesterday'),
      TRADE.replace('"id":"a1"', '"id":""'),
      TRADE.replace('"marketSymbol":"BTC-USD","deltas"', '"deltas"'),
      TRADE.replace('"name":"trade"', '"name":"ticker"'),
      // out of range (more than 31 digits before the point, as amountProblem): the general way names the field
      BOOK.replace('"rate":"30009"', `"rate":"${'9'.repeat(400)}"`),
      BOOK.replace('"quantity":"1.2062"', `"quantity":"${'1'.repeat(32)}.5"`),
      TRADE.replace('"rate":"101"', `"rate":"${'9'.repeat(32)}"`),
      TRADE.replace('"quantity":"0.5"', `"quantity":"${'9'.repeat(400)}.5"`),
    ]) {
      expect(fast(text), text).toBeUndefined();
    }
  });

  it('never reads an edited line differently from the general way', () => {
    const rng = new Prng(7);
    const alphabet = ['"', '\\', '-', '0', '1', '9', '.', 'e', ',', ':', '{', '}', '[', ']', ' ', 'x', '\u0001', 'ü', 'B', 'S'];
    let accepted = 0;
    let refused = 0;
    for (let k = 0; k < 4_000; k++) {
      let text = k % 2 === 0 ? BOOK : TRADE;
      for (let edits = 1 + rng.int(2); edits > 0; edits--) {
        const at = rng.int(text.length + 1);
        const op = rng.int(3);
        const ch = alphabet[rng.int(alphabet.length)]!;
        text = op === 0 ? text.slice(0, at) + ch + text.slice(at) : op === 1 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + ch + text.slice(at + 1);
      }
      const got = fast(text);
      const want = general(text);
      if (want === 'refused') refused++;
      if (got === undefined) continue;
      accepted++;
      sameAs(got, want, text);
    }
    // Both ways were exercised, and many edits broke the line outright.
    expect(accepted).toBeGreaterThan(150);
    expect(refused).toBeGreaterThan(1000);
  });

  it('reads random lines, and the same lines with bytes flipped, inserted or deleted, as the general way does', () => {
    const rng = new Prng(17);
    // Bytes of the form, digits, a quote, a backslash, control characters, and bytes that are not ASCII (a
    // character of UTF-8 split, a whole one, invalid UTF-8).
    const bytes = [0x22, 0x5c, 0x2d, 0x30, 0x31, 0x39, 0x2e, 0x65, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d, 0x20, 0x78, 0x01, 0x0d, 0x0a, 0x7f, 0xc3, 0xa9, 0xff, 0x80];
    let accepted = 0;
    let agreedRefusals = 0;
    for (let k = 0; k < 6_000; k++) {
      let line = Buffer.from(randomLine(rng));
      const edits = k % 3 === 0 ? 0 : 1 + rng.int(2);
      for (let e = 0; e < edits; e++) {
        const at = rng.int(line.length + 1);
        const b = Buffer.from([rng.chance(0.2) ? rng.int(256) : rng.pick(bytes)]);
        const op = rng.int(3);
        line = op === 0 ? Buffer.concat([line.subarray(0, at), b, line.subarray(at)]) : op === 1 ? Buffer.concat([line.subarray(0, at), line.subarray(at + 1)]) : Buffer.concat([line.subarray(0, at), b, line.subarray(at + 1)]);
      }
      // A line never holds its line break: the reader cut the file there.
      if (line.includes(0x0a)) continue;
      const got = fast(line);
      const want = general(line.toString('utf8'));
      if (got === undefined) {
        if (want === 'refused') agreedRefusals++;
        continue;
      }
      accepted++;
      sameAs(got, want, () => line.toString('utf8'));
    }
    // Fewer accepted since trades of zero quantity or rate are refused (the generator draws zeros often).
    expect(accepted).toBeGreaterThan(900);
    expect(agreedRefusals).toBeGreaterThan(1_000);
  });

  it('reads trade times exactly as Date.parse does, the same minute over and over or not, valid or not', () => {
    const rng = new Prng(21);
    const two = (n: number) => String(n).padStart(2, '0');
    const minute = () =>
      `${rng.pick(['2024', '1970', '2099', '0000', '9999', '+2024'])}-${two(rng.chance(0.9) ? 1 + rng.int(12) : rng.pick([0, 13]))}-${two(rng.chance(0.9) ? 1 + rng.int(31) : rng.pick([0, 32]))}` +
      `T${two(rng.chance(0.8) ? rng.int(24) : rng.pick([24, 25]))}:${two(rng.chance(0.3) ? 0 : rng.chance(0.95) ? rng.int(60) : 60)}:`;
    const seconds = () =>
      rng.chance(0.2) ? '00.000Z'
      : `${two(rng.chance(0.95) ? rng.int(60) : rng.pick([60, 61, 99]))}` +
        rng.pick(['.000Z', `.${String(rng.int(1000)).padStart(3, '0')}Z`, `.${rng.int(1000)}Z`, '.5Z', '.1234Z', 'Z', '.123+00:00', '.123', '.12xZ', '.123Z ']);
    let m = minute();
    let fastTimes = 0;
    for (let k = 0; k < 20_000; k++) {
      if (rng.chance(0.05)) m = minute();
      const time = m + seconds();
      const text = TRADE.replace('2023-11-14T22:13:20.004Z', time);
      const got = fast(text);
      const want = general(text);
      if (got !== undefined) {
        fastTimes++;
        equalTo([time, got], [time, want]);
      }
      if (Number.isNaN(Date.parse(time))) equalTo([time, got, want], [time, undefined, 'refused']);
      else if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(time)) holds(got !== undefined, () => `${time} read by the fast way`);
    }
    expect(fastTimes).toBeGreaterThan(5_000);
  });
});
