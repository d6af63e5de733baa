/**
 * `rexbot report <journal.jsonl>`: render a paper or live run's order journal as the backtest's report
 * (report.json and report.html): orders, fills, trades, PnL. See backtest/report/journal-report.ts for what a
 * journal can and cannot tell.
 *
 * ```
 * rexbot report <journal.jsonl> [--out DIR] [--equity AMOUNT] [--currency CUR] [--kind paper|live]
 * ```
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { journalReportName } from '../../backtest/report/journal-report-name.js';
import type { Command } from './main.js';

const USAGE = `usage: rexbot report <journal.jsonl> [--out DIR] [--equity AMOUNT] [--currency CUR] [--kind paper|live]

Renders a paper or live run's order journal (the file its 'order journal:' log line names) as report.json and report.html,
the same report a backtest writes.

  --out DIR        where the report goes (default out/report/<journal name without .jsonl>;
                   out/report/<name>.history for the journal's compaction history <name>.jsonl.history)
  --equity AMOUNT  the account's equity at the start, in the valuation currency (enables return, Sharpe, ...)
  --currency CUR   valuation currency (default: the quote currency of the journal's markets)
  --kind KIND      paper or live (default: paper when the file name says -paper-)
  --help           this text`;

/** The parsed command line. */
export interface ReportArgs {
  journal: string;
  out: string | undefined;
  equity: string | undefined;
  currency: string | undefined;
  kind: 'paper' | 'live' | undefined;
}

/** Parse `args`; throws an Error whose message is fit to show the user. */
export function parseReportArgs(args: string[]): ReportArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { out: { type: 'string' }, equity: { type: 'string' }, currency: { type: 'string' }, kind: { type: 'string' } },
  });
  if (positionals.length === 0) throw new Error('give the journal file, e.g. rexbot report config/.rexbot/journal/paper-demo/paper-demo-paper-<time>.jsonl (a run names it in its "order journal:" log line)');
  if (positionals.length > 1) throw new Error(`unexpected argument ${positionals[1]}`);
  if (values.equity !== undefined && !/^\d+(\.\d+)?$/.test(values.equity)) throw new Error(`--equity must be a plain decimal amount like 10000, got ${values.equity}`);
  if (values.kind !== undefined && values.kind !== 'paper' && values.kind !== 'live') throw new Error(`--kind must be paper or live, got ${values.kind}`);
  if (values.currency !== undefined && !/^[A-Z0-9]+$/.test(values.currency)) throw new Error(`--currency must be a currency symbol like USD, got ${values.currency}`);
  return { journal: positionals[0]!, out: values.out, equity: values.equity, currency: values.currency, kind: values.kind as ReportArgs['kind'] };
}

/**
 * Where the report of `journal` goes without `--out`: `out/report/<name>` under the current folder, `<name>` the
 * report's name (`journalReportName`: `x` for `x.jsonl`, `x.history` for its compaction history `x.jsonl.history`).
 */
export function defaultReportDir(journal: string): string {
  return resolve('out', 'report', journalReportName(journal).replace(/[^\w.-]+/g, '_'));
}

/** The `report` sub-command. */
export const reportCommand: Command = {
  async run(args) {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    let a: ReportArgs;
    try {
      a = parseReportArgs(args);
    } catch (e) {
      process.stderr.write(`rexbot report: ${(e as Error).message}\n${USAGE}\n`);
      return 2;
    }
    try {
      const { journalReportInput } = await import('../../backtest/report/journal-report.js');
      const { writeReport } = await import('../../backtest/report/write-report.js');
      const { summaryTable } = await import('../../backtest/cli/summary-table.js');
      const input = await journalReportInput(a.journal, { kind: a.kind, initialEquity: a.equity, valuationCurrency: a.currency });
      const out = a.out ?? defaultReportDir(a.journal);
      const written = await writeReport(input, out);
      for (const w of written.report.journalWarnings ?? []) process.stderr.write(`rexbot report: warning: ${w}\n`);
      process.stdout.write(`${summaryTable(written.report, { color: process.stdout.isTTY === true })}\n`);
      process.stdout.write(`report: ${written.html}\n`);
      return 0;
    } catch (e) {
      process.stderr.write(`rexbot report: ${(e as Error).message}\n`);
      return 1;
    }
  },
};
