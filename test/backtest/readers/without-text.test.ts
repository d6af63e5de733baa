/**
 * A bad line told without the file's text (ReplayFormatError.messageWithoutText, what a queued job's author gets):
 * file:line and the reason or field stay, and no value read from the file does — not a price, a volume, a time, a
 * header name — while the message a local run shows still gives them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openReader } from '../../../backtest/readers/index.js';
import { snapshotEvent } from '../../../backtest/readers/stream-events.js';
import { encodePayload } from '../../../src/bittrex/hub/codec.js';
import { dec } from '../../../src/core/decimal.js';
import { encodeV1Payload } from '../../../src/wire/v1/hub/protocol.js';
import { type ReplayFormatError, asReplayFormatError } from '../../../src/sim/driver/replay-error.js';
import { symbolToV1Market } from '../../../src/wire/v1/market-name.js';
import { readEvents, tempFiles } from './read-helpers.js';

const CANDLES = { params: { market: 'BTC-USD', interval: 'MINUTE_1' } };
const HEADER = '{"format":"rexbot-recording","version":1,"startedAt":1705320005000,"channels":[],"source":{"hub":"http://127.0.0.1:1/signalr","rest":"http://127.0.0.1:1/v3","transport":"classic"}}';

/** Every error a reader reports for `path` read under `skip` (and the one it stops with, if any). */
async function errorsOf(format: string, path: string, opts: object = {}): Promise<ReplayFormatError[]> {
  const seen: ReplayFormatError[] = [];
  try {
    await readEvents(openReader(format, path, { ...opts, onBadLine: 'skip', onError: (e) => seen.push(e) }));
  } catch (err) {
    seen.push(err as ReplayFormatError);
  }
  return seen;
}

/** `[line, messageWithoutText's reason]` of each error, after checking its full message quotes `values[i]` and the short one nothing of them. */
function told(errors: readonly ReplayFormatError[], values: readonly string[]): Array<[number, string]> {
  expect(errors.length).toBe(values.length);
  return errors.map((e, i) => {
    expect(e.message.toLowerCase()).toContain(values[i]!.toLowerCase());
    const short = e.messageWithoutText();
    for (const v of values) expect(short.toLowerCase(), short).not.toContain(v.toLowerCase());
    expect(short.startsWith(`${e.file}:${e.line}: `)).toBe(true);
    return [e.line, short.slice(`${e.file}:${e.line}: `.length)];
  });
}

