/**
 * What the two candle readers share: the candle event (stamped when the candle closed, so a strategy never sees a
 * bar before it is complete), the checks a candle must pass, and the time-order rule.
 */
import type { Decimal } from '../../src/core/decimal.js';
import { amountProblem } from '../../src/model/decode.js';
import { CANDLE_INTERVALS, CANDLE_INTERVAL_MS, type CandleInterval } from '../../src/model/enums.js';
import { candleRangeProblem } from '../../src/model/market.js';
import { type LineRef, ReplayFormatError } from '../../src/sim/driver/replay-error.js';
import type { ReaderParams } from './params.js';
import type { ReplayCandle } from './reader.js';

/** The market and interval every candle of a file belongs to (candle files hold one series). */
export interface CandleSeries {
  market: string;
  interval: CandleInterval;
}

/** Read the `market` and `interval` params every candle reader requires. */
export function candleSeries(p: ReaderParams): CandleSeries {
  const market = p.string('market');
  if (!market) p.fail('market', `is required: the market of the file's candles, e.g. BTC-USD`);
  const interval = p.string('interval');
  if (!interval || !(CANDLE_INTERVALS as readonly string[]).includes(interval)) p.fail('interval', `is required, one of ${CANDLE_INTERVALS.join(', ')}`);
  return { market: market.toUpperCase(), interval: interval as CandleInterval };
}

/** Candle values as read, before checks. */
export interface CandleValues {
  startsAt: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  volume: Decimal;
  quoteVolume: Decimal;
}

/** The prices a candle must have above zero, and the volumes it must not have negative (in the order checked). */
const PRICES = ['open', 'high', 'low', 'close'] as const;
const VOLUMES = ['volume', 'quoteVolume'] as const;

/**
 * Builds candle events of one series in time order: each must start after the previous one (a file is one
 * series, oldest first once read), on the interval's grid, and be a candle decodeCandle would take from the venue
 * (src/model/market.ts): prices above zero, volumes not negative (0 is an interval without trades), within range,
 * `low <= open, close <= high`.
 */
export class CandleSequence {
  readonly #series: CandleSeries;
  readonly #ms: number;
  #last = -Infinity;

  constructor(series: CandleSeries) {
    this.#series = series;
    this.#ms = CANDLE_INTERVAL_MS[series.interval];
  }

  /** Check `v` and return its event; throws a {@link ReplayFormatError} naming `ref` (nothing is kept then). */
  event(v: CandleValues, ref: LineRef): ReplayCandle {
    // Each error gives the values it read and, for whoever may not see the file (a queued job), the same without them.
    if (v.startsAt % this.#ms !== 0) {
      const offGrid = `not on the ${this.#series.interval} grid`;
      throw new ReplayFormatError(ref, `starts at ${new Date(v.startsAt).toISOString()}, ${offGrid}`, { withoutText: `starts ${offGrid}` });
    }
    if (v.startsAt <= this.#last) {
      const order = 'rows must be in time order';
      throw new ReplayFormatError(ref, `starts at ${new Date(v.startsAt).toISOString()}, not after the previous candle (${new Date(this.#last).toISOString()}): ${order}`, {
        withoutText: `starts not after the previous candle: ${order}`,
      });
    }
    for (const field of PRICES) {
      const problem = amountProblem(v[field], true);
      if (problem !== undefined) throw new ReplayFormatError(ref, `${field} ${problem}: ${shown(v[field])}`, { withoutText: `${field} ${problem}` });
    }
    for (const field of VOLUMES) {
      const problem = amountProblem(v[field], false);
      if (problem !== undefined) throw new ReplayFormatError(ref, `${field} ${problem}: ${shown(v[field])}`, { withoutText: `${field} ${problem}` });
    }
    const bad = candleRangeProblem(v);
    if (bad !== undefined) {
      throw new ReplayFormatError(ref, `${bad.field} ${bad.problem}`, { withoutText: `${bad.field} ${bad.reason}` });
    }
    this.#last = v.startsAt;
    const { startsAt, ...prices } = v;
    return {
      kind: 'candle',
      at: startsAt + this.#ms,
      marketSymbol: this.#series.market,
      interval: this.#series.interval,
      candle: { startsAt: new Date(startsAt), ...prices },
      source: ref,
    };
  }
}

/** A value in an error, cut as the wire decoders cut theirs: an out-of-range one written out is hundreds of digits. */
function shown(d: Decimal): string {
  const t = d.toFixed();
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
}
