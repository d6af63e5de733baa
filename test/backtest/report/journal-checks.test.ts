/**
 * `rexbot report <journal>` checks a journal's records across each other: what makes any PnL from the file wrong
 * is refused with file:line and field; what leaves the fills' PnL standing but is not what a bot writes is warned
 * of (report.json's `journalWarnings`, the page, stderr) with file:line and field; a journal as a bot writes it —
 * compacted, or a compaction history repeating its records — gives no warning at all.
 */
import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { Journal } from '../../../src/orders/journal.js';
import { compactRecords } from '../../../src/orders/journal-compaction.js';
import { encodeRecord, type JournalRecord } from '../../../src/orders/journal-records.js';
import { JournalState } from '../../../src/orders/journal-state.js';
import { journalReportInput } from '../../../backtest/report/journal-report.js';
import { computeMetrics } from '../../../backtest/report/metrics.js';
import { repoPath } from '../../helpers/shared.js';
import { orderRecord as order } from './journal-order-record.js';

const T = Date.UTC(2026, 10, 25, 9, 0, 0);
const fill = (at: number, cid: string, exec: string, direction: 'BUY' | 'SELL', quantity: string, rate = '100', market = 'BTC-USD'): JournalRecord => ({
  t: 'fill',
  at: at + 1,
  id: cid,
  orderId: `o-${cid}`,
  executionId: exec,
  marketSymbol: market,
  direction,
  quantity: dec(quantity),
  rate: dec(rate),
  commission: dec('0.1'),
  isTaker: false,
  executedAt: new Date(at),
});
const closed = (at: number, id: string, filled: string): JournalRecord => ({ t: 'closed', at, id, filled: dec(filled) });

/** A buy filled in full, a sell part filled then cancelled, a conditional stop that triggered and filled. */
const GOOD: JournalRecord[] = [
  order(T, 'c1', 'BUY', '1'),
  { t: 'sent', at: T, id: 'c1', attempt: 1 },
  { t: 'ack', at: T + 5, id: 'c1', orderId: 'o-c1' },
  fill(T + 60_000, 'c1', 'e1', 'BUY', '1'),
  closed(T + 60_010, 'c1', '1'),
  order(T + 70_000, 'c2', 'SELL', '1', '110'),
  { t: 'ack', at: T + 70_005, id: 'c2', orderId: 'o-c2' },
  fill(T + 80_000, 'c2', 'e2', 'SELL', '0.4', '110'),
  closed(T + 90_000, 'c2', '0.4'),
  {
    t: 'conditional',
    at: T + 100_000,
    clientConditionalOrderId: 'k1',
    strategy: 'mm',
    intentKey: 'stop',
    role: 'stopLoss',
    order: { marketSymbol: 'BTC-USD', operand: 'LTE', triggerPrice: dec('95'), orderToCreate: { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.6') } },
  },
  { t: 'ack', at: T + 100_005, id: 'k1', orderId: 'co-k1' },
  { t: 'triggered', at: T + 110_000, id: 'k1', orderId: 'o-k1' },
  fill(T + 110_001, 'k1', 'e3', 'SELL', '0.6', '95'),
  closed(T + 110_010, 'k1', '0.6'),
];

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function journal(records: Array<JournalRecord | string>): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'rexbot-journal-checks-'));
  dirs.push(d);
  const file = join(d, 'demo-paper-2026-11-25T09-00-00-000Z.jsonl');
  await writeFile(file, records.map((r) => `${typeof r === 'string' ? r : encodeRecord(r)}\n`).join(''));
  return file;
}
/** The error `records` are refused with. */
async function refused(records: Array<JournalRecord | string>): Promise<{ file: string; message: string }> {
  const file = await journal(records);
  const err = await journalReportInput(file).then(
    () => new Error('not refused'),
    (e: unknown) => e as Error,
  );
  return { file, message: err.message };
}
const replace = (i: number, r: JournalRecord | string): Array<JournalRecord | string> => GOOD.map((x, k) => (k === i ? r : x));
const insert = (i: number, ...rs: Array<JournalRecord | string>): Array<JournalRecord | string> => [...GOOD.slice(0, i), ...rs, ...GOOD.slice(i)];

