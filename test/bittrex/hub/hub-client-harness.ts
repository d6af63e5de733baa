/** Shared set-up of the hub-client tests: a virtual clock, a scripted FakeHub and a client wired to both. */
import { VirtualClock, type TimerHandle } from '../../../src/core/clock.js';
import { createHubClient } from '../../../src/bittrex/hub/hub-client.js';
import type {
  HubClient,
  HubClientOptions,
  HubLifecycleEvent,
  HubMessage,
  HubStatus,
} from '../../../src/bittrex/hub/hub-client-types.js';
import type { Credentials } from '../../../src/bittrex/rest/auth.js';
import { FakeHub } from './fake-transport.js';

export const CREDS: Credentials = { apiKey: 'a3f1c2d4-key', apiSecret: 'b7e9-secret' };
export const T0 = Date.parse('2021-06-14T00:00:00Z');

/** Everything a test needs, with every client output collected. */
export interface Harness {
  clock: VirtualClock;
  hub: FakeHub;
  client: HubClient;
  errors: Error[];
  statuses: HubStatus[];
  lifecycle: HubLifecycleEvent[];
  messages: HubMessage[];
  /** Clock time at which each transport was made (one per connection attempt). */
  attemptsAt: number[];
  /** Let the fake server send a heartbeat every 5 s, as the real one does. Returns the timer. */
  heartbeats(): TimerHandle;
}

/** Build a harness. `credentials: undefined` makes an unauthenticated client. */
export function harness(opts: Partial<HubClientOptions> = {}, serverCreds: Credentials = CREDS): Harness {
  const clock = new VirtualClock(T0);
  const hub = new FakeHub({ credentials: serverCreds, now: () => clock.now() });
  const attemptsAt: number[] = [];
  const client = createHubClient({
    credentials: CREDS,
    clock,
    reconnect: { initialDelayMs: 1_000, maxDelayMs: 30_000, factor: 2, jitter: 0 },
    ...opts,
    transport: () => {
      attemptsAt.push(clock.now());
      return hub.factory();
    },
  });
  const h: Harness = {
    clock, hub, client, attemptsAt,
    errors: [], statuses: [], lifecycle: [], messages: [],
    heartbeats: () => clock.setInterval(() => hub.heartbeat(), 5_000),
  };
  client.errors$.subscribe((e) => h.errors.push(e));
  client.status$.subscribe((s) => h.statuses.push(s));
  client.lifecycle$.subscribe((e) => h.lifecycle.push(e));
  client.messages$.subscribe((m) => h.messages.push(m));
  return h;
}

/** A valid `orderBook` payload. */
export function orderBookPayload(sequence: number, marketSymbol = 'BTC-USD', depth = 25): unknown {
  return {
    marketSymbol,
    depth,
    sequence,
    bidDeltas: [{ quantity: '0.50000000', rate: '35000.00000000' }],
    askDeltas: [{ quantity: '0', rate: '35100.00000000' }],
  };
}

/** A valid `balance` payload. */
export function balancePayload(sequence: number): unknown {
  return {
    accountId: '7c1f0a43-9d2e-4a51-8a0b-4b4a8b5f0c11',
    sequence,
    delta: { currencySymbol: 'BTC', total: '1.00000000', available: '0.75000000', updatedAt: '2021-06-14T00:00:01Z' },
  };
}
