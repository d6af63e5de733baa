/**
 * A reversed market symbol on a hub Subscribe answers MARKET_NAME_REVERSED, as REST does for the same symbol
 * (issue 14, item 10): the simulator's hub asks the catalog, which knows `USD-BTC` is `BTC-USD` in quote-base
 * order; a market that is not listed either way stays MARKET_DOES_NOT_EXIST.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClassicClient } from './hub/hub-test-kit.js';
import { startFixture, type SimFixture } from './sim-fixture.js';

describe('hub Subscribe with a reversed symbol', () => {
  let fx: SimFixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => {
    await fx.close();
  });

  it('answers MARKET_NAME_REVERSED like REST, MARKET_DOES_NOT_EXIST for an unlisted market', async () => {
    const rest = await fx.raw('GET', '/markets/USD-BTC/ticker');
    expect([rest.status, rest.json?.code]).toEqual([400, 'MARKET_NAME_REVERSED']);
    const c = new RawClassicClient(fx.sim.hubUrl);
    await c.open();
    try {
      expect(await c.subscribe('ticker_USD-BTC', 'orderbook_usd-btc_25', 'ticker_NOPE-USD', 'ticker_BTC-USD')).toEqual([
        { Success: false, ErrorCode: 'MARKET_NAME_REVERSED' },
        { Success: false, ErrorCode: 'MARKET_NAME_REVERSED' },
        { Success: false, ErrorCode: 'MARKET_DOES_NOT_EXIST' },
        { Success: true, ErrorCode: null },
      ]);
    } finally {
      c.close();
    }
  });
});
