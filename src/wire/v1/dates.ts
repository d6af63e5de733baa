/**
 * The v1.1 date-time form.
 *
 * WIRE: v1.1 wrote .NET `DateTime`s in UTC **without a zone designator** and with the fraction's trailing zeros
 * trimmed: `2014-07-09T07:22:16.72`, `2014-07-09T03:55:48.583`, `2014-02-13T00:00:00` (official examples and
 * recorded answers). `Date.parse` reads a zone-less date-time as LOCAL time, so parsing must add the `Z`.
 * The hub's fills carry epoch milliseconds instead (2021 captures: `"T":1617638458730`); {@link parseV1Date}
 * accepts both.
 */

const V1_DATE_RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,7}))?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Format a Date as v1.1 did: UTC, no zone, milliseconds with trailing zeros trimmed (none when zero).
 *
 * @example
 * formatV1Date(new Date('2014-07-09T07:22:16.720Z')) // '2014-07-09T07:22:16.72'
 * formatV1Date(new Date('2014-02-13T00:00:00Z'))     // '2014-02-13T00:00:00'
 */
export function formatV1Date(d: Date): string {
  const iso = d.toISOString();
  const frac = iso.slice(20, 23).replace(/0+$/, '');
  return frac ? `${iso.slice(0, 19)}.${frac}` : iso.slice(0, 19);
}

/**
 * Parse a v1.1 date-time (zone-less means UTC; a zone, if present, is honoured; up to 7 fraction digits, of
 * which milliseconds are kept) or epoch milliseconds. Returns undefined for anything else.
 *
 * @example
 * parseV1Date('2014-07-09T07:22:16.72')?.toISOString() // '2014-07-09T07:22:16.720Z'
 * parseV1Date(1617638458730)?.toISOString()           // '2021-04-05T16:00:58.730Z'
 */
export function parseV1Date(value: unknown): Date | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? new Date(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const m = V1_DATE_RE.exec(value);
  if (!m) return undefined;
  const ms = (m[2] ?? '').slice(0, 3).padEnd(3, '0');
  const t = Date.parse(`${m[1]}.${ms}${m[3] ?? 'Z'}`);
  return Number.isNaN(t) ? undefined : new Date(t);
}
