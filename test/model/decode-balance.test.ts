/**
 * A balance from the venue is an amount it holds for us: never negative, never beyond any real amount. A hostile
 * venue's '-100' total or '1e400' available were accepted (over REST and the hub alike), and the risk engine's
 * balance check trusts these (found by an attack pass).
 */
import { describe, expect, it } from 'vitest';
import { decode } from '../../src/model/decode.js';
import { decodeBalance } from '../../src/model/wallet.js';

const balance = (total: unknown, available: unknown) => ({ currencySymbol: 'USD', total, available, updatedAt: '2021-06-14T00:00:00Z' });

describe('decodeBalance', () => {
  it('refuses a negative or out-of-range amount, naming the field', () => {
    expect(() => decode(decodeBalance, balance('-100', '0'), 'GET /balances')).toThrow(/total.*is negative: "-100"/);
    expect(() => decode(decodeBalance, balance('1', '1e400'), 'GET /balances')).toThrow(/available.*is out of range/);
    expect(decode(decodeBalance, balance('12.5', '0'), 'GET /balances').total.toString()).toBe('12.5');
  });
});
