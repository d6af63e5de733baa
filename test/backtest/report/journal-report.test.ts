/**
 * `rexbot report <journal>`: a journal written with the journal's own encoder, read back by its parser, turned
 * into the backtest's report; and the command as a real process.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { Journal } from '../../../src/orders/journal.js';
import { encodeRecord, type JournalRecord } from '../../../src/orders/journal-records.js';
import { journalReportInput } from '../../../backtest/report/journal-report.js';
import { computeMetrics } from '../../../backtest/report/metrics.js';
import { repoPath } from '../../helpers/shared.js';
import { orderRecord as order } from './journal-order-record.js';

const T = Date.UTC(2026, 10, 25, 9, 0, 0);
const fill = (at: number, cid: string, exec: string, direction: 'BUY' | 'SELL', quantity: string, rate: string, commission: string): JournalRecord => ({
  t: 'fill',
  at: at + 1,
  id: cid,
  orderId: `o-${cid}`,
  executionId: exec,
  marketSymbol: 'BTC-USD',
  direction,
  quantity: dec(quantity),
  rate: dec(rate),
  commission: dec(commission),
  isTaker: false,
  executedAt: new Date(at),
});

/** A paper run: a buy filled, a sell filled in two parts (one journaled twice), a sell cancelled, one refused. */
const RECORDS: JournalRecord[] = [
  order(T, 'c1', 'BUY', '1', '100'),
  { t: 'sent', at: T, id: 'c1', attempt: 1 },
  { t: 'ack', at: T + 5, id: 'c1', orderId: 'o-c1' },
  fill(T + 60_000, 'c1', 'e1', 'BUY', '1', '100', '0.35'),
  { t: 'closed', at: T + 60_010, id: 'c1', filled: dec('1') },
  {
    t: 'batch',
    at: T + 120_000,
    batchId: 'b1',
    strategy: 'mm',
    intentKey: 'q',
    orders: [
      { clientOrderId: 'c2', order: { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('1'), limit: dec('110'), clientOrderId: 'c2' } },
      { clientOrderId: 'c3', order: { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('1'), limit: dec('120'), clientOrderId: 'c3' } },
    ],
    cancels: [],
  },
  { t: 'ack', at: T + 120_005, id: 'c2', orderId: 'o-c2' },
  { t: 'ack', at: T + 120_005, id: 'c3', orderId: 'o-c3' },
  fill(T + 180_000, 'c2', 'e2', 'SELL', '0.4', '110', '0.154'),
  fill(T + 180_000, 'c2', 'e2', 'SELL', '0.4', '110', '0.154'),
  fill(T + 240_000, 'c2', 'e3', 'SELL', '0.6', '110', '0.231'),
  { t: 'closed', at: T + 240_010, id: 'c2', filled: dec('1') },
  { t: 'closed', at: T + 300_000, id: 'c3', filled: dec('0') },
  order(T + 310_000, 'c4', 'BUY', '100', '100'),
  { t: 'rejected', at: T + 310_005, id: 'c4', code: 'INSUFFICIENT_FUNDS' },
];

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function journalFile(lines: string[]): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'rexbot-journal-report-'));
  dirs.push(d);
  const file = join(d, 'demo-paper-2026-11-25T09-00-00-000Z.jsonl');
  await writeFile(file, lines.map((l) => `${l}\n`).join(''));
  return file;
}

