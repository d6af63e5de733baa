import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { openReader } from '../../../backtest/readers/index.js';
import type { ReplayFormatError } from '../../../src/sim/driver/replay-error.js';
import { kinds, readEvents, tempFiles } from './read-helpers.js';

// Real capture (cryptofeed sample data, licence notice beside the files).
const WS = 'test/fixtures/v3-capture/BITTREX.ws.1.0';
const HTTP = 'test/fixtures/v3-replay/BITTREX.http.0.0';

describe('bittrex-v3-ws reader', () => {
  const tmp = tempFiles();
  afterEach(() => tmp.cleanup());

  it('reads the real hub session: 1,015 deltas, 162 tickers, 20 forming candles, in file order', async () => {
    const { events, summary } = await readEvents(openReader('bittrex-v3-ws', WS));
    expect(kinds(events)).toEqual({ orderBookDelta: 1015, ticker: 162, candle: 20 });
    expect(summary).toMatchObject({ events: 1197, errors: 0 });
    expect(summary.ignored).toMatchObject({ connect: 1, sent: 40, 'keep-alive': 9 });
    const first = events[0]!;
    expect(first).toMatchObject({ kind: 'orderBookDelta', marketSymbol: 'BTC-EUR', depth: 500, sequence: 3209226, at: 1623635618982 });
    expect(first.source).toEqual({ file: WS, line: expect.any(Number) });
    for (let i = 1; i < events.length; i++) expect(events[i]!.at).toBeGreaterThanOrEqual(events[i - 1]!.at);
    const candle = events.find((e) => e.kind === 'candle');
    expect(candle).toMatchObject({ kind: 'candle', interval: 'MINUTE_1', final: false });
    // Per market, delta sequences are contiguous in the real capture.
    const btc = events.filter((e) => e.kind === 'orderBookDelta' && e.marketSymbol === 'BTC-EUR').map((e) => (e as { sequence: number }).sequence);
    for (let i = 1; i < btc.length; i++) expect(btc[i]).toBe(btc[i - 1]! + 1);
  });

  it('reads the real REST file: 8 snapshots with their Sequence header', async () => {
    const { events, summary } = await readEvents(openReader('bittrex-v3-ws', HTTP));
    expect(kinds(events)).toEqual({ snapshot: 8 });
    expect(summary.events).toBe(8);
    const btc = events.find((e) => e.marketSymbol === 'BTC-EUR');
    expect(btc).toMatchObject({ kind: 'snapshot', sequence: 3209228, depth: 500, source: { file: HTTP, line: 1 } });
    if (btc?.kind === 'snapshot') expect([btc.bid.length, btc.ask.length]).toEqual([500, 500]);
  });

  it('reads a gzipped copy the same, and keeps only the markets asked for', async () => {
    const gz = tmp.write('BITTREX.ws.1.0.gz', readFileSync(WS, 'utf8'));
    const { events, summary } = await readEvents(openReader('bittrex-v3-ws', gz, { markets: ['btc-eur'] }));
    expect(new Set(events.map((e) => e.marketSymbol))).toEqual(new Set(['BTC-EUR']));
    expect(kinds(events)).toEqual({ orderBookDelta: expect.any(Number), ticker: expect.any(Number), candle: expect.any(Number) });
    expect(summary.ignored['other-market']).toBe(1197 - events.length);
  });

  it('names file:line of a malformed line and fails by default', async () => {
    const lines = readFileSync(WS, 'utf8').split('\n');
    // Line 60: a received frame whose payload is cut short (no longer raw deflate).
    const idx = lines.findIndex((l, i) => i >= 59 && /^\d/.test(l) && l.includes('"A":["'));
    lines[idx] = lines[idx]!.replace(/"A":\["([^"]{8})[^"]*"/, '"A":["$1"');
    const path = tmp.write('broken.ws', lines.join('\n'));
    await expect(readEvents(openReader('bittrex-v3-ws', path))).rejects.toThrow(`${path}:${idx + 1}: `);
  });

  it('skips a malformed line whole with onBadLine: skip, reporting it through onError', async () => {
    const lines = readFileSync(WS, 'utf8').split('\n').slice(0, 200);
    const good = await readEvents(openReader('bittrex-v3-ws', tmp.write('good.ws', lines.join('\n'))));
    const badLine = lines.findIndex((l) => /^\d/.test(l) && l.includes('uE') === false && l.includes('"M":[{'));
    const broken = [...lines];
    broken[badLine] = 'not a capture line';
    const path = tmp.write('broken.ws', broken.join('\n'));
    const seen: ReplayFormatError[] = [];
    const { events, summary } = await readEvents(openReader('bittrex-v3-ws', path, { onBadLine: 'skip', onError: (e) => seen.push(e) }));
    expect(seen.map((e) => [e.file, e.line])).toEqual([[path, badLine + 1]]);
    expect(seen[0]!.message).toContain('is neither');
    expect(summary.errors).toBe(1);
    const lost = good.events.filter((e) => e.source.line === badLine + 1).length;
    expect(lost).toBeGreaterThan(0);
    expect(events.length).toBe(good.events.length - lost);
  });

  it('names file:line and field of a book level out of range (1e400, 400 digits), fails it by default and skips it with skip', async () => {
    // A pushed frame as the hub sends it: the orderBook payload raw-deflated, in base64.
    const frame = (ts: string, quantity: string, rate: string): string => {
      const payload = { marketSymbol: 'BTC-EUR', depth: 25, sequence: 7, bidDeltas: [], askDeltas: [{ quantity, rate }] };
      const a = deflateRawSync(Buffer.from(JSON.stringify(payload))).toString('base64');
      return `${ts}: {"C":"d-1","M":[{"H":"C3","M":"orderBook","A":["${a}"]}]}`;
    };
    const huge = '9'.repeat(400);
    const cases = [
      [frame('1623635618.9', '1', '1e400'), 'askDeltas[0].rate is out of range'],
      [frame('1623635618.9', '1', huge), 'askDeltas[0].rate is out of range'],
      [frame('1623635618.9', '1e400', '1'), 'askDeltas[0].quantity is out of range'],
      [frame('1623635618.9', huge, '1'), 'askDeltas[0].quantity is out of range'],
    ] as const;
    const good = frame('1623635619.0', '2', '100');
    for (const [line, error] of cases) {
      const path = tmp.write('range.ws', `${line}\n${good}\n`);
      await expect(readEvents(openReader('bittrex-v3-ws', path))).rejects.toThrow(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1: .*${error.replace(/[[\].]/g, '\\$&')}`));
      const seen: ReplayFormatError[] = [];
      const { events, summary } = await readEvents(openReader('bittrex-v3-ws', path, { onBadLine: 'skip', onError: (e) => seen.push(e) }));
      expect(seen.map((e) => e.line)).toEqual([1]);
      expect(seen[0]!.message).toContain(error);
      expect(seen[0]!.message.length).toBeLessThan(200); // the value cut short, not 400 digits
      expect([summary.errors, events.map((e) => e.source.line)]).toEqual([1, [2]]);
    }
    // The decoders' bound: 31 digits before the point are read.
    const edge = `${'9'.repeat(31)}.5`;
    const path = tmp.write('edge.ws', `${frame('1623635618.9', edge, edge)}\n`);
    const { events, summary } = await readEvents(openReader('bittrex-v3-ws', path));
    expect(summary).toMatchObject({ events: 1, errors: 0 });
    expect(events[0]).toMatchObject({ kind: 'orderBookDelta', sequence: 7 });
  });

  it('reports a snapshot without a Sequence header and a missing file with file:line', async () => {
    const line = readFileSync(HTTP, 'utf8').split('\n')[0]!.replace(/"[Ss]equence": ?"?\d+"?,?/, '');
    const path = tmp.write('broken.http', `${line}\n`);
    await expect(readEvents(openReader('bittrex-v3-ws', path))).rejects.toThrow(`${path}:1: header has no valid Sequence`);
    await expect(readEvents(openReader('bittrex-v3-ws', `${tmp.dir}/none`))).rejects.toThrow(`${tmp.dir}/none:1: no such file`);
  });

  it('reports damaged gzip data after the complete lines before it', async () => {
    const gz = readFileSync(tmp.write('x.gz', readFileSync(WS, 'utf8')));
    // Bytes zlib refuses (invalid block type): text appended instead may inflate to the end and read as a cut file.
    const path = tmp.write('cut.gz', Buffer.concat([gz.subarray(0, gz.length / 2), Buffer.alloc(64, 0xff)]));
    const got: number[] = [];
    const reader = openReader('bittrex-v3-ws', path);
    await expect((async () => {
      for await (const b of reader.batches()) got.push(b.length);
    })()).rejects.toThrow(/cut\.gz:\d+: damaged gzip data/);
    expect(reader.summary().events).toBeGreaterThan(0);
  });
});
