/**
 * The request bodies the simulator accepts, decoded strictly (see body.ts) into the same model types the client
 * sends. Amount sanity (negative, zero, absurd, over-precise) is checked here so the engine only sees sane values;
 * market rules (minTradeSize, rate precision, dust) stay in the engine, which knows the market.
 */
import { bool, dec, id, object, oneOf, str, type Decoder } from '../../model/decode.js';
import { ORDER_DIRECTIONS, ORDER_TYPES, TIME_IN_FORCES } from '../../model/enums.js';
import { decodeNewConditionalOrder, type NewConditionalOrder } from '../../model/conditional-order.js';
import { decodeOrderToCancel, type BatchOperation, type NewOrder } from '../../model/order.js';
import type { NewTransfer } from '../../model/subaccount.js';
import type { NewWithdrawal } from '../../model/wallet.js';
import { SimError } from '../../sim/sim-error.js';
import { checkAmount, decodeBody } from './body.js';

const NEW_ORDER_FIELDS = ['marketSymbol', 'direction', 'type', 'quantity', 'ceiling', 'limit', 'timeInForce', 'clientOrderId', 'useAwards'] as const;

// timeInForce is optional on the way in: MARKET orders from some clients omit it; the engine applies the rules.
const newOrderFields = object<Omit<NewOrder, 'timeInForce'> & { timeInForce?: NewOrder['timeInForce'] }>(
  { marketSymbol: str, direction: oneOf(ORDER_DIRECTIONS), type: oneOf(ORDER_TYPES) },
  { quantity: dec, ceiling: dec, limit: dec, clientOrderId: id, useAwards: bool, timeInForce: oneOf(TIME_IN_FORCES) },
);
const newOrderDecoder: Decoder<NewOrder> = (v, path, where) => {
  const o = newOrderFields(v, path, where);
  if (!o.timeInForce) throw new SimError(400, 'ORDER_TYPE_INVALID', `${where}: ${path ? `${path}.` : ''}timeInForce is missing`);
  return o as NewOrder;
};

function checkOrderAmounts(o: NewOrder, prefix = ''): void {
  // Limits are checked for sign and range only; their precision against the market is RATE_PRECISION_NOT_ALLOWED in the engine.
  if (o.quantity) checkAmount(o.quantity, `${prefix}quantity`, 'ORDER_TYPE_INVALID');
  if (o.ceiling) checkAmount(o.ceiling, `${prefix}ceiling`, 'ORDER_TYPE_INVALID');
  if (o.limit) checkAmount(o.limit, `${prefix}limit`, 'ORDER_TYPE_INVALID', { maxDp: 30 });
}

/** POST /orders body. Malformed orders answer 400 ORDER_TYPE_INVALID ("malformed order creation request"). */
export function parseNewOrder(body: unknown, where = 'POST /v3/orders'): NewOrder {
  const o = decodeBody(body, newOrderDecoder, NEW_ORDER_FIELDS, 'ORDER_TYPE_INVALID', where);
  checkOrderAmounts(o);
  return o;
}

/** POST /conditional-orders body. */
export function parseNewConditionalOrder(body: unknown, where = 'POST /v3/conditional-orders'): NewConditionalOrder {
  const allowed = ['marketSymbol', 'operand', 'triggerPrice', 'trailingStopPercent', 'orderToCreate', 'orderToCancel', 'clientConditionalOrderId'];
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const inner = (body as Record<string, unknown>).orderToCreate;
    if (inner !== undefined && inner !== null) decodeBody(inner, newOrderDecoder, NEW_ORDER_FIELDS, 'BAD_REQUEST', `${where} orderToCreate`);
    const cancel = (body as Record<string, unknown>).orderToCancel;
    if (cancel !== undefined && cancel !== null) decodeBody(cancel, decodeOrderToCancel, ['type', 'id'], 'BAD_REQUEST', `${where} orderToCancel`);
  }
  const c = decodeBody(body, decodeNewConditionalOrder, allowed, 'BAD_REQUEST', where);
  // 8 decimals like every wire amount: nothing checks a trigger's precision later, and a finer one (1e-30) would be
  // stored as given yet shown as 0.00000000 on the wire.
  if (c.triggerPrice) checkAmount(c.triggerPrice, 'triggerPrice', 'BAD_REQUEST');
  if (c.trailingStopPercent) checkAmount(c.trailingStopPercent, 'trailingStopPercent', 'BAD_REQUEST');
  if (c.orderToCreate) checkOrderAmounts(c.orderToCreate, 'orderToCreate.');
  return c;
}

