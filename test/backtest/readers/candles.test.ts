import { readFileSync } from 'node:fs';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { type MarketEvent, openReader } from '../../../backtest/readers/index.js';
import type { ReplayFormatError } from '../../../src/sim/driver/replay-error.js';
import { readEvents, tempFiles } from './read-helpers.js';

// Real VET-USDT fills (v1.1 capture, 2021-04-05) as one-minute candles: backtest/data/tools/make-reader-fixtures.ts.
const DIR = 'test/fixtures/backtest-readers';
const PARAMS = { market: 'VET-USDT', interval: 'MINUTE_1' };

/** A comparable digest of candle events. */
const digest = (events: readonly MarketEvent[]) =>
  events.map((e) => (e.kind === 'candle' ? [e.marketSymbol, e.interval, e.at, e.candle.startsAt.toISOString(), e.candle.open.toFixed(), e.candle.high.toFixed(), e.candle.low.toFixed(), e.candle.close.toFixed(), e.candle.volume.toFixed(), e.candle.quoteVolume.toFixed()] : e.kind));

describe('candle readers', () => {
  const tmp = tempFiles();
  afterEach(() => tmp.cleanup());

  it('reads the real candles from CSV oldest first, stamped at their close, from all four files alike', async () => {
    const csv = await readEvents(openReader('candles-csv', `${DIR}/VET-USDT_MINUTE_1.csv`, { params: PARAMS }));
    expect(csv.summary).toEqual({ events: 10, errors: 0, ignored: {} });
    const first = csv.events[0]!;
    expect(first).toMatchObject({ kind: 'candle', marketSymbol: 'VET-USDT', interval: 'MINUTE_1', at: Date.parse('2021-04-05T17:15:00Z'), source: { line: 2 } });
    expect('final' in first).toBe(false);
    const desc = await readEvents(openReader('candles-csv', `${DIR}/VET-USDT_MINUTE_1.desc.csv`, { params: PARAMS }));
    expect(digest(desc.events)).toEqual(digest(csv.events));
    // Read backwards, the rows keep their own line numbers: the oldest candle is the file's last line.
    expect(desc.events.map((e) => e.source.line)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    const v3 = await readEvents(openReader('candles-json', `${DIR}/VET-USDT_MINUTE_1.v3.json`, { params: PARAMS }));
    expect(digest(v3.events)).toEqual(digest(csv.events));
    const v1 = await readEvents(openReader('candles-json', `${DIR}/VET-USDT_MINUTE_1.v1.json`, { params: PARAMS }));
    expect(digest(v1.events)).toEqual(digest(csv.events));
  });

  it('reads a newest-first file backwards across many chunks, with line numbers and CRLF', async () => {
    const rows: string[] = [];
    const n = 20_000;
    for (let i = n - 1; i >= 0; i--) rows.push(`${1_599_999_900 + i * 300},1.${i},2.${i},0.${i}1,1.${i},${i}`); // low 0.01 up: a price of 0 is refused
    const path = tmp.write('desc.csv', `ts,o,h,l,c,v\r\n${rows.join('\r\n')}\r\n`);
    const { events } = await readEvents(openReader('candles-csv', path, { params: { market: 'x-y', interval: 'MINUTE_5' } }));
    expect(events.length).toBe(n);
    expect(events[0]).toMatchObject({ at: (1_599_999_900 + 300) * 1000, marketSymbol: 'X-Y', source: { line: n + 1 } });
    expect(events[n - 1]).toMatchObject({ source: { line: 2 } });
    if (events[5]?.kind === 'candle') expect(events[5].candle.volume.toFixed()).toBe('5');
  });

  it('takes a column mapping by name or position, headerless files and epoch units', async () => {
    const named = tmp.write('named.csv', 'Date;Px Open;Px High;Px Low;Px Close\n2021-04-05 17:14;1;2;0.5;1.5\n');
    const a = await readEvents(openReader('candles-csv', named, { params: { ...PARAMS, delimiter: ';', columns: { startsAt: 'Date', open: 'Px Open', high: 'Px High', low: 'Px Low', close: 'Px Close' } } }));
    expect(digest(a.events)).toEqual([['VET-USDT', 'MINUTE_1', Date.parse('2021-04-05T17:15:00Z'), '2021-04-05T17:14:00.000Z', '1', '2', '0.5', '1.5', '0', '0']]);
    const bare = tmp.write('bare.csv', '1617642840000,1,2,0.5,1.5,7\n1617642900000,1,2,0.5,1.5,8\n');
    const b = await readEvents(openReader('candles-csv', bare, { params: { ...PARAMS, header: false } }));
    expect(b.events.map((e) => (e.kind === 'candle' ? [e.candle.startsAt.toISOString(), e.candle.volume.toFixed()] : []))).toEqual([['2021-04-05T17:14:00.000Z', '7'], ['2021-04-05T17:15:00.000Z', '8']]);
    expect(() => openReader('candles-csv', bare, { params: { market: 'VET-USDT' } })).toThrow('candles-csv reader: param "interval" is required');
    expect(() => openReader('candles-csv', bare, { params: { ...PARAMS, columns: { start: 0 } } })).toThrow('names unknown field "start"');
    const noCol = tmp.write('nocol.csv', 'when,open,high,low,close\n');
    await expect(readEvents(openReader('candles-csv', noCol, { params: PARAMS, onBadLine: 'skip' }))).rejects.toThrow(`${noCol}:1: has no startsAt column`);
  });

  it('refuses a newest-first gzip file with what to do', async () => {
    const path = tmp.write('desc.csv.gz', readFileSync(`${DIR}/VET-USDT_MINUTE_1.desc.csv`, 'utf8'));
    await expect(readEvents(openReader('candles-csv', path, { params: PARAMS }))).rejects.toThrow(`${path}:2: rows are newest first and the file is gzipped`);
    const asc = tmp.write('asc.csv.gz', readFileSync(`${DIR}/VET-USDT_MINUTE_1.csv`, 'utf8'));
    expect((await readEvents(openReader('candles-csv', asc, { params: PARAMS }))).events.length).toBe(10);
  });

  it('names file:line of bad CSV rows (bad decimal, out of order, inconsistent, off-grid) and skips them', async () => {
    const lines = readFileSync(`${DIR}/VET-USDT_MINUTE_1.csv`, 'utf8').trimEnd().split('\n');
    lines[3] = lines[3]!.replace(/,[^,]+$/, ',abc'); // quote volume
    lines[5] = lines[2]!; // repeats an older candle
    lines[7] = lines[7]!.replace(/^([^,]+),([^,]+),([^,]+),([^,]+)/, '$1,$2,0.00000001,$4'); // high below open
    lines[9] = lines[9]!.replace(':00.000Z', ':30.000Z'); // off the minute grid
    const path = tmp.write('bad.csv', `${lines.join('\n')}\n`);
    await expect(readEvents(openReader('candles-csv', path, { params: PARAMS }))).rejects.toThrow(`${path}:4: quoteVolume is not a decimal: "abc"`);
    const seen: ReplayFormatError[] = [];
    const { events, summary } = await readEvents(openReader('candles-csv', path, { params: PARAMS, onBadLine: 'skip', onError: (e) => seen.push(e) }));
    expect(seen.map((e) => e.line)).toEqual([4, 6, 8, 10]);
    expect(seen[1]!.reason).toContain('not after the previous candle');
    expect(seen[2]!.reason).toBe('low is above high: [low 0.10258665, high 0.00000001]'); // the high below everything
    expect(seen[3]!.reason).toContain('not on the MINUTE_1 grid');
    expect(summary).toMatchObject({ events: 6, errors: 4 });
    expect(events.length).toBe(6);
  });

  it('names the field and line of an epoch time past any date (400 digits, 1e400), CSV and JSON', async () => {
    const big = '9'.repeat(400);
    const csv = tmp.write('big.csv', `time,open,high,low,close,volume\n${big},1,1,1,1,1\n`);
    // Was "file:2: Invalid time value" (from Date), naming no field.
    await expect(readEvents(openReader('candles-csv', csv, { params: PARAMS }))).rejects.toThrow(`${csv}:2: startsAt is past any date as epoch ns: "${big}"`);
    const json = tmp.write('big.json', `[{"startsAt":${big},"open":1,"high":1,"low":1,"close":1}]`);
    await expect(readEvents(openReader('candles-json', json, { params: PARAMS }))).rejects.toThrow(`${json}:1: startsAt is `);
    const secs = tmp.write('secs.csv', `time,open,high,low,close,volume\n${'9'.repeat(14)},1,1,1,1,1\n`);
    await expect(readEvents(openReader('candles-csv', secs, { params: { ...PARAMS, timeUnit: 's' } }))).rejects.toThrow(`${secs}:2: startsAt is past any date as epoch s: "${'9'.repeat(14)}"`);
  });

  it('names file:line of bad JSON candles, skips them, and fails a cut-short array', async () => {
    const v3 = JSON.parse(readFileSync(`${DIR}/VET-USDT_MINUTE_1.v3.json`, 'utf8')) as Record<string, unknown>[];
    const text = `[\n${v3.map((c, i) => (i === 2 ? '{"startsAt": "2021-04-05T17:20:00Z", "open": }' : i === 4 ? '{"when": 1}' : JSON.stringify(c))).join(',\n')}\n]\n`;
    const path = tmp.write('bad.json', text);
    await expect(readEvents(openReader('candles-json', path, { params: PARAMS }))).rejects.toThrow(`${path}:4: candle is not JSON`);
    const seen: ReplayFormatError[] = [];
    const { events } = await readEvents(openReader('candles-json', path, { params: PARAMS, onBadLine: 'skip', onError: (e) => seen.push(e) }));
    expect(seen.map((e) => [e.line, e.reason.slice(0, 20)])).toEqual([[4, 'candle is not JSON: '], [6, 'is neither a v3 cand']]);
    expect(events.length).toBe(8);
    // Cut short (the text, then gzipped whole): the bad candles before the cut skipped, then the cut told once.
    const cut = tmp.write('cut.json.gz', text.slice(0, text.length / 2));
    const cutSeen: ReplayFormatError[] = [];
    await readEvents(openReader('candles-json', cut, { params: PARAMS, onBadLine: 'skip', onError: (e) => cutSeen.push(e) }));
    expect(cutSeen.map((e) => e.reason.slice(0, 20))).toEqual(['candle is not JSON: ', 'is neither a v3 cand', 'ends inside the arra']);
    const notArray = tmp.write('obj.json', '{"success":false,"message":"INVALID_MARKET"}');
    await expect(readEvents(openReader('candles-json', notArray, { params: PARAMS }))).rejects.toThrow(`${notArray}:1: holds no JSON array`);
  });

  it('reads a candle JSON file cut off mid-file up to the cut, gzip or plain: skip reports it once, fail names where', async () => {
    // The real candles, as a writer killed mid-file leaves them: the gzip stream without its end, or the text cut.
    const text = readFileSync(`${DIR}/VET-USDT_MINUTE_1.v3.json`, 'utf8');
    const gz = gzipSync(text);
    const all = (await readEvents(openReader('candles-json', `${DIR}/VET-USDT_MINUTE_1.v3.json`, { params: PARAMS }))).events;
    const cuts = [
      ...[20, Math.floor(gz.length / 3), Math.floor(gz.length / 2), gz.length - 30, gz.length - 1].map((at) => ({ name: `cut-${at}.json.gz`, bytes: gz.subarray(0, at), gzip: true })),
      ...[1, Math.floor(text.length / 2), text.lastIndexOf('}') + 1, text.length - 2].map((at) => ({ name: `cut-${at}.json`, bytes: Buffer.from(text.slice(0, at)), gzip: false })),
    ];
    for (const { name, bytes, gzip } of cuts) {
      const path = tmp.write(name, bytes);
      // What the cut leaves: the candles (flat objects, one `{` and one `}` each) closed before it.
      const sofar = gzip ? gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8') : bytes.toString('utf8');
      const starts = [...sofar.matchAll(/\{/g)].map((m) => sofar.slice(0, m.index).split('\n').length);
      const complete = sofar.split('}').length - 1;
      const torn = starts.length > complete;
      const line = torn ? starts[complete]! : sofar.split('\n').length;
      const what = gzip ? 'cut off mid-stream (the gzip data stops without its end, as when its writer is killed)' : 'ends inside the array (cut off, as when its writer is killed)';
      const read = complete > 0 ? `read up to element ${complete} (line ${starts[complete - 1]})` : 'no element read';
      const seen: string[] = [];
      const skip = await readEvents(openReader('candles-json', path, { params: PARAMS, onBadLine: 'skip', onError: (e) => seen.push(e.message) }));
      expect(digest(skip.events), name).toEqual(digest(all.slice(0, complete)));
      expect(seen, name).toEqual([`${path}:${line}: ${what}; ${read}${torn ? `, the torn element ${complete + 1} dropped` : ''}`]);
      expect(skip.summary, name).toEqual({ events: complete, errors: torn ? 1 : 0, ignored: {} });
      const last = complete > 0 ? `element ${complete} (line ${starts[complete - 1]}) is the last complete one` : 'not even element 1 is complete';
      await expect(readEvents(openReader('candles-json', path, { params: PARAMS })), name).rejects.toThrow(`${path}:${line}: ${what}; ${last}: onBadLine: skip reads up to it`);
    }
  });

  it('refuses what decodeCandle refuses from the venue, naming file:line and the field, and keeps 0-volume candles', async () => {
    // The same rule as the venue's candles (src/model/market.ts): prices above zero, volumes not negative.
    const rows = [
      '1617642840,1,2,0.5,1.5,7,10', // fine
      '1617642900,-1,-1,-1,-1,1,1', // a consistent candle, all negative
      '1617642960,1,1,0,1,1,1', // a low of no price
      '1617643020,1,2,0.5,1.5,-7,1',
      '1617643080,1,2,0.5,1.5,7,-10',
      '1617643140,3,2,4,3,1,1', // low above high
      '1617643200,1.5,1.5,1.5,1.5,0,0', // no trades: the last close repeated, volume 0
    ];
    const path = tmp.write('signs.csv', `time,open,high,low,close,volume,quote_volume\n${rows.join('\n')}\n`);
    await expect(readEvents(openReader('candles-csv', path, { params: PARAMS }))).rejects.toThrow(`${path}:3: open is negative: -1`);
    const seen: ReplayFormatError[] = [];
    const csv = await readEvents(openReader('candles-csv', path, { params: PARAMS, onBadLine: 'skip', onError: (e) => seen.push(e) }));
    expect(seen.map((e) => [e.line, e.reason])).toEqual([
      [3, 'open is negative: -1'],
      [4, 'low is not positive: 0'],
      [5, 'volume is negative: -7'],
      [6, 'quoteVolume is negative: -10'],
      [7, 'low is above high: [low 4, high 2]'],
    ]);
    expect(csv.events.map((e) => e.source.line)).toEqual([2, 8]);
    // The JSON reader: same checks, same words.
    const v1 = tmp.write('signs.json', '[\n{"T":"2021-04-05T17:14:00","O":1,"H":2,"L":0.5,"C":1,"V":0,"BV":0},\n{"T":"2021-04-05T17:15:00","O":1,"H":2,"L":0.5,"C":-1,"V":1,"BV":1}\n]\n');
    await expect(readEvents(openReader('candles-json', v1, { params: PARAMS }))).rejects.toThrow(`${v1}:3: close is negative: -1`);
    const v3 = tmp.write('signs-v3.json', '[{"startsAt":"2021-04-05T17:14:00Z","open":"1","high":"2","low":"0.5","close":"1","volume":"-0.5","quoteVolume":"1"}]');
    await expect(readEvents(openReader('candles-json', v3, { params: PARAMS }))).rejects.toThrow(`${v3}:1: volume is negative: -0.5`);
  });

  it('reads a headerless newest-first file backwards, and an explicit order', async () => {
    const rows = ['1617643020,3,4,2,3,1', '1617642960,2,3,1,2,1', '1617642900,1,2,0.5,1,1'];
    const path = tmp.write('bare-desc.csv', `${rows.join('\n')}\n`);
    const { events } = await readEvents(openReader('candles-csv', path, { params: { ...PARAMS, header: false } }));
    expect(events.map((e) => [e.source.line, e.kind === 'candle' ? e.candle.open.toFixed() : ''])).toEqual([[3, '1'], [2, '2'], [1, '3']]);
    const forced = await readEvents(openReader('candles-csv', path, { params: { ...PARAMS, header: false, order: 'ascending' }, onBadLine: 'skip' }));
    expect([forced.summary.events, forced.summary.errors]).toEqual([1, 2]);
  });

  it('skips a UTF-8 byte order mark at the start of a newest-first file read backwards, as read forwards', async () => {
    // Forwards the mark was skipped (4896f71); backwards, line 1 kept it: a quoted time in the first column was
    // "not a time", and a line holding only the mark was a row of 1 field instead of an empty line.
    const bom = '\ufeff';
    const quoted = tmp.write('bom-desc.csv', `${bom}"1617642960",2,3,1,2,1\n"1617642900",1,2,0.5,1,1\n`);
    const a = await readEvents(openReader('candles-csv', quoted, { params: { ...PARAMS, header: false } }));
    expect(a.events.map((e) => [e.source.line, e.kind === 'candle' ? e.candle.open.toFixed() : ''])).toEqual([[2, '1'], [1, '2']]);
    const alone = tmp.write('bom-line-desc.csv', `${bom}\n1617642960,2,3,1,2,1\n1617642900,1,2,0.5,1,1\n`);
    const b = await readEvents(openReader('candles-csv', alone, { params: { ...PARAMS, header: false } }));
    expect(b.events.map((e) => [e.source.line, e.kind === 'candle' ? e.candle.open.toFixed() : ''])).toEqual([[3, '1'], [2, '2']]);
    // A mark after the start is data, backwards too: the row it starts is refused, naming it.
    const later = tmp.write('bom-later-desc.csv', `"1617642960",2,3,1,2,1\n${bom}"1617642900",1,2,0.5,1,1\n`);
    await expect(readEvents(openReader('candles-csv', later, { params: { ...PARAMS, header: false, order: 'descending' } }))).rejects.toThrow(`${later}:2: startsAt is not a time`);
  });
});

