/**
 * Test harness: a {@link startTestServer} plus a client pointed at it, with a virtual clock (so Api-Timestamp is
 * known) and a throttler wrapper that records the priority of every scheduled call and every 429 report.
 */
import { expect } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { createRestClient, type RestClient, type RestClientOptions } from '../../../src/bittrex/rest/client.js';
import { createThrottler, type RequestPriority, type Throttler } from '../../../src/bittrex/rest/throttler.js';
import { type SeenRequest, startTestServer, type TestServer } from './test-server.js';

/** 2021-06-14T01:55:00Z, inside the recorded capture. */
export const T0 = Date.parse('2021-06-14T01:55:00Z');

/** A throttler that records what goes through it and forwards to `inner`. */
export interface RecordingThrottler extends Throttler {
  readonly priorities: RequestPriority[];
  readonly throttles: (number | undefined)[];
  readonly successes: number;
}

/** Wrap `inner` so tests can see priorities, 429 reports and successes. */
export function recording(inner: Throttler): RecordingThrottler {
  const priorities: RequestPriority[] = [];
  const throttles: (number | undefined)[] = [];
  let successes = 0;
  return {
    priorities,
    throttles,
    get successes() {
      return successes;
    },
    schedule(priority, fn) {
      priorities.push(priority);
      return inner.schedule(priority, fn);
    },
    throttled(ms) {
      throttles.push(ms);
      inner.throttled(ms);
    },
    succeeded() {
      successes++;
      inner.succeeded();
    },
    stats: () => inner.stats(),
  };
}

/** A running server and client. */
export interface Harness {
  server: TestServer;
  client: RestClient;
  clock: VirtualClock;
  throttler: RecordingThrottler;
  close(): Promise<void>;
}

/** Start a server and a client with credentials and a generous throttler; `opts` override the client options. */
export async function startHarness(opts: Partial<RestClientOptions> = {}): Promise<Harness> {
  const server = await startTestServer();
  const clock = new VirtualClock(T0);
  const throttler = recording(createThrottler({ clock, callsPerMinute: 1_000_000 }));
  const client = createRestClient({ baseUrl: server.url, credentials: server.credentials, clock, throttler, timeoutMs: 5000, ...opts });
  return {
    server,
    client,
    clock,
    throttler,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** Assert the single request the server saw since the last reset, and return it. */
export function expectOne(
  server: TestServer,
  want: { method: string; path: string; query?: Record<string, string>; body?: unknown; signed?: boolean; route?: string },
): SeenRequest {
  expect(server.requests).toHaveLength(1);
  const r = server.requests[0]!;
  expect(r.method).toBe(want.method);
  expect(r.path).toBe(want.path);
  expect(r.query).toEqual(want.query ?? {});
  if ('body' in want) expect(r.body).toEqual(want.body);
  else expect(r.rawBody).toBe('');
  expect(r.signed).toBe(want.signed ?? true);
  // The clock stands at T0; the client steps its timestamps by 1 ms so that no two signed requests share one.
  if (r.signed) expect(Number(r.headers['api-timestamp']) - T0).toSatisfy((d: number) => Number.isInteger(d) && d >= 0 && d < 100_000);
  if (want.route) expect(r.route).toBe(want.route);
  return r;
}
