import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { Candle } from '../../../src/model/market.js';
import { DAY, HOUR, MIN, T0, refusal, setup } from './harness.js';

const row = (c: Candle) => [
  c.startsAt.toISOString().slice(11, 19),
  String(c.open),
  String(c.high),
  String(c.low),
  String(c.close),
  String(c.volume),
  String(c.quoteVolume),
];

describe('TRADE candles', () => {
  it('aggregates trades per aligned interval and omits intervals without trades', async () => {
    const { md, clock, trade } = setup();
    await clock.advance(10_000);
    trade('BTC-USD', ['100', '1']);
    await clock.advanceTo(T0 + 50_000);
    trade('BTC-USD', ['110', '1']);
    await clock.advanceTo(T0 + MIN); // exactly on the boundary: belongs to the next candle
    trade('BTC-USD', ['90', '2']);
    await clock.advanceTo(T0 + 5 * MIN + 1000);
    trade('BTC-USD', ['95', '1'], ['96', '1']);

    expect(md.candles('BTC-USD', 'TRADE', 'MINUTE_1').data.map(row)).toEqual([
      ['00:00:00', '100', '110', '100', '110', '2', '210'],
      ['00:01:00', '90', '90', '90', '90', '2', '180'],
      ['00:05:00', '95', '96', '95', '96', '2', '191'],
    ]);
    expect(md.candles('BTC-USD', 'TRADE', 'MINUTE_5').data.map(row)).toEqual([
      ['00:00:00', '100', '110', '90', '90', '4', '390'],
      ['00:05:00', '95', '96', '95', '96', '2', '191'],
    ]);
    expect(md.candles('BTC-USD', 'TRADE', 'HOUR_1').data.map(row)).toEqual([['00:00:00', '100', '110', '90', '96', '6', '581']]);
    expect(md.candles('BTC-USD', 'TRADE', 'DAY_1').data.map(row)).toEqual([['00:00:00', '100', '110', '90', '96', '6', '581']]);
    expect(md.candles('BTC-USD', 'MIDPOINT', 'MINUTE_1').data).toEqual([]);
    expect(md.candles('ETH-USD', 'TRADE', 'MINUTE_1')).toEqual({ data: [], sequence: 0 });
  });

  it('publishes a candle message per trade batch with the sequence the snapshot reports', async () => {
    const { md, trade, of } = setup();
    trade('BTC-USD', ['100', '1']);
    trade('BTC-USD', ['101', '1']);
    const m1 = of('candle').filter((e) => e.interval === 'MINUTE_1' && e.candleType === 'TRADE');
    expect(m1.map((e) => e.sequence)).toEqual([1, 2]);
    expect(row(m1[1]!.delta)).toEqual(['00:00:00', '100', '101', '100', '101', '2', '201']);
    expect(md.candles('BTC-USD', 'TRADE', 'MINUTE_1').sequence).toBe(2);
    expect(md.candles('BTC-USD', 'TRADE', 'DAY_1').sequence).toBe(2);
    expect(md.candles('BTC-USD', 'MIDPOINT', 'MINUTE_1').sequence).toBe(0);
  });
});

describe('MIDPOINT candles', () => {
  it('follow the midpoint of best bid and ask with zero volume; a new candle opens at the prevailing midpoint', async () => {
    const { md, clock, of } = setup();
    await clock.advance(10_000);
    md.updateTop('BTC-USD', dec('99'), dec('101')); // 100
    await clock.advance(10_000);
    md.updateTop('BTC-USD', dec('101'), dec('103')); // 102
    md.updateTop('BTC-USD', dec('100'), dec('104')); // still 102: no candle change
    await clock.advanceTo(T0 + 70_000);
    md.updateTop('BTC-USD', dec('100'), dec('102')); // 101, new minute opening at 102
    await clock.advanceTo(T0 + 3 * MIN);
    md.updateTop('BTC-USD', undefined, dec('102')); // one-sided: no midpoint
    await clock.advanceTo(T0 + 4 * MIN);
    md.updateTop('BTC-USD', dec('96'), dec('98')); // 97, opens at 97 since no midpoint prevailed

    expect(md.candles('BTC-USD', 'MIDPOINT', 'MINUTE_1').data.map(row)).toEqual([
      ['00:00:00', '100', '102', '100', '102', '0', '0'],
      ['00:01:00', '102', '102', '101', '101', '0', '0'],
      ['00:04:00', '97', '97', '97', '97', '0', '0'],
    ]);
    expect(md.candles('BTC-USD', 'MIDPOINT', 'MINUTE_5').data.map(row)).toEqual([['00:00:00', '100', '102', '97', '97', '0', '0']]);
    expect(md.candles('BTC-USD', 'TRADE', 'MINUTE_1').data).toEqual([]);
    const updates = of('candle').filter((e) => e.candleType === 'MIDPOINT' && e.interval === 'MINUTE_5');
    expect(updates.map((e) => String(e.delta.close))).toEqual(['100', '102', '101', '97']);
  });
});