describe('a journal as a bot writes it', () => {
  it('is reported without doubts; a triggered conditional order is an order like any other', async () => {
    const input = await journalReportInput(await journal(GOOD), { initialEquity: '10000' });
    expect(input.journalWarnings).toBeUndefined();
    expect(input.orders.map((o) => [o.clientOrderId, o.id, o.outcome, o.fillQuantity])).toEqual([
      ['c1', 'o-c1', 'CLOSED', '1'],
      ['c2', 'o-c2', 'CANCELLED', '0.4'],
      ['k1', 'o-k1', 'CLOSED', '0.6'],
    ]);
    expect(computeMetrics(input).total.orders).toEqual({ placed: 3, filled: 2, partiallyFilled: 1, cancelled: 0, rejected: 0, open: 0, fillRate: 1 });
  });

  it('compacted, then appended to, and as a compaction history (every record again): no doubts, the same figures', async () => {
    const state = JournalState.from(GOOD.slice(0, 8)); // c2 still open, c1 finished
    const compacted = compactRecords(state, T + 85_000);
    const appended = GOOD.slice(8);
    const plain = await journalReportInput(await journal([...compacted, ...appended]));
    expect(plain.journalWarnings).toBeUndefined();
    const history = await journalReportInput(await journal([...GOOD.slice(0, 8), ...compacted, ...appended]));
    expect(history.journalWarnings).toBeUndefined();
    const whole = await journalReportInput(await journal(GOOD));
    expect(computeMetrics(history).total.netPnl).toBe(computeMetrics(whole).total.netPnl);
    expect(history.assumptions.join(' ')).toMatch(/fill record\(s\) repeat an execution already journaled, with the same figures/);
  });

  it('a POST /batch of cancels only: its attempt is journaled under the batch id with no batch record, and that is no doubt', async () => {
    // order-requests.ts #batchChunk writes a batch record only when the batch places orders, but journals every
    // attempt (`sent`) under the batch id: a paper market maker's journal had one at each ladder cancel and at stop.
    const cancelOnly: JournalRecord = { t: 'sent', at: T + 85_000, id: 'b-cancels', attempt: 1 };
    const input = await journalReportInput(await journal(insert(7, cancelOnly, { ...cancelOnly, attempt: 2 })));
    expect(input.journalWarnings).toBeUndefined();
    expect(input.orders).toHaveLength(3);
  });

  it('a compaction history with a copy cut by a crash: the torn line is warned of and skipped, the figures stand', async () => {
    const file = await journal([]);
    const history = `${file}.history`;
    const j = Journal.open(file, { historyPath: history, fsync: false });
    for (const r of GOOD.slice(0, 8)) j.append(r);
    j.flush();
    j.compact(T + 85_000);
    for (const r of GOOD.slice(8, 11)) j.append(r);
    j.flush();
    // A crash 100 bytes into the next copy; the compaction after the restart closes the torn line and copies again.
    await appendFile(history, (await readFile(file)).subarray(0, 100));
    j.compact(T + 105_000);
    for (const r of GOOD.slice(11)) j.append(r);
    j.close();
    const cutLine = (await readFile(history, 'utf8')).split('\n').findIndex((l) => l.length === 100) + 1;
    const input = await journalReportInput(history);
    expect(input.journalWarnings).toEqual([
      `${history}:${cutLine}: skipping a line cut off by a crash while the journal was copied to its history (100 bytes; the next copy holds its records)`,
    ]);
    const whole = await journalReportInput(await journal(GOOD.slice(0, 11)));
    expect(computeMetrics(input).total.netPnl).toBe(computeMetrics(whole).total.netPnl);
    // The same line in a journal is still refused: only a history is copied, and only a copy can be cut so.
    await writeFile(file, await readFile(history));
    await expect(journalReportInput(file)).rejects.toThrow(`${file}:${cutLine}: `);
  });

  it('an order declared lost and then found (acknowledged) is not rejected', async () => {
    const input = await journalReportInput(await journal([order(T, 'c1', 'BUY', '1'), { t: 'lost', at: T + 10, id: 'c1' }, { t: 'ack', at: T + 20, id: 'c1', orderId: 'o-c1' }]));
    expect(input.orders[0]!.outcome).toBe('OPEN');
    expect(input.journalWarnings).toBeUndefined();
  });
});

