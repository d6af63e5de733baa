/**
 * Failures are classified by where they happened (issue 9 item 4): only a request that may have reached the
 * server is ambiguous. One refused by the client's own validation, or that failed while being encoded or signed,
 * never left: it is refused — not retried, not looked up, never LOST.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { NetworkError, RequestNotSentError, TimeoutError, ValidationError } from '../../src/core/errors.js';
import { classifyFailure } from '../../src/orders/retry-policy.js';
import { type Harness, startHarness } from '../bittrex/rest/harness.js';

describe('classifyFailure', () => {
  const ref = { method: 'POST', path: '/v3/orders' };
  it('refuses what never left; only what may have reached the server is ambiguous', () => {
    expect(classifyFailure(new ValidationError('newOrder.direction', 'must be one of BUY, SELL, got "BYU"'))).toMatchObject({ kind: 'refused', code: 'VALIDATION' });
    expect(classifyFailure(new RequestNotSentError(ref, new TypeError('Do not know how to serialize a BigInt')))).toMatchObject({ kind: 'refused', code: 'NOT_SENT' });
    expect(classifyFailure(new NetworkError('ECONNREFUSED', { mayHaveReachedServer: false, request: ref }))).toMatchObject({ kind: 'notSent' });
    expect(classifyFailure(new NetworkError('ECONNRESET', { mayHaveReachedServer: true, request: ref }))).toMatchObject({ kind: 'ambiguous' });
    expect(classifyFailure(new TimeoutError('no answer', { timeoutMs: 1, request: ref }))).toMatchObject({ kind: 'ambiguous' });
    expect(classifyFailure(new Error('something below the gateway'))).toMatchObject({ kind: 'ambiguous' });
  });
});

describe('the REST client', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('a body that cannot be encoded fails with RequestNotSentError, and nothing reaches the server', async () => {
    const before = h.server.requests.length;
    const body = { currencySymbol: 'USD', quantity: dec('1'), cryptoAddress: 'addr', clientWithdrawalId: 'w1', memo: 10n };
    const err = await h.client.withdrawals.create(body as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestNotSentError);
    expect((err as RequestNotSentError).message).toMatch(/^POST \/v3\/withdrawals: not sent: .*BigInt/);
    expect(classifyFailure(err).kind).toBe('refused');
    expect(h.server.requests.length).toBe(before);
  });
});
