import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReport, stringifyReport } from '../../../backtest/report/report-json.js';
import { renderReportHtml } from '../../../backtest/report/report-html.js';
import { fillMarkers, reportSeries, thin } from '../../../backtest/report/series.js';
import { writeReport } from '../../../backtest/report/write-report.js';
import { DAY, T0, workedExample } from './fixture.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('report.json', () => {
  it('is byte-identical for identical input, with sorted keys', async () => {
    const a = await mkdtemp(join(tmpdir(), 'rexbot-report-'));
    const b = await mkdtemp(join(tmpdir(), 'rexbot-report-'));
    dirs.push(a, b);
    await writeReport(workedExample(), a);
    await writeReport(workedExample(), b);
    const ja = await readFile(join(a, 'report.json'));
    expect(ja.equals(await readFile(join(b, 'report.json')))).toBe(true);
    expect((await readFile(join(a, 'report.html'))).equals(await readFile(join(b, 'report.html')))).toBe(true);
    const parsed = JSON.parse(ja.toString()) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual([...Object.keys(parsed)].sort());
    expect(parsed.format).toBe('rexbot-report/1');
  });

  it('does not depend on the order objects were built in', () => {
    const x = workedExample();
    const y = workedExample();
    y.denials = { MAX_OPEN_ORDERS: 1, MAX_POSITION: 2 };
    y.prices = { 'ETH-BTC': y.prices['ETH-BTC']!, 'BTC-USD': y.prices['BTC-USD']! };
    expect(stringifyReport(buildReport(y))).toBe(stringifyReport(buildReport(x)));
  });

  it('holds the trade list, the band with this run marked, assumptions and series', () => {
    const r = buildReport({ ...workedExample(), queueModel: 'power' });
    expect(r.trades.map((t) => t.pnl)).toEqual(['4.79000000', '-5.19000000', '4.83000000']);
    expect(r.band.map((b) => [b.queueModel, b.current])).toEqual([
      ['power', true],
      ['pessimistic', false],
      ['optimistic', false],
    ]);
    expect(r.band[0]!.netPnl).toBe('4.43000000');
    expect(r.assumptions).toHaveLength(2);
    expect(r.series.drawdown[3]).toEqual([T0 + 3 * DAY, 20 / 1010]);
    expect(r.series.positions['BTC-USD']![3]).toEqual([T0 + 3 * DAY, '-0.5']);
  });

  it('writes non-finite numbers as null and leaves undefined members out', () => {
    expect(stringifyReport({ b: Infinity, a: undefined, c: [undefined, NaN] })).toBe('{\n  "b": null,\n  "c": [\n    null,\n    null\n  ]\n}\n');
  });
});

describe('series thinning', () => {
  it('keeps each bucket’s min and max in time order', () => {
    const pts: Array<[number, number]> = [0, 5, 1, 9, 3, 2, 8, 4].map((v, i) => [i, v]);
    expect(thin(pts, 4, (v) => v)).toEqual([
      [0, 0],
      [3, 9],
      [5, 2],
      [6, 8],
    ]);
    expect(thin(pts, 100, (v) => v)).toBe(pts);
  });
});

describe('fill markers on the price chart', () => {
  it('draws every fill of a short run, and about 4000 a side of a long one with each stretch’s extremes', async () => {
    const few = buildReport(workedExample());
    const short = fillMarkers(few.fills, few.markets);
    expect([short.drawn, short.total]).toEqual([few.fills.length, few.fills.length]);
    expect(await renderReportHtml(few)).not.toContain('fills drawn');

    const input = workedExample();
    const base = input.fills[0]!;
    input.fills = Array.from({ length: 30_000 }, (_, i) => ({ ...base, at: T0 + i * 1000, direction: i % 3 === 0 ? 'SELL' : 'BUY', rate: String(100 + (i % 97)) }));
    input.fills[12_345] = { ...base, at: T0 + 12_345 * 1000, direction: 'BUY', rate: '1' };
    const many = fillMarkers(input.fills, ['BTC-USD']);
    const buys = many.byMarket['BTC-USD']!.filter((f) => f[1] === 'BUY');
    expect(buys.length).toBeLessThanOrEqual(4000);
    expect(many.byMarket['BTC-USD']!.length).toBeLessThanOrEqual(8000);
    expect(many.total).toBe(30_000);
    // The outlier survives thinning; markers stay in time order.
    expect(buys.some((f) => f[2] === '1')).toBe(true);
    const times = many.byMarket['BTC-USD']!.map((f) => f[0]);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(await renderReportHtml(buildReport(input))).toContain(`${many.drawn.toLocaleString('en-US')} of our 30,000 fills drawn`);
  });
});

describe('the hold series', () => {
  it('follows the equity points the thinning kept, with null where the start had no value', () => {
    const input = workedExample();
    // 3,000 points, thinned to about 100: the equity keeps each bucket's extremes, the hold line the same times.
    input.equity = Array.from({ length: 3000 }, (_, i) => ({ at: T0 + i * 1000, equity: String(1000 + Math.sin(i / 7) * 50), positions: {}, ...(i % 2 ? { hold: String(1000 - i) } : {}) }));
    const s = reportSeries(input, 100);
    expect(s.equity.length).toBeLessThan(120);
    expect(s.hold.map(([at]) => at)).toEqual(s.equity.map(([at]) => at));
    for (const [at, v] of s.hold) {
      const i = (at - T0) / 1000;
      expect(v).toBe(i % 2 ? String(1000 - i) : null);
    }
  });
});

describe('report.html', () => {
  it('is one page with uPlot and the data inlined and no external resource', async () => {
    const html = await renderReportHtml(buildReport(workedExample()));
    expect(html).toContain('id="report-data"');
    expect(html).toContain('uPlot');
    expect(html).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
    expect(html).not.toMatch(/url\(\s*['"]?https?:/i);
    expect(html).not.toMatch(/@import/i);
    for (const text of ['Equity', 'Fill-model band', 'pessimistic', 'Assumptions', 'MAX_POSITION', '4.79000000', 'win rate']) expect(html).toContain(text);
  });

  it('says why each ratio shown as – is left out, and what each order count counts', async () => {
    // The worked example runs 10 days: Sharpe and Sortino are shown (240 hourly returns), CAGR and Calmar are not.
    const html = await renderReportHtml(buildReport(workedExample()));
    expect(html).toContain('<li>CAGR (total, BTC-USD): needs a run of at least 30 days');
    expect(html).toContain('<li>Calmar (total, BTC-USD): needs a CAGR (see CAGR)</li>');
    // ETH-BTC is quoted in BTC: every ratio of it, for that reason
    expect(html).toContain('<li>return, CAGR, Sharpe, Sortino, Calmar (ETH-BTC): quoted in BTC, not USD: no exchange rate is assumed</li>');
    expect(html).not.toMatch(/<li>Sharpe[^<]*\(total/);
    expect(html).toContain('<th>partially filled</th>');
    expect(html).toContain('They add up to placed.');
    expect(html).toContain('<tr><td>BTC-USD</td><td>7</td><td>3</td><td>1</td><td>1</td><td>1</td><td>1</td><td>66.7 %</td></tr>');
  });

  it('escapes what it shows', async () => {
    const input = workedExample();
    input.name = '<script>alert(1)</script>';
    input.assumptions = ['a </script> b'];
    const html = await renderReportHtml(buildReport(input));
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;script&gt;alert(1)');
  });
});
