/**
 * Property test of the v1.1 resynchronization over the real 2021 payloads (test/fixtures/v1-capture): a scripted
 * connection answers QueryExchangeState with the recorded book at the current nonce (the capture's snapshot moved
 * on by the recorded deltas) and pushes the recorded uE with seeded duplicates, drops and swaps. Whatever the
 * perturbation (the last delta always arrives), V1BookSync's book ends equal to the recorded truth, no book it reports as in step is crossed, and it
 * resynchronized exactly when a delta was lost or came out of order.
 */
import { readFileSync } from 'node:fs';
import { Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { parseClassicFrame } from '../../../../src/bittrex/hub/classic-frames.js';
import type { HubTransport, TransportEvent } from '../../../../src/bittrex/hub/transport.js';
import { V1BookSync } from '../../../../src/bittrex/v1/hub/v1-book-sync.js';
import { V1HubClient } from '../../../../src/bittrex/v1/hub/v1-hub-client.js';
import { V1LocalBook } from '../../../../src/bittrex/v1/hub/v1-local-book.js';
import { VirtualClock } from '../../../../src/core/clock.js';
import type { V1ExchangeDelta, V1ExchangeState } from '../../../../src/wire/v1/hub/messages.js';
import { decodeV1Payload, encodeV1Payload } from '../../../../src/wire/v1/hub/protocol.js';
import { Prng } from '../../../sync/prng.js';

const MARKET = 'USDT-BSV';

/** The capture's snapshot and deltas of one market, with the raw uE payloads. */
function recorded(): { state: V1ExchangeState; deltas: { payload: string; delta: V1ExchangeDelta }[] } {
  const text = readFileSync(new URL('../../../fixtures/v1-capture/BITTREX.ws.21.0', import.meta.url), 'utf8');
  let state: V1ExchangeState | undefined;
  const deltas: { payload: string; delta: V1ExchangeDelta }[] = [];
  for (const line of text.split('\n')) {
    const m = /^\d+(?:\.\d+)?: (\{.*)$/s.exec(line);
    if (!m) continue;
    const f = parseClassicFrame(m[1]!);
    if (f.kind === 'result' && typeof f.result === 'string') {
      const s = decodeV1Payload('QueryExchangeState', f.result);
      if (s.MarketName === MARKET) state = s;
    }
    if (f.kind === 'push') {
      for (const p of f.messages) {
        if (p.method !== 'uE') continue;
        const delta = decodeV1Payload('uE', p.args[0]);
        if (delta.MarketName === MARKET) deltas.push({ payload: p.args[0] as string, delta });
      }
    }
  }
  const after = deltas.filter((d) => d.delta.Nonce > state!.Nonce).sort((a, b) => a.delta.Nonce - b.delta.Nonce);
  return { state: state!, deltas: after };
}

const { state: SNAPSHOT, deltas: DELTAS } = recorded();

/** The recorded book after the deltas up to `nonce`, as a QueryExchangeState payload. */
function stateAt(nonce: number): string {
  const book = new V1LocalBook(SNAPSHOT);
  for (const { delta } of DELTAS) if (delta.Nonce <= nonce) book.apply(delta.Nonce, delta.Buys, delta.Sells);
  return encodeV1Payload({
    MarketName: MARKET,
    Nonce: nonce,
    Buys: book.bids().map((l) => ({ Quantity: l.quantity, Rate: l.rate })),
    Sells: book.asks().map((l) => ({ Quantity: l.quantity, Rate: l.rate })),
    Fills: [],
  });
}

/** A scripted c2 connection: answers queries at the server's current nonce; pushes what the test sends. */
class ScriptedConnection implements HubTransport {
  readonly #events = new Subject<TransportEvent>();
  readonly events$ = this.#events.asObservable();
  constructor(private readonly server: { nonce: number }) {}
  async connect(): Promise<void> {}
  async invoke(method: string): Promise<unknown> {
    return method === 'QueryExchangeState' ? stateAt(this.server.nonce) : true;
  }
  push(payload: string): void {
    this.#events.next({ type: 'message', method: 'uE', args: [payload] });
  }
  async close(): Promise<void> {
    this.#events.next({ type: 'closed' });
    this.#events.complete();
  }
}

function truth(): string[] {
  const book = new V1LocalBook(SNAPSHOT);
  for (const { delta } of DELTAS) book.apply(delta.Nonce, delta.Buys, delta.Sells);
  return [...book.bids(), ...book.asks()].map((l) => `${l.quantity.toString()}@${l.rate.toString()}`);
}

describe(`V1BookSync over the recorded ${MARKET} uE, perturbed`, () => {
  expect(DELTAS.length).toBeGreaterThan(20);
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`seed ${seed}: ends equal to the recorded book, never reports a crossed book, resyncs only after a loss`, async () => {
      const rng = new Prng(seed);
      const server = { nonce: SNAPSHOT.Nonce };
      const connections: ScriptedConnection[] = [];
      const clock = new VirtualClock(0);
      const sync = new V1BookSync({
        markets: [MARKET],
        clock,
        reconnect: { initialDelayMs: 0, maxDelayMs: 0 },
        newClient: () => {
          const c = new ScriptedConnection(server);
          connections.push(c);
          return new V1HubClient({ url: 'http://unused.invalid/signalr', transport: c });
        },
      });
      let crossed = 0;
      sync.events$.subscribe((e) => e.type === 'book' && e.book.crossed() && crossed++);
      sync.start();
      await vi.waitFor(() => expect(sync.book(MARKET)).toBeDefined());

      let lossy = false;
      let held: string | undefined;
      for (const [i, { payload, delta }] of DELTAS.entries()) {
        server.nonce = delta.Nonce;
        const live = connections[connections.length - 1]!;
        // The last delta always arrives: a loss shows only when a later nonce does (a lost LAST delta is what the
        // stale-connection rule covers, tested against the simulator in v1-book-sync.test.ts).
        const r = i === DELTAS.length - 1 ? 1 : rng.next();
        if (r < 0.05) {
          lossy = true; // dropped
        } else if (r < 0.1 && held === undefined) {
          held = payload; // sent after the next one: out of order
          lossy = true;
          continue;
        } else {
          live.push(payload);
          if (r < 0.2) live.push(payload); // duplicated
        }
        if (held !== undefined) {
          live.push(held);
          held = undefined;
        }
        await clock.advance(0); // a recycle reconnects on the clock
        await vi.waitFor(() => expect(sync.book(MARKET)).toBeDefined());
      }
      if (held !== undefined) connections[connections.length - 1]!.push(held);
      await vi.waitFor(async () => {
        await clock.advance(0);
        const book = sync.book(MARKET);
        expect(book?.nonce).toBe(server.nonce);
        expect([...book!.bids(), ...book!.asks()].map((l) => `${l.quantity.toString()}@${l.rate.toString()}`)).toEqual(truth());
      });
      expect(crossed).toBe(0);
      expect(sync.resyncs > 0).toBe(lossy);
      await sync.stop();
    });
  }
});