describe('candle events at interval starts', () => {
  it('sends a 0-volume placeholder at the previous close at each start, only for series with activity', async () => {
    const { md, clock, trade, of } = setup();
    await clock.advance(10_000);
    trade('BTC-USD', ['100', '1'], ['110', '1']);
    const before = of('candle').length;
    await clock.advanceTo(T0 + 3 * MIN);
    const starts = of('candle').slice(before);
    // MINUTE_1 at 00:01, 00:02, 00:03 for BTC-USD TRADE only (no midpoint activity, no other market).
    expect(starts.map((e) => [e.marketSymbol, e.candleType, e.interval, e.sequence])).toEqual([
      ['BTC-USD', 'TRADE', 'MINUTE_1', 2],
      ['BTC-USD', 'TRADE', 'MINUTE_1', 3],
      ['BTC-USD', 'TRADE', 'MINUTE_1', 4],
    ]);
    expect(row(starts[0]!.delta)).toEqual(['00:01:00', '110', '110', '110', '110', '0', '0']);
    expect(row(starts[2]!.delta)).toEqual(['00:03:00', '110', '110', '110', '110', '0', '0']);
    // REST keeps omitting the empty intervals, but reports the stream's sequence.
    const snap = md.candles('BTC-USD', 'TRADE', 'MINUTE_1');
    expect(snap.data.map(row)).toEqual([['00:00:00', '100', '110', '100', '110', '2', '210']]);
    expect(snap.sequence).toBe(4);

    await clock.advanceTo(T0 + 5 * MIN);
    const m5 = of('candle').filter((e) => e.interval === 'MINUTE_5');
    expect(m5.map((e) => [e.delta.startsAt.toISOString().slice(11, 19), e.sequence])).toEqual([
      ['00:00:00', 1],
      ['00:05:00', 2],
    ]);
  });

  it('carries the real candle at the start when a trade already opened it, and sequences stay contiguous', async () => {
    const { clock, trade, of } = setup();
    trade('ETH-BTC', ['0.06', '1']);
    await clock.advanceTo(T0 + MIN - 1);
    trade('ETH-BTC', ['0.07', '1']);
    await clock.advanceTo(T0 + 2 * MIN);
    trade('ETH-BTC', ['0.05', '1']); // same instant as the boundary timer, which already fired
    await clock.advanceTo(T0 + HOUR + MIN);
    const m1 = of('candle').filter((e) => e.interval === 'MINUTE_1' && e.candleType === 'TRADE');
    expect(m1.map((e) => e.sequence)).toEqual(m1.map((_, i) => i + 1));
    const at2 = m1.filter((e) => e.delta.startsAt.getTime() === T0 + 2 * MIN);
    expect(at2.map((e) => [String(e.delta.close), String(e.delta.volume)])).toEqual([
      ['0.07', '0'],
      ['0.05', '1'],
    ]);
    const h1 = of('candle').filter((e) => e.interval === 'HOUR_1');
    expect(h1.map((e) => e.delta.startsAt.getTime())).toEqual([T0, T0, T0, T0 + HOUR]);
    expect(String(h1[3]!.delta.open)).toBe('0.05');
  });

  it('sends placeholders for MIDPOINT series too, at the last midpoint', async () => {
    const { md, clock, of } = setup();
    md.updateTop('ETH-USD', dec('10'), dec('12'));
    await clock.advanceTo(T0 + MIN);
    const mid = of('candle').filter((e) => e.candleType === 'MIDPOINT' && e.interval === 'MINUTE_1');
    expect(mid.map((e) => [e.delta.startsAt.getTime(), String(e.delta.close), e.sequence])).toEqual([
      [T0, '11', 1],
      [T0 + MIN, '11', 2],
    ]);
  });
});

