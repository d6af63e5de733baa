import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { dec } from '../../../src/core/decimal.js';
import { AccountVolumeTracker, VOLUME_WINDOW_MS, usdRatesFromBtcReference } from '../../../src/sim/accounts/account-volume.js';
import { Permissions } from '../../../src/sim/accounts/permissions.js';
import { tradingFee, tradingFees } from '../../../src/sim/accounts/trading-fees.js';
import { Catalog } from '../../../src/sim/catalog.js';
import { defaultSimConfig } from '../../../src/sim/config.js';
import { refusal } from '../sim-fixture.js';

describe('Permissions', () => {
  const catalog = new Catalog(defaultSimConfig());

  it('allows every listed market and currency by default', () => {
    const p = new Permissions(catalog);
    const markets = p.marketPolicies('a');
    expect(markets.map((m) => m.symbol)).toEqual(catalog.markets().map((m) => m.symbol));
    expect(markets.every((m) => m.view && m.buy && m.sell)).toBe(true);
    expect(p.currencyPolicy('a', 'btc')).toEqual({
      symbol: 'BTC',
      view: true,
      deposit: { blockchain: true, creditCard: false, wireTransfer: false },
      withdraw: { blockchain: true, wireTransfer: false },
    });
    expect(p.currencyPolicy('a', 'USD').withdraw).toEqual({ blockchain: false, wireTransfer: true });
    expect(p.currencyPolicies('a')).toHaveLength(catalog.currencies().length);
  });

  it('answers the catalog refusals for unknown or reversed symbols', () => {
    const p = new Permissions(catalog);
    expect(refusal(() => p.marketPolicy('a', 'NOPE-USD')).code).toBe('MARKET_DOES_NOT_EXIST');
    expect(refusal(() => p.marketPolicy('a', 'USD-BTC')).code).toBe('MARKET_NAME_REVERSED');
    expect(refusal(() => p.currencyPolicy('a', 'NOPE')).status).toBe(404);
  });

  it('restricts one account without touching others', () => {
    const p = new Permissions(catalog);
    p.setMarketPolicy('a', 'btc-usd', { buy: false });
    p.setCurrencyPolicy('a', 'ETH', { withdraw: { blockchain: false } });
    expect(p.marketPolicy('a', 'BTC-USD')).toEqual({ symbol: 'BTC-USD', view: true, buy: false, sell: true });
    expect(p.canTrade('a', 'BTC-USD', 'BUY')).toBe(false);
    expect(p.canTrade('a', 'BTC-USD', 'SELL')).toBe(true);
    expect(p.marketPolicy('b', 'BTC-USD').buy).toBe(true);
    expect(p.currencyPolicy('a', 'ETH').withdraw).toEqual({ blockchain: false });
    expect(p.currencyPolicy('b', 'ETH').withdraw.blockchain).toBe(true);
  });
});

describe('trading fees', () => {
  it('answers the catalog rates: market override or the exchange default', () => {
    const cfg = defaultSimConfig();
    cfg.markets[0] = { ...cfg.markets[0]!, makerFee: dec('0.001'), takerFee: dec('0.002') };
    const catalog = new Catalog(cfg);
    const all = tradingFees(catalog);
    expect(all).toHaveLength(cfg.markets.length);
    const own = tradingFee(catalog, cfg.markets[0]!.symbol.toLowerCase());
    expect(own.marketSymbol).toBe(cfg.markets[0]!.symbol);
    expect([own.makerRate.toString(), own.takerRate.toString()]).toEqual(['0.001', '0.002']);
    const other = all.find((f) => f.marketSymbol === 'ETH-BTC')!;
    expect([other.makerRate.toString(), other.takerRate.toString()]).toEqual(['0.0035', '0.0035']);
    expect(refusal(() => tradingFee(catalog, 'NOPE-BTC')).code).toBe('MARKET_DOES_NOT_EXIST');
  });
});

describe('AccountVolumeTracker', () => {
  const rates = usdRatesFromBtcReference(defaultSimConfig().btcReferenceRates);

  it('values fills in USD at the time they happen and sums the last 30 days', async () => {
    const clock = new VirtualClock(Date.parse('2021-06-14T00:00:00Z'));
    const v = new AccountVolumeTracker(clock, rates);
    v.record('a', dec('100'), 'USD');
    v.record('a', dec('0.01'), 'BTC'); // 0.01 BTC = 0.01 / 0.000025 = 400 USD
    v.record('b', dec('5'), 'USD');
    expect(v.volume('a').volume30days.toString()).toBe('500');
    expect(v.volume('a').updated.getTime()).toBe(clock.now());
    expect(v.volume('b').volume30days.toString()).toBe('5');
    expect(v.volume('nobody').volume30days.toString()).toBe('0');
    await clock.advance(10 * 24 * 3600_000);
    v.record('a', dec('1'), 'USD');
    await clock.advance(VOLUME_WINDOW_MS - 10 * 24 * 3600_000); // the first two are now exactly 30 days old
    expect(v.volume('a').volume30days.toString()).toBe('1');
    await clock.advance(10 * 24 * 3600_000);
    expect(v.volume('a').volume30days.toString()).toBe('0');
  });

  it('sums fills per clock minute, so a busy account keeps one bucket per minute, and counts a bucket while its newest fill is inside the window', async () => {
    const t0 = Date.parse('2021-06-14T00:00:00Z');
    const clock = new VirtualClock(t0);
    const v = new AccountVolumeTracker(clock, rates);
    for (let i = 0; i < 600; i++) v.record('a', dec('0.5'), 'USD', t0 + i * 100); // 600 fills in the first minute
    v.record('a', dec('7'), 'USD', t0 + 60_000); // the next minute
    await clock.advance(60_000);
    expect(v.volume('a').volume30days.toString()).toBe('307');
    expect(v.bucketCount('a')).toBe(2);
    await clock.advance(VOLUME_WINDOW_MS - 60_000 + 1_000); // the first fill is 30 days old, the bucket's newest is not
    expect(v.volume('a').volume30days.toString()).toBe('307');
    await clock.advance(58_900); // now the first minute's newest fill (t0 + 59.9 s) is 30 days old too
    expect(v.volume('a').volume30days.toString()).toBe('7');
    expect(v.bucketCount('a')).toBe(1);
  });

  it('ignores currencies without a rate and non-positive amounts; the rate source is replaceable', () => {
    const clock = new VirtualClock(0);
    const v = new AccountVolumeTracker(clock, rates);
    v.record('a', dec('10'), 'NOPE');
    v.record('a', dec('0'), 'USD');
    v.record('a', dec('2'), 'USD', new Date(clock.now() - VOLUME_WINDOW_MS)); // already outside the window
    expect(v.volume('a').volume30days.toString()).toBe('0');
    v.setRateSource((c) => (c === 'USDT' ? dec('0.5') : undefined));
    v.record('a', dec('10'), 'usdt');
    expect(v.volume('a').volume30days.toString()).toBe('5');
  });

  it('derives USD rates from BTC reference values', () => {
    expect(rates('USD')!.toString()).toBe('1');
    expect(rates('ETH')!.toString()).toBe('2500');
    expect(usdRatesFromBtcReference(undefined)('BTC')).toBeUndefined();
  });
});
