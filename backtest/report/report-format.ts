/** Small formatters shared by the report page and the terminal summary. */

/** HTML-escape `s`. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Epoch ms as `2021-01-01 00:00:00.000Z` (UTC, so a report reads the same everywhere). */
export function fmtTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  return new Date(ms).toISOString().replace('T', ' ');
}

/** A fraction as a percentage with 2 decimals, or `–`; a loss too small to show is `0.00 %`, not `-0.00 %`. */
export function pct(x: number | null | undefined): string {
  if (x === null || x === undefined) return '–';
  const text = (100 * x).toFixed(2);
  return `${text === '-0.00' ? '0.00' : text} %`;
}

/** A ratio with 3 decimals, or `–`. */
export function ratio(x: number | null | undefined): string {
  return x === null || x === undefined ? '–' : x.toFixed(3);
}

/** A money string as is, or `–`. */
export function amount(s: string | null | undefined): string {
  return s ?? '–';
}

/** A duration in ms as `3d 4h`, `5h 6m`, `7m 8s` or `9.1s`. */
export function fmtDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${Math.floor(s % 60)}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}
