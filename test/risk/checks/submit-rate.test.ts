import { describe, expect, it } from 'vitest';
import { submitRateCheck } from '../../../src/risk/checks/submit-rate.js';
import { checkCtx, codes, config, fixture, order } from '../fixture.js';

describe('submit-rate check', () => {
  const cfg = config({ submitRate: { maxOrders: 2, windowMs: 1000 } });
  it('denies once the window holds maxOrders approvals (SUBMIT_RATE)', () => {
    const fx = fixture();
    expect(submitRateCheck.check(order(), checkCtx(fx, { approvalsInWindow: 1 }), cfg)).toEqual([]);
    expect(codes(submitRateCheck.check(order(), checkCtx(fx, { approvalsInWindow: 2 }), cfg))).toEqual(['SUBMIT_RATE']);
  });
});
