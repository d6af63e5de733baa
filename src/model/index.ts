/** The v3 model: resource types, enums and their wire decoders. */
export * from './account.js';
export * from './conditional-order.js';
export * from './decode.js';
export * from './enums.js';
export * from './error-codes.js';
export * from './market.js';
export * from './misc.js';
export * from './order.js';
export * from './subaccount.js';
export * from './wallet.js';
export * from './encode.js';
export * from './intent.js';
