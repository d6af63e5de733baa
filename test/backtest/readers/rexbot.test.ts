import { readFileSync } from 'node:fs';
import { constants, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openReader } from '../../../backtest/readers/index.js';
import { replayRecording } from '../../../src/recorder/recording-replay.js';
import { openRecording } from '../../../src/recorder/recording-writer.js';
import type { ReplayFormatError } from '../../../src/sim/driver/replay-error.js';
import { kinds, readEvents, tempFiles } from './read-helpers.js';

// The real 2021 v3 capture converted to a rexbot recording (backtest/data/README.md says how; licence notice there).
const REC = 'backtest/data/bittrex-v3-2021-06-14.jsonl.gz';
const HEADER = {
  format: 'rexbot-recording' as const, version: 1, startedAt: 1_700_000_000_000, channels: ['orderbook_BTC-USD_25', 'trade_BTC-USD', 'ticker_BTC-USD'],
  source: { hub: 'https://socket-v3.bittrex.com/signalr', rest: 'https://api.bittrex.com/v3', transport: 'classic' as const },
};

describe('rexbot recording reader', () => {
  const tmp = tempFiles();
  afterEach(() => tmp.cleanup());

  it('reads the shipped recording of the real capture: snapshots with sequence, deltas, tickers, candles', async () => {
    const { events, summary } = await readEvents(openReader('rexbot', REC));
    expect(kinds(events)).toEqual({ snapshot: 8, orderBookDelta: 1015, ticker: 162, candle: 20 });
    expect(summary).toEqual({ events: 1205, errors: 0, ignored: {} });
    const snap = events.find((e) => e.kind === 'snapshot' && e.marketSymbol === 'BTC-EUR');
    expect(snap).toMatchObject({ sequence: 3209228, depth: 500, at: 1623635619189, source: { file: REC, line: 3 } });
    for (let i = 1; i < events.length; i++) expect(events[i]!.at).toBeGreaterThanOrEqual(events[i - 1]!.at);
    // The same file replays through the live sync code to live books: the conversion is a valid recording.
    const replay = await replayRecording(REC);
    expect(replay.channels.get('orderbook_BTC-EUR_500')?.status.state).toBe('live');
  });

  it('reads what the RecordingWriter writes: trades, tickers batch, snapshots; other streams and events counted', async () => {
    const path = `${tmp.dir}/rec.jsonl.gz`;
    const w = await openRecording(path, HEADER);
    const t0 = HEADER.startedAt;
    w.writeLine(`{"t":${t0 + 1},"snapshot":"/markets/BTC-USD/orderbook?depth=25","channel":"orderbook_BTC-USD_25","sequence":10,"body":{"bid":[{"quantity":"1.5","rate":"100"}],"ask":[{"quantity":"2","rate":"101"}]}}`);
    w.writeLine(`{"t":${t0 + 2},"snapshot":"/markets/BTC-USD/trades","channel":"trade_BTC-USD","sequence":7,"body":[]}`);
    w.writeLine(`{"t":${t0 + 3},"name":"orderBook","payload":{"marketSymbol":"BTC-USD","depth":25,"sequence":11,"bidDeltas":[{"quantity":"0","rate":"100"}],"askDeltas":[]}}`);
    w.writeLine(`{"t":${t0 + 4},"name":"trade","payload":{"sequence":8,"marketSymbol":"BTC-USD","deltas":[{"id":"a1","executedAt":"2023-11-14T22:13:20.004Z","quantity":"0.5","rate":"101","takerSide":"BUY"}]}}`);
    w.writeLine(`{"t":${t0 + 5},"name":"tickers","payload":{"sequence":3,"deltas":[{"symbol":"BTC-USD","lastTradeRate":"101","bidRate":"99","askRate":"101"},{"symbol":"ETH-USD","lastTradeRate":"5","bidRate":"4","askRate":"6"}]}}`);
    w.writeLine(`{"t":${t0 + 6},"name":"heartbeat"}`);
    w.writeLine(`{"t":${t0 + 7},"event":"reconnected","epoch":2,"reason":"closed"}`);
    w.writeLine(`{"t":${t0 + 8},"name":"balance","payload":{"accountId":"x","sequence":1,"delta":{"currencySymbol":"USD","total":"1","available":"1","updatedAt":"2023-11-14T22:13:20Z"}}}`);
    await w.close();
    const { events, summary } = await readEvents(openReader('rexbot', path, { markets: ['BTC-USD'] }));
    expect(events.map((e) => [e.kind, e.at - t0, e.source.line])).toEqual([
      ['snapshot', 1, 2], ['orderBookDelta', 3, 4], ['trade', 4, 5], ['ticker', 5, 6],
    ]);
    const trade = events[2]!;
    if (trade.kind === 'trade') expect([trade.sequence, trade.trades[0]!.quantity.toFixed(), trade.trades[0]!.takerSide]).toEqual([8, '0.5', 'BUY']);
    expect(summary.ignored).toEqual({ 'snapshot:trades': 1, heartbeat: 1, 'event:reconnected': 1, balance: 1, 'other-market': 1 });
  });

  it('names file:line of a line that is not JSON, and skips it whole with onBadLine: skip', async () => {
    const text = gunzipSync(readFileSync(REC)).toString('utf8').split('\n');
    text[9] = '{"t":1623635620000,"name":"orderBook","payload":{"marketSymbol"';
    const path = tmp.write('broken.jsonl.gz', text.join('\n'));
    await expect(readEvents(openReader('rexbot', path))).rejects.toThrow(`${path}:10: not JSON`);
    const seen: ReplayFormatError[] = [];
    const { summary } = await readEvents(openReader('rexbot', path, { onBadLine: 'skip', onError: (e) => seen.push(e) }));
    expect(seen.map((e) => e.line)).toEqual([10]);
    expect(summary).toMatchObject({ events: 1204, errors: 1 });
  });

  it('names file:line of a payload that is not the v3 message it names, and of a bad snapshot level', async () => {
    const header = JSON.stringify(HEADER);
    const bad = tmp.write('bad.jsonl', `${header}\n{"t":1,"name":"orderBook","payload":{"marketSymbol":"BTC-USD","depth":25,"sequence":"x","bidDeltas":[],"askDeltas":[]}}\n`);
    await expect(readEvents(openReader('rexbot', bad))).rejects.toThrow(new RegExp(`${bad}:2: payload of orderBook: .*sequence`));
    const zero = tmp.write('zero.jsonl', `${header}\n\n{"t":1,"snapshot":"/markets/BTC-USD/orderbook?depth=25","channel":"orderbook_BTC-USD_25","sequence":1,"body":{"bid":[{"quantity":"0","rate":"1"}],"ask":[]}}\n`);
    // The snapshot decoder refuses a level of no quantity itself, naming the snapshot and field.
    await expect(readEvents(openReader('rexbot', zero))).rejects.toThrow(`${zero}:3: snapshot /markets/BTC-USD/orderbook?depth=25: bid[0].quantity is not positive: "0"`);
  });

  it('names file:line and field of a book level or trade out of range (1e400, 400 digits), fails it by default and skips it with skip', async () => {
    const header = JSON.stringify(HEADER);
    const huge = '9'.repeat(400);
    const book = (q: string, r: string) => `{"t":2,"name":"orderBook","payload":{"marketSymbol":"BTC-USD","depth":25,"sequence":1,"bidDeltas":[],"askDeltas":[{"quantity":"${q}","rate":"${r}"}]}}`;
    const trade = (q: string, r: string) => `{"t":2,"name":"trade","payload":{"sequence":1,"marketSymbol":"BTC-USD","deltas":[{"id":"a","executedAt":"2023-11-14T22:13:20.004Z","quantity":"${q}","rate":"${r}","takerSide":"BUY"}]}}`;
    const cases = [
      [book('1', '1e400'), 'payload of orderBook: stream orderBook: askDeltas[0].rate is out of range'],
      [book('1', huge), 'payload of orderBook: stream orderBook: askDeltas[0].rate is out of range'],
      [book('1e400', '1'), 'payload of orderBook: stream orderBook: askDeltas[0].quantity is out of range'],
      [book(huge, '1'), 'payload of orderBook: stream orderBook: askDeltas[0].quantity is out of range'],
      [trade('1', '1e400'), 'payload of trade: stream trade: deltas[0].rate is out of range'],
      [trade('1', huge), 'payload of trade: stream trade: deltas[0].rate is out of range'],
      [trade('1e400', '1'), 'payload of trade: stream trade: deltas[0].quantity is out of range'],
      [trade(huge, '1'), 'payload of trade: stream trade: deltas[0].quantity is out of range'],
    ] as const;
    for (const [line, error] of cases) {
      const path = tmp.write('range.jsonl', `${header}\n${line}\n${book('2', '100')}\n`);
      await expect(readEvents(openReader('rexbot', path)), line.slice(0, 80)).rejects.toThrow(`${path}:2: ${error}`);
      const seen: ReplayFormatError[] = [];
      const { events, summary } = await readEvents(openReader('rexbot', path, { onBadLine: 'skip', onError: (e) => seen.push(e) }));
      expect(seen.map((e) => e.line)).toEqual([2]);
      expect(seen[0]!.message.length).toBeLessThan(200); // the value cut short, not 400 digits
      expect([summary.errors, events.map((e) => e.source.line)]).toEqual([1, [3]]);
    }
    // The bound is the decoders' (amountProblem): 31 digits before the point are read, on the fast path as elsewhere.
    const edge = tmp.write('edge.jsonl', `${header}\n${book('9'.repeat(31), `${'9'.repeat(31)}.5`)}\n${trade('9'.repeat(31), '1')}\n`);
    expect((await readEvents(openReader('rexbot', edge))).summary).toMatchObject({ events: 2, errors: 0 });
  });

  it('refuses a file without a recording header whatever the bad-line policy', async () => {
    const path = tmp.write('not.jsonl.gz', '{"t":1,"name":"heartbeat"}\n');
    await expect(readEvents(openReader('rexbot', path, { onBadLine: 'skip' }))).rejects.toThrow(`${path}:1: not a rexbot recording`);
    const newer = tmp.write('newer.jsonl', `${JSON.stringify({ ...HEADER, version: 99 })}\n`);
    await expect(readEvents(openReader('rexbot', newer, { onBadLine: 'skip' }))).rejects.toThrow(`${newer}:1: recording version 99 is newer`);
  });

  it('reads a recording whose recorder was killed up to the cut: skip warns once, fail names the last line', async () => {
    // Written by the real writer and taken while it is still open: what a SIGKILLed recorder leaves on disk.
    const live = tmp.write('live.jsonl.gz', Buffer.alloc(0)) + '.rec';
    const w = await openRecording(live, HEADER);
    const trade = (k: number) => `{"t":${1_700_000_000_000 + k},"name":"trade","payload":{"sequence":${k},"marketSymbol":"BTC-USD","deltas":[{"id":"a${k}","executedAt":"2023-11-14T22:13:20.004Z","quantity":"0.5","rate":"101","takerSide":"BUY"}]}}`;
    for (let k = 1; k <= 40; k++) w.writeLine(trade(k));
    const sofar = () => gunzipSync(readFileSync(live), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
    await vi.waitFor(() => expect(sofar()).toContain('"id":"a40"'), { timeout: 10_000, interval: 50 });
    const killed = readFileSync(live);
    await w.close();
    for (const at of [killed.length, killed.length - 30, Math.floor(killed.length * 0.6)]) {
      const path = tmp.write(`cut-${at}.jsonl.gz`, killed.subarray(0, at));
      const text = gunzipSync(killed.subarray(0, at), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
      const complete = text.slice(0, text.lastIndexOf('\n') + 1).split('\n').length - 1;
      const torn = text.length > text.lastIndexOf('\n') + 1;
      const seen: string[] = [];
      const { events, summary } = await readEvents(openReader('rexbot', path, { onBadLine: 'skip', onError: (e) => seen.push(e.message) }));
      expect(events.map((e) => e.source.line)).toEqual(Array.from({ length: complete - 1 }, (_, k) => k + 2));
      expect(seen).toEqual([`${path}:${complete + 1}: cut off mid-stream (the gzip data stops without its end, as when a recorder is killed); read up to line ${complete}${torn ? `, the torn line ${complete + 1} dropped` : ''}`]);
      expect(summary).toEqual({ events: complete - 1, errors: torn ? 1 : 0, ignored: {} });
      await expect(readEvents(openReader('rexbot', path))).rejects.toThrow(
        `${path}:${complete + 1}: cut off mid-stream (the gzip data stops without its end, as when a recorder is killed); line ${complete} is the last complete line: onBadLine: skip reads up to it`,
      );
    }
  });
});
