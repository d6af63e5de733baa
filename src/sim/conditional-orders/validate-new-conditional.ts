/**
 * Checks of POST /conditional-orders that depend only on the request and the catalog (the pairing checks need
 * the engine's state and live in {@link ConditionalOrders}). Each refusal is the SimError the service answered;
 * where the seed names no code the choice is documented on the rule:
 *
 * | Rule | Status | Code |
 * |---|---|---|
 * | unknown market / reversed symbol | 404 / 400 | MARKET_DOES_NOT_EXIST / MARKET_NAME_REVERSED (catalog) |
 * | market OFFLINE | 503 | MARKET_OFFLINE — "temporarily unavailable", like CURRENCY_OFFLINE in the seed's table |
 * | operand not LTE/GTE; neither or both of triggerPrice and trailingStopPercent; triggerPrice <= 0; trailingStopPercent outside (0, 100); clientConditionalOrderId not a uuid | 400 | BAD_REQUEST with `data.invalidRequestParameters` (the simulator's generic malformed-parameter answer) |
 * | orderToCreate with POST_ONLY_GOOD_TIL_CANCELLED, clientOrderId, or useAwards: true (seed: not supported) | 400 | BAD_REQUEST naming `orderToCreate.<field>` |
 * | orderToCreate malformed: missing quantity/ceiling/limit, unknown direction/type/timeInForce, amount not positive or with more than 8 decimals | 400 | ORDER_TYPE_INVALID ("malformed order creation request") |
 * | orderToCreate MARKET or CEILING_MARKET with GOOD_TIL_CANCELLED | 400 | INVALID_MARKET_ORDER |
 * | orderToCreate with BUY_NOW / INSTANT, CEILING_LIMIT with GOOD_TIL_CANCELLED, or a field conflicting with its type (limit on a market order, quantity on a ceiling order, ...) | 400 | INVALID_ORDER_TYPE |
 * | orderToCreate quantity below minTradeSize (ceiling orders and the dust value need a price: checked on trigger) | 400 | MIN_TRADE_REQUIREMENT_NOT_MET |
 * | orderToCreate limit with more decimals than the market's precision | 400 | RATE_PRECISION_NOT_ALLOWED |
 * | orderToCancel.type not ORDER/CONDITIONAL_ORDER or no id | 400 | BAD_REQUEST naming the field |
 *
 * Balance and book-dependent rules (funds, dust value, fill-or-kill, post-only) are not checked: balance is not
 * reserved (seed) and those can only be decided when the order is placed on trigger, where a refusal sets
 * FAILED with its code as orderCreationErrorCode.
 */
import type { Decimal } from '../../core/decimal.js';
import { ORDER_DIRECTIONS, ORDER_TO_CANCEL_TYPES, ORDER_TYPES, TIME_IN_FORCES } from '../../model/enums.js';
import type { NewConditionalOrder } from '../../model/conditional-order.js';
import type { NewOrder } from '../../model/order.js';
import type { MarketConfig } from '../config.js';
import type { Catalog } from '../catalog.js';
import { SimError, badRequest } from '../sim-error.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Which timeInForce each order type allows (seed table; POST_ONLY is refused earlier for conditional orders). */
const ALLOWED_TIF: Record<NewOrder['type'], readonly string[]> = {
  LIMIT: ['GOOD_TIL_CANCELLED', 'IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL', 'POST_ONLY_GOOD_TIL_CANCELLED'],
  MARKET: ['IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL'],
  CEILING_LIMIT: ['IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL'],
  CEILING_MARKET: ['IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL'],
};

/**
 * Validate the request-only rules above and answer the tracked market (canonical symbol). `checkOrder` validates
 * orderToCreate as a NewOrder once the conditional-specific restrictions passed (default: {@link validateOrderShape};
 * the engine passes its order lifecycle's own validator when it has one, so both answer the same codes).
 *
 * @example
 * const market = validateNewConditional(catalog, { marketSymbol: 'btc-usd', operand: 'LTE', triggerPrice: dec('30000') });
 * market.symbol // 'BTC-USD'
 */
export function validateNewConditional(
  catalog: Catalog,
  n: NewConditionalOrder,
  checkOrder: (o: NewOrder) => void = (o) => validateOrderShape(catalog, o),
): MarketConfig {
  const market = onlineMarket(catalog, n.marketSymbol);
  if (n.operand !== 'LTE' && n.operand !== 'GTE') throw invalid('operand', 'operand must be LTE or GTE');
  const hasPrice = n.triggerPrice !== undefined;
  const hasPercent = n.trailingStopPercent !== undefined;
  if (hasPrice === hasPercent) {
    throw invalid(hasPrice ? 'trailingStopPercent' : 'triggerPrice', 'give exactly one of triggerPrice and trailingStopPercent');
  }
  if (hasPrice && !positive(n.triggerPrice)) throw invalid('triggerPrice', 'triggerPrice must be a positive number');
  if (hasPercent && !(positive(n.trailingStopPercent) && n.trailingStopPercent!.lt(100))) {
    throw invalid('trailingStopPercent', 'trailingStopPercent must be greater than 0 and less than 100');
  }
  if (n.clientConditionalOrderId !== undefined && !UUID_RE.test(n.clientConditionalOrderId)) {
    throw invalid('clientConditionalOrderId', 'clientConditionalOrderId must be a uuid');
  }
  if (n.orderToCreate !== undefined) {
    const o = n.orderToCreate;
    if (o.timeInForce === 'POST_ONLY_GOOD_TIL_CANCELLED') {
      throw invalid('orderToCreate.timeInForce', 'post-only orders are not supported in a conditional order');
    }
    if (o.clientOrderId !== undefined) {
      throw invalid('orderToCreate.clientOrderId', 'clientOrderId is not supported in a conditional order; use clientConditionalOrderId');
    }
    if (o.useAwards === true) throw invalid('orderToCreate.useAwards', 'awards are not supported in a conditional order');
    checkOrder(o);
  }
  if (n.orderToCancel !== undefined) {
    const c = n.orderToCancel;
    if (!(ORDER_TO_CANCEL_TYPES as readonly string[]).includes(c.type)) {
      throw invalid('orderToCancel.type', 'orderToCancel.type must be ORDER or CONDITIONAL_ORDER');
    }
    if (typeof c.id !== 'string' || c.id === '') throw invalid('orderToCancel.id', 'orderToCancel.id is required');
  }
  return market;
}

