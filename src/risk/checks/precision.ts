/**
 * Precision: a limit price may have at most the market's `precision` decimals (the exchange refuses more with
 * RATE_PRECISION_NOT_ALLOWED); quantities and ceilings at most 8.
 *
 * With `precisionPolicy: 'round'` the order is corrected instead of denied:
 * - the limit towards the passive side — a bid down, an ask up — so rounding never makes an order more
 *   aggressive than the strategy asked for;
 * - quantity and ceiling down, so rounding never makes an order bigger.
 * An amount that rounds to zero is denied either way.
 */
import { Decimal } from '../../core/decimal.js';
import type { ProposedOrder, RiskReason } from '../../model/intent.js';
import { reason } from '../order-value.js';
import type { RiskCheck } from '../risk-context.js';

/** Decimals of base quantities and quote amounts on the wire. */
export const AMOUNT_DECIMALS = 8;

/** The amounts held to 8 decimals and the code of each (one list for every order, not one per check). */
const AMOUNT_FIELDS = [
  ['quantity', 'QUANTITY_PRECISION'],
  ['ceiling', 'CEILING_PRECISION'],
] as const;

/**
 * Rounds or denies over-precise limits (RATE_PRECISION), quantities (QUANTITY_PRECISION) and ceilings
 * (CEILING_PRECISION).
 *
 * @example
 * // BTC-USD has precision 3; policy 'round':
 * precisionCheck.check({ ...bid, limit: dec('100.12345') }, ctx, config); // { order: { ...bid, limit: 100.123 } }
 * precisionCheck.check({ ...ask, limit: dec('100.12345') }, ctx, config); // { order: { ...ask, limit: 100.124 } }
 */
export const precisionCheck: RiskCheck = {
  name: 'precision',
  check(order, ctx, config) {
    const market = ctx.market(order.marketSymbol);
    if (!market) return [];
    const round = config.precisionPolicy === 'round';
    const reasons: RiskReason[] = [];
    let out: ProposedOrder = order;

    if (order.limit && order.limit.decimalPlaces() > market.precision) {
      const mode = order.direction === 'BUY' ? Decimal.ROUND_DOWN : Decimal.ROUND_UP;
      const rounded = order.limit.toDecimalPlaces(market.precision, mode);
      if (!round || rounded.isZero()) {
        reasons.push(reason('RATE_PRECISION', `limit ${order.limit.toFixed()} has more than ${market.precision} decimals allowed on ${market.symbol}`));
      } else out = { ...out, limit: rounded };
    }
    for (const [field, code] of AMOUNT_FIELDS) {
      const value = order[field];
      if (!value || value.decimalPlaces() <= AMOUNT_DECIMALS) continue;
      const rounded = value.toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_DOWN);
      if (!round || rounded.isZero()) {
        reasons.push(reason(code, `${field} ${value.toFixed()} has more than ${AMOUNT_DECIMALS} decimals`));
      } else out = { ...out, [field]: rounded };
    }
    return out === order ? reasons : { order: out, reasons };
  },
};
