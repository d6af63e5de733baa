/**
 * Both directions of the mapping agree: seeded random v3 values shown in v1.1 form and read back keep everything
 * v1.1 can carry, and the v1.1 wire text (`stringifyV1` → `parseV1Json` → decoders) loses nothing on the way.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/core/prng.js';
import { dec, type Decimal } from '../../../src/core/decimal.js';
import type { Order } from '../../../src/model/order.js';
import type { Withdrawal } from '../../../src/model/wallet.js';
import { WITHDRAWAL_STATUSES } from '../../../src/model/enums.js';
import {
  decodeV1Order, decodeV1WithdrawalHistoryEntry, orderFromV1, orderToV1, parseV1Json, stringifyV1, withdrawalFromV1,
  withdrawalToV1,
} from '../../../src/wire/v1/index.js';

const rand = mulberry32(0xb11);
const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
const amount = (): Decimal => dec(`${int(0, 99999)}.${String(int(0, 99_999_999)).padStart(8, '0')}`);
const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;
const ms = () => Date.UTC(2021, 0, 1) + int(0, 1e10);

function randomOrder(i: number): Order {
  const quantity = amount().plus(dec('0.00000001'));
  const fill = quantity.times(int(0, 100)).div(100).toDecimalPlaces(8);
  const closed = rand() < 0.5;
  const createdAt = new Date(ms());
  const o: Order = {
    id: `order-${i}`, marketSymbol: pick(['BTC-USD', 'ETH-BTC', 'LTC-USDT']), direction: pick(['BUY', 'SELL'] as const), type: 'LIMIT',
    timeInForce: pick(['GOOD_TIL_CANCELLED', 'IMMEDIATE_OR_CANCEL'] as const), quantity, limit: amount(), fillQuantity: fill,
    commission: amount(), proceeds: amount(), status: closed ? 'CLOSED' : 'OPEN', createdAt,
  };
  if (closed) o.closedAt = new Date(createdAt.getTime() + int(0, 1e6));
  return o;
}

describe('v1.1 ⇄ v3 round trips (seeded)', () => {
  it('orders: v3 → v1.1 text → v3 keeps id, market, side, type, time in force, amounts, status and times', () => {
    for (let i = 0; i < 500; i++) {
      const o = randomOrder(i);
      const text = stringifyV1(orderToV1(o));
      const back = orderFromV1(decodeV1Order(parseV1Json(text), '', 'roundtrip'));
      expect(back, text).toEqual(o);
    }
  });

  it('withdrawals: every status but NEW survives the four flags (NEW reads as REQUESTED)', () => {
    for (let i = 0; i < 200; i++) {
      const status = pick(WITHDRAWAL_STATUSES);
      const w: Withdrawal = {
        id: `w-${i}`, currencySymbol: pick(['BTC', 'ETH']), quantity: amount(), cryptoAddress: `addr${i}`, status,
        createdAt: new Date(ms()), txCost: amount(),
      };
      if (status === 'COMPLETED') w.txId = `tx${i}`;
      const back = withdrawalFromV1(decodeV1WithdrawalHistoryEntry(parseV1Json(stringifyV1(withdrawalToV1(w))), '', 'roundtrip'));
      expect(back).toEqual({ ...w, status: status === 'NEW' ? 'REQUESTED' : status });
    }
  });
});