/** POST /withdrawals body (real clients send quantity as a JSON number; strings are accepted too). */
export function parseNewWithdrawal(body: unknown, where = 'POST /v3/withdrawals'): NewWithdrawal {
  const w = decodeBody(
    body,
    object<NewWithdrawal>(
      { currencySymbol: str, quantity: dec },
      { cryptoAddress: str, cryptoAddressTag: str, fundsTransferMethodId: id, clientWithdrawalId: id },
    ),
    ['currencySymbol', 'quantity', 'cryptoAddress', 'cryptoAddressTag', 'fundsTransferMethodId', 'clientWithdrawalId'],
    'BAD_REQUEST',
    where,
  );
  checkAmount(w.quantity, 'quantity', 'BAD_REQUEST');
  return w;
}

/** POST /addresses body. */
export function parseNewAddress(body: unknown, where = 'POST /v3/addresses'): { currencySymbol: string } {
  return decodeBody(body, object<{ currencySymbol: string }>({ currencySymbol: str }, {}), ['currencySymbol'], 'BAD_REQUEST', where);
}

/** POST /transfers body. */
export function parseNewTransfer(body: unknown, where = 'POST /v3/transfers'): NewTransfer {
  const t = decodeBody(
    body,
    object<NewTransfer>({ currencySymbol: str, amount: dec }, { toSubaccountId: id, toMasterAccount: bool, requestId: id }),
    ['toSubaccountId', 'requestId', 'currencySymbol', 'amount', 'toMasterAccount'],
    'BAD_REQUEST',
    where,
  );
  checkAmount(t.amount, 'amount', 'BAD_REQUEST');
  return t;
}

/** POST /subaccounts body: an empty object (or nothing). */
export function parseNewSubaccount(body: unknown, where = 'POST /v3/subaccounts'): void {
  if (body === undefined) return;
  decodeBody(body, object<Record<string, never>>({}, {}), [], 'BAD_REQUEST', where);
}

/**
 * POST /batch body: an array of {resource: ORDER, operation: POST|DELETE, payload}. A body that is not an array
 * fails as a whole; a malformed operation becomes that operation's own error (the others still run, as the seed
 * says of batches).
 */
export function parseBatch(body: unknown, where = 'POST /v3/batch'): Array<BatchOperation | SimError> {
  if (!Array.isArray(body)) throw new SimError(400, 'BAD_REQUEST', `${where}: body must be a JSON array of operations`);
  return body.map((op, i): BatchOperation | SimError => {
    try {
      return parseBatchOperation(op, `${where} [${i}]`);
    } catch (err) {
      if (err instanceof SimError) return err;
      throw err;
    }
  });
}

function parseBatchOperation(op: unknown, at: string): BatchOperation {
  {
    if (typeof op !== 'object' || op === null || Array.isArray(op)) throw new SimError(400, 'BAD_REQUEST', `${at}: operation must be an object`);
    const rec = op as Record<string, unknown>;
    for (const k of Object.keys(rec)) {
      if (!['resource', 'operation', 'payload'].includes(k)) throw new SimError(400, 'BAD_REQUEST', `${at}: unknown field '${k}'`);
    }
    // Any case: the official request example sends `"resource": "order", "operation": "post"`.
    const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v);
    const operation = upper(rec.operation);
    if (upper(rec.resource) !== 'ORDER') throw new SimError(400, 'BAD_REQUEST', `${at}: resource must be ORDER`);
    if (operation === 'POST') return { resource: 'ORDER', operation: 'POST', payload: parseNewOrder(rec.payload, `${at}.payload`) };
    if (operation === 'DELETE') {
      const p = decodeBody(rec.payload, object<{ id: string }>({ id: id }, {}), ['id'], 'BAD_REQUEST', `${at}.payload`);
      return { resource: 'ORDER', operation: 'DELETE', payload: p };
    }
    throw new SimError(400, 'BAD_REQUEST', `${at}: operation must be POST or DELETE`);
  }
}
