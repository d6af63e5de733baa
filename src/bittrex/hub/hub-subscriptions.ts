/**
 * Subscribe/Unsubscribe replies and the client's memory of wanted channels.
 *
 * The hub answers one SocketResponse per channel, in the order sent (seed section 6), so one channel can be
 * refused (`UNAUTHORIZED_USER`) while the others of the same call succeed.
 */
import { WireFormatError } from '../../core/errors.js';
import { arrayOf } from '../../model/decode.js';
import { decodeSocketResponse } from '../../model/misc.js';
import { HubSubscriptionError } from './hub-errors.js';
import { channelOf as streamChannelOf, parseChannelName, type StreamMessage } from './messages.js';

/** The outcome for one channel of a subscribe or unsubscribe call. */
export type SubscriptionResult =
  | { channel: string; success: true }
  | { channel: string; success: false; error: HubSubscriptionError };

/** The stream the client always subscribes to, because its watchdog lives on it. */
export const HEARTBEAT_CHANNEL = 'heartbeat';

/**
 * True for a channel that needs an authenticated connection: the account streams and their `subaccounts_`
 * variants. The server cancels these when authentication expires (seed section 5).
 */
export function isPrivateChannel(channel: string): boolean {
  const parsed = parseChannelName(channel);
  return parsed !== undefined && 'subaccounts' in parsed;
}

const decodeReplies = arrayOf(decodeSocketResponse);

/**
 * Pair a Subscribe/Unsubscribe reply with the channels sent. Throws {@link WireFormatError} when the reply is
 * not an array of SocketResponse with one entry per channel: then nothing can be said about any channel.
 *
 * @example
 * readSubscriptionReply('Subscribe', ['heartbeat', 'order'], [
 *   { Success: true },
 *   { Success: false, ErrorCode: 'UNAUTHORIZED_USER' },
 * ]);
 * // [{ channel: 'heartbeat', success: true },
 * //  { channel: 'order', success: false, error: HubSubscriptionError(UNAUTHORIZED_USER) }]
 */
export function readSubscriptionReply(
  operation: 'Subscribe' | 'Unsubscribe',
  channels: readonly string[],
  reply: unknown,
): SubscriptionResult[] {
  const where = `hub ${operation}`;
  const responses = decodeReplies(reply, '', where);
  if (responses.length !== channels.length) {
    throw new WireFormatError(where, '', `has ${responses.length} results for ${channels.length} channels`);
  }
  return channels.map((channel, i) => {
    const r = responses[i]!;
    return r.Success
      ? { channel, success: true as const }
      : {
          channel,
          success: false as const,
          error: new HubSubscriptionError(channel, r.ErrorCode ?? 'UNKNOWN', operation),
        };
  });
}

/**
 * Check and de-duplicate channel names from a caller, keeping first-seen order. Rejects empty and non-string
 * names here, where the mistake is made, rather than as an obscure server refusal later.
 */
export function normalizeChannels(channels: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const [i, c] of channels.entries()) {
    if (typeof c !== 'string' || c.trim() === '') {
      throw new TypeError(`channels[${i}] is not a channel name: ${JSON.stringify(c)}`);
    }
    if (!seen.has(c)) {
      seen.add(c);
      out.push(c);
    }
  }
  return out;
}

/**
 * The subscription a message came from, derived from its payload (the wire does not say). Account streams have a
 * plain and a `subaccounts_` variant with the same message name; which one delivered is only known when just one
 * of them is subscribed, otherwise the answer is undefined rather than a guess.
 */
export function channelOf(message: StreamMessage, subscribed: ReadonlySet<string>): string | undefined {
  if (message.name === 'heartbeat') return HEARTBEAT_CHANNEL;
  const plain = streamChannelOf(message);
  if (plain === undefined || !isPrivateChannel(plain)) return plain;
  const sub = `subaccounts_${plain}`;
  const hasPlain = subscribed.has(plain);
  if (hasPlain === subscribed.has(sub)) return undefined;
  return hasPlain ? plain : sub;
}

/**
 * subscribe() calls waiting for a connection to be up: answered from that connection's Subscribe results (and
 * whatever they asked for after it began), or refused all at once when the client stops.
 */
export class SubscribeWaiters {
  #waiting: { channels: string[]; resolve: (r: SubscriptionResult[]) => void; reject: (e: Error) => void }[] = [];

  /** Wait for the next connection's answer about `channels`. */
  wait(channels: string[]): Promise<SubscriptionResult[]> {
    return new Promise((resolve, reject) => this.#waiting.push({ channels, resolve, reject }));
  }

  /** Channels the waiters asked for that `answered` lacks and `wanted` still holds (distinct, in order). */
  unanswered(answered: ReadonlyMap<string, SubscriptionResult>, wanted: ReadonlySet<string>): string[] {
    return [...new Set(this.#waiting.flatMap((w) => w.channels))].filter((c) => !answered.has(c) && wanted.has(c));
  }

  /** Answer every waiter from `answered`; a channel without an answer was unsubscribed meanwhile. */
  resolveAll(answered: ReadonlyMap<string, SubscriptionResult>): void {
    for (const w of this.#take()) {
      w.resolve(w.channels.map((channel) => answered.get(channel) ?? {
        channel, success: false, error: new HubSubscriptionError(channel, 'UNSUBSCRIBED', 'Subscribe'),
      }));
    }
  }

  /** Refuse every waiter with `error`. */
  rejectAll(error: Error): void {
    for (const w of this.#take()) w.reject(error);
  }

  #take() {
    const all = this.#waiting;
    this.#waiting = [];
    return all;
  }
}
