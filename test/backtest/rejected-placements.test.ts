/**
 * A placement the backtest venue refuses (here: below the market's minTradeSize, with the risk checks that would
 * deny it first turned off) is in the report under the market it was placed on: the market's order counts have it
 * as rejected, and report.json's order list names its market and side.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildReport } from '../../backtest/report/report-json.js';
import { renderReportHtml } from '../../backtest/report/report-html.js';
import { runBacktest } from '../../backtest/run-backtest.js';
import { memoryReader, syntheticEvents } from './synthetic-events.js';

const T0 = Date.parse('2024-03-01T00:00:00Z');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('a placement the venue refused', () => {
  it('counts as rejected in its market and is listed with its market and side', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rexbot-bt-rejected-'));
    dirs.push(dir);
    const configPath = join(dir, 'backtest.yaml');
    writeFileSync(
      configPath,
      `
bot: { name: refused }
venue:
  kind: backtest
  data: [{ format: rexbot, path: unused-readers-given }]
  balances: { USD: 1000000, BTC: 10 }
  latency: { marketData: 2, orderEntry: 4, cancel: 3 }
risk: { disabledChecks: [min-trade-size, dust] }
strategies:
  - name: mm
    use: market-maker
    markets: [BTC-USD]
    params: { spread: 0.0001, levels: 1, levelSpacing: 0.00005, size: 0.00000001, throttleMs: 200 }
`,
    );
    const run = await runBacktest({ configPath, readers: [memoryReader(() => syntheticEvents({ seed: 1, count: 2000, start: T0 }))] });
    const report = buildReport(run.report);
    const refused = report.orders.filter((o) => o.outcome === 'REJECTED');
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused.map((o) => o.rejectCode))).toEqual(new Set(['MIN_TRADE_REQUIREMENT_NOT_MET']));
    expect(new Set(refused.map((o) => o.marketSymbol))).toEqual(new Set(['BTC-USD']));
    // the market maker quotes both sides
    expect(new Set(refused.map((o) => o.direction))).toEqual(new Set(['BUY', 'SELL']));
    expect(report.metrics.markets['BTC-USD']!.orders).toMatchObject({ placed: refused.length, rejected: refused.length });
    expect(renderReportHtml(report)).not.toContain('refused before naming their market');
  });
});
