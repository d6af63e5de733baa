import { describe, expect, it } from 'vitest';
import { streamLiveCheck } from '../../../src/risk/checks/stream-live.js';
import { checkCtx, codes, config, fixture, order } from '../fixture.js';

describe('stream-live check', () => {
  it('denies while the market or account stream is not live (STREAM_NOT_LIVE), reducing orders too', () => {
    const fx = fixture();
    expect(streamLiveCheck.check(order(), checkCtx(fx), config())).toEqual([]);
    fx.notLive.add('BTC-USD');
    expect(codes(streamLiveCheck.check(order(), checkCtx(fx), config()))).toEqual(['STREAM_NOT_LIVE']);
    expect(codes(streamLiveCheck.check(order({ reducesPosition: true }), checkCtx(fx), config()))).toEqual(['STREAM_NOT_LIVE']);
    expect(streamLiveCheck.check(order({ marketSymbol: 'ETH-BTC' }), checkCtx(fx), config())).toEqual([]);
  });

  it('can be turned off', () => {
    const fx = fixture();
    fx.notLive.add('BTC-USD');
    expect(streamLiveCheck.check(order(), checkCtx(fx), config({ requireLiveStreams: false }))).toEqual([]);
  });
});