describe("a bad line told without the file's text", () => {
  const tmp = tempFiles();
  afterEach(() => tmp.cleanup());

  it('candles: no time, price, volume or range read from the file', async () => {
    const rows = [
      '2024-01-15T12:00:07Z,1,2,0.5,1.5,1', // off the minute grid
      '2024-01-15T12:01:00Z,1,2,0.5,1.5,1',
      '2024-01-15T11:03:00Z,1,2,0.5,1.5,1', // before the previous candle
      '2024-01-15T12:02:00Z,-98765.4321,2,0.5,1.5,1',
      '2024-01-15T12:03:00Z,1,2,0.5,1.5,-54321.987',
      '2024-01-15T12:04:00Z,3,2,4.56789,3,1', // low above high
      '2024-01-15T12:05:00Z,7.65432,8,7.7,7.8,1', // open below low
    ];
    const path = tmp.write('bars.csv', `time,open,high,low,close,volume\n${rows.join('\n')}\n`);
    expect(told(await errorsOf('candles-csv', path, CANDLES), ['12:00:07', '11:03', '98765.4321', '54321.987', '4.56789', '7.65432'])).toEqual([
      [2, "starts not on the MINUTE_1 grid (the file's text left out)"],
      [4, "starts not after the previous candle: rows must be in time order (the file's text left out)"],
      [5, "open is negative (the file's text left out)"],
      [6, "volume is negative (the file's text left out)"],
      [7, "low is above high (the file's text left out)"],
      [8, "open is outside [low, high] (the file's text left out)"],
    ]);
    const json = tmp.write('bars.json', '[{"startsAt":"2024-01-15T12:00:00Z","open":"1","high":"2","low":"0.5","close":"-13579.2468"}]');
    expect(told(await errorsOf('candles-json', json, CANDLES), ['13579.2468'])).toEqual([[1, "close is negative (the file's text left out)"]]);
  });

  it('headers: no column name read from the file', async () => {
    const env = tmp.write('.env', 'API_SECRET=TOP-SECRET-7\n');
    expect(told(await errorsOf('candles-csv', env, CANDLES), ['TOP-SECRET-7'])).toEqual([[1, "has no startsAt column; name it in params.columns (the file's text left out)"]]);
    const tardis = tmp.write('book.csv', 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount,top-secret-8,top-secret-8\n');
    expect(told(await errorsOf('tardis', tardis), ['top-secret-8'])).toEqual([[1, "header names a column twice (the file's text left out)"]]);
  });

  it('order-book snapshots: the field and reason of a bad level, no quantity or rate', async () => {
    // A snapshot body goes through the wire decoder: told by resource, field and reason, never the value or the
    // snapshot's recorded path or URL (the decoder's `where` quotes them).
    const book = '{"bid":[{"quantity":"1","rate":"30000"},{"quantity":"-31313.1313","rate":"30001"}],"ask":[]}';
    const rec = tmp.write('rec.jsonl', `${HEADER}\n{"t":1705320005100,"snapshot":"/markets/BTC-USD/orderbook?depth=25","channel":"orderbook_BTC-USD_25","sequence":88,"body":${book}}\n`);
    const [fromRecording] = await errorsOf('rexbot', rec);
    expect(fromRecording?.message).toBe(`${rec}:2: snapshot /markets/BTC-USD/orderbook?depth=25: bid[1].quantity is negative: "-31313.1313"`);
    expect(told([fromRecording!], ['31313.1313'])).toEqual([[2, "orderBook snapshot: bid[1].quantity is negative (the file's text left out)"]]);
    expect(fromRecording!.messageWithoutText()).not.toContain('/markets/');
    const http = tmp.write('BITTREX.http.1', `https://api.bittrex.com/v3/markets/BTC-USD/orderbook?depth=500 -> 1623635619.188: ${book} header: {"Sequence": "3209228"}\n`);
    const [fromCapture] = await errorsOf('bittrex-v3-ws', http);
    expect(fromCapture?.message).toBe(`${http}:1: GET /v3/markets/BTC-USD/orderbook: bid[1].quantity is negative: "-31313.1313"`);
    expect(told([fromCapture!], ['31313.1313'])).toEqual([[1, "orderBook snapshot: bid[1].quantity is negative (the file's text left out)"]]);
    expect(fromCapture!.messageWithoutText()).not.toContain('/v3/');
    // The readers' own check behind the decoder (a decoded book whose level is not positive).
    const level = (q: string, r: string) => ({ quantity: dec(q), rate: dec(r) });
    let error: ReplayFormatError | undefined;
    try {
      snapshotEvent({ bid: [level('1', '30000'), level('0', '31313.1313')], ask: [] }, 'BTC-USD', 88, 0, { file: 'rec.jsonl', line: 2 });
    } catch (e) {
      error = e as ReplayFormatError;
    }
    expect(error?.message).toBe('rec.jsonl:2: bid[1] is not a positive level: 0 @ 31313.1313');
    expect(told([error!], ['31313.1313'])).toEqual([[2, "bid[1] is not a positive level (the file's text left out)"]]);
  });

  it("a recording's messages: the message, field and reason, no value", async () => {
    const orderBook = '{"marketSymbol":"BTC-USD","depth":25,"sequence":89,"bidDeltas":[{"quantity":"1","rate":"30000"}],"askDeltas":[{"quantity":"-42424.2424","rate":"30001"}]}';
    const candle = '{"sequence":90,"marketSymbol":"BTC-USD","interval":"MINUTE_1","delta":{"startsAt":"2024-01-15T12:00:00Z","open":"61616.16","high":"30010","low":"29990","close":"30005","volume":"1","quoteVolume":"30000"}}';
    const ticker = '{"symbol":"BTC-USD","lastTradeRate":"30000","bidRate":"abc-73737","askRate":"30001"}';
    const lines = [`{"t":1705320005100,"name":"orderBook","payload":${orderBook}}`, `{"t":1705320005200,"name":"candle","payload":${candle}}`, `{"t":1705320005300,"name":"TICKER","payload":${ticker}}`];
    const rec = tmp.write('rec.jsonl', `${HEADER}\n${lines.join('\n')}\n`);
    expect(told(await errorsOf('rexbot', rec), ['42424.2424', '61616.16', 'abc-73737'])).toEqual([
      [2, "orderBook message: askDeltas[0].quantity is negative (the file's text left out)"],
      [3, "candle message: delta.open is outside [low, high] (the file's text left out)"],
      [4, "ticker message: bidRate is not a decimal (the file's text left out)"],
    ]);
  });

  it("a v3 capture's hub lines: the frame or message, field and reason, no value", async () => {
    const push = (method: string, payload: unknown) => `1623635619.188: {"C":"d-1","M":[{"H":"C3","M":"${method}","A":["${encodePayload(payload)}"]}]}`;
    const lines = [
      push('orderBook', { marketSymbol: 'BTC-USD', depth: 25, sequence: 7, bidDeltas: [{ quantity: '1', rate: '-51515.5151' }], askDeltas: [] }),
      push('trade', { sequence: 8, marketSymbol: 'BTC-USD', deltas: [{ id: 'x', executedAt: '2021-06-14T01:00:00Z', quantity: '1', rate: '30000', takerSide: 'SIDEWAYS-8282' }] }),
      '1623635619.200: {"C":"d-2","M":[{"H":"C3","M":"orderBook","A":["!!not-base64-9393!!"]}]}',
      '1623635619.300: {"C":["FRAME-6464"],"M":[]}',
    ];
    const ws = tmp.write('BITTREX.ws.1', `${lines.join('\n')}\n`);
    const errors = await errorsOf('bittrex-v3-ws', ws);
    // the base64 text is not quoted even locally, only its length
    expect(told(errors, ['51515.5151', 'SIDEWAYS-8282', '(19 chars)', 'FRAME-6464'])).toEqual([
      [1, "orderBook message: bidDeltas[0].rate is not positive (the file's text left out)"],
      [2, "trade message: deltas[0].takerSide is not one of BUY|SELL (the file's text left out)"],
      [3, "orderBook message: <root> is not base64 text (the file's text left out)"],
      [4, "hub frame: C is not a string (the file's text left out)"],
    ]);
  });

  it("a v1.1 capture's hub lines: the payload, field and reason, no value", async () => {
    const payload = encodeV1Payload({ MarketName: 'USD-BTC', Nonce: 9, Buys: [{ Type: 0, Rate: 30000, Quantity: 'abc-1212' }], Sells: [], Fills: [] });
    const ws = tmp.write('BITTREX.ws.21', `1623635619.188: {"C":"d-1","M":[{"H":"C2","M":"uE","A":["${payload}"]}]}\n`);
    expect(told(await errorsOf('bittrex-v1-ws', ws), ['abc-1212'])).toEqual([[1, "uE payload: Buys[0].Quantity is not a decimal (the file's text left out)"]]);
  });

  it("a v1.1 capture's market name that is none: the field and reason, not the name", async () => {
    // The payloads decode; their MarketName has no <QUOTE>-<BASE> form, which the v1.1 mapping refuses.
    const uE = encodeV1Payload({ MarketName: 'SECRET_MARKET_4545', Nonce: 9, Buys: [], Sells: [], Fills: [] });
    const state = encodeV1Payload({ MarketName: 'USD-BTC-SECRET', Nonce: 9, Buys: [], Sells: [], Fills: [] });
    const lines = [`1623635619.188: {"C":"d-1","M":[{"H":"C2","M":"uE","A":["${uE}"]}]}`, `1623635619.200: {"R":"${state}","I":"3"}`];
    const ws = tmp.write('BITTREX.ws.21', `${lines.join('\n')}\n`);
    expect(told(await errorsOf('bittrex-v1-ws', ws), ['SECRET_MARKET_4545', 'USD-BTC-SECRET'])).toEqual([
      [1, "MarketName is not a v1.1 market name (the file's text left out)"],
      [2, "MarketName is not a v1.1 market name (the file's text left out)"],
    ]);
  });

  it('any other error a reader meets: its kind and its own message, no value it quotes, never long', () => {
    const ref = { file: 'data.jsonl', line: 7 };
    let typeError: unknown;
    try {
      symbolToV1Market('SECRET/MARKET-6767');
    } catch (e) {
      typeError = e;
    }
    const big = 'x'.repeat(100_000);
    const errors = [
      asReplayFormatError(typeError, ref),
      asReplayFormatError(new Error(`bad level at Buys[3]: ${JSON.stringify({ Rate: '98765.4321', Note: big })} after 2024-01-15T12:00:07Z (v1.1)`), ref),
      asReplayFormatError(new SyntaxError(`Unexpected token 'S', "SECRET=1" is not valid JSON`), ref, 'hub frame'),
      asReplayFormatError(new RangeError(`depth ${big} is not a depth`), ref),
    ];
    expect(told(errors, ['SECRET/MARKET-6767', '98765.4321', 'SECRET=1', big])).toEqual([
      [7, `TypeError: not a market symbol: "…" (the file's text left out)`],
      [7, "Error: bad level at Buys[3]: {…} after … (v1.1) (the file's text left out)"],
      [7, `hub frame: SyntaxError: Unexpected token '…', "…" is not valid JSON (the file's text left out)`],
      [7, `RangeError: depth ${'x'.repeat(153)}… (the file's text left out)`],
    ]);
  });
});
