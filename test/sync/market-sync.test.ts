/** MarketSync routes every market-data message to its synchronizer or straight to the store. */
import { describe, expect, it } from 'vitest';
import { VirtualClock, flushMicrotasks } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import { decodeStreamMessage } from '../../src/bittrex/hub/messages.js';
import type { Candle, Ticker, Trade } from '../../src/model/index.js';
import { MarketStore } from '../../src/store/market-store.js';
import { MarketSync, type ChannelSyncStatus, type MarketSnapshotSource } from '../../src/sync/market-sync.js';

const T = '2021-06-14T01:54:00Z';
const tickerJson = (symbol: string, bid: string) => ({ symbol, lastTradeRate: bid, bidRate: bid, askRate: '999' });

describe('MarketSync', () => {
  function setup() {
    const clock = new VirtualClock(0);
    const store = new MarketStore();
    const asked: string[] = [];
    const snapshots: MarketSnapshotSource = {
      orderBook: async (m, d) => (asked.push(`book ${m} ${d}`), { data: { bid: [{ quantity: dec('1'), rate: dec('10') }], ask: [] }, sequence: 5 }),
      tickers: async () => (asked.push('tickers'), { data: [] as Ticker[], sequence: 20 }),
      marketSummaries: async () => (asked.push('summaries'), { data: [], sequence: 3 }),
      trades: async (m) => (asked.push(`trades ${m}`), { data: [] as Trade[], sequence: 9 }),
      candles: async (m, i) => (asked.push(`candles ${m} ${i}`), { data: [] as Candle[], sequence: 4 }),
    };
    const sync = new MarketSync({ store, snapshots, clock });
    const statuses: ChannelSyncStatus[] = [];
    sync.status$.subscribe((s) => statuses.push(s));
    return { clock, store, sync, asked, statuses };
  }

  it('creates a synchronizer per channel on first sight and keeps the store in step', async () => {
    const t = setup();
    // First sight of each channel, with the snapshot's own sequence: queued, then dropped by rule (e).
    const candleJson = (close: string) => ({ startsAt: T, open: '1', high: '2', low: '1', close, volume: '0', quoteVolume: '0' });
    t.sync.route(decodeStreamMessage('orderBook', { marketSymbol: 'A-B', depth: 25, sequence: 5, bidDeltas: [{ quantity: '1', rate: '10' }], askDeltas: [] }));
    t.sync.route(decodeStreamMessage('tickers', { sequence: 20, deltas: [tickerJson('A-B', '10')] }));
    t.sync.route(decodeStreamMessage('trade', { sequence: 9, marketSymbol: 'A-B', deltas: [] }));
    t.sync.route(decodeStreamMessage('candle', { sequence: 4, marketSymbol: 'A-B', interval: 'MINUTE_5', delta: candleJson('1') }));
    t.sync.route(decodeStreamMessage('marketSummaries', { sequence: 3, deltas: [] }));
    await flushMicrotasks();
    expect(t.asked.sort()).toEqual(['book A-B 25', 'candles A-B MINUTE_5', 'summaries', 'tickers', 'trades A-B']);
    expect(t.statuses.filter((s) => s.status.state === 'live').map((s) => s.channel).sort()).toEqual([
      'candle_A-B_MINUTE_5',
      'market_summaries',
      'orderbook_A-B_25',
      'tickers',
      'trade_A-B',
    ]);
    // Then the next message of each stream is applied.
    t.sync.route(decodeStreamMessage('orderBook', { marketSymbol: 'A-B', depth: 25, sequence: 6, bidDeltas: [{ quantity: '2', rate: '11' }], askDeltas: [] }));
    t.sync.route(decodeStreamMessage('tickers', { sequence: 21, deltas: [tickerJson('A-B', '11')] }));
    t.sync.route(decodeStreamMessage('trade', { sequence: 10, marketSymbol: 'A-B', deltas: [{ id: 't1', executedAt: T, quantity: '1', rate: '11', takerSide: 'BUY' }] }));
    t.sync.route(decodeStreamMessage('candle', { sequence: 5, marketSymbol: 'A-B', interval: 'MINUTE_5', delta: candleJson('1.5') }));
    t.sync.route(decodeStreamMessage('marketSummaries', { sequence: 4, deltas: [{ symbol: 'A-B', high: '2', low: '1', volume: '3', quoteVolume: '4', updatedAt: T }] }));
    expect(t.store.bestBid('A-B')?.rate.toString()).toBe('11');
    expect(t.store.ticker('A-B')?.bidRate.toString()).toBe('11');
    expect(t.store.trades('A-B').map((x) => x.id)).toEqual(['t1']);
    expect(t.store.candles('A-B', 'MINUTE_5').map((c) => c.close.toString())).toEqual(['1.5']);
    expect(t.store.summary('A-B')?.quoteVolume.toString()).toBe('4');
    expect(t.statuses.filter((s) => s.status.state === 'resyncing')).toEqual([]);
  });

  it('writes unsequenced ticker and marketSummary messages straight to the store', () => {
    const t = setup();
    expect(t.sync.route(decodeStreamMessage('ticker', tickerJson('C-D', '5')))).toBe(true);
    expect(t.sync.route(decodeStreamMessage('marketSummary', { symbol: 'C-D', high: '2', low: '1', volume: '3', quoteVolume: '4', updatedAt: T }))).toBe(true);
    expect(t.store.ticker('C-D')?.bidRate.toString()).toBe('5');
    expect(t.store.summary('C-D')?.high.toString()).toBe('2');
    expect(t.asked).toEqual([]);
    expect(t.sync.route(decodeStreamMessage('heartbeat', undefined))).toBe(false);
  });

  it('keeps depths apart (rule 1: sequences differ per depth) and resyncs all on reconnect', async () => {
    const t = setup();
    t.sync.orderBook('A-B', 1);
    t.sync.orderBook('A-B', 500);
    await flushMicrotasks();
    expect(t.asked).toEqual(['book A-B 1', 'book A-B 500']);
    t.sync.reconnect();
    expect(t.sync.orderBook('A-B', 1).status).toEqual({ state: 'resyncing', reason: 'reconnect' });
    await flushMicrotasks();
    expect(t.asked).toHaveLength(4);
    t.sync.stop();
  });
});
