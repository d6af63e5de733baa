/**
 * Convert a raw Bittrex v3 capture (cryptofeed format: a `BITTREX.ws.*` hub session and a `BITTREX.http.*` file of
 * REST order-book snapshots) into a rexbot recording (src/recorder/recording-format.ts), the format `rexbot record`
 * writes. Hub payloads are inflated and copied as JSON text, snapshots keep their body and `Sequence` header, and
 * both files are merged by reception time (a snapshot before a message of the same millisecond). Keep-alives and
 * subscription results are dropped; the header lists the channels the session subscribed to.
 *
 *     node --import tsx backtest/data/tools/capture-to-recording.ts <ws file> <http file> <out.jsonl.gz> [market ...]
 *
 * With markets given, only their channels are kept. The capture is small and read whole: this is a tool for
 * preparing example data, not a reader (backtest/readers/bittrex-v3-ws.ts streams the same files).
 */
import { readFileSync } from 'node:fs';
import { parseClassicFrame } from '../../../src/bittrex/hub/classic-frames.js';
import { inflatePayload } from '../../../src/bittrex/hub/codec.js';
import { channelOfPayload } from '../../../src/recorder/recording-format.js';
import { openRecording } from '../../../src/recorder/recording-writer.js';
import { recordedSecondsToMs } from '../../../src/sim/driver/replay-events.js';

interface Line {
  t: number;
  /** Snapshots sort before messages of the same millisecond. */
  order: number;
  json: string;
}

const SENT_RE = /^wss?:\/\/\S+ <- (\d+(?:\.\d+)?): (.*)$/;
const RECEIVED_RE = /^(\d+(?:\.\d+)?): (.*)$/s;
const HTTP_RE = /^(\S+) -> (\d+(?:\.\d+)?): (.*) header: (.*)$/s;

/** Convert; returns the number of lines written after the header. */
export async function captureToRecording(wsFile: string, httpFile: string, out: string, markets: readonly string[] = []): Promise<number> {
  const keep = (marketSymbol: string | undefined) => markets.length === 0 || (marketSymbol !== undefined && markets.includes(marketSymbol));
  const channels: string[] = [];
  const lines: Line[] = [];
  for (const text of readFileSync(wsFile, 'utf8').split('\n')) {
    const sent = SENT_RE.exec(text);
    if (sent) {
      const invocation = JSON.parse(sent[2] as string) as { M?: string; A?: string[][] };
      if (invocation.M === 'Subscribe') {
        for (const c of invocation.A?.[0] ?? []) if (keep(/_([A-Z0-9]+-[A-Z0-9]+)/.exec(c)?.[1] ?? c)) channels.push(c);
      }
      continue;
    }
    const m = RECEIVED_RE.exec(text);
    if (!m) continue;
    const frame = parseClassicFrame(m[2] as string);
    if (frame.kind !== 'push') continue;
    for (const push of frame.messages) {
      const payload = inflatePayload(push.args[0]);
      const p = JSON.parse(payload) as { marketSymbol?: string; symbol?: string };
      if (!keep(p.marketSymbol ?? p.symbol)) continue;
      lines.push({ t: recordedSecondsToMs(m[1] as string)!, order: 1, json: `{"t":${recordedSecondsToMs(m[1] as string)},"name":${JSON.stringify(push.method)},"payload":${payload}}` });
    }
  }
  for (const text of readFileSync(httpFile, 'utf8').split('\n')) {
    const m = HTTP_RE.exec(text);
    if (!m) continue;
    const url = new URL(m[1] as string);
    const book = /\/v3\/markets\/([^/]+)\/orderbook$/.exec(url.pathname);
    if (!book || !keep(book[1])) continue;
    const headers = JSON.parse(m[4] as string) as Record<string, string>;
    const sequence = Number(Object.entries(headers).find(([k]) => k.toLowerCase() === 'sequence')?.[1]);
    const depth = url.searchParams.get('depth') ?? '25';
    const t = recordedSecondsToMs(m[2] as string)!;
    const channel = channelOfPayload('orderBook', { marketSymbol: book[1], depth });
    lines.push({ t, order: 0, json: `{"t":${t},"snapshot":"/markets/${book[1]}/orderbook?depth=${depth}","channel":${JSON.stringify(channel)},"sequence":${sequence},"body":${m[3]}}` });
  }
  lines.sort((a, b) => a.t - b.t || a.order - b.order);
  const w = await openRecording(out, {
    format: 'rexbot-recording',
    version: 1,
    startedAt: lines[0]?.t ?? 0,
    channels,
    source: { hub: 'https://socket-v3.bittrex.com/signalr', rest: 'https://api.bittrex.com/v3', transport: 'classic' },
    // A conversion made again from the same capture: replacing its earlier output is the point.
  }, { overwrite: true });
  for (const l of lines) w.writeLine(l.json);
  await w.close();
  return lines.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [ws, http, out, ...markets] = process.argv.slice(2);
  if (!ws || !http || !out) {
    process.stderr.write('usage: capture-to-recording <ws file> <http file> <out.jsonl.gz> [market ...]\n');
    process.exitCode = 2;
  } else {
    const n = await captureToRecording(ws, http, out, markets);
    process.stdout.write(`${out}: ${n} lines after the header\n`);
  }
}
