/**
 * Realistic v3 response bodies for the REST test server, shaped as the service sent them: decimals as 8-dp JSON
 * strings, timestamps ISO 8601 UTC. Markets, tickers, candles and book levels are copied from the 2021 capture
 * in shared/data/bittrex-v3-ws-2021 (cryptofeed sample data, see test/fixtures/README.md); the rest follow the
 * shapes of shared/reference/api-spec-v3.json and its examples.
 */

export const ACCOUNT_ID = 'b5e9d0c4-2f53-4c7a-9a3f-6c1d2e0f8a11';
export const SUBACCOUNT_ID = '7f3c2a18-94d6-4e0b-b1a2-0d5e6f7a8b9c';
export const ORDER_ID = '21b580eb-8d5d-4855-aa11-2013e3884dce';
export const CONDITIONAL_ORDER_ID = 'c3a9e0d2-1b4f-4e8a-9d6c-2f7b8a0e1d34';
export const DEPOSIT_ID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
export const WITHDRAWAL_ID = 'e4d3c2b1-a0f9-4e8d-b7c6-5a4b3c2d1e0f';
export const EXECUTION_ID = '5d2e9f0a-3b1c-4d7e-8f6a-1b2c3d4e5f60';
export const TRANSFER_ID = '9b8a7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
export const TX_ID = '0x3f5c9d1e2b7a4c6d8e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d';

/** GET /v3/markets entries, verbatim from the capture's BITTREX.0 line 1. */
export const MARKETS = [
  { symbol: 'BTC-EUR', baseCurrencySymbol: 'BTC', quoteCurrencySymbol: 'EUR', minTradeSize: '0.00044994', precision: 3, status: 'ONLINE', createdAt: '2020-03-30T06:12:04.86Z', prohibitedIn: ['US'], associatedTermsOfService: [], tags: [] },
  { symbol: 'BTC-USD', baseCurrencySymbol: 'BTC', quoteCurrencySymbol: 'USD', minTradeSize: '0.00005450', precision: 3, status: 'ONLINE', createdAt: '2018-05-31T13:24:40.77Z', prohibitedIn: [], associatedTermsOfService: [], tags: [] },
  { symbol: 'ETH-BTC', baseCurrencySymbol: 'ETH', quoteCurrencySymbol: 'BTC', minTradeSize: '0.00140180', precision: 8, status: 'ONLINE', createdAt: '2015-08-14T09:02:24.817Z', prohibitedIn: [], associatedTermsOfService: [], tags: [] },
];

export const CURRENCIES = [
  { symbol: 'BTC', name: 'Bitcoin', coinType: 'BITCOIN', status: 'ONLINE', minConfirmations: 2, notice: '', txFee: '0.00030000', logoUrl: 'https://bittrex.example/logos/btc.png', prohibitedIn: [], baseAddress: '1N52wHoVR79PMDishab2XmRHsbekCdGquK', associatedTermsOfService: [], tags: [] },
  { symbol: 'EUR', name: 'Euro', coinType: 'FIAT', status: 'ONLINE', minConfirmations: 0, notice: '', txFee: '0.00000000', prohibitedIn: ['US'], associatedTermsOfService: [], tags: [] },
];

/** Ticker messages of the capture (BTC-EUR at 01:53:39Z). */
export const TICKERS = [
  { symbol: 'BTC-EUR', lastTradeRate: '32407.59900000', bidRate: '32414.61700000', askRate: '32483.68700000' },
  { symbol: 'DAWN-BTC', lastTradeRate: '0.00006655', bidRate: '0.00006534', askRate: '0.00006680' },
];

export const SUMMARIES = [
  { symbol: 'BTC-EUR', high: '33021.04400000', low: '31620.00000000', volume: '40.27036585', quoteVolume: '1303094.16785036', percentChange: '1.86', updatedAt: '2021-06-14T01:53:34.507Z' },
  { symbol: 'DAWN-BTC', high: '0.00007002', low: '0.00006411', volume: '80615.01957010', quoteVolume: '5.37286442', percentChange: '-2.35', updatedAt: '2021-06-14T01:53:34.507Z' },
];

/** The top of the captured BTC-EUR depth-500 snapshot (Sequence 3209228). */
export const ORDER_BOOK = {
  bid: [
    { quantity: '0.05092530', rate: '32414.61700000' },
    { quantity: '0.10792610', rate: '32404.20300000' },
  ],
  ask: [
    { quantity: '0.30820660', rate: '32483.68700000' },
    { quantity: '0.05095430', rate: '32483.68800000' },
  ],
};
export const ORDER_BOOK_SEQUENCE = 3209228;

export const TRADES = [
  { id: '8f0d3b1e-6c2a-4f5d-9e7b-1a2c3d4e5f60', executedAt: '2021-06-14T01:53:12.34Z', quantity: '0.00100000', rate: '32407.59900000', takerSide: 'BUY' },
  { id: '2a4c6e8f-0b1d-4f3a-8c5e-7a9b1c3d5e7f', executedAt: '2021-06-14T01:52:58.1Z', quantity: '0.01543200', rate: '32399.00000000', takerSide: 'SELL' },
];

/** A MINUTE_1 candle delta of the capture. */
export const CANDLES = [
  { startsAt: '2021-06-14T01:53:00Z', open: '32399.00000000', high: '32407.59900000', low: '32399.00000000', close: '32407.59900000', volume: '0.01643200', quoteVolume: '532.43284000' },
  { startsAt: '2021-06-14T01:54:00Z', open: '32407.59900000', high: '32407.59900000', low: '32407.59900000', close: '32407.59900000', volume: '0', quoteVolume: '0' },
];

