import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { refusal, setup } from './harness.js';

describe('recent trades', () => {
  it('answers newest first with the trade stream sequence, bounded to the limit', () => {
    const { md, trade, of } = setup({ recentTradesLimit: 3 });
    expect(md.trades('BTC-USD')).toEqual({ data: [], sequence: 0 });
    const a = trade('BTC-USD', ['100', '1'], ['101', '2']);
    const b = trade('BTC-USD', ['102', '1']);
    const c = trade('BTC-USD', ['103', '1']);
    const snap = md.trades('BTC-USD');
    expect(snap.sequence).toBe(3);
    expect(snap.data.map((t) => t.id)).toEqual([c[0]!.id, b[0]!.id, a[1]!.id]);
    const msgs = of('trade');
    expect(msgs.map((m) => m.sequence)).toEqual([1, 2, 3]);
    expect(msgs[0]!.deltas.map((t) => t.id)).toEqual(a.map((t) => t.id));
    expect(msgs.every((m) => m.marketSymbol === 'BTC-USD')).toBe(true);
  });

  it('keeps only the limit in memory across many trades', () => {
    const { md, trade } = setup({ recentTradesLimit: 100 });
    for (let i = 0; i < 1000; i++) trade('ETH-BTC', [`0.0${(i % 9) + 1}`, '1']);
    expect(md.trades('ETH-BTC').data).toHaveLength(100);
    expect(md.trades('ETH-BTC').sequence).toBe(1000);
  });

  it('has independent sequences per market and canonical symbols', () => {
    const { md, trade } = setup();
    trade('btc-usd', ['100', '1']);
    expect(md.trades('ETH-USD').sequence).toBe(0);
    expect(md.trades('BTC-USD').sequence).toBe(1);
  });

  it('refuses unknown and reversed markets with the catalog codes', () => {
    const { md } = setup();
    const reversed = refusal(() => md.recordTrades('USD-BTC', []));
    expect([reversed.status, reversed.code]).toEqual([400, 'MARKET_NAME_REVERSED']);
    const unknown = refusal(() => md.ticker('FOO-BAR'));
    expect([unknown.status, unknown.code]).toEqual([404, 'MARKET_DOES_NOT_EXIST']);
    expect(refusal(() => md.candles('FOO-BAR', 'TRADE', 'MINUTE_1')).code).toBe('MARKET_DOES_NOT_EXIST');
  });
});

describe('tickers', () => {
  it('answers zeros before any trade or book', () => {
    const { md } = setup();
    const t = md.ticker('BTC-USD');
    expect([t.symbol, t.lastTradeRate.toString(), t.bidRate.toString(), t.askRate.toString()]).toEqual(['BTC-USD', '0', '0', '0']);
    const all = md.tickers();
    expect(all.sequence).toBe(0);
    expect(all.data.map((x) => x.symbol)).toContain('ETH-BTC');
    expect(all.data.length).toBeGreaterThan(5);
  });

  it('follows the last trade and the best bid/ask, publishing ticker and sequenced tickers on each change', () => {
    const { md, trade, of } = setup();
    md.updateTop('BTC-USD', dec('99'), dec('101'));
    trade('BTC-USD', ['101', '1']);
    md.updateTop('BTC-USD', dec('99'), undefined);
    md.updateTop('BTC-USD', dec('99'), undefined); // no change, no message
    trade('BTC-USD', ['101', '0.5']); // same last rate, no ticker change
    const t = md.ticker('BTC-USD');
    expect([t.lastTradeRate.toString(), t.bidRate.toString(), t.askRate.toString()]).toEqual(['101', '99', '0']);
    const ticks = of('ticker').map((e) => [e.delta.lastTradeRate.toString(), e.delta.bidRate.toString(), e.delta.askRate.toString()]);
    expect(ticks).toEqual([
      ['0', '99', '101'],
      ['101', '99', '101'],
      ['101', '99', '0'],
    ]);
    const seqs = of('tickers').map((e) => e.sequence);
    expect(seqs).toEqual([1, 2, 3]);
    expect(md.tickers().sequence).toBe(3);
    expect(md.lastTradeRate('BTC-USD')?.toString()).toBe('101');
    expect(md.lastTradeRate('ETH-USD')).toBeUndefined();
  });
});
