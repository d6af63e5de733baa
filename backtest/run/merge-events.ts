/**
 * Merge the event streams of several readers by time, streaming: at most one batch per reader is held, so
 * memory stays flat however long the files are. Events with the same time keep the order of the data entries
 * (first file first), and within one file the file's order; a file whose own times go backwards is merged as it
 * comes (its later events are not re-sorted, they are applied late, never early).
 */
import type { MarketDataReader, MarketEvent } from '../readers/reader.js';

interface Cursor {
  it: AsyncIterator<readonly MarketEvent[]>;
  batch: readonly MarketEvent[];
  i: number;
  done: boolean;
}

/** Batches of events from all readers, in time order (ties: reader order). */
export async function* mergeByTime(readers: readonly MarketDataReader[], batchSize = 512): AsyncGenerator<readonly MarketEvent[], void, undefined> {
  const cursors: Cursor[] = readers.map((r) => ({ it: r.batches()[Symbol.asyncIterator](), batch: [], i: 0, done: false }));
  const refill = async (c: Cursor): Promise<void> => {
    while (!c.done && c.i >= c.batch.length) {
      const next = await c.it.next();
      if (next.done) c.done = true;
      else {
        c.batch = next.value;
        c.i = 0;
      }
    }
  };
  try {
    for (const c of cursors) await refill(c);
    if (cursors.length === 1) {
      // One reader: its batches as they are (handed on, not copied: batches are read-only on both sides).
      const c = cursors[0]!;
      while (!c.done) {
        yield c.i === 0 ? c.batch : c.batch.slice(c.i);
        c.i = c.batch.length;
        await refill(c);
      }
      return;
    }
    let out: MarketEvent[] = [];
    for (;;) {
      let best: Cursor | undefined;
      for (const c of cursors) {
        if (c.done) continue;
        if (!best || c.batch[c.i]!.at < best.batch[best.i]!.at) best = c;
      }
      if (!best) break;
      out.push(best.batch[best.i++]!);
      if (best.i >= best.batch.length) await refill(best);
      if (out.length >= batchSize) {
        yield out;
        out = [];
      }
    }
    if (out.length > 0) yield out;
  } finally {
    for (const c of cursors) if (!c.done) await c.it.return?.();
  }
}
