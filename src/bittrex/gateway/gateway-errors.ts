/**
 * The typed error of the Bittrex gateway's stream subscriptions. The hub answers one SocketResponse per channel,
 * so one call can refuse some channels and accept others; the error names every refused channel with the
 * service's ErrorCode, and is a {@link HubSubscriptionError} so code that catches the in-process gateway's
 * refusals catches these too.
 */
import { HubSubscriptionError } from '../hub/hub-errors.js';

/**
 * Subscribe or Unsubscribe refused at least one channel. The channels it accepted stay subscribed.
 *
 * @example
 * try {
 *   await gateway.streams.subscribe(['orderbook_BTC-USD_25', 'order']);
 * } catch (e) {
 *   if (e instanceof GatewaySubscriptionError) {
 *     for (const f of e.failures) log.error({ channel: f.channel, code: f.errorCode }, 'channel refused');
 *   }
 * }
 */
export class GatewaySubscriptionError extends HubSubscriptionError {
  /** One error per refused channel, in the order they were asked for. */
  readonly failures: readonly HubSubscriptionError[];

  constructor(failures: readonly HubSubscriptionError[]) {
    const first = failures[0];
    if (!first) throw new RangeError('GatewaySubscriptionError needs at least one failure');
    super(failures.map((f) => f.channel).join(', '), first.errorCode, first.operation);
    this.failures = failures;
    if (failures.length > 1) {
      const list = failures.map((f) => `${f.channel} (${f.errorCode})`).join(', ');
      this.message = `${first.operation} refused ${failures.length} channels: ${list}`;
    }
  }

  /** The refusal of one channel, if it was refused. */
  failureOf(channel: string): HubSubscriptionError | undefined {
    return this.failures.find((f) => f.channel === channel);
  }
}
