/**
 * What the REST transport does when the venue refuses a signed request's `Api-Timestamp` (401 INVALID_TIMESTAMP):
 * measure the venue's clock once and send the request again signed with the venue's time, or fail saying that
 * this machine's clock is off and by how much (rather than only that a timestamp was refused).
 */
import { ApiError } from '../../core/errors.js';
import { describeOffset, VENUE_TIME_RESOLUTION_MS, type VenueClock, type VenuePing } from './venue-clock.js';

/** Whether the venue refused a request for its timestamp. */
export function isTimestampRefusal(err: ApiError): boolean {
  return err.status === 401 && err.code === 'INVALID_TIMESTAMP';
}

/**
 * After `refusal` (see {@link isTimestampRefusal}) of a request signed at venue-clock generation `signedGeneration`:
 * `'retry'` when the venue clock has been corrected since (measured now with `ping` unless another request already
 * did) and this request has not been retried for it yet (`retried`); otherwise the error to throw, saying why.
 */
export async function afterTimestampRefusal(
  refusal: ApiError,
  venue: VenueClock,
  signedGeneration: number,
  retried: boolean,
  ping: VenuePing,
): Promise<'retry' | ApiError> {
  if (retried) {
    return withDetail(
      refusal,
      `the venue refused Api-Timestamp again after signing with its own time; this machine's clock is ${describeOffset(venue.offsetMs)} and may still be moving: set it right (NTP)`,
    );
  }
  let corrected: boolean;
  try {
    corrected = await venue.correct(signedGeneration, ping);
  } catch (err) {
    return withDetail(refusal, `the venue refused Api-Timestamp and its clock could not be measured (GET /ping: ${(err as Error)?.message ?? String(err)})`);
  }
  if (corrected) return 'retry';
  return withDetail(
    refusal,
    `the venue refused Api-Timestamp, yet this machine's clock agrees with the venue's within ${VENUE_TIME_RESOLUTION_MS / 1000} s (GET /ping)`,
  );
}

function withDetail(err: ApiError, detail: string): ApiError {
  return new ApiError({
    status: err.status,
    code: err.code,
    detail: err.detail ? `${detail} (venue: ${err.detail})` : detail,
    data: err.data,
    request: err.request,
    retryAfterMs: err.retryAfterMs,
  });
}
