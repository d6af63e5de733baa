/**
 * Reader of recorded legacy v1.1 hub sessions (format name `bittrex-v1-ws`), as in shared/data/bittrex-v1-ws-2021/:
 * cryptofeed's raw capture of hub `c2` (QueryExchangeState results, uE and uS pushes). Each line is parsed by the
 * simulator's v1.1 capture parser (src/sim/driver/replay-v1-ws-reader.ts), so the backtest and the replay driver
 * read exactly the same events, mapped into the v3 model through the shared v1.1 mapping: `snapshot` (per-connection
 * Nonce as sequence), `orderBookDelta` (depth 500), `trade` (uE fills) and `ticker` (uS, for the session's markets).
 *
 * The file is streamed line by line (constant memory) and events come out in batches; a bad line is a
 * ReplayFormatError `file:line: reason`, thrown or (with `onBadLine: 'skip'`) reported and skipped whole.
 *
 * **Params**: `snapshotFills` (boolean, default false): also emit each snapshot's recent fills as a `trade`.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { type LineRef, ReplayFormatError, handleBadLine } from '../../src/sim/driver/replay-error.js';
import { newV1CaptureState, parseV1CaptureLine } from '../../src/sim/driver/replay-v1-ws-reader.js';
import type { MarketDataReader, MarketEvent, ReaderFactory, ReaderOpenOptions, ReaderSummary } from './reader.js';

/** Events per batch. */
const BATCH = 512;

/**
 * Open a v1.1 capture file.
 *
 * @example
 * const reader = openBittrexV1Capture('../shared/data/bittrex-v1-ws-2021/BITTREX.ws.21.0', { markets: ['UNI-EUR'] });
 * for await (const batch of reader.batches()) handle(batch);
 * reader.summary(); // { events: …, errors: 0, ignored: { connect: 1, sent: 40, 'snapshot-fills': 10, … } }
 */
export const openBittrexV1Capture: ReaderFactory = (path: string, opts: ReaderOpenOptions): MarketDataReader => {
  const summary: ReaderSummary = { events: 0, errors: 0, ignored: {} };
  const keep = opts.markets ? new Set(opts.markets.map((m) => m.toUpperCase())) : undefined;
  const snapshotFills = opts.params?.snapshotFills;
  if (snapshotFills !== undefined && typeof snapshotFills !== 'boolean') {
    throw new RangeError(`bittrex-v1-ws: params.snapshotFills must be true or false, got ${JSON.stringify(snapshotFills)}`);
  }
  let started = false;
  return {
    source: path,
    summary: () => ({ ...summary, ignored: { ...summary.ignored } }),
    async *batches(): AsyncGenerator<readonly MarketEvent[]> {
      if (started) throw new Error(`bittrex-v1-ws: ${path} is being or was read already; open a new reader`);
      started = true;
      const state = newV1CaptureState({ snapshotFills: snapshotFills ?? false });
      const errors: ReplayFormatError[] = [];
      const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
      let batch: MarketEvent[] = [];
      let n = 0;
      for await (const raw of lines) {
        n++;
        if (raw.length === 0) continue;
        const ref: LineRef = { file: path, line: n };
        try {
          const parsed = parseV1CaptureLine(raw, ref, state);
          for (const e of parsed.events) {
            if (keep && !keep.has(e.marketSymbol.toUpperCase())) continue;
            batch.push(e);
          }
          for (const k of parsed.ignored) summary.ignored[k] = (summary.ignored[k] ?? 0) + 1;
        } catch (err) {
          const error = err instanceof ReplayFormatError ? err : new ReplayFormatError(ref, err instanceof Error ? err.message : String(err), { cause: err });
          handleBadLine(error, opts, errors);
          summary.errors = errors.length;
        }
        if (batch.length >= BATCH) {
          summary.events += batch.length;
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) {
        summary.events += batch.length;
        yield batch;
      }
    },
  };
};