/** An open limit order, as in the official POST /batch example. */
export function orderJson(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: ORDER_ID,
    marketSymbol: 'BTC-USD',
    direction: 'BUY',
    type: 'LIMIT',
    quantity: '1.00000000',
    limit: '20000.00000000',
    timeInForce: 'GOOD_TIL_CANCELLED',
    fillQuantity: '0.00000000',
    commission: '0.00000000',
    proceeds: '0.00000000',
    status: 'OPEN',
    createdAt: '2020-12-02T07:19:48.75Z',
    updatedAt: '2020-12-02T07:19:48.75Z',
    ...over,
  };
}

export function closedOrderJson(id: string, closedAt: string): Record<string, unknown> {
  return orderJson({
    id,
    fillQuantity: '1.00000000',
    commission: '15.00000000',
    proceeds: '20000.00000000',
    status: 'CLOSED',
    updatedAt: closedAt,
    closedAt,
  });
}

export function conditionalOrderJson(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: CONDITIONAL_ORDER_ID,
    marketSymbol: 'BTC-USD',
    operand: 'LTE',
    triggerPrice: '30000.00000000',
    orderToCreate: { marketSymbol: 'BTC-USD', direction: 'SELL', type: 'LIMIT', quantity: '0.50000000', limit: '29900.00000000', timeInForce: 'GOOD_TIL_CANCELLED' },
    status: 'OPEN',
    createdAt: '2021-06-14T01:50:00.12Z',
    updatedAt: '2021-06-14T01:50:00.12Z',
    ...over,
  };
}

export function executionJson(id = EXECUTION_ID, executedAt = '2021-06-14T01:53:12.34Z'): Record<string, unknown> {
  return { id, marketSymbol: 'BTC-USD', executedAt, quantity: '0.25000000', rate: '20000.00000000', orderId: ORDER_ID, commission: '3.75000000', isTaker: true };
}

export function depositJson(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: DEPOSIT_ID,
    currencySymbol: 'BTC',
    quantity: '0.12345678',
    cryptoAddress: '1N52wHoVR79PMDishab2XmRHsbekCdGquK',
    txId: TX_ID,
    confirmations: 1,
    updatedAt: '2021-06-14T01:40:00.5Z',
    status: 'PENDING',
    source: 'BLOCKCHAIN',
    ...over,
  };
}

export function withdrawalJson(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: WITHDRAWAL_ID,
    currencySymbol: 'BTC',
    quantity: '0.50000000',
    cryptoAddress: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
    txCost: '0.00030000',
    status: 'REQUESTED',
    createdAt: '2021-06-14T01:45:00.25Z',
    ...over,
  };
}

export const BALANCES = [
  { currencySymbol: 'BTC', total: '1.25000000', available: '0.75000000', updatedAt: '2021-06-14T01:50:00.12Z' },
  { currencySymbol: 'USD', total: '50000.00000000', available: '30000.00000000', updatedAt: '2021-06-14T01:50:00.12Z' },
];

export const ADDRESSES = [
  { status: 'PROVISIONED', currencySymbol: 'BTC', cryptoAddress: '1N52wHoVR79PMDishab2XmRHsbekCdGquK' },
  { status: 'REQUESTED', currencySymbol: 'XRP' },
];

export const MARKET_POLICIES = [
  { symbol: 'BTC-USD', view: true, buy: true, sell: true },
  { symbol: 'ETH-BTC', view: true, buy: false, sell: true },
];

export const CURRENCY_POLICIES = [
  { symbol: 'BTC', view: true, deposit: { blockchain: true, creditCard: false, wireTransfer: false }, withdraw: { blockchain: true, wireTransfer: false } },
  { symbol: 'USD', view: true, deposit: { blockchain: false, creditCard: true, wireTransfer: true }, withdraw: { blockchain: false, wireTransfer: true } },
];

export const FEES = [
  { marketSymbol: 'BTC-USD', makerRate: '0.00350000', takerRate: '0.00350000' },
  { marketSymbol: 'ETH-BTC', makerRate: '0.00750000', takerRate: '0.00750000' },
];

export const ALLOWED_ADDRESSES = [
  { currencySymbol: 'BTC', createdAt: '2021-06-01T00:00:00Z', status: 'ACTIVE', activeAt: '2021-06-03T00:00:00Z', cryptoAddress: '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy' },
];

export function subaccountJson(id = SUBACCOUNT_ID, createdAt = '2021-05-01T12:00:00Z'): Record<string, unknown> {
  return { id, createdAt };
}

export function sentTransferJson(id = TRANSFER_ID, executedAt = '2021-06-10T09:30:00.5Z'): Record<string, unknown> {
  return { toSubaccountId: SUBACCOUNT_ID, toMasterAccount: false, id, requestId: 'd1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a', currencySymbol: 'BTC', amount: '0.10000000', executedAt };
}

export function receivedTransferJson(id = TRANSFER_ID, executedAt = '2021-06-10T09:30:00.5Z'): Record<string, unknown> {
  return { fromSubaccountId: SUBACCOUNT_ID, fromMasterAccount: false, id, requestId: 'd1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a', currencySymbol: 'BTC', amount: '0.10000000', executedAt };
}

/** `count` items made by `make(id, timestamp)`, newest first, ids `<prefix>-0001`..., one minute apart. */
export function series<T>(count: number, prefix: string, make: (id: string, at: string) => T): T[] {
  const start = Date.parse('2021-06-14T00:00:00Z');
  return Array.from({ length: count }, (_, i) =>
    make(`${prefix}-${String(i + 1).padStart(4, '0')}`, new Date(start - i * 60_000).toISOString()),
  );
}
