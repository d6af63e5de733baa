/**
 * v1.1 failure messages: `{"success":false,"message":"<CODE>","result":null}` with HTTP 200.
 *
 * The seed names one code (ADDRESS_GENERATING) and says the full list is not shown; the official v1.1 document
 * adds nothing. The rest are the codes the service answered, as v1.1 clients of the time branch on them
 * (ccxt's v1.1 `bittrex` exception table, python-bittrex and several bots' error enums): they are the contract
 * real clients hold rexbot's simulator to, so the simulator answers exactly these strings.
 */
export const V1_MESSAGE_CODES = [
  // Seed section 4 / 7: getdepositaddress before an address exists.
  'ADDRESS_GENERATING',
  // Authentication (checked in this order: nonce, apikey, apisign, key, signature, permission).
  'NONCE_NOT_PROVIDED',
  'APIKEY_NOT_PROVIDED',
  'APISIGN_NOT_PROVIDED',
  'APIKEY_INVALID',
  'INVALID_SIGNATURE',
  'INVALID_PERMISSION',
  // Parameters.
  'MARKET_NOT_PROVIDED',
  'INVALID_MARKET',
  'CURRENCY_NOT_PROVIDED',
  'INVALID_CURRENCY',
  'QUANTITY_NOT_PROVIDED',
  'QUANTITY_INVALID',
  'RATE_NOT_PROVIDED',
  'RATE_INVALID',
  'UUID_NOT_PROVIDED',
  'UUID_INVALID',
  'ADDRESS_NOT_PROVIDED',
  'TYPE_NOT_PROVIDED',
  'TYPE_INVALID',
  'INVALID_TIME_IN_FORCE',
  // Trading.
  'MIN_TRADE_REQUIREMENT_NOT_MET',
  'DUST_TRADE_DISALLOWED_MIN_VALUE_50K_SAT',
  'INSUFFICIENT_FUNDS',
  'INVALID_ORDER',
  'ORDER_NOT_OPEN',
  'MARKET_OFFLINE',
  'RATE_PRECISION_NOT_ALLOWED',
  'MAX_ORDERS_ALLOWED',
  'SELF_TRADE',
  // Funds.
  'CURRENCY_OFFLINE',
  'WITHDRAWAL_TOO_SMALL',
  'INVALID_ADDRESS',
  'WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS',
  // Anything else the engine refuses.
  'APICALL_FAILED',
  // Rate limit (see {@link throttledMessage}); clients match `throttled` in the message.
  'THROTTLED',
] as const;

/** A v1.1 failure message code the simulator answers. Clients also meet messages outside this list. */
export type V1MessageCode = (typeof V1_MESSAGE_CODES)[number];

/**
 * WIRE: a call over the per-minute limit answered `"message":"Call to GetBalances was throttled. Try again in
 * 60 seconds."` (quoted in ccxt's v1.1 exception table, which matches on the word "throttled"), not a code.
 *
 * @example
 * throttledMessage('/account/getbalances') // 'Call to GetBalances was throttled. Try again in 60 seconds.'
 */
export function throttledMessage(path: string, seconds = 60): string {
  const leaf = (path.split('/').pop() ?? '').toLowerCase();
  const name = V1_METHOD_NAMES.find((n) => n.toLowerCase() === leaf) ?? leaf;
  return `Call to ${name} was throttled. Try again in ${seconds} seconds.`;
}

/** The service's method names of the v1.1 endpoints (the last path segment, as the service spelled it). */
export const V1_METHOD_NAMES = [
  'GetMarkets', 'GetCurrencies', 'GetTicker', 'GetMarketSummaries', 'GetMarketSummary', 'GetOrderBook',
  'GetMarketHistory', 'BuyLimit', 'SellLimit', 'Cancel', 'GetOpenOrders', 'GetBalances', 'GetBalance',
  'GetDepositAddress', 'Withdraw', 'GetOrder', 'GetOrderHistory', 'GetWithdrawalHistory', 'GetDepositHistory',
] as const;

/** True when a v1.1 failure message says the call limit was hit. */
export function isThrottledMessage(message: string): boolean {
  return message === 'THROTTLED' || /throttled/i.test(message);
}
