/**
 * Reference example (strategies/README.md): one intent of each kind, as a strategy would emit it. The test of the
 * reference page type-checks this file and passes every intent through the runner's intent check.
 */
import { dec, type Intent } from 'rexbot/strategy';

const market = 'BTC-USD';

/** Place one order: a limit buy resting until cancelled. */
export const place: Intent = {
  kind: 'place',
  key: 'entry-1',
  order: { marketSymbol: market, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.01'), limit: dec('30000') },
};

/** Cancel the order placed for the intent key 'entry-1'. */
export const cancel: Intent = { kind: 'cancel', key: 'cancel-entry-1', targetKey: 'entry-1' };

/** Cancel every open order of this strategy in one market (leave out marketSymbol for all of them). */
export const cancelAll: Intent = { kind: 'cancelAll', key: 'flatten-btc', marketSymbol: market };

/** Desired resting quotes: the order manager reconciles them with the fewest cancels and places. */
export const quotes: Intent = {
  kind: 'quotes',
  key: 'mm:BTC-USD',
  marketSymbol: market,
  bids: [{ rate: dec('29990'), quantity: dec('0.01') }],
  asks: [{ rate: dec('30010'), quantity: dec('0.01') }],
};

/** An entry, then a take-profit and a stop-loss as an OCO pair once it fills. */
export const bracket: Intent = {
  kind: 'bracket',
  key: 'breakout-1',
  entry: { marketSymbol: market, direction: 'BUY', type: 'MARKET', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.01') },
  takeProfit: dec('31500'),
  stopLoss: dec('29400'),
};

/** Protect a long position: sell 0.01 when the price falls 2 % from its highest since now. */
export const trailingStop: Intent = {
  kind: 'trailingStop',
  key: 'trail-btc',
  marketSymbol: market,
  direction: 'SELL',
  quantity: dec('0.01'),
  trailingStopPercent: dec('2'),
};

/** Hold 0.05 BTC (attributed to this strategy); the order manager sizes an IOC limit within 0.5 % of the mid. */
export const targetPosition: Intent = { kind: 'targetPosition', key: 'target:BTC-USD', marketSymbol: market, position: dec('0.05'), maxSlippage: dec('0.005') };

/** All of the above, in the order the reference page lists them. */
export const everyKind: readonly Intent[] = [place, cancel, cancelAll, quotes, bracket, trailingStop, targetPosition];
