import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { defaultRiskConfig, limitFor, parseRiskConfig, riskConfigSchema } from '../../src/risk/risk-config.js';

describe('risk config', () => {
  it('fills in the documented defaults from an empty section', () => {
    const parsed = parseRiskConfig({});
    const defaults = defaultRiskConfig();
    expect(parsed.priceBand?.toString()).toBe('0.05');
    expect(parsed.commissionRate.toString()).toBe('0.0075');
    expect({ ...parsed, priceBand: undefined, commissionRate: undefined }).toEqual({ ...defaults, priceBand: undefined, commissionRate: undefined });
    expect(parseRiskConfig(undefined).maxOpenOrders).toBe(100);
  });

  it('parses decimals from numbers and strings exactly', () => {
    const c = parseRiskConfig({
      dailyLossLimit: '250.5',
      maxDrawdown: 1000,
      priceBand: 0.1,
      maxNotional: { default: '5000', markets: { 'ETH-BTC': '0.5' } },
      maxPosition: { markets: { 'BTC-USD': 2 } },
      onDailyLoss: 'HALTED',
      disabledChecks: ['dust'],
    });
    expect(c.dailyLossLimit?.toString()).toBe('250.5');
    expect(c.maxDrawdown?.toString()).toBe('1000');
    expect(c.priceBand?.toString()).toBe('0.1');
    expect(limitFor(c.maxNotional, 'ETH-BTC')?.toString()).toBe('0.5');
    expect(limitFor(c.maxNotional, 'BTC-USD')?.toString()).toBe('5000');
    expect(limitFor(c.maxPosition, 'BTC-USD')?.eq(dec(2))).toBe(true);
    expect(limitFor(c.maxPosition, 'ETH-BTC')).toBeUndefined();
    expect(c.onDailyLoss).toBe('HALTED');
  });

  it('switches the price band off with null', () => {
    expect(parseRiskConfig({ priceBand: null }).priceBand).toBeUndefined();
  });

  it('refuses bad values and unknown fields with the field path', () => {
    const r = riskConfigSchema.safeParse({ dailyLossLimit: '-5', priceBand: 'abc', maxOpenOrders: 0, onDailyLoss: 'PANIC', maxOpenOrder: 3, disabledChecks: ['nope'] });
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join('.')).sort();
    expect(paths).toEqual(['', 'dailyLossLimit', 'disabledChecks.0', 'maxOpenOrders', 'onDailyLoss', 'priceBand']);
    expect(r.error!.issues.find((i) => i.path[0] === 'dailyLossLimit')?.message).toContain('positive decimal');
  });
});
