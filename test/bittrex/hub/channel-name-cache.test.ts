/**
 * channelName.orderBook and channelName.trade answer from the last name made and from per-market maps before
 * building a string; whatever the order of calls, the answer must be the name built from scratch.
 */
import { describe, expect, it } from 'vitest';
import { channelName } from '../../../src/bittrex/hub/channels.js';
import type { OrderBookDepth } from '../../../src/model/index.js';
import { Prng } from '../../sync/prng.js';

describe('channelName caches', () => {
  it('name every book and trade channel as the template would, over random call orders and odd values', () => {
    // First calls of this module instance: nothing named yet, so nothing may be answered from the last name.
    expect(channelName.trade(undefined as unknown as string)).toBe('trade_undefined');
    expect(channelName.orderBook(undefined as unknown as string, 0 as OrderBookDepth)).toBe('orderbook_undefined_0');
    const rnd = new Prng(11);
    // Odd values too (what a malformed message could carry): they must not hit another value's name.
    const markets: unknown[] = ['BTC-USD', 'ETH-BTC', 'BTC-USD ', '', undefined, 'undefined', 0, '0'];
    const depths: unknown[] = [1, 25, 500, '25', 0, -0, Number.NaN, undefined, 7];
    for (let i = 0; i < 20_000; i++) {
      const m = rnd.chance(0.8) ? rnd.pick(markets.slice(0, 2)) : rnd.pick(markets);
      const d = rnd.chance(0.8) ? rnd.pick(depths.slice(0, 3)) : rnd.pick(depths);
      if (rnd.chance(0.5)) expect(channelName.orderBook(m as string, d as OrderBookDepth)).toBe(`orderbook_${m}_${d}`);
      else expect(channelName.trade(m as string)).toBe(`trade_${m}`);
    }
  });
});
