/**
 * End to end: `rexbot record`'s Recorder records a running simulator while a participant trades; the backtest's
 * rexbot reader reads that file into the same messages the recording's own reader sees, and the book it rebuilds
 * (last snapshot + later deltas) is the engine's book.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { openReader } from '../../../backtest/readers/index.js';
import { createRecorder, type Recorder } from '../../../src/recorder/recorder.js';
import { readRecording } from '../../../src/recorder/recording-reader.js';
import { MARKET, startWorld, Trader, type SimWorld } from '../../streams/stream-harness.js';
import { kinds, readEvents } from './read-helpers.js';

let dir: string | undefined;
let world: SimWorld | undefined;
let recorder: Recorder | undefined;
afterEach(async () => {
  await recorder?.stop();
  recorder = undefined;
  await world?.close();
  world = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('reads what the recorder wrote from a running simulator: every book, trade and ticker message, the engine book', async () => {
  world = await startWorld();
  const { engine, sim } = world;
  const trader = new Trader(world, 5);
  trader.seedBook();
  dir = mkdtempSync(join(tmpdir(), 'rexbot-readers-rec-'));
  const out = join(dir, 'rec.jsonl.gz');
  const channels = [`orderbook_${MARKET}_25`, `trade_${MARKET}`, `ticker_${MARKET}`];
  recorder = createRecorder({ hubUrl: sim.hubUrl, restUrl: sim.restUrl, transport: 'classic', channels, out });
  await recorder.start();
  await trader.run(40);
  trader.touchAll();
  await vi.waitFor(() => {
    expect(recorder!.synced(`orderbook_${MARKET}_25`)).toBe(engine.orderBook(MARKET, 25).sequence);
    expect(recorder!.synced(`trade_${MARKET}`)).toBe(engine.trades(MARKET).sequence);
  }, { timeout: 20_000, interval: 25 });
  await recorder.stop();
  recorder = undefined;

  const reference: Record<string, number> = {};
  for await (const r of readRecording(out)) {
    const key = r.kind === 'message' ? r.name : r.kind === 'snapshot' ? `snapshot ${r.channel}` : r.kind;
    reference[key] = (reference[key] ?? 0) + 1;
  }
  const { events, summary } = await readEvents(openReader('rexbot', out));
  expect(summary.errors).toBe(0);
  const got = kinds(events);
  expect(got.orderBookDelta).toBe(reference.orderBook);
  expect(got.trade).toBe(reference.trade);
  expect(got.ticker).toBe(reference.ticker);
  expect(got.snapshot).toBe(reference[`snapshot orderbook_${MARKET}_25`]);
  expect(summary.ignored['snapshot:trades']).toBe(reference[`snapshot trade_${MARKET}`]);
  expect(got.trade).toBeGreaterThan(0);

  // The book: the last snapshot, then the deltas after its sequence, equals the engine's.
  const lastSnap = events.filter((e) => e.kind === 'snapshot').at(-1)!;
  if (lastSnap.kind !== 'snapshot') throw new Error('no snapshot');
  const book = { bid: new Map<string, string>(), ask: new Map<string, string>() };
  for (const l of lastSnap.bid) book.bid.set(l.rate.toFixed(), l.quantity.toFixed());
  for (const l of lastSnap.ask) book.ask.set(l.rate.toFixed(), l.quantity.toFixed());
  let last = lastSnap.sequence;
  for (const e of events) {
    if (e.kind !== 'orderBookDelta' || e.sequence <= lastSnap.sequence) continue;
    expect(e.sequence).toBe(last + 1);
    last = e.sequence;
    for (const [side, list] of [[book.bid, e.bidDeltas], [book.ask, e.askDeltas]] as const) {
      for (const l of list) if (l.quantity.isZero()) side.delete(l.rate.toFixed()); else side.set(l.rate.toFixed(), l.quantity.toFixed());
    }
  }
  const truth = engine.orderBook(MARKET, 25);
  expect(last).toBe(truth.sequence);
  const flat = (levels: readonly { rate: { toFixed(): string }; quantity: { toFixed(): string } }[]) => new Map(levels.map((l) => [l.rate.toFixed(), l.quantity.toFixed()]));
  expect(book.bid).toEqual(flat(truth.data.bid));
  expect(book.ask).toEqual(flat(truth.data.ask));
});