/**
 * The request-only rules of a NewOrder (the seed's timeInForce table, field presence, amounts, minTradeSize,
 * precision) against its own market, with the same codes and in the same order as the order lifecycle's static
 * validation (src/sim/trading-validate.ts), so a refusal does not depend on which module checked. Used when the
 * engine's order port offers no validator of its own.
 */
export function validateOrderShape(catalog: Catalog, o: NewOrder): void {
  if (typeof o.marketSymbol !== 'string' || o.marketSymbol === '') throw malformed('marketSymbol is required');
  if (!(ORDER_DIRECTIONS as readonly string[]).includes(o.direction)) throw malformed('direction must be BUY or SELL');
  if (!(ORDER_TYPES as readonly string[]).includes(o.type)) throw malformed(`unknown order type ${String(o.type)}`);
  if (!(TIME_IN_FORCES as readonly string[]).includes(o.timeInForce)) throw malformed(`unknown timeInForce ${String(o.timeInForce)}`);
  const ceiling = o.type === 'CEILING_LIMIT' || o.type === 'CEILING_MARKET';
  const marketType = o.type === 'MARKET' || o.type === 'CEILING_MARKET';
  if (o.timeInForce === 'BUY_NOW' || o.timeInForce === 'INSTANT') {
    throw badRequest('INVALID_ORDER_TYPE', `timeInForce ${o.timeInForce} is not allowed for any order type`);
  }
  if (!ALLOWED_TIF[o.type].includes(o.timeInForce)) {
    const detail = `${o.type} orders cannot be ${o.timeInForce}`;
    throw marketType ? badRequest('INVALID_MARKET_ORDER', detail) : badRequest('INVALID_ORDER_TYPE', detail);
  }
  if (marketType && o.limit !== undefined) throw badRequest('INVALID_ORDER_TYPE', `${o.type} orders take no limit`);
  if (ceiling && o.quantity !== undefined) throw badRequest('INVALID_ORDER_TYPE', `${o.type} orders take a ceiling, not a quantity`);
  if (!ceiling && o.ceiling !== undefined) throw badRequest('INVALID_ORDER_TYPE', `${o.type} orders take a quantity, not a ceiling`);
  if (!marketType && o.limit === undefined) throw malformed(`${o.type} orders need a limit`);
  if (ceiling && o.ceiling === undefined) throw malformed(`${o.type} orders need a ceiling`);
  if (!ceiling && o.quantity === undefined) throw malformed(`${o.type} orders need a quantity`);
  for (const [name, v] of [['quantity', o.quantity], ['ceiling', o.ceiling], ['limit', o.limit]] as const) {
    if (v !== undefined && !(positive(v) && v.decimalPlaces() <= 8)) throw malformed(`${name} must be a positive decimal with at most 8 decimals`);
  }
  const market = onlineMarket(catalog, o.marketSymbol);
  if (o.limit !== undefined && o.limit.decimalPlaces() > market.precision) {
    throw badRequest('RATE_PRECISION_NOT_ALLOWED', `${market.symbol} allows ${market.precision} decimals in a rate`);
  }
  if (o.quantity !== undefined && o.quantity.lt(market.minTradeSize)) {
    throw badRequest('MIN_TRADE_REQUIREMENT_NOT_MET', `${market.symbol} minimum trade size is ${market.minTradeSize.toFixed()}`);
  }
}

function onlineMarket(catalog: Catalog, symbol: string): MarketConfig {
  if (typeof symbol !== 'string' || symbol === '') throw invalid('marketSymbol', 'marketSymbol is required');
  const market = catalog.market(symbol);
  if (market.status !== 'ONLINE') throw new SimError(503, 'MARKET_OFFLINE', `market ${market.symbol} is offline`);
  return market;
}

function positive(d: Decimal | undefined): boolean {
  return d !== undefined && d.isFinite() && d.gt(0);
}

function malformed(detail: string): SimError {
  return badRequest('ORDER_TYPE_INVALID', detail);
}

function invalid(parameter: string, detail: string): SimError {
  return badRequest('BAD_REQUEST', detail, { invalidRequestParameters: [parameter] });
}