describe('refused, naming file:line and field', () => {
  it.each([
    ['a fill quantity with 22 decimals', replace(3, fill(T + 60_000, 'c1', 'e1', 'BUY', '0.1234567890123456789012')), 4, 'quantity has 22 digits after the point (at most 18): 0.1234567890123456789012'],
    ['a rate of 1e25', replace(3, fill(T + 60_000, 'c1', 'e1', 'BUY', '1', '1e25')), 4, 'rate is out of range: 10000000000000000000000000 (at most 20 digits before the point)'],
    ['an order of a negative quantity', replace(0, order(T, 'c1', 'BUY', '-1')), 1, 'order.quantity is not positive: -1'],
    ['a closed record saying more filled than ordered', replace(4, closed(T + 60_010, 'c1', '2')), 5, 'filled says order c1 filled 2, more than its quantity 1 (line 1)'],
  ])('%s', async (_what, records, line, message) => {
    const r = await refused(records);
    expect(r.message).toBe(`${r.file}:${line}: ${message}`);
  });

  it('fills adding up to more than the order: at the fill that goes over', async () => {
    const r = await refused(insert(4, fill(T + 61_000, 'c1', 'e1b', 'BUY', '0.5')));
    expect(r.message).toBe(`${r.file}:5: quantity brings order c1's fills to 1.5, more than its quantity 1 (line 1)`);
  });

  it('one execution journaled twice with different figures', async () => {
    const r = await refused(insert(8, fill(T + 80_000, 'c2', 'e2', 'SELL', '0.5', '110')));
    expect(r.message).toBe(`${r.file}:9: quantity differs from the same execution e2 at line 8`);
  });

  it('a fill on another market or side than its order', async () => {
    const market = await refused(replace(3, fill(T + 60_000, 'c1', 'e1', 'BUY', '1', '100', 'ETH-USD')));
    expect(market.message).toBe(`${market.file}:4: marketSymbol is ETH-USD, but order c1 is on BTC-USD (line 1)`);
    const side = await refused(replace(3, fill(T + 60_000, 'c1', 'e1', 'SELL', '1')));
    expect(side.message).toBe(`${side.file}:4: direction is SELL, but order c1 is a BUY (line 1)`);
  });

  it('two different orders under one client id', async () => {
    const r = await refused(insert(5, order(T + 61_000, 'c1', 'SELL', '1')));
    expect(r.message).toBe(`${r.file}:6: clientOrderId c1 names another request than the one journaled at line 1`);
  });

  it('through the CLI: exit 1, the same message, no report written', async () => {
    const file = await journal(insert(4, fill(T + 61_000, 'c1', 'e1b', 'BUY', '0.5')));
    const out = join(dirs[dirs.length - 1]!, 'out');
    const r = await promisify(execFile)(process.execPath, [repoPath('src/cli/bin.mjs'), 'report', file, '--out', out], { cwd: repoPath() }).catch((e: { code: number; stderr: string }) => e);
    expect((r as { code: number }).code).toBe(1);
    expect((r as { stderr: string }).stderr).toBe(`rexbot report: ${file}:5: quantity brings order c1's fills to 1.5, more than its quantity 1 (line 1)\n`);
    await expect(readFile(join(out, 'report.json'))).rejects.toThrow(/ENOENT/);
  });
});

