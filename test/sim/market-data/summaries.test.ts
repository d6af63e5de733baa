import { describe, expect, it, vi } from 'vitest';
import { RollingSummary } from '../../../src/sim/market-data/rolling-summary.js';
import { DAY, HOUR, T0, plain, setup } from './harness.js';

const str = (s: { high: unknown; low: unknown; volume: unknown; quoteVolume: unknown; percentChange?: unknown }) => ({
  high: String(s.high),
  low: String(s.low),
  volume: String(s.volume),
  quoteVolume: String(s.quoteVolume),
  percentChange: s.percentChange === undefined ? undefined : String(s.percentChange),
});

describe('24-hour summaries', () => {
  it('is zero (and has no percentChange) without trades', () => {
    const { md } = setup();
    const s = md.summary('BTC-USD');
    expect(str(s)).toEqual({ high: '0', low: '0', volume: '0', quoteVolume: '0', percentChange: undefined });
    expect(s.updatedAt.getTime()).toBe(T0);
    expect(md.summaries().data.map((x) => x.symbol)).toContain('BTC-USD');
  });

  it('aggregates high, low, base and quote volume, and percent change from the first trade of the window', async () => {
    const { md, clock, trade } = setup();
    trade('BTC-USD', ['100', '1'], ['110', '2']);
    await clock.advance(HOUR);
    trade('BTC-USD', ['90', '0.5']);
    await clock.advance(HOUR);
    trade('BTC-USD', ['105', '1']);
    const s = md.summary('BTC-USD');
    // quote = 100 + 220 + 45 + 105; change = (105 - 100) / 100
    expect(str(s)).toEqual({ high: '110', low: '90', volume: '4.5', quoteVolume: '470', percentChange: '5' });
    expect(s.updatedAt.getTime()).toBe(T0 + 2 * HOUR);
  });

  it('rolls: trades leave the window 24 h later (one-second resolution) and high/low follow', async () => {
    const { md, clock, trade } = setup();
    trade('BTC-USD', ['200', '1']); // the high, at T0
    await clock.advance(HOUR);
    trade('BTC-USD', ['50', '1']); // the low, at T0 + 1h
    await clock.advance(HOUR);
    trade('BTC-USD', ['100', '1']);
    await clock.advanceTo(T0 + DAY);
    expect(str(md.summary('BTC-USD')).high).toBe('200');
    await clock.advanceTo(T0 + DAY + 1000);
    expect(str(md.summary('BTC-USD'))).toEqual({ high: '100', low: '50', volume: '2', quoteVolume: '150', percentChange: '100' });
    await clock.advanceTo(T0 + DAY + HOUR + 1000);
    expect(str(md.summary('BTC-USD'))).toEqual({ high: '100', low: '100', volume: '1', quoteVolume: '100', percentChange: '0' });
    await clock.advanceTo(T0 + DAY + 2 * HOUR + 1000);
    expect(str(md.summary('BTC-USD'))).toEqual({ high: '0', low: '0', volume: '0', quoteVolume: '0', percentChange: undefined });
  });

  it('publishes marketSummary and sequenced marketSummaries once per tick, and when trades expire', async () => {
    const { md, clock, trade, of } = setup();
    trade('BTC-USD', ['100', '1']);
    trade('BTC-USD', ['101', '1']);
    trade('ETH-USD', ['10', '1']);
    expect(of('marketSummaries')).toHaveLength(0); // coalesced until the end of the tick
    expect(md.summaries().sequence).toBe(0);
    await clock.advance(0);
    const batch = of('marketSummaries');
    expect(batch).toHaveLength(1);
    expect(batch[0]!.sequence).toBe(1);
    expect(batch[0]!.deltas.map((d) => [d.symbol, String(d.volume)])).toEqual([
      ['BTC-USD', '2'],
      ['ETH-USD', '1'],
    ]);
    expect(of('marketSummary').map((e) => e.delta.symbol)).toEqual(['BTC-USD', 'ETH-USD']);
    expect(md.summaries().sequence).toBe(1);

    await clock.advanceTo(T0 + DAY + 1000);
    const expired = of('marketSummaries');
    expect(expired.map((e) => e.sequence)).toEqual([1, 2]);
    expect(expired[1]!.deltas.map((d) => [d.symbol, String(d.volume), String(d.high)])).toEqual([
      ['BTC-USD', '0', '0'],
      ['ETH-USD', '0', '0'],
    ]);
    // Nothing left to expire: no more messages however long the market stays quiet.
    await clock.advance(3 * DAY);
    expect(of('marketSummaries')).toHaveLength(2);
  });

  it('flush() publishes pending summaries without advancing time', () => {
    const { md, trade, of } = setup();
    trade('ETH-BTC', ['0.06', '1']);
    md.flush();
    expect(of('marketSummaries').map((e) => e.sequence)).toEqual([1]);
    md.flush();
    expect(of('marketSummaries')).toHaveLength(1);
  });
});

describe('24-hour summaries without a listener for them', () => {
  /** A market-data service whose only listener (a hub bridge with no summary subscriber, say) declines summaries. */
  const unheard = () => setup({}, T0, (kind) => kind !== 'marketSummary' && kind !== 'marketSummaries');

  it('builds none per tick, yet numbers each tick and answers REST as with one (expiry included)', async () => {
    const heard = setup();
    const quiet = unheard();
    const snapshot = vi.spyOn(RollingSummary.prototype, 'snapshot');
    try {
      heard.trade('BTC-USD', ['100', '1']);
      quiet.trade('BTC-USD', ['100', '1']);
      heard.trade('BTC-USD', ['101', '1']);
      quiet.trade('BTC-USD', ['101', '1']);
      snapshot.mockClear();
      await quiet.clock.advance(0);
      expect(snapshot).not.toHaveBeenCalled();
      expect(quiet.events.some((e) => e.kind === 'marketSummary' || e.kind === 'marketSummaries')).toBe(false);
      await heard.clock.advance(0);
      expect(snapshot).toHaveBeenCalled();
      expect(quiet.md.summaries().sequence).toBe(heard.md.summaries().sequence);
      expect(plain(quiet.md.summary('BTC-USD'))).toEqual(plain(heard.md.summary('BTC-USD')));
      // The trades leave the window: a change numbered like any other, still without a summary built for nobody.
      snapshot.mockClear();
      await quiet.clock.advanceTo(T0 + DAY + 1000);
      expect(snapshot).not.toHaveBeenCalled();
      await heard.clock.advanceTo(T0 + DAY + 1000);
      expect(quiet.md.summaries().sequence).toBe(heard.md.summaries().sequence);
      expect(quiet.md.summaries().sequence).toBe(2);
      expect(plain(quiet.md.summary('BTC-USD'))).toEqual(plain(heard.md.summary('BTC-USD')));
    } finally {
      snapshot.mockRestore();
    }
  });
});
