/**
 * A `rexbot record` file replays in `rexbot sim`'s replay driver: record a live simulator's BTC-USD book and
 * trades over its hub, then start a second simulator whose replay driver reads that file (named under
 * `recordings`, or under `http` as the issue's user did) and see the recorded book on it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, createGzip, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRecorder } from '../../src/recorder/recorder.js';
import { parseSimConfig } from '../../src/runtime/sim-config.js';
import { startSimulator, type RunningSimulator } from '../../src/runtime/simulator.js';
import type { ReplayFormatError } from '../../src/sim/driver/replay-error.js';
import { loadReplayFiles } from '../../src/sim/driver/replay-load.js';

const dir = mkdtempSync(join(tmpdir(), 'rexbot-replay-rec-'));
const recording = join(dir, 'btc.jsonl.gz');
const BOOK = 'orderbook_BTC-USD_25';
let source: RunningSimulator;
const started: RunningSimulator[] = [];

beforeAll(async () => {
  source = await startSimulator(parseSimConfig('driver: { kind: synthetic, markets: [BTC-USD], historyHours: 0 }\n', '<source>'), { port: 0, env: {} });
  // Record until the file holds what the tests read (the book's snapshot and a change after it), not for a fixed
  // time: on a loaded machine a 2 s recording could end before the first snapshot came back. `rexbot record`
  // itself, --duration included, is test/recorder/record-command.test.ts's.
  const recorder = createRecorder({ hubUrl: source.server.hubUrl, restUrl: source.server.restUrl, transport: 'classic', channels: [BOOK, 'trade_BTC-USD', 'ticker_BTC-USD'], out: recording });
  await recorder.start();
  try {
    await vi.waitFor(() => expect(recorder.synced(BOOK)).toBeTypeOf('number'), { timeout: 30_000, interval: 20 });
    const snapshot = recorder.synced(BOOK)!;
    await vi.waitFor(() => expect(recorder.synced(BOOK)!).toBeGreaterThan(snapshot), { timeout: 30_000, interval: 20 });
  } finally {
    await recorder.stop();
  }
}, 90_000);

afterAll(async () => {
  for (const s of [source, ...started]) await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('replaying a rexbot recording', () => {
  it('reads it as snapshots and stream events, whichever list names it', () => {
    for (const files of [{ recordings: [recording] }, { http: [recording] }, { ws: [recording] }]) {
      const { timeline } = loadReplayFiles(files);
      const kinds = new Set(timeline.events.map((e) => e.kind));
      expect(kinds.has('snapshot')).toBe(true);
      expect(kinds.has('orderBookDelta')).toBe(true);
    }
  });

  it("a second simulator's replay driver puts the recorded book on its engine", async () => {
    const yaml = `driver: { kind: replay, recordings: [${JSON.stringify(recording)}], markets: [BTC-USD] }\n`;
    const replay = await startSimulator(parseSimConfig(yaml, join(dir, 'sim.yaml'), dir), { port: 0, env: {} });
    started.push(replay);
    expect(JSON.parse(replay.readyLine()).driver).toBe('replay');
    const recordedMid = source.engine.orderBook('BTC-USD', 25).data;
    await vi.waitFor(() => {
      const book = replay.engine.orderBook('BTC-USD', 25).data;
      expect(book.bid.length).toBeGreaterThan(5);
      expect(book.ask.length).toBeGreaterThan(5);
    }, { timeout: 20_000 });
    const book = replay.engine.orderBook('BTC-USD', 25).data;
    // The same market, at the recorded prices (within 1 % of the source's current touch).
    const mid = book.bid[0]!.rate.plus(book.ask[0]!.rate).div(2);
    const srcMid = recordedMid.bid[0]!.rate.plus(recordedMid.ask[0]!.rate).div(2);
    expect(mid.minus(srcMid).abs().div(srcMid).toNumber()).toBeLessThan(0.01);
  });

  it('a recording cut off mid-stream (a killed recorder): fail names the last complete line, skip replays up to it', async () => {
    // What a SIGKILL leaves: the recorder's flushed data, a partial line after it, no gzip end.
    const lines = gunzipSync(readFileSync(recording)).toString('utf8').split('\n');
    const keep = Math.floor(lines.length / 2);
    const gz = createGzip();
    const parts: Buffer[] = [];
    gz.on('data', (b: Buffer) => parts.push(b));
    gz.write(`${lines.slice(0, keep).join('\n')}\n${lines[keep]!.slice(0, 10)}`);
    await new Promise<void>((done) => gz.flush(constants.Z_SYNC_FLUSH, () => done()));
    gz.destroy();
    const cut = join(dir, 'cut.jsonl.gz');
    writeFileSync(cut, Buffer.concat(parts));
    expect(() => loadReplayFiles({ recordings: [cut] })).toThrow(new RegExp(`cut\\.jsonl\\.gz:${keep + 1}: cut off mid-stream .*line ${keep} is the last complete line`));
    const errors: ReplayFormatError[] = [];
    const { timeline } = loadReplayFiles({ recordings: [cut] }, { onBadLine: 'skip', onError: (e) => errors.push(e) });
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(new RegExp(`:${keep + 1}: cut off mid-stream .*read up to line ${keep}, the torn line ${keep + 1} dropped`))]);
    expect(timeline.events.some((e) => e.kind === 'snapshot')).toBe(true);
  });

  it('a replay config without files says what it needs', () => {
    expect(() => parseSimConfig('driver: { kind: replay }\n', 'sim.yaml')).toThrow(/recordings/);
    writeFileSync(join(dir, 'not-a-recording.txt'), 'hello\n');
    expect(() => loadReplayFiles({ recordings: [join(dir, 'not-a-recording.txt')] })).toThrow(/not-a-recording\.txt:1: is not a rexbot recording/);
  });
});