describe('retention and recent windows', () => {
  it('recent answers the seed window per interval and memory stays bounded', async () => {
    const { md, clock, trade } = setup();
    // One trade every 10 minutes for 3 days.
    for (let i = 0; i < 3 * 144; i++) {
      trade('BTC-USD', [String(100 + (i % 7)), '1']);
      await clock.advance(10 * MIN);
    }
    // Now T0 + 3 days; the window's 1440 minute slots end with the current (still empty) minute, so the last
    // day's trades from T0 + 2d + 10min to T0 + 3d - 10min are in: 143 candles.
    const now = clock.now();
    const m1 = md.candles('BTC-USD', 'TRADE', 'MINUTE_1').data;
    expect(m1).toHaveLength(143);
    expect(m1[0]!.startsAt.getTime()).toBe(now - DAY + 10 * MIN);
    expect(md.candles('BTC-USD', 'TRADE', 'MINUTE_5').data).toHaveLength(143);
    expect(md.candles('BTC-USD', 'TRADE', 'HOUR_1').data).toHaveLength(72);
    expect(md.candles('BTC-USD', 'TRADE', 'DAY_1').data).toHaveLength(3);
  });

  it('HOUR_1 keeps 31 days and DAY_1 366 days', async () => {
    const { md, clock, trade } = setup();
    for (let d = 0; d < 400; d++) {
      trade('BTC-USD', ['100', '1']);
      // Jump without firing every minute timer on the way (they catch up at the next advance, as late timers).
      clock.set(clock.now() + DAY);
    }
    await clock.advance(0);
    trade('BTC-USD', ['100', '1']);
    expect(md.candles('BTC-USD', 'TRADE', 'HOUR_1').data).toHaveLength(31);
    expect(md.candles('BTC-USD', 'TRADE', 'DAY_1').data).toHaveLength(366);
    expect(md.candles('BTC-USD', 'TRADE', 'MINUTE_1').data).toHaveLength(1);
  });
});

describe('historical candles', () => {
  it('answers one day for MINUTE_*, one month for HOUR_1 and one year for DAY_1', async () => {
    const { md, clock, trade } = setup({ candleRetentionMs: { MINUTE_1: 3 * DAY, HOUR_1: 62 * DAY } });
    for (let h = 0; h < 50; h++) {
      trade('BTC-USD', [String(100 + h), '1']);
      await clock.advance(HOUR);
    }
    // 2021-06-14 and 2021-06-15 have 24 trades each, 2021-06-16 two.
    expect(md.historicalCandles('BTC-USD', 'TRADE', 'MINUTE_1', 2021, 6, 14)).toHaveLength(24);
    const d15 = md.historicalCandles('BTC-USD', 'TRADE', 'MINUTE_1', 2021, 6, 15);
    expect(d15).toHaveLength(24);
    expect(d15[0]!.startsAt.toISOString()).toBe('2021-06-15T00:00:00.000Z');
    expect(String(d15[0]!.open)).toBe('124');
    expect(md.historicalCandles('BTC-USD', 'TRADE', 'MINUTE_5', 2021, 6, 16)).toHaveLength(2);
    expect(md.historicalCandles('BTC-USD', 'TRADE', 'HOUR_1', 2021, 6)).toHaveLength(50);
    expect(md.historicalCandles('BTC-USD', 'TRADE', 'HOUR_1', 2021, 5)).toHaveLength(0);
    expect(md.historicalCandles('BTC-USD', 'TRADE', 'DAY_1', 2021).map((c) => c.startsAt.toISOString().slice(0, 10))).toEqual([
      '2021-06-14',
      '2021-06-15',
      '2021-06-16',
    ]);
    // MINUTE_5 keeps only the seed's day: the 14th is gone, the 15th partly.
    expect(md.historicalCandles('BTC-USD', 'TRADE', 'MINUTE_5', 2021, 6, 14)).toHaveLength(0);
  });

  it('refuses missing or invalid date portions with 400 BAD_REQUEST naming the parameter', () => {
    const { md } = setup();
    const noMonth = refusal(() => md.historicalCandles('BTC-USD', 'TRADE', 'HOUR_1', 2021));
    expect([noMonth.status, noMonth.code, noMonth.data]).toEqual([400, 'BAD_REQUEST', { invalidRequestParameters: ['month'] }]);
    expect(refusal(() => md.historicalCandles('BTC-USD', 'TRADE', 'MINUTE_1', 2021, 6)).data).toEqual({ invalidRequestParameters: ['day'] });
    expect(refusal(() => md.historicalCandles('BTC-USD', 'TRADE', 'MINUTE_1', 2021, 6, 31)).code).toBe('BAD_REQUEST');
    expect(refusal(() => md.historicalCandles('BTC-USD', 'TRADE', 'HOUR_1', 2021, 13)).code).toBe('BAD_REQUEST');
    expect(md.historicalCandles('BTC-USD', 'TRADE', 'MINUTE_1', 2020, 2, 29)).toEqual([]); // leap day is valid
  });
});
