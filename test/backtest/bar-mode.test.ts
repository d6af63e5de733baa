/**
 * Bar-level backtests (candle data, no book): the documented intrabar path, the touch / trade-through limit rule,
 * marketable orders at the last close, and forming candles left alone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../backtest/run-backtest.js';
import { dec } from '../../src/core/decimal.js';
import type { MarketEvent } from '../../backtest/readers/reader.js';
import { intrabarPath } from '../../backtest/venue/bar-fills.js';
import { M, T0, venueHarness } from './venue-harness.js';

const MIN = 60_000;
/** A closed MINUTE_1 bar starting at T0 + i minutes (known at its end). */
const bar = (i: number, o: string, h: string, l: string, c: string, final = true): MarketEvent => ({
  kind: 'candle',
  at: T0 + (i + 1) * MIN,
  marketSymbol: M,
  interval: 'MINUTE_1',
  candle: { startsAt: new Date(T0 + i * MIN), open: dec(o), high: dec(h), low: dec(l), close: dec(c), volume: dec('10'), quoteVolume: dec('1000') },
  final,
  source: { file: 'bars', line: i + 1 },
});

describe('backtest bar mode', () => {
  it('the intrabar path: up bars go open-low-high-close, down bars open-high-low-close', () => {
    const p = (c: MarketEvent) => intrabarPath((c as Extract<MarketEvent, { kind: 'candle' }>).candle).map((x) => x.toFixed());
    expect(p(bar(0, '100', '110', '95', '105'))).toEqual(['100', '95', '110', '105']);
    expect(p(bar(0, '100', '110', '95', '97'))).toEqual(['100', '110', '95', '97']);
  });

  it('fills resting limits along the path, in path order, whole, at their limits as a maker', async () => {
    for (const [c, first] of [['105', 'BUY'], ['97', 'SELL']] as const) {
      const h = venueHarness();
      await h.play(bar(0, '100', '101', '99', '100'));
      const buy = h.limit('BUY', '96', '1');
      const sell = h.limit('SELL', '108', '1');
      await h.play(bar(1, '100', '110', '95', c));
      expect([h.filled(buy.id), h.filled(sell.id)]).toEqual(['1', '1']);
      const fills = h.engine.executions(h.account, { marketSymbol: M });
      // Newest first: the last fill is the other side.
      expect(fills.map((x) => `${x.rate.toFixed()} ${x.isTaker ? 'taker' : 'maker'}`).reverse()).toEqual(first === 'BUY' ? ['96 maker', '108 maker'] : ['108 maker', '96 maker']);
    }
  });

  it('two resting buys reached at one step fill best price first, each by its own fill', async () => {
    const h = venueHarness();
    await h.play(bar(0, '100', '101', '99', '100'));
    const low = h.limit('BUY', '96', '1');
    const high = h.limit('BUY', '98', '2');
    await h.play(bar(1, '100', '101', '90', '95'));
    expect([h.filled(low.id), h.filled(high.id)]).toEqual(['1', '2']);
    expect(h.venue.stats.mismatches).toBe(0);
  });

  it('touch fills a limit the path only reaches; trade-through needs the path beyond it', async () => {
    const run = async (rule: 'touch' | 'trade-through') => {
      const h = venueHarness({ barLimitFill: rule });
      await h.play(bar(0, '100', '101', '99', '100'));
      const buy = h.limit('BUY', '95', '1');
      await h.play(bar(1, '100', '110', '95', '105'));
      return h.filled(buy.id);
    };
    expect(await run('touch')).toBe('1');
    expect(await run('trade-through')).toBe('0');
  });

  it('an order marketable on arrival fills whole at the last close as a taker; forming candles fill nothing', async () => {
    const h = venueHarness();
    await h.play(bar(0, '100', '101', '99', '100.5'));
    const m = h.venue.placeOrder({ marketSymbol: M, direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('3') });
    expect(h.engine.orderExecutions(h.account, m.id).map((x) => `${x.quantity.toFixed()}@${x.rate.toFixed()} ${x.isTaker ? 'taker' : 'maker'}`)).toEqual(['3@100.5 taker']);
    const buy = h.limit('BUY', '99', '1');
    await h.play(bar(1, '100', '101', '90', '95', false));
    expect(h.filled(buy.id)).toBe('0');
    expect(h.engine.orderBook(M, 25).data.ask).toEqual([]);
  });
});

describe('backtest bar mode end to end', () => {
  it('a candle CSV through the candles-csv reader, the kernel and the moving-average crossover: it trades at the closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rexbot-bt-bars-'));
    try {
      let csv = 'time,open,high,low,close,volume\n';
      let prev = 100;
      for (let i = 0; i < 300; i++) {
        const c = 100 + 10 * Math.sin(i / 15);
        csv += `${new Date(T0 + i * MIN).toISOString()},${prev.toFixed(4)},${(Math.max(prev, c) + 0.5).toFixed(4)},${(Math.min(prev, c) - 0.5).toFixed(4)},${c.toFixed(4)},10\n`;
        prev = c;
      }
      writeFileSync(join(dir, 'bars.csv'), csv);
      writeFileSync(
        join(dir, 'bars.yaml'),
        `venue:
  kind: backtest
  data: [{ format: candles-csv, path: bars.csv, params: { market: ETH-USD, interval: MINUTE_1 } }]
  balances: { USD: 100000, ETH: 10 }
  fillModel: { barLimitFill: touch }
strategies:
  - { name: ma, use: ma-crossover, markets: [ETH-USD], params: { fast: 3, slow: 8, quantity: 1 } }
`,
      );
      const { report } = await runBacktest({ configPath: join(dir, 'bars.yaml') });
      expect(report.fills.length).toBeGreaterThan(2);
      expect(report.denials).toEqual({});
      // Each fill is at the close of the bar before it (the latest price known when the order arrived).
      const closes = new Map(csv.trim().split('\n').slice(1).map((l) => l.split(',')).map((f) => [Date.parse(f[0]!) + MIN, Number(f[4])]));
      for (const f of report.fills) expect({ at: f.at, rate: Number(f.rate), taker: f.isTaker }).toEqual({ at: f.at, rate: closes.get(f.at), taker: true });
      expect(report.assumptions.some((a) => a.includes('touches its price (touch rule)'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
