/**
 * Equity never silently drops what it cannot value (issue 14, item 2): a realized gain in BTC (on ETH-BTC) is
 * worth USD through the BTC-USD mark; when the BTC-USD bids empty, the gain is valued at the last BTC-USD mark
 * seen, equity is marked stale (gauge 1, staleness$), and no drawdown is invented.
 */
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { EquityValuation } from '../../src/portfolio/portfolio.js';
import { RiskEngine } from '../../src/risk/risk-engine.js';
import { createMetrics } from '../../src/telemetry/metrics.js';
import { config, fixture, lvl } from './fixture.js';

describe('equity with a missing conversion mark', () => {
  it('values a BTC gain at the last BTC-USD mark when the bids empty: no phantom drawdown, stale in metrics', async () => {
    const fx = fixture();
    const metrics = createMetrics();
    const seen: EquityValuation[] = [];
    fx.portfolio.staleness$.subscribe((v) => seen.push(v));
    const engine = new RiskEngine(config({ maxDrawdown: dec('1000') }), fx.ctx, metrics);
    fx.fill('BUY', '10', '0.05', { market: 'ETH-BTC' });
    fx.fill('SELL', '10', '0.06', { market: 'ETH-BTC' }); // +0.1 BTC realized = 3000 USD at mid 30000
    engine.refresh();
    expect(fx.portfolio.lastValuation).toEqual({ equity: dec('3000'), stale: [], unvalued: [] });

    fx.book('BTC-USD', [], [lvl('1', '30010')]); // no bid: no mid
    engine.refresh();
    expect(engine.state).toBe('ACTIVE');
    expect(fx.portfolio.lastValuation).toEqual({ equity: dec('3000'), stale: ['BTC'], unvalued: [] });
    expect(await metrics.text()).toContain('rexbot_equity_stale 1');
    expect(seen.map((v) => v.stale)).toEqual([['BTC']]);

    fx.book('BTC-USD', [lvl('1', '31990')], [lvl('1', '32010')]);
    engine.refresh();
    expect(fx.portfolio.lastValuation).toEqual({ equity: dec('3200'), stale: [], unvalued: [] });
    expect(await metrics.text()).toContain('rexbot_equity_stale 0');
    expect(seen.map((v) => v.stale)).toEqual([['BTC'], []]);
    engine.close();
  });

  it('an amount no rate has ever valued holds the limits back instead of counting as zero', () => {
    const fx = fixture();
    fx.store.resetBook('BTC-USD', 25, { bid: [], ask: [] }, 99);
    const engine = new RiskEngine(config({ maxDrawdown: dec('1') }), fx.ctx);
    fx.fill('BUY', '10', '0.06', { market: 'ETH-BTC', commission: '0.01' });
    fx.fill('SELL', '10', '0.05', { market: 'ETH-BTC' }); // -0.11 BTC, no BTC-USD rate ever seen
    engine.refresh();
    expect(fx.portfolio.lastValuation.unvalued).toEqual(['BTC']);
    expect(engine.state).toBe('ACTIVE');
    engine.close();
  });

  it('an open position whose own market has no mark is valued at its last fill rate, and said to be stale', () => {
    const fx = fixture();
    fx.fill('BUY', '1', '30000');
    fx.book('BTC-USD', [], []);
    expect(fx.portfolio.valueEquity((m) => fx.store.bestBid(m) && fx.store.bestAsk(m) ? dec('1') : undefined)).toEqual({ equity: dec('0'), stale: ['BTC'], unvalued: [] });
  });
});
