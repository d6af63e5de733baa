import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BacktestProgress, progressLine } from '../../../backtest/cli/progress.js';
import { summaryTable } from '../../../backtest/cli/summary-table.js';
import { buildReport } from '../../../backtest/report/report-json.js';
import { T0, workedExample } from './fixture.js';

function sink(tty: boolean): { stream: PassThrough & { isTTY?: boolean }; text: () => string } {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean };
  stream.isTTY = tty;
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString()));
  return { stream, text: () => text };
}

describe('terminal output', () => {
  it('progress line: share of the span, events, events/s and ETA', () => {
    // a quarter of the span in 2 s with 500,000 events: 250,000 events/s, 6 s to go
    expect(progressLine({ events: 500_000, at: 250, from: 0, to: 1000 }, 2000)).toBe('backtest: 25.0 % · 500,000 events · 250,000 events/s · ETA 6.0s');
    expect(progressLine({ events: 0, at: 0, from: 0, to: 1000 }, 0)).toContain('ETA ?');
  });

  it('not on a TTY: one plain line per interval and a last one at stop', () => {
    const out = sink(false);
    let now = 0;
    const p = new BacktestProgress({ stream: out.stream, now: () => now, intervalMs: 1000 });
    for (let i = 1; i <= 30; i++) {
      now = i * 100;
      p.update({ events: i * 10, at: i, from: 0, to: 30 });
    }
    p.stop();
    const lines = out.text().trim().split('\n');
    // lines at 100 ms, 1100, 2100 and the one at stop
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('backtest: 100.0 % · 300 events · 100 events/s · ETA 0.0s');
  });

  it('on a TTY: a bar', () => {
    const out = sink(true);
    const p = new BacktestProgress({ stream: out.stream, now: () => 1000 });
    p.update({ events: 10, at: 5, from: 0, to: 10 });
    p.stop();
    expect(out.text()).toContain('events/s');
    expect(out.text()).toContain('50%');
  });

  it('summary table: summary metrics per market and the band', () => {
    const text = summaryTable(buildReport(workedExample()));
    for (const s of ['net PnL', '4.43000000', 'BTC-USD', 'ETH-BTC', 'win rate', '66.67 %', 'pessimistic', '40.0 %']) expect(text).toContain(s);
    expect(text).not.toContain('Sortino');
    // 240 hourly returns: Sharpe is shown, nothing is explained
    expect(text).not.toContain(' –: ');
  });

  it('summary table of a short run: Sharpe is –, and the line under the table says why', () => {
    const input = workedExample();
    input.to = T0 + 600_000;
    input.equity = [{ at: T0, equity: '1000', positions: {} }, { at: T0 + 300_000, equity: '1001', positions: {} }];
    const text = summaryTable(buildReport(input));
    expect(text).toContain('Sharpe –: needs at least 30 hourly returns (a run of 30 h); this run of 10m 0s has 0');
  });
});
