/**
 * Reader of recorded legacy v1.1 hub sessions (format name `bittrex-v1-ws`), as in shared/data/bittrex-v1-ws-2021/:
 * cryptofeed's raw capture of hub `c2` (QueryExchangeState results, uE and uS pushes). Each line is parsed by the
 * simulator's v1.1 capture parser (src/sim/driver/replay-v1-ws-reader.ts), so the backtest and the replay driver
 * read exactly the same events, mapped into the v3 model through the shared v1.1 mapping: `snapshot` (per-connection
 * Nonce as sequence), `orderBookDelta` (depth 500), `trade` (uE fills) and `ticker` (uS, for the session's markets).
 *
 * The file (plain or gzipped) is streamed line by line by the shared line reader (constant memory) and events come
 * out in batches; a bad line is a
 * ReplayFormatError `file:line: reason`, thrown or (with `onBadLine: 'skip'`) reported and skipped whole.
 *
 * **Params**: `snapshotFills` (boolean, default false): also emit each snapshot's recent fills as a `trade`.
 */
import { newV1CaptureState, parseV1CaptureLine } from '../../src/sim/driver/replay-v1-ws-reader.js';
import { lineReader } from './line-reader.js';
import type { MarketDataReader, ReaderFactory, ReaderOpenOptions } from './reader.js';

/**
 * Open a v1.1 capture file (plain or gzipped).
 *
 * @example
 * const reader = openBittrexV1Capture('../shared/data/bittrex-v1-ws-2021/BITTREX.ws.21.0', { markets: ['UNI-EUR'] });
 * for await (const batch of reader.batches()) handle(batch);
 * reader.summary(); // { events: …, errors: 0, ignored: { connect: 1, sent: 40, 'snapshot-fills': 10, … } }
 */
export const openBittrexV1Capture: ReaderFactory = (path: string, opts: ReaderOpenOptions): MarketDataReader => {
  const snapshotFills = opts.params?.snapshotFills;
  if (snapshotFills !== undefined && typeof snapshotFills !== 'boolean') {
    throw new RangeError(`bittrex-v1-ws: params.snapshotFills must be true or false, got ${JSON.stringify(snapshotFills)}`);
  }
  return lineReader(path, opts, () => {
    const state = newV1CaptureState({ snapshotFills: snapshotFills ?? false });
    return {
      line(text, ref, out) {
        // Parsed whole before anything is emitted, so a bad line never leaves some of its events behind.
        const parsed = parseV1CaptureLine(text, ref, state);
        for (const e of parsed.events) out.event(e);
        for (const k of parsed.ignored) out.ignore(k);
      },
    };
  });
};
