/**
 * What `rexbot report` doubts in a journal whose every line is a well-formed record, and what it does about it.
 * A corrupt journal must not give a plausible PnL that is wrong without saying so; each case is decided by what
 * it does to the figures:
 *
 * - **refused** (a {@link JournalCorruptError} with file:line and field), where no PnL from the file can be right:
 *   a decimal out of bounds ({@link decimalProblem}), an order's fills adding up to more than its quantity (or a
 *   `closed` record saying so), a fill on another market or side than its order, one execution journaled twice
 *   with different figures, two different orders under one client id;
 * - **warned** (file:line and field, in report.json's `journalWarnings` and on the page), where the figures are
 *   still those of the exchange's fills but the file is not what a bot writes: a fill or outcome for an order the
 *   journal never placed, a record before its order's, times running backwards, fills of an order journaled as
 *   rejected, an order closed with fewer fills journaled than the exchange said it filled (their PnL is missing);
 * - **told** in the assumptions, where the file is as a bot writes it: a fill repeated with the same figures (a
 *   `.history` file holds every compaction's kept fills again), and said once.
 */
import type { Decimal } from '../../src/core/decimal.js';
import type { NewOrder } from '../../src/model/order.js';
import { JournalCorruptError } from '../../src/orders/journal-parse.js';

/** Digits a journal decimal may have before its point: no quantity, rate or fee comes near 1e20 (the largest coin supply is below 1e15). */
export const MAX_INTEGER_DIGITS = 20;
/** Digits a journal decimal may have after its point: venues quote 8; 18 leaves room and keeps the report's 40-digit arithmetic exact. */
export const MAX_FRACTION_DIGITS = 18;

/** Warnings of one kind quoted with their line; the rest are counted. */
const QUOTED = 3;

/**
 * Why `d` cannot be a journal decimal (out of bounds, or not positive when `positive`), or undefined.
 *
 * @example
 * decimalProblem(dec('1e25'), true) // 'is out of range: 10000000000000000000000000 (at most 20 digits before the point)'
 */
export function decimalProblem(d: Decimal, positive: boolean): string | undefined {
  if (positive ? !d.gt(0) : d.isNegative()) return `is ${positive ? 'not positive' : 'negative'}: ${short(d)}`;
  if (!d.isZero() && d.e >= MAX_INTEGER_DIGITS) return `is out of range: ${short(d)} (at most ${MAX_INTEGER_DIGITS} digits before the point)`;
  if (d.decimalPlaces() > MAX_FRACTION_DIGITS) return `has ${d.decimalPlaces()} digits after the point (at most ${MAX_FRACTION_DIGITS}): ${short(d)}`;
  return undefined;
}

/** A decimal as a message shows it: its digits, cut short when there are many. */
function short(d: Decimal): string {
  const text = d.toString();
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** One quoted warning and where it sorts among the others. */
interface Quoted {
  rank: number;
  text: string;
}

/**
 * The findings about one journal file: {@link refuse} throws, {@link warn} collects. Records are named by their
 * file line. A warning has a rank, the place it takes among the others: the report folds the journal while reading
 * it and learns of some doubts later than of others (a record before its order is known only once the order comes),
 * yet lists them in one order, whatever the order they were found in. Of each kind only the first few (by rank) are
 * quoted, so what is held stays small however many there are.
 */
export class JournalDoubts {
  readonly file: string;
  readonly #byKind = new Map<string, { quoted: Quoted[]; count: number; first: number }>();

  /** `file` names the journal in every message. */
  constructor(file: string) {
    this.file = file;
  }

  /** Refuse the journal: the record at file line `line` has `field` `problem`. */
  refuse(line: number, field: string, problem: string): never {
    throw new JournalCorruptError(this.file, line, `${field} ${problem}`);
  }

  /** Note a doubt of `kind` about the `field` of the record at file line `line`; `rank` orders it (default: the line). */
  warn(kind: string, line: number, field: string, problem: string, rank = line): void {
    this.warnText(kind, `${this.file}:${line}: ${field} ${problem}`, rank);
  }

  /** A doubt already written as `file:line: ...` (the reader's torn last line), ranked `rank`. */
  warnText(kind: string, text: string, rank: number): void {
    let k = this.#byKind.get(kind);
    if (!k) this.#byKind.set(kind, (k = { quoted: [], count: 0, first: rank }));
    k.count++;
    k.first = Math.min(k.first, rank);
    if (k.quoted.length === QUOTED && rank >= k.quoted[QUOTED - 1]!.rank) return;
    let at = k.quoted.length;
    while (at > 0 && k.quoted[at - 1]!.rank > rank) at--;
    k.quoted.splice(at, 0, { rank, text });
    if (k.quoted.length > QUOTED) k.quoted.pop();
  }

  /** The warnings, kind by kind in the order of their first (by rank): the first few quoted, then how many more. */
  warnings(): string[] {
    const out: string[] = [];
    for (const [kind, k] of [...this.#byKind].sort((a, b) => a[1].first - b[1].first)) {
      out.push(...k.quoted.map((q) => q.text));
      if (k.count > k.quoted.length) out.push(`${this.file}: ${k.count - k.quoted.length} more like these (${kind})`);
    }
    return out;
  }

  /** Refuse an order record whose amounts are out of bounds (`at` is the field path of the order in the record). */
  checkOrder(line: number, at: string, o: NewOrder): void {
    for (const f of ['quantity', 'limit', 'ceiling'] as const) {
      const d = o[f];
      if (d === undefined) continue;
      const problem = decimalProblem(d, true);
      if (problem) this.refuse(line, `${at}.${f}`, problem);
    }
  }

  /** Refuse `d` at `field` of the record at file line `line` when it is out of bounds. */
  checkDecimal(line: number, field: string, d: Decimal, positive: boolean): void {
    const problem = decimalProblem(d, positive);
    if (problem) this.refuse(line, field, problem);
  }
}
