/**
 * The venue's time, as this machine estimates it: the local clock plus an offset measured with `GET /ping`.
 *
 * The venue refuses a signed request, and a hub Authenticate, whose timestamp is outside its window (5 minutes on
 * the simulator) with `INVALID_TIMESTAMP`. A machine whose clock is off (a VM after suspend, no NTP) would then
 * be refused everything; mature clients (ccxt's adjustForTimeDifference, the Binance clients) measure the venue's
 * clock and sign with it. One {@link VenueClock} is shared by the REST client and the hub authentication of one
 * gateway, so a correction found by either is used by both.
 */
import { type Clock, systemClock } from '../../core/clock.js';

/**
 * The smallest offset worth correcting. `serverTime` is rounded down to the second, so one ping pins the venue's
 * time to a second-wide interval (its middle is taken, ±500 ms), and the round trip adds its own uncertainty: an
 * offset within this is indistinguishable from none.
 */
export const VENUE_TIME_RESOLUTION_MS = 1_500;

/** What {@link VenueClock} logs with (the `warn` of a pino or compatible logger). */
export interface VenueClockLogger {
  warn?(obj: object, msg?: string): void;
}

/** Asks the venue for its time: `GET /ping`'s `serverTime` (epoch ms rounded down to the second). */
export type VenuePing = () => Promise<number>;

/** Options of {@link VenueClock}. */
export interface VenueClockOptions {
  /** This machine's clock; default the system clock. */
  clock?: Clock | undefined;
  /** Where the one warning per correction goes. */
  logger?: VenueClockLogger | undefined;
}

/** `612 s behind the venue's` / `3 s ahead of the venue's`, for an offset (venue minus local) in ms. */
export function describeOffset(offsetMs: number): string {
  const s = Math.round(Math.abs(offsetMs) / 1000);
  return `${s} s ${offsetMs > 0 ? 'behind' : 'ahead of'} the venue's`;
}

/**
 * The venue's time: `clock.now()` plus the offset last measured (0 until a refusal asks for a measurement).
 *
 * @example
 * const venue = new VenueClock({ clock: systemClock, logger });
 * const ts = venue.now(); // sign with this
 * // after a 401 INVALID_TIMESTAMP on a request signed at generation g:
 * if (await venue.correct(g, () => client.ping.get().then((p) => p.serverTime))) retryOnce();
 */
export class VenueClock {
  readonly #clock: Clock;
  readonly #logger: VenueClockLogger | undefined;
  #offset = 0;
  #generation = 0;
  #measuring: Promise<void> | undefined;

  constructor(opts: VenueClockOptions = {}) {
    this.#clock = opts.clock ?? systemClock;
    this.#logger = opts.logger;
  }

  /** The venue's time in epoch ms, as best known. */
  now(): number {
    return this.#clock.now() + this.#offset;
  }

  /** Venue time minus this machine's time, in ms (positive: this machine is behind). */
  get offsetMs(): number {
    return this.#offset;
  }

  /** Counts corrections: a signer notes it when signing, and hands it to {@link correct} after a refusal. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Called after the venue refused a timestamp signed at `signedGeneration`. Answers true when the offset has been
   * corrected since (by this call's measurement or by another signer's), so signing again is worth it; false when
   * the measurement finds the clocks agreeing within {@link VENUE_TIME_RESOLUTION_MS} (the refusal has another
   * cause). Concurrent refusals share one measurement. A failed ping rejects with its error.
   */
  async correct(signedGeneration: number, ping: VenuePing): Promise<boolean> {
    if (this.#generation !== signedGeneration) return true;
    this.#measuring ??= this.#measure(ping).finally(() => {
      this.#measuring = undefined;
    });
    await this.#measuring;
    return this.#generation !== signedGeneration;
  }

  async #measure(ping: VenuePing): Promise<void> {
    const sent = this.#clock.now();
    const serverTime = await ping();
    const received = this.#clock.now();
    // The venue read its clock somewhere in the round trip: take its middle. Its true time was in
    // [serverTime, serverTime + 1000) (rounded down to the second): take the middle of that too.
    const measured = Math.round(serverTime + 500 - (sent + received) / 2);
    if (Math.abs(measured - this.#offset) <= VENUE_TIME_RESOLUTION_MS) return;
    this.#offset = measured;
    this.#generation++;
    this.#logger?.warn?.(
      { offsetMs: measured },
      measured === 0 || Math.abs(measured) <= VENUE_TIME_RESOLUTION_MS
        ? "this machine's clock agrees with the venue's again; signing with this machine's time"
        : `this machine's clock is ${describeOffset(measured)}; signing with the venue's time`,
    );
  }
}