describe('warned of, naming file:line and field; the figures are the fills', () => {
  it('a fill for an order the journal never placed: in the PnL, in no order count', async () => {
    const input = await journalReportInput(await journal(insert(5, fill(T + 65_000, 'ghost', 'e9', 'SELL', '1', '120'))));
    expect(input.journalWarnings).toEqual([`${input.journalWarnings![0]!.split(':')[0]}:6: id ghost: a fill for an order the journal never placed (an edited or partly lost file?): it is in the PnL, in no order count, with no strategy`]);
    expect(input.fills.map((f) => f.clientOrderId)).toContain('ghost');
    expect(input.orders).toHaveLength(3);
  });

  it('a cancel before its order is placed: said, and the order still ends cancelled', async () => {
    const file = await journal([closed(T - 10, 'c1', '0'), order(T, 'c1', 'BUY', '1'), { t: 'ack', at: T + 5, id: 'c1', orderId: 'o-c1' }]);
    const input = await journalReportInput(file);
    expect(input.journalWarnings).toEqual([`${file}:1: id c1: a closed record before its order is placed (line 2)`]);
    expect(input.orders.map((o) => o.outcome)).toEqual(['CANCELLED']);
  });

  it('records out of time order: an order journaled before the one above it, an ack before its order', async () => {
    const file = await journal([...GOOD.slice(0, 5), order(T - 3_600_000, 'c5', 'BUY', '1'), { t: 'ack', at: T - 7_200_000, id: 'c5', orderId: 'o-c5' }]);
    const input = await journalReportInput(file);
    expect(input.journalWarnings).toEqual([
      `${file}:6: at is 2026-11-25T08:00:00.000Z, before line 1's 2026-11-25T09:00:00.000Z: journal lines are written in time order`,
      `${file}:7: at is 2026-11-25T07:00:00.000Z, before its order was placed (2026-11-25T08:00:00.000Z, line 6)`,
    ]);
  });

  it('fills of an order journaled as rejected: counted as traded, not rejected', async () => {
    const file = await journal([order(T, 'c1', 'BUY', '1'), { t: 'rejected', at: T + 5, id: 'c1', code: 'INSUFFICIENT_FUNDS' }, fill(T + 60_000, 'c1', 'e1', 'BUY', '1')]);
    const input = await journalReportInput(file);
    expect(input.journalWarnings).toEqual([`${file}:2: id c1: journaled rejected (INSUFFICIENT_FUNDS), but 1 fill(s) of it are journaled: counted as placed and traded, not rejected`]);
    expect(input.orders[0]!.outcome).toBe('OPEN');
  });

  it('an order closed with fewer fills journaled than it filled: the PnL leaves the rest out', async () => {
    const file = await journal(replace(8, closed(T + 90_000, 'c2', '1')));
    const input = await journalReportInput(file);
    expect(input.journalWarnings).toEqual([`${file}:9: filled says order c2 filled 1, but the journal holds fills for 0.4: the PnL leaves out the other 0.6`]);
  });

  it('a record for an order never placed is ignored; many of one kind are counted after the first three', async () => {
    const strays = [1, 2, 3, 4, 5].map((i): JournalRecord => ({ t: 'ack', at: T + 200_000 + i, id: `x${i}`, orderId: `o-x${i}` }));
    const file = await journal([...GOOD, ...strays]);
    const input = await journalReportInput(file);
    expect(input.journalWarnings).toEqual([
      `${file}:15: id x1: an ack record for an order the journal never placed: ignored`,
      `${file}:16: id x2: an ack record for an order the journal never placed: ignored`,
      `${file}:17: id x3: an ack record for an order the journal never placed: ignored`,
      `${file}: 2 more like these (records for orders never placed)`,
    ]);
  });

  it('a torn last line is a doubt too', async () => {
    const file = await journal(GOOD);
    await writeFile(file, `${(await readFile(file, 'utf8'))}{"t":"fill","at":`);
    const input = await journalReportInput(file);
    expect(input.journalWarnings).toEqual([`${file}:15: ignoring a torn last line (17 bytes, partial write from a crash)`]);
  });

  it('through the CLI: on stderr, in report.json and on the page', async () => {
    const file = await journal(insert(5, fill(T + 65_000, 'ghost', 'e9', 'SELL', '1', '120')));
    const out = join(dirs[dirs.length - 1]!, 'out');
    const { stderr } = await promisify(execFile)(process.execPath, [repoPath('src/cli/bin.mjs'), 'report', file, '--out', out], { cwd: repoPath() });
    const warning = `${file}:6: id ghost: a fill for an order the journal never placed (an edited or partly lost file?): it is in the PnL, in no order count, with no strategy`;
    expect(stderr).toBe(`rexbot report: warning: ${warning}\n`);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { journalWarnings: string[] };
    expect(report.journalWarnings).toEqual([warning]);
    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<h2 class="warned">Journal doubts</h2>');
    expect(html).toContain(`<li>${warning.replace(/'/g, '&#39;')}</li>`);
  });
});
