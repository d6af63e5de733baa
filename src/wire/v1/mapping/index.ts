/** The v1.1 ⇄ v3 mapping (seed section 9), by resource group. */
export * from './funds.js';
export * from './mapping-error.js';
export * from './market-data.js';
export * from './orders.js';
export * from './streams.js';
