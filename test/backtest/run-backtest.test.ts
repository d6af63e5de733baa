/**
 * `runBacktest` end to end: a bot config file (venue kind backtest) with real recorded data through the readers,
 * or synthetic L2 events, through the same Kernel as `rexbot run` (sync, stores, strategies, risk, orders) over
 * the backtest venue, into a ReportInput.
 *
 * Proved here: the same config and data give the same report JSON twice; a strategy never observes an event
 * stamped after the virtual now (and sees exactly the recorded book as of now minus the market-data latency);
 * nothing on the path reads real time; parameter overrides reach the strategy and a bad one is a clear error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { computeMetrics } from '../../backtest/report/metrics.js';
import { renderReportHtml } from '../../backtest/report/report-html.js';
import { buildReport } from '../../backtest/report/report-json.js';
import { runBacktest } from '../../backtest/run-backtest.js';
import { runSession } from '../../backtest/run/backtest-session.js';
import { RecordedBook } from '../../backtest/venue/recorded-book.js';
import { loadBotConfig } from '../../src/runtime/bot-config.js';
import { guardRealTime } from '../helpers/real-time-guard.js';
import { repoPath } from '../helpers/shared.js';
import type { ProbeRecord } from './fixtures/lookahead-probe.js';
import { memoryReader, syntheticEvents } from './synthetic-events.js';

const T0 = Date.parse('2024-03-01T00:00:00Z');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Write a bot config into a temp dir; returns its path. */
function configFile(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-bt-test-'));
  dirs.push(dir);
  const file = join(dir, 'backtest.yaml');
  writeFileSync(file, yaml);
  return file;
}

const RECORDING = repoPath('backtest', 'data', 'bittrex-v3-2021-06-14.jsonl.gz');

const recordingConfig = () =>
  configFile(`
bot: { name: recording }
venue:
  kind: backtest
  data:
    - format: rexbot
      path: ${JSON.stringify(RECORDING)}
      markets: [BTC-EUR]
  balances: { EUR: 100000, BTC: 1 }
  latency: { marketData: 3, orderEntry: 5, cancel: 5 }
strategies:
  - name: mm
    use: market-maker
    markets: [BTC-EUR]
    params: { spread: 0.0002, levels: 2, levelSpacing: 0.0001, size: 0.002 }
`);

const syntheticConfig = (extra = '') =>
  configFile(`
bot: { name: synthetic }
venue:
  kind: backtest
  data: [{ format: rexbot, path: unused-readers-given }]
  balances: { USD: 1000000, BTC: 10 }
  latency: { marketData: 2, orderEntry: { kind: lognormal, median: 4, sigma: 0.5, seed: 7 }, cancel: 3 }
  equityIntervalMs: 10000
${extra}
strategies:
  - name: mm
    use: market-maker
    markets: [BTC-USD]
    params: { spread: 0.0001, levels: 2, levelSpacing: 0.00005, size: 0.01, throttleMs: 200 }
`);

const synthetic = (count: number, seed = 1) => memoryReader(() => syntheticEvents({ seed, count, start: T0 }));

