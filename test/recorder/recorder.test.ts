/**
 * The recorder against a running simulator: while a participant trades (and the hub drops some pushes), record
 * books, trades and the account; read the file back and replay it through rule-4 synchronizers: the replayed
 * stores equal the engine's truth at the recorded sequences.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRecorder, type Recorder } from '../../src/recorder/recorder.js';
import type { RecordingRecord } from '../../src/recorder/recording-format.js';
import { readRecording } from '../../src/recorder/recording-reader.js';
import { replayRecording } from '../../src/recorder/recording-replay.js';
import { MARKET, plain, startWorld, Trader, type SimWorld } from '../streams/stream-harness.js';

const CHANNELS = [`orderbook_${MARKET}_25`, `orderbook_${MARKET}_1`, `trade_${MARKET}`, `ticker_${MARKET}`, 'balance', 'order', 'execution'];

let dir: string;
let world: SimWorld;
let recorder: Recorder | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rexbot-rec-'));
});
afterEach(async () => {
  await recorder?.stop();
  recorder = undefined;
  await world?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function collect(file: string): Promise<RecordingRecord[]> {
  const out: RecordingRecord[] = [];
  for await (const r of readRecording(file)) out.push(r);
  return out;
}

describe.each(['classic', 'core'] as const)('recording over the %s transport', (transport) => {
  it('records pushes and snapshots that replay into the engine book, balances and orders', async () => {
    world = await startWorld();
    const { engine, sim, me } = world;
    const trader = new Trader(world, 9);
    trader.seedBook();
    const out = join(dir, 'rec.jsonl.gz');
    recorder = createRecorder({
      hubUrl: transport === 'classic' ? sim.hubUrl : sim.coreHubUrl,
      restUrl: sim.restUrl,
      transport,
      channels: CHANNELS,
      out,
      credentials: { apiKey: me.apiKey, apiSecret: me.apiSecret },
    });
    await recorder.start();
    await trader.run(30);
    // Lost pushes make gaps; the recorder must snapshot again so the file stays replayable.
    sim.hub.faults.set({ dropRate: 0.15, seed: 3 });
    await trader.run(60);
    sim.hub.faults.set({});
    await trader.run(20);
    trader.touchAll();
    const truth = () => ({
      [`orderbook_${MARKET}_25`]: engine.orderBook(MARKET, 25).sequence,
      [`orderbook_${MARKET}_1`]: engine.orderBook(MARKET, 1).sequence,
      [`trade_${MARKET}`]: engine.trades(MARKET).sequence,
      balance: engine.funds.balances(me.accountId).sequence,
      order: engine.openOrders(me.accountId).sequence,
      execution: engine.lastExecution(me.accountId).sequence,
    });
    // The hub beats every 250 ms here; on a fast machine the trading above takes less than that, so wait for the
    // first heartbeat to be recorded rather than assume the run lasted long enough to see one.
    await vi.waitFor(() => {
      for (const [channel, sequence] of Object.entries(truth())) expect(recorder!.synced(channel), channel).toBe(sequence);
      expect(recorder!.stats.heartbeats, 'heartbeats recorded').toBeGreaterThan(0);
    }, { timeout: 20_000, interval: 25 });
    const stats = await recorder.stop();
    recorder = undefined;

    const records = await collect(out);
    const header = records[0]!;
    expect(header.kind === 'header' && header.header).toMatchObject({
      format: 'rexbot-recording', version: 1, channels: CHANNELS, source: { transport, rest: sim.restUrl },
    });
    const snapshots = records.filter((r) => r.kind === 'snapshot');
    const messages = records.filter((r) => r.kind === 'message');
    expect(snapshots.length).toBe(stats.snapshots);
    expect(messages.length).toBe(stats.messages);
    // One snapshot per sequenced channel after subscribing, and more after the gaps.
    expect(new Set(snapshots.map((s) => s.kind === 'snapshot' && s.channel))).toEqual(new Set(Object.keys(truth())));
    expect(snapshots.length).toBeGreaterThan(Object.keys(truth()).length);
    expect(snapshots.find((s) => s.kind === 'snapshot' && s.channel === `orderbook_${MARKET}_25`)).toMatchObject({
      snapshot: `/markets/${MARKET}/orderbook?depth=25`,
    });
    // Payloads are the service's JSON as sent: decimals stay 8-decimal strings.
    const book = messages.find((m) => m.kind === 'message' && m.name === 'orderBook' && (m.payload as { bidDeltas: unknown[] }).bidDeltas.length > 0);
    const rate = (book as { payload: { bidDeltas: { rate: unknown }[] } }).payload.bidDeltas[0]!.rate;
    expect(rate).toMatch(/^\d+\.\d{8}$/);
    expect(messages.filter((m) => m.kind === 'message' && m.name === 'heartbeat').length).toBe(stats.heartbeats);
    expect(records.filter((r) => r.kind === 'event').map((e) => e.kind === 'event' && e.event)).toContain('connected');

    const replay = await replayRecording(out);
    for (const [channel, sequence] of Object.entries(truth())) {
      expect(replay.channels.get(channel), channel).toMatchObject({ status: { state: 'live' }, sequence });
    }
    for (const depth of [1, 25] as const) {
      const t = engine.orderBook(MARKET, depth);
      expect(plain(replay.market.book(MARKET, depth)!.ladder())).toEqual(plain({ bid: t.data.bid, ask: t.data.ask }));
    }
    const byId = (l: readonly { id: string }[]) => plain([...l].sort((a, b) => a.id.localeCompare(b.id)));
    expect(isDeepStrictEqual(byId(replay.account.openOrders()), byId(engine.openOrders(me.accountId).data))).toBe(true);
    const byCur = (l: Iterable<{ currencySymbol: string }>) => plain([...l].sort((a, b) => a.currencySymbol.localeCompare(b.currencySymbol)));
    expect(isDeepStrictEqual(byCur(replay.account.balances().values()), byCur(engine.funds.balances(me.accountId).data))).toBe(true);
    expect(replay.market.ticker(MARKET)).toBeDefined();
  });
});

describe('createRecorder', () => {
  it('refuses sub-account streams and private streams without a key, before touching anything', () => {
    const base = { hubUrl: 'http://127.0.0.1:1/signalr', restUrl: 'http://127.0.0.1:1/v3', transport: 'classic' as const, out: join(dir, 'x.jsonl.gz') };
    expect(() => createRecorder({ ...base, channels: ['subaccounts_order'] })).toThrow(/sub-account/);
    expect(() => createRecorder({ ...base, channels: ['balance'] })).toThrow(/needs credentials/);
    expect(() => createRecorder({ ...base, channels: [] })).toThrow(/no channels/);
  });

  it('a push that inflates past 64 MiB is a decode error of that push, not a recorder out of memory', async () => {
    world = await startWorld();
    const out = join(dir, 'bomb.jsonl.gz');
    recorder = createRecorder({ hubUrl: world.sim.hubUrl, restUrl: world.sim.restUrl, transport: 'classic', out, channels: [`trade_${MARKET}`] });
    const errors: string[] = [];
    recorder.errors$.subscribe((e) => errors.push(e.message));
    await recorder.start();
    // A few KB on the wire (repeated text deflates ~1000:1), 65 MiB once inflated.
    world.sim.hub.publish(`trade_${MARKET}`, 'trade', { pad: 'x'.repeat(65 * 1024 * 1024) });
    await vi.waitFor(() => expect(recorder!.stats.decodeErrors).toBe(1), { timeout: 30_000 });
    expect(errors[0]).toMatch(/undecodable push: .*inflates to more than 67108864 bytes/);
  });

  it('fails start() with the refused channels named, and leaves no file behind', async () => {
    // It left its header-only file: the same command run again was refused as overwriting a recording.
    world = await startWorld();
    const out = join(dir, 'refused.jsonl.gz');
    const options = {
      hubUrl: world.sim.hubUrl, restUrl: world.sim.restUrl, transport: 'classic' as const, out,
      channels: [`trade_${MARKET}`, 'orderbook_NOPE-USD_25'],
    };
    await expect(createRecorder(options).start()).rejects.toThrow(/orderbook_NOPE-USD_25.*MARKET_DOES_NOT_EXIST/);
    expect(readdirSync(dir)).toEqual([]);

    // Overwriting, a failed start leaves the file it was to replace as it was.
    writeFileSync(out, 'yesterday');
    await expect(createRecorder({ ...options, overwrite: true }).start()).rejects.toThrow(/MARKET_DOES_NOT_EXIST/);
    expect(readdirSync(dir)).toEqual(['refused.jsonl.gz']);
    expect(readFileSync(out, 'utf8')).toBe('yesterday');
  });

  it('a recorder stopped while it starts keeps nothing', async () => {
    // A hub that accepts the connection and never answers: start() is still connecting when stop() comes.
    let asked = 0;
    const silent = createServer(() => void asked++);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const out = join(dir, 'stopped.jsonl.gz');
      const rec = createRecorder({ hubUrl: `${origin}/signalr`, restUrl: `${origin}/v3`, transport: 'classic', out, channels: [`trade_${MARKET}`] });
      const starting = rec.start().then(() => 'started', (e: unknown) => e);
      await vi.waitFor(() => expect(asked).toBeGreaterThan(0));
      expect(readdirSync(dir)).toEqual(['stopped.jsonl.gz']);
      await rec.stop();
      expect(await starting).toMatchObject({ code: 'HUB_STOPPED' });
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
