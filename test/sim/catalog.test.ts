import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { Catalog } from '../../src/sim/catalog.js';
import { defaultSimConfig } from '../../src/sim/config.js';
import { refusal } from './sim-fixture.js';

describe('defaultSimConfig', () => {
  it('lists the recorded markets with their real precision and minTradeSize', () => {
    const cfg = defaultSimConfig();
    const btcUsd = cfg.markets.find((m) => m.symbol === 'BTC-USD');
    expect(btcUsd?.precision).toBe(3);
    expect(btcUsd?.minTradeSize.eq(dec('0.0000545'))).toBe(true);
    expect(cfg.fees.maker.eq(dec('0.0035'))).toBe(true);
    expect(cfg.currencies.find((c) => c.symbol === 'XRP')?.needsTag).toBe(true);
  });

  it('applies overrides and never shares mutable state between configs', () => {
    const a = defaultSimConfig({ maxOpenOrders: 3 });
    const b = defaultSimConfig();
    a.markets[0]!.status = 'OFFLINE';
    expect(a.maxOpenOrders).toBe(3);
    expect(b.markets[0]!.status).toBe('ONLINE');
  });
});

describe('Catalog', () => {
  const catalog = () => new Catalog(defaultSimConfig());

  it('finds markets and currencies case-insensitively', () => {
    expect(catalog().market('eth-btc').symbol).toBe('ETH-BTC');
    expect(catalog().currency('btc').symbol).toBe('BTC');
  });

  it('answers 404 MARKET_DOES_NOT_EXIST and 404 CURRENCY_DOES_NOT_EXIST', () => {
    expect(refusal(() => catalog().market('DOGE-BTC'))).toMatchObject({ status: 404, code: 'MARKET_DOES_NOT_EXIST' });
    expect(refusal(() => catalog().currency('DOGE'))).toMatchObject({ status: 404, code: 'CURRENCY_DOES_NOT_EXIST' });
  });

  it('answers 400 MARKET_NAME_REVERSED for a v1.1-order symbol', () => {
    expect(refusal(() => catalog().market('BTC-ETH'))).toMatchObject({ status: 400, code: 'MARKET_NAME_REVERSED' });
  });

  it('changes a market status and falls back to default fee rates', () => {
    const c = new Catalog(
      defaultSimConfig({
        markets: defaultSimConfig().markets.map((m) => (m.symbol === 'ETH-BTC' ? { ...m, takerFee: dec('0.002') } : m)),
      }),
    );
    c.setMarketStatus('BTC-USD', 'OFFLINE');
    expect(c.market('BTC-USD').status).toBe('OFFLINE');
    expect(c.feeRates('ETH-BTC').taker.eq(dec('0.002'))).toBe(true);
    expect(c.feeRates('ETH-BTC').maker.eq(dec('0.0035'))).toBe(true);
  });

  it('rejects a configuration whose market uses an unlisted currency', () => {
    const cfg = defaultSimConfig({ currencies: defaultSimConfig().currencies.filter((c) => c.symbol !== 'ADA') });
    expect(() => new Catalog(cfg)).toThrow(/unlisted currency ADA/);
  });
});
