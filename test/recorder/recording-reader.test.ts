/**
 * Reading recordings: well-formed files yield the header and classified entries; every kind of damage is an
 * error naming the file and the line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecordingHeader, RecordingRecord } from '../../src/recorder/recording-format.js';
import { readRecording, RecordingFormatError } from '../../src/recorder/recording-reader.js';
import { openRecording } from '../../src/recorder/recording-writer.js';

const HEADER: RecordingHeader = {
  format: 'rexbot-recording',
  version: 1,
  startedAt: 1_623_628_800_000,
  channels: ['orderbook_BTC-USD_25'],
  source: { hub: 'http://127.0.0.1:1/signalr', rest: 'http://127.0.0.1:1/v3', transport: 'classic' },
};
const MESSAGE = '{"t":1623628800100,"name":"orderBook","payload":{"marketSymbol":"BTC-USD","depth":25,"sequence":8,"bidDeltas":[{"quantity":"0.10000000","rate":"35000.00000000"}],"askDeltas":[]}}';
const SNAPSHOT = '{"t":1623628800050,"snapshot":"/markets/BTC-USD/orderbook?depth=25","channel":"orderbook_BTC-USD_25","sequence":7,"body":{"bid":[],"ask":[]}}';
const EVENT = '{"t":1623628800000,"event":"connected","epoch":1}';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-read-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function gz(name: string, lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, gzipSync(`${lines.join('\n')}\n`));
  return file;
}

async function readAll(file: string): Promise<RecordingRecord[]> {
  const out: RecordingRecord[] = [];
  for await (const r of readRecording(file)) out.push(r);
  return out;
}

async function failure(file: string): Promise<RecordingFormatError> {
  const e = await readAll(file).catch((err: unknown) => err);
  expect(e).toBeInstanceOf(RecordingFormatError);
  return e as RecordingFormatError;
}

describe('readRecording', () => {
  it('round-trips what the writer wrote, entries classified with their line numbers', async () => {
    const file = join(dir, 'ok.jsonl.gz');
    const w = await openRecording(file, HEADER);
    for (const l of [EVENT, SNAPSHOT, MESSAGE, '{"t":1623628805000,"name":"heartbeat"}']) w.writeLine(l);
    await w.close();
    expect(w.lines).toBe(5);
    const records = await readAll(file);
    expect(records.map((r) => [r.kind, r.line])).toEqual([['header', 1], ['event', 2], ['snapshot', 3], ['message', 4], ['message', 5]]);
    expect(records[0]).toMatchObject({ header: HEADER });
    expect(records[3]).toMatchObject({ name: 'orderBook', payload: { sequence: 8, bidDeltas: [{ rate: '35000.00000000' }] } });
    expect(records[2]).toMatchObject({ channel: 'orderbook_BTC-USD_25', sequence: 7 });
  });

  it('names file and line of a line that is not JSON', async () => {
    const file = gz('bad-json.jsonl.gz', [JSON.stringify(HEADER), MESSAGE, '{"t":1,"name":']);
    const e = await failure(file);
    expect(e.line).toBe(3);
    expect(e.message).toMatch(new RegExp(`^${file.replace(/[.\\/]/g, '\\$&')}:3: not JSON`));
  });

  it('refuses a foreign or newer header on line 1', async () => {
    expect((await failure(gz('foreign.jsonl.gz', ['{"format":"other"}', MESSAGE]))).message).toMatch(/:1: not a rexbot recording/);
    const newer = gz('newer.jsonl.gz', [JSON.stringify({ ...HEADER, version: 2 }), MESSAGE]);
    expect((await failure(newer)).message).toMatch(/:1: recording version 2 is newer than this reader \(1\)/);
    const noChannels = gz('nochan.jsonl.gz', [JSON.stringify({ ...HEADER, channels: 'x' })]);
    expect((await failure(noChannels)).message).toMatch(/:1: header "channels"/);
  });

  it('refuses lines of no known shape, with their line number', async () => {
    expect((await failure(gz('shape.jsonl.gz', [JSON.stringify(HEADER), EVENT, '{"t":5,"what":1}']))).message).toMatch(/:3: neither a message/);
    expect((await failure(gz('t.jsonl.gz', [JSON.stringify(HEADER), '{"name":"heartbeat"}']))).message).toMatch(/:2: "t" is not epoch/);
    expect((await failure(gz('seq.jsonl.gz', [JSON.stringify(HEADER), '{"t":1,"snapshot":"/x","channel":"c","sequence":-1,"body":1}']))).message)
      .toMatch(/:2: snapshot "sequence"/);
    expect((await failure(gz('ev.jsonl.gz', [JSON.stringify(HEADER), '{"t":1,"event":"exploded"}']))).message).toMatch(/:2: unknown event "exploded"/);
  });

  it('delivers the complete lines of a file cut short, then names where it broke', async () => {
    const whole = gzipSync(`${[JSON.stringify(HEADER), EVENT, MESSAGE, MESSAGE].join('\n')}\n`);
    const file = join(dir, 'cut.jsonl.gz');
    writeFileSync(file, whole.subarray(0, whole.length - 12)); // the gzip trailer and some data are missing
    const seen: RecordingRecord[] = [];
    const e = await (async () => {
      for await (const r of readRecording(file)) seen.push(r);
    })().catch((err: unknown) => err);
    expect(e).toBeInstanceOf(RecordingFormatError);
    // Every line the cut left complete (what zlib can inflate of it), then an error that says it was cut off.
    const sofar = gunzipSync(whole.subarray(0, whole.length - 12), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
    const complete = sofar.split('\n').length - 1;
    expect(seen).toHaveLength(complete);
    expect((e as RecordingFormatError).message).toBe(
      `${file}:${complete + 1}: cut off mid-stream (the gzip data stops without its end, as when a recorder is killed); line ${complete} is the last complete line: onBadLine: skip reads up to it`,
    );
    expect(seen[0]?.kind).toBe('header');
  });

  it('names a missing file, an empty one and one that is not gzip', async () => {
    expect((await failure(join(dir, 'none.jsonl.gz'))).message).toMatch(/none\.jsonl\.gz:1: no such file/);
    expect((await failure(gz('empty.jsonl.gz', []))).message).toMatch(/:1: /);
    const plainText = join(dir, 'plain.jsonl.gz');
    writeFileSync(plainText, `${JSON.stringify(HEADER)}\n`);
    expect((await failure(plainText)).message).toMatch(/plain\.jsonl\.gz:1: damaged gzip data/);
  });
});
