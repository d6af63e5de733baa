/**
 * The engine's events about our account as the hub's private stream messages (order, balance, execution,
 * conditional order). Everything else the engine publishes — books, trades and tickers made of our own fills — is
 * not the market in a backtest (the recording is), so it is not forwarded.
 */
import type { StreamMessage } from '../../src/bittrex/hub/messages.js';
import type { SimEvent } from '../../src/sim/events.js';

/** The stream message of an engine event of `accountId`, or undefined. */
export function privateMessage(e: SimEvent, accountId: string): StreamMessage | undefined {
  switch (e.kind) {
    case 'order':
      return e.accountId === accountId ? { name: 'order', data: { accountId, sequence: e.sequence, delta: e.delta } } : undefined;
    case 'balance':
      return e.accountId === accountId ? { name: 'balance', data: { accountId, sequence: e.sequence, delta: e.delta } } : undefined;
    case 'execution':
      return e.accountId === accountId ? { name: 'execution', data: { accountId, sequence: e.sequence, deltas: e.deltas } } : undefined;
    case 'conditionalOrder':
      return e.accountId === accountId ? { name: 'conditionalOrder', data: { accountId, sequence: e.sequence, delta: e.delta } } : undefined;
    default:
      return undefined;
  }
}