describe('runBacktest', () => {
  it('runs the shipped recording through the readers and the kernel; the same config gives the same report twice', async () => {
    const file = recordingConfig();
    const a = await runBacktest({ configPath: file });
    const b = await runBacktest({ configPath: file });
    expect(a.stats.events).toBe(186);
    expect(a.report.orders.length).toBeGreaterThan(10);
    expect(a.report.assumptions.length).toBeGreaterThan(10);
    expect(JSON.stringify(b.report)).toBe(JSON.stringify(a.report));
  });

  it('runs Tardis-style L2 CSV (the same 2021 capture, gzipped) through its reader: the book the strategy sees is the recording', async () => {
    const probe = repoPath('test', 'backtest', 'fixtures', 'parity-probe.ts');
    const tardis = repoPath('test', 'fixtures', 'backtest-readers', 'bittrex_incremental_book_L2_2021-06-14_BTC-EUR.csv.gz');
    const file = configFile(`
venue:
  kind: backtest
  data: [{ format: tardis, path: ${JSON.stringify(tardis)} }]
  balances: { EUR: 100000, BTC: 1 }
strategies:
  - { name: probe, use: ${JSON.stringify(probe)}, markets: [BTC-EUR], params: { tag: tardis } }
`);
    const { stats, report } = await runBacktest({ configPath: file });
    expect(stats.events).toBeGreaterThan(100);
    const seen = (globalThis as { __parity?: Record<string, { states: string[]; intents: string[] }> }).__parity!.tardis!;
    expect(seen.states.length).toBeGreaterThan(50);
    expect(seen.intents.length).toBeGreaterThan(0);
    // Its bid far below the market is what the risk engine's price band is for.
    expect(report.denials).toEqual({ PRICE_BAND: seen.intents.length });
    // The raw hub capture it was converted from, through its own reader: the strategy sees the same books.
    const raw = configFile(`
venue:
  kind: backtest
  data:
    - { format: bittrex-v3-ws, path: ${JSON.stringify(repoPath('test', 'fixtures', 'v3-replay', 'BITTREX.http.0.0'))}, markets: [BTC-EUR] }
    - { format: bittrex-v3-ws, path: ${JSON.stringify(repoPath('test', 'fixtures', 'v3-capture', 'BITTREX.ws.1.0'))}, markets: [BTC-EUR] }
  balances: { EUR: 100000, BTC: 1 }
strategies:
  - { name: probe, use: ${JSON.stringify(probe)}, markets: [BTC-EUR], params: { tag: raw } }
`);
    await runBacktest({ configPath: raw });
    const rawSeen = (globalThis as { __parity?: Record<string, { states: string[] }> }).__parity!.raw!;
    expect(seen.states).toEqual(rawSeen.states);
  });

  it('trades the market maker on a synthetic L2 market: fills happen, and the report is byte-identical twice', async () => {
    const file = syntheticConfig();
    const a = await runBacktest({ configPath: file, readers: [synthetic(20_000)] });
    const b = await runBacktest({ configPath: file, readers: [synthetic(20_000)] });
    expect(a.report.fills.length).toBeGreaterThan(10);
    expect(a.report.fills.some((f) => !f.isTaker)).toBe(true);
    // Fills are stamped when they happened at the venue: a resting order's on the recorded events' 10 ms grid, not
    // 2 ms later; a taker's (an order that crossed when it arrived) when its order reached the venue.
    expect(a.report.fills.filter((f) => !f.isTaker).every((f) => (f.at - T0) % 10 === 0)).toBe(true);
    expect(a.report.equity.length).toBeGreaterThan(10);
    expect(JSON.stringify(b.report)).toBe(JSON.stringify(a.report));
    // Another market path gives another run.
    const c = await runBacktest({ configPath: file, readers: [synthetic(20_000, 2)] });
    expect(JSON.stringify(c.report.fills)).not.toBe(JSON.stringify(a.report.fills));
  });

  it('several markets in one run, merged by time: the market maker trades both', async () => {
    const file = configFile(`
venue:
  kind: backtest
  data: [{ format: rexbot, path: unused }]
  balances: { USD: 1000000, BTC: 10, ETH: 100 }
strategies:
  - name: mm
    use: market-maker
    markets: [BTC-USD, ETH-USD]
    params: { spread: 0.0001, levels: 1, size: 0.01, throttleMs: 200 }
`);
    const readers = [
      memoryReader(() => syntheticEvents({ seed: 1, count: 8_000, start: T0, stepMs: 10, market: 'BTC-USD' })),
      memoryReader(() => syntheticEvents({ seed: 2, count: 8_000, start: T0 + 5, stepMs: 10, market: 'ETH-USD' })),
    ];
    const { report, stats } = await runBacktest({ configPath: file, readers });
    expect(stats.events).toBe(16_000);
    expect(report.markets).toEqual(['BTC-USD', 'ETH-USD']);
    const perMarket = (m: string) => report.fills.filter((f) => f.marketSymbol === m).length;
    expect(perMarket('BTC-USD')).toBeGreaterThan(0);
    expect(perMarket('ETH-USD')).toBeGreaterThan(0);
    expect(Object.keys(report.equity[report.equity.length - 1]!.positions)).toEqual(['BTC-USD', 'ETH-USD']);
  });

  it('the report agrees with the engine: final balances = initial + fills, to the last 1e-8', async () => {
    const { report } = await runBacktest({ configPath: syntheticConfig(), readers: [synthetic(20_000)] });
    let usd = 1_000_000;
    let btc = 10;
    // Sums in integer units of 1e-8 so no float rounding hides a difference.
    const u = (s: string) => BigInt(s.replace('.', ''));
    let usdU = u('1000000.00000000');
    let btcU = u('10.00000000');
    for (const f of report.fills) {
      const quote = (u(f.quantity) * u(f.rate)) / 100_000_000n; // floor8(quantity × rate)
      if (f.direction === 'BUY') {
        usdU -= quote + u(f.commission);
        btcU += u(f.quantity);
      } else {
        usdU += quote - u(f.commission);
        btcU -= u(f.quantity);
      }
    }
    usd = Number(usdU);
    btc = Number(btcU);
    expect(report.finalBalances).toEqual({ BTC: fmt(BigInt(btc)), USD: fmt(BigInt(usd)) });
  });

  it('reads the run against holding: an idle strategy earns exactly what its starting balances do; the market maker earns that plus its market PnL', async () => {
    const idleFile = configFile(`
bot: { name: idle }
venue:
  kind: backtest
  data: [{ format: rexbot, path: unused-readers-given }]
  balances: { USD: 1000000, BTC: 10 }
  equityIntervalMs: 10000
strategies:
  - { name: idle, use: ${JSON.stringify(repoPath('test', 'backtest', 'fixtures', 'idle-strategy.ts'))}, markets: [BTC-USD] }
`);
    const idle = computeMetrics((await runBacktest({ configPath: idleFile, readers: [synthetic(20_000)] })).report).total;
    expect(idle.fills).toBe(0);
    // The 10 BTC moved with the market: the whole net PnL is holding them, nothing is left for trading.
    expect(idle.netPnl).not.toBe('0.00000000');
    expect(idle.holdPnl).toBe(idle.netPnl);
    expect(idle.holdReturn).toBe(idle.return);
    expect(idle.netPnlVsHold).toBe('0.00000000');

    const { report } = await runBacktest({ configPath: syntheticConfig(), readers: [synthetic(20_000)] });
    const mm = computeMetrics(report);
    expect(mm.total.fills).toBeGreaterThan(0);
    // Same data, same starting balances: the same holding line.
    expect(mm.total.holdPnl).toBe(idle.holdPnl);
    // Net PnL = holding + what trading the one market made (its fills' cash flow and position at the last price),
    // each side rounded to 1e-8 once. The first fills come before the first 10 s equity sample: the total's curve
    // must start before them (it once started at that sample and left ~58 USD of them out of the total).
    expect(report.fills[0]!.at).toBeLessThan(report.from + 10_000);
    const trading = Number(mm.total.netPnlVsHold);
    expect(Math.abs(trading - Number(mm.markets['BTC-USD']!.netPnl))).toBeLessThanOrEqual(2e-8);
    expect(Number(mm.total.netPnl)).toBeCloseTo(Number(mm.total.holdPnl) + trading, 8);
    // A starting holding no market of the run can value (ETH here): no hold line and no holding metrics, said
    // as unknown, and the run is otherwise the same.
    const noEth = computeMetrics((await runBacktest({ configPath: idleFile, readers: [synthetic(2_000)], params: { 'venue.balances.ETH': 5 } })).report).total;
    expect([noEth.holdPnl, noEth.netPnlVsHold]).toEqual([null, null]);
    // The page draws the hold line on the equity's time axis.
    const series = buildReport(report).series;
    expect(series.hold.map(([at]) => at)).toEqual(series.equity.map(([at]) => at));
    expect(series.hold.every(([, v]) => v !== null)).toBe(true);
  });

  it('no look-ahead: the strategy never sees a trade stamped after now minus the latency, and sees exactly the recorded book of that moment', async () => {
    const probe = repoPath('test', 'backtest', 'fixtures', 'lookahead-probe.ts');
    const file = configFile(`
venue:
  kind: backtest
  data: [{ format: rexbot, path: unused }]
  balances: { USD: 1000 }
  latency: { marketData: 5 }
strategies:
  - { name: probe, use: ${JSON.stringify(probe)}, markets: [BTC-USD], params: { lag: 5 } }
`);
    const events = [...syntheticEvents({ seed: 3, count: 3_000, start: T0 })];
    await runBacktest({ configPath: file, readers: [memoryReader(() => events)] });
    const record = (globalThis as { __lookaheadProbe?: ProbeRecord }).__lookaheadProbe!;
    expect(record.trades).toBeGreaterThan(100);
    expect(record.violations).toEqual([]);
    // Replay the recording and compare each book the strategy saw with the recorded book at now - 5 ms.
    const book = new RecordedBook();
    let i = 0;
    let checked = 0;
    for (const [now, bid, ask] of record.seen) {
      while (i < events.length && events[i]!.at <= now - 5) {
        const e = events[i++]!;
        if (e.kind === 'snapshot') book.reset(e.bid, e.ask);
        else if (e.kind === 'orderBookDelta') book.apply(e.bidDeltas, e.askDeltas);
      }
      expect([now, bid, ask]).toEqual([now, book.bid.best()?.rate.toFixed() ?? '-', book.ask.best()?.rate.toFixed() ?? '-']);
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('uses no real time: no timer and no wall-clock read from src/, strategies/ or the backtest venue during a run', async () => {
    const config = loadBotConfig(syntheticConfig());
    const guard = guardRealTime({ alsoWatch: ['backtest/venue', 'backtest/run', 'backtest/readers'] });
    let fills: number;
    try {
      const { report } = await runSession({ config: config as Parameters<typeof runSession>[0]['config'], readers: [synthetic(5_000)] });
      fills = report.fills.length;
    } finally {
      guard.restore();
    }
    expect(guard.calls).toEqual([]);
    expect(fills).toBeGreaterThan(0);
  });

  it('params: a bare name reaches every strategy that takes it, a dotted path any config value; a bad one is a clear error', async () => {
    const file = syntheticConfig();
    const base = await runBacktest({ configPath: file, readers: [synthetic(3_000)] });
    const wide = await runBacktest({ configPath: file, readers: [synthetic(3_000)], params: { spread: '0.01', 'venue.latency.cancel': 10 } });
    const limit = (r: typeof base) => r.report.orders.find((o) => o.direction === 'BUY')!.limit;
    expect(Number(limit(wide))).toBeLessThan(Number(limit(base)) - 100);
    expect(wide.report.params).toEqual({ spread: '0.01', 'venue.latency.cancel': 10 });
    await expect(runBacktest({ configPath: file, readers: [synthetic(10)], params: { sprd: 1 } })).rejects.toThrow(/no strategy takes a param "sprd"/);
    await expect(runBacktest({ configPath: file, readers: [synthetic(10)], params: { spread: 'wide' } })).rejects.toThrow(/spread/);
    await expect(runBacktest({ configPath: file, readers: [synthetic(10)], params: { 'venue.latency.cancel': -1 } })).rejects.toThrow(/venue\.latency\.cancel/);
    await expect(runBacktest({ configPath: file, readers: [synthetic(10)], queueModel: 'magic' })).rejects.toThrow(/unknown queue model "magic"/);
    // A path through __proto__ would set a value on Object.prototype for the rest of the process (a worker's
    // every later job): refused, and nothing leaks.
    await expect(runBacktest({ configPath: file, readers: [synthetic(10)], params: { '__proto__.polluted': 1 } })).rejects.toThrow(/"__proto__" cannot be a step/);
    await expect(runBacktest({ configPath: file, readers: [synthetic(10)], params: { 'venue.constructor.polluted': 1 } })).rejects.toThrow(/"constructor" cannot be a step/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a strategy that failed is in the report (json and page) with its phase and cause; the others traded on', async () => {
    const file = configFile(`
bot: { name: failing }
venue:
  kind: backtest
  data: [{ format: rexbot, path: unused-readers-given }]
  balances: { USD: 1000000, BTC: 10 }
strategies:
  - { name: mm, use: market-maker, markets: [BTC-USD], params: { spread: 0.0001, levels: 1, size: 0.01 } }
  - { name: broken, use: ${JSON.stringify(repoPath('test', 'fixtures', 'strategies', 'throws-in-setup.ts'))}, markets: [BTC-USD] }
`);
    const { report } = await runBacktest({ configPath: file, readers: [synthetic(2_000)] });
    expect(report.strategyFailures).toEqual([{ strategy: 'broken', phase: 'setup', message: "strategy 'broken' failed during setup: setup exploded: no pricing model configured" }]);
    expect(report.orders.length).toBeGreaterThan(0);
    const page = await renderReportHtml(buildReport(report));
    expect(page).toContain('Strategy failures');
    expect(page).toContain('setup exploded: no pricing model configured');
    // A run where nothing failed says nothing of failures.
    const { report: clean } = await runBacktest({ configPath: syntheticConfig(), readers: [synthetic(500)] });
    expect(clean.strategyFailures).toBeUndefined();
    expect(buildReport(clean).strategyFailures).toBeUndefined();
  });

  it('a run with overrides reads the config as a run without: ${VAR} from the environment, errors at their line', async () => {
    process.env.REXBOT_TEST_BOT_NAME = 'from-env';
    try {
      const file = configFile(`
bot: { name: "\${REXBOT_TEST_BOT_NAME}" }
venue:
  kind: backtest
  data: [{ format: rexbot, path: unused-readers-given }]
  balances: { USD: 1000000, BTC: 10 }
strategies:
  - { name: mm, use: market-maker, markets: [BTC-USD], params: { spread: 0.0001, levels: 1, size: 0.01 } }
`);
      const { report } = await runBacktest({ configPath: file, readers: [synthetic(300)], params: { spread: '0.0002' } });
      expect(report.name).toBe('from-env');
      await expect(runBacktest({ configPath: file, readers: [synthetic(10)], params: { 'venue.latency.cancel': -1 } })).rejects.toThrow(/backtest\.yaml:\d+:\d+ venue\.latency\.cancel/);
    } finally {
      delete process.env.REXBOT_TEST_BOT_NAME;
    }
  });

  it('data with no events, or none in the window, is an error that says so, not an empty report', async () => {
    await expect(runBacktest({ configPath: syntheticConfig(), readers: [memoryReader(() => [])] })).rejects.toThrow(/the data holds no events for BTC-USD/);
    const late = syntheticConfig(`  from: ${new Date(T0 + 365 * 86_400_000).toISOString()}`);
    await expect(runBacktest({ configPath: late, readers: [synthetic(100)] })).rejects.toThrow(/no events for BTC-USD from \d{4}-/);
  });

  it('a time far off in the data stops the run with what and when (it used to sample equity until memory ran out)', async () => {
    const events = [...syntheticEvents({ seed: 1, count: 200, start: T0 })];
    const last = events[events.length - 1]!;
    // One event stamped 250 years later, as a corrupt line would be.
    events.push({ ...last, at: last.at + 250 * 31_557_600_000 } as typeof last);
    await expect(runBacktest({ configPath: syntheticConfig(), readers: [memoryReader(() => events)] })).rejects.toThrow(
      /an event at \d{4}-\S+ is 250\.0 years after the run's start .*equity samples at one every 10000 ms/,
    );
    // So does a window whose end is that far off.
    const far = syntheticConfig(`  to: ${new Date(T0 + 250 * 31_557_600_000).toISOString()}`);
    await expect(runBacktest({ configPath: far, readers: [synthetic(200)] })).rejects.toThrow(/the window's end at .* years after the run's start/);
  });
});

/** Units of 1e-8 as an 8-decimal string. */
function fmt(units: bigint): string {
  const neg = units < 0n;
  const s = (neg ? -units : units).toString().padStart(9, '0');
  return `${neg ? '-' : ''}${s.slice(0, -8)}.${s.slice(-8)}`;
}
