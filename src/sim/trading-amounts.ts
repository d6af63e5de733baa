/**
 * The simulator's money arithmetic is the exchange's rounding rule, kept in one place for the simulator and the
 * risk engine alike: src/model/trading-amounts.ts. Re-exported here for the simulator's modules.
 */
export * from '../model/trading-amounts.js';