describe('a journal as a report', () => {
  it('orders, outcomes, fills (each execution once), trades and PnL', async () => {
    const file = await journalFile(RECORDS.map(encodeRecord));
    const input = await journalReportInput(file, { initialEquity: '10000' });
    expect(input.kind).toBe('paper');
    expect(input.name).toBe('demo-paper-2026-11-25T09-00-00-000Z');
    expect(input.valuationCurrency).toBe('USD');
    expect(input.orders.map((o) => [o.clientOrderId, o.id, o.outcome, o.fillQuantity, o.rejectCode])).toEqual([
      ['c1', 'o-c1', 'CLOSED', '1', undefined],
      ['c2', 'o-c2', 'CLOSED', '1', undefined],
      ['c3', 'o-c3', 'CANCELLED', '0', undefined],
      ['c4', undefined, 'REJECTED', '0', 'INSUFFICIENT_FUNDS'],
    ]);
    expect(input.fills.map((f) => [f.at - T, f.direction, f.quantity])).toEqual([
      [60_000, 'BUY', '1'],
      [180_000, 'SELL', '0.4'],
      [240_000, 'SELL', '0.6'],
    ]);
    const m = computeMetrics(input);
    // bought 1 @ 100 (0.35), sold 0.4 + 0.6 @ 110 (0.154 + 0.231): 10 − 0.735
    expect(m.total.netPnl).toBe('9.26500000');
    expect(m.total.trades).toBe(2);
    expect(m.total.fees).toBe('0.73500000');
    expect(m.total.orders).toEqual({ placed: 4, filled: 2, partiallyFilled: 0, cancelled: 1, rejected: 1, open: 0, fillRate: 2 / 3 });
    expect(m.total.return).toBeCloseTo(9.265 / 10000, 12);
    expect(input.equity.at(-1)!.equity).toBe('10009.26500000');
    expect(input.assumptions.join(' ')).toMatch(/holds no balances or market data/);
  });

  it('without a starting equity: money and trade statistics, no ratios against equity', async () => {
    const input = await journalReportInput(await journalFile(RECORDS.map(encodeRecord)));
    const m = computeMetrics(input).total;
    expect(m.netPnl).toBe('9.26500000');
    expect([m.return, m.sharpe, m.sortino, m.maxDrawdown.fraction]).toEqual([null, null, null, null]);
    expect(m.winRate).toBe(1);
  });

  it('a damaged line is an error naming the file and line', async () => {
    const lines = RECORDS.map(encodeRecord);
    lines.splice(3, 0, '{"t":"fill","at":1}');
    const file = await journalFile(lines);
    await expect(journalReportInput(file)).rejects.toThrow(`${file}:4`);
  });

  it('rexbot report writes the report and says where', async () => {
    const file = await journalFile(RECORDS.map(encodeRecord));
    const out = join(dirs[dirs.length - 1]!, 'out');
    const { stdout } = await promisify(execFile)(process.execPath, [repoPath('src/cli/bin.mjs'), 'report', file, '--equity', '10000', '--out', out], { cwd: repoPath() });
    expect(stdout).toContain(`report: ${join(out, 'report.html')}`);
    expect(stdout).toContain('9.26500000');
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { kind: string; trades: unknown[] };
    expect(report.kind).toBe('paper');
    expect(report.trades).toHaveLength(2);
    const bad = await promisify(execFile)(process.execPath, [repoPath('src/cli/bin.mjs'), 'report'], { cwd: repoPath() }).catch((e: { code: number; stderr: string }) => e);
    expect((bad as { code: number }).code).toBe(2);
    expect((bad as { stderr: string }).stderr).toContain('give the journal file');
  });
});

describe("a journal's compaction history as a report", () => {
  /** A journal (journal.keepHistory) compacted after c1 and c2 finished: c1's and c2's fills are only in its history. */
  async function compacted(): Promise<{ dir: string; file: string; history: string }> {
    const file = await journalFile([]);
    const history = `${file}.history`;
    const j = Journal.open(file, { historyPath: history, fsync: false });
    for (const r of RECORDS.slice(0, 12)) j.append(r);
    j.flush();
    j.compact(T + 305_000);
    for (const r of RECORDS.slice(12)) j.append(r);
    j.close();
    return { dir: join(file, '..'), file, history };
  }

  it("holds the fills a compaction dropped, and says so; it is named beside the journal's report", async () => {
    const { file, history } = await compacted();
    const journal = await journalReportInput(file);
    expect(journal.fills).toEqual([]);
    expect(journal.assumptions.join(' ')).toMatch(/fills of orders finished before a compaction are not in it/);
    const input = await journalReportInput(history);
    expect(input.name).toBe('demo-paper-2026-11-25T09-00-00-000Z.history');
    expect(input.kind).toBe('paper');
    expect(input.fills.map((f) => [f.at - T, f.direction, f.quantity])).toEqual([
      [60_000, 'BUY', '1'],
      [180_000, 'SELL', '0.4'],
      [240_000, 'SELL', '0.6'],
    ]);
    expect(computeMetrics(input).total.netPnl).toBe('9.26500000');
    const said = input.assumptions.join(' ');
    expect(said).not.toMatch(/not in it/);
    expect(said).toMatch(/compaction history \(journal\.keepHistory\): every journal a compaction replaced, whole/);
  });

  it('rexbot report without --out writes it to out/report/<name>.history, beside the journal\'s out/report/<name>', async () => {
    const { dir, file, history } = await compacted();
    const bin = repoPath('src/cli/bin.mjs');
    await promisify(execFile)(process.execPath, [bin, 'report', file], { cwd: dir });
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'report', history], { cwd: dir });
    const out = join(dir, 'out', 'report', 'demo-paper-2026-11-25T09-00-00-000Z.history');
    expect(stdout).toContain(`report: ${join(out, 'report.html')}`);
    expect((await readdir(join(dir, 'out', 'report'))).sort()).toEqual(['demo-paper-2026-11-25T09-00-00-000Z', 'demo-paper-2026-11-25T09-00-00-000Z.history']);
    const page = await readFile(join(out, 'report.html'), 'utf8');
    expect(page).not.toContain('are not in it');
    expect(page).toContain('compaction history');
  });
});
