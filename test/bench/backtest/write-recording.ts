/**
 * Writes the synthetic L2 market of test/backtest/synthetic-events.ts as a rexbot recording (plain JSON lines, the
 * format `rexbot record` writes, uncompressed), so the backtest bench reads a real file through the real reader.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { MarketEvent } from '../../../backtest/readers/reader.js';
import { syntheticEvents } from '../../backtest/synthetic-events.js';

const entries = (l: ReadonlyArray<{ rate: { toFixed(): string }; quantity: { toFixed(): string } }>) =>
  l.map((e) => ({ quantity: e.quantity.toFixed(), rate: e.rate.toFixed() }));

/** One recording line of an event. */
export function recordingLine(e: MarketEvent, tradeSeq: { n: number }): string {
  switch (e.kind) {
    case 'snapshot':
      return JSON.stringify({
        t: e.at,
        snapshot: `/markets/${e.marketSymbol}/orderbook?depth=500`,
        channel: `orderbook_${e.marketSymbol}_500`,
        sequence: e.sequence,
        body: { bid: entries(e.bid), ask: entries(e.ask) },
      });
    case 'orderBookDelta':
      return JSON.stringify({
        t: e.at,
        name: 'orderBook',
        payload: { marketSymbol: e.marketSymbol, depth: 500, sequence: e.sequence, bidDeltas: entries(e.bidDeltas), askDeltas: entries(e.askDeltas) },
      });
    case 'trade':
      return JSON.stringify({
        t: e.at,
        name: 'trade',
        payload: {
          sequence: ++tradeSeq.n,
          marketSymbol: e.marketSymbol,
          deltas: e.trades.map((t) => ({ id: t.id, executedAt: t.executedAt.toISOString(), quantity: t.quantity.toFixed(), rate: t.rate.toFixed(), takerSide: t.takerSide })),
        },
      });
    default:
      throw new Error(`write-recording: ${e.kind} not written`);
  }
}

/** Write `count` synthetic events to `path`; resolves when the file is complete. */
export async function writeSyntheticRecording(path: string, count: number, seed = 1): Promise<void> {
  const start = Date.parse('2024-03-01T00:00:00Z');
  const out = createWriteStream(path);
  const header = { format: 'rexbot-recording', version: 1, startedAt: start, channels: ['orderbook_BTC-USD_500', 'trade_BTC-USD'], source: { hub: 'synthetic', rest: 'synthetic', transport: 'classic' } };
  const tradeSeq = { n: 0 };
  let chunk = `${JSON.stringify(header)}\n`;
  for (const e of syntheticEvents({ seed, count, start })) {
    chunk += `${recordingLine(e, tradeSeq)}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}
