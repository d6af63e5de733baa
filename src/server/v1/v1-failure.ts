/**
 * v1.1 refusals: HTTP 200 with `{"success":false,"message":"<CODE>","result":null}` (seed sections 1 and 7).
 * The engine refuses in v3 codes ({@link SimError}); {@link v1CodeOf} says which v1.1 message the service
 * answered for each, so both dialects refuse the same things for the same reasons.
 */
import { SimError } from '../../sim/sim-error.js';
import type { V1MessageCode } from '../../wire/v1/message-codes.js';

/** A v1.1 refusal raised by the v1.1 routes. */
export class V1Failure extends Error {
  readonly v1Message: string;
  constructor(message: V1MessageCode | (string & {})) {
    super(message);
    this.name = 'V1Failure';
    this.v1Message = message;
  }
}

/** v3 code → v1.1 message, where they differ. Unlisted codes are answered as they are. */
const V3_TO_V1: Readonly<Record<string, V1MessageCode>> = {
  MARKET_DOES_NOT_EXIST: 'INVALID_MARKET',
  MARKET_NAME_REVERSED: 'INVALID_MARKET',
  CURRENCY_DOES_NOT_EXIST: 'INVALID_CURRENCY',
  DUST_TRADE_DISALLOWED_MIN_VALUE: 'DUST_TRADE_DISALLOWED_MIN_VALUE_50K_SAT',
  NOT_FOUND: 'INVALID_ORDER',
  NOT_ALLOWED: 'INVALID_PERMISSION',
  FORBIDDEN: 'INVALID_PERMISSION',
  INSUFFICIENT_PERMISSIONS: 'INVALID_PERMISSION',
  APIKEY_INVALID: 'APIKEY_INVALID',
  INVALID_ORDER_TYPE: 'INVALID_ORDER',
  ORDER_TYPE_INVALID: 'INVALID_ORDER',
  BAD_REQUEST: 'APICALL_FAILED',
  THROTTLED: 'THROTTLED',
  WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS: 'WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS',
};

/** A v3 BAD_REQUEST names the parameter; v1.1 named the problem after its own parameter. */
const PARAMETER_TO_V1: Readonly<Record<string, V1MessageCode>> = {
  quantity: 'QUANTITY_INVALID',
  limit: 'RATE_INVALID',
  cryptoAddress: 'INVALID_ADDRESS',
  cryptoAddressTag: 'INVALID_ADDRESS',
  // A fiat withdrawal needs a bank method v1.1 cannot name.
  fundsTransferMethodId: 'INVALID_CURRENCY',
  currencySymbol: 'INVALID_CURRENCY',
  marketSymbol: 'INVALID_MARKET',
};

/** The v1.1 message for an engine refusal. */
export function v1CodeOf(err: SimError): string {
  if (err.code === 'BAD_REQUEST') {
    const params = err.data?.invalidRequestParameters;
    const first = Array.isArray(params) && typeof params[0] === 'string' ? params[0] : undefined;
    if (first !== undefined && PARAMETER_TO_V1[first]) return PARAMETER_TO_V1[first];
  }
  return V3_TO_V1[err.code] ?? err.code;
}

/** The v1.1 message of anything a v1.1 route throws on purpose, or undefined for a bug. */
export function v1MessageOf(err: unknown): string | undefined {
  if (err instanceof V1Failure) return err.v1Message;
  if (err instanceof SimError) return v1CodeOf(err);
  return undefined;
}
