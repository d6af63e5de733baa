/**
 * Test kit for the hub server: a fixed key store, and raw wire clients (classic frames, Core records) that record
 * every frame so tests can assert exactly what went over the socket.
 *
 * Absence is asserted without waiting: frames on one socket arrive in order, so once the reply to an invocation
 * made after a publish has arrived, every push of that publish has arrived too ({@link RawClassicClient.barrier}).
 */
import { afterAll, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { hmacSha512Hex } from '../../../src/bittrex/rest/auth.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { startHubServer, type HubServer } from '../../../src/server/hub/attach-hub.js';
import type { HubBackend } from '../../../src/server/hub/hub-types.js';

/** Keys of the test key store. */
export const KEYS = {
  master: { apiKey: 'key-master', secret: 'secret-master', accountId: 'acct-master' },
  other: { apiKey: 'key-other', secret: 'secret-other', accountId: 'acct-other' },
  sub: { apiKey: 'key-sub', secret: 'secret-sub', accountId: 'acct-sub' },
} as const;

/** A backend over {@link KEYS}: master manages acct-sub; BTC-USD, ETH-BTC and BTC-EUR exist. */
export function testBackend(): HubBackend {
  const all = Object.values(KEYS);
  return {
    findKey: (apiKey) => {
      const k = all.find((x) => x.apiKey === apiKey);
      return k && { secret: k.secret, accountId: k.accountId };
    },
    subaccountsOf: (accountId) => (accountId === KEYS.master.accountId ? [KEYS.sub.accountId] : []),
    marketExists: (m) => ['BTC-USD', 'ETH-BTC', 'BTC-EUR'].includes(m),
  };
}

/** The hub server of a test file and its virtual clock, readable once the file's `beforeAll` has run. */
export interface TestHub {
  readonly srv: HubServer;
  readonly clock: VirtualClock;
}

/**
 * Serve {@link testBackend} on loopback for the calling test file: started in a `beforeAll`, closed in an
 * `afterAll`. Its timers run on a virtual clock starting in 2021; pass `startMs: Date.now()` when a client on the
 * system clock must authenticate against it.
 *
 * @example
 * const hub = useTestHub();
 * it('answers negotiate', async () => expect((await fetch(`${hub.srv.classicUrl}/negotiate`)).status).toBe(200));
 */
export function useTestHub(opts: { startMs?: number } = {}): TestHub {
  let started: TestHub | undefined;
  beforeAll(async () => {
    const clock = new VirtualClock(opts.startMs ?? Date.parse('2021-06-14T01:53:38Z'));
    started = { clock, srv: await startHubServer({ backend: testBackend(), clock }) };
  });
  afterAll(async () => {
    await started?.srv.close();
  });
  const get = (): TestHub => {
    if (!started) throw new Error('the test hub is only there inside tests and hooks (it starts in beforeAll)');
    return started;
  };
  return {
    get srv() {
      return get().srv;
    },
    get clock() {
      return get().clock;
    },
  };
}

/** Authenticate's four arguments for a key at a time. */
export function authArgs(
  key: { apiKey: string; secret: string },
  timestamp: number,
  opts: { upper?: boolean; asString?: boolean; random?: string } = {},
): unknown[] {
  // Fresh random content, as real clients send: the hub refuses the same arguments on a second connection (a replay).
  const random = opts.random ?? randomUUID();
  let sig = hmacSha512Hex(key.secret, String(timestamp) + random);
  if (opts.upper) sig = sig.toUpperCase();
  return [key.apiKey, opts.asString ? String(timestamp) : timestamp, random, sig];
}

/**
 * Collects frames from a socket. `next` and `take` keep separate cursors: waiting for a reply does not hide the
 * pushes that came before it from `take`.
 */
class FrameLog<T> {
  readonly all: T[] = [];
  #cursor = 0;
  #taken = 0;
  #waiters: { pred: (f: T) => boolean; resolve: (f: T) => void }[] = [];

  add(frame: T): void {
    this.all.push(frame);
    this.#drain();
  }

  /** Resolve with the first unconsumed frame matching `pred`; frames before it are consumed. */
  next(pred: (f: T) => boolean = () => true): Promise<T> {
    return new Promise((resolve) => {
      this.#waiters.push({ pred, resolve });
      this.#drain();
    });
  }

  /** Everything received since the last call (and mark it consumed). */
  take(): T[] {
    const out = this.all.slice(this.#taken);
    this.#taken = this.all.length;
    return out;
  }

  #drain(): void {
    while (this.#waiters.length > 0) {
      const w = this.#waiters[0]!;
      let found: T | undefined;
      while (this.#cursor < this.all.length) {
        const f = this.all[this.#cursor++]!;
        if (w.pred(f)) {
          found = f;
          break;
        }
      }
      if (found === undefined) return;
      this.#waiters.shift();
      w.resolve(found);
    }
  }
}

/** A parsed classic frame. */
export type ClassicFrameJson = Record<string, unknown>;

/** A hand-driven classic SignalR client that records every frame. */
export class RawClassicClient {
  readonly frames = new FrameLog<ClassicFrameJson>();
  readonly raw: string[] = [];
  ws!: WebSocket;
  token = '';
  connectionId = '';
  negotiate: Record<string, unknown> = {};
  #nextId = 1;
  closed: Promise<number>;
  #resolveClosed!: (code: number) => void;

  /** `hub`: the hub named in connectionData and invocations (`c3`; `c2` for the v1.1 hub). */
  constructor(readonly base: string, readonly hub = 'c3') {
    this.closed = new Promise((r) => (this.#resolveClosed = r));
  }

  /** Negotiate and open the socket; resolves with the init frame. Does not call /start. */
  async open(extraQuery: Record<string, string> = {}): Promise<ClassicFrameJson> {
    const cd = encodeURIComponent(`[{"name":"${this.hub}"}]`);
    const res = await fetch(`${this.base}/negotiate?clientProtocol=1.5&connectionData=${cd}`);
    this.negotiate = (await res.json()) as Record<string, unknown>;
    this.token = String(this.negotiate.ConnectionToken);
    this.connectionId = String(this.negotiate.ConnectionId);
    const q = new URLSearchParams({
      transport: 'webSockets',
      clientProtocol: '1.5',
      connectionToken: this.token,
      connectionData: `[{"name":"${this.hub}"}]`,
      ...extraQuery,
    });
    this.ws = new WebSocket(`${this.base.replace(/^http/, 'ws')}/connect?${q}`);
    this.ws.on('message', (d) => {
      const text = String(d);
      this.raw.push(text);
      this.frames.add(JSON.parse(text) as ClassicFrameJson);
    });
    this.ws.on('close', (code) => this.#resolveClosed(code));
    await new Promise<void>((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    return this.frames.next((f) => f.S === 1);
  }

  /** The query the classic client repeats on start/abort. */
  query(): string {
    return new URLSearchParams({
      transport: 'webSockets',
      clientProtocol: '1.5',
      connectionToken: this.token,
      connectionData: `[{"name":"${this.hub}"}]`,
    }).toString();
  }

  /** Send raw text. */
  sendRaw(text: string): void {
    this.ws.send(text);
  }

  /** Invoke and wait for the reply frame (with `I` equal to the id as a string). */
  async invoke(method: string, args: unknown[], id: number | string = this.#nextId++): Promise<ClassicFrameJson> {
    this.ws.send(JSON.stringify({ H: this.hub, M: method, A: args, I: id }));
    return this.frames.next((f) => f.I === String(id));
  }

  /** Subscribe and return the per-channel SocketResponses. */
  async subscribe(...channels: string[]): Promise<unknown> {
    return (await this.invoke('Subscribe', [channels])).R;
  }

  /** Round trip that guarantees every push sent before it has arrived. */
  async barrier(): Promise<void> {
    await this.invoke('IsAuthenticated', []);
  }

  /** Hub messages (`M` entries) received since the last call. */
  pushes(): { H: unknown; M: string; A: unknown[] }[] {
    return this.frames
      .take()
      .flatMap((f) => (Array.isArray(f.M) ? (f.M as { H: unknown; M: string; A: unknown[] }[]) : []));
  }

  close(): void {
    this.ws.terminate();
  }
}

/** A hand-driven ASP.NET Core SignalR client (JSON protocol) that records every record. */
export class RawCoreClient {
  readonly records = new FrameLog<Record<string, unknown>>();
  ws!: WebSocket;
  #nextId = 1;
  closed: Promise<number>;
  #resolveClosed!: (code: number) => void;

  constructor(readonly url: string) {
    this.closed = new Promise((r) => (this.#resolveClosed = r));
  }

  /** Negotiate, open the socket and complete the handshake; resolves with the handshake reply. */
  async open(handshake = '{"protocol":"json","version":1}\x1e'): Promise<Record<string, unknown>> {
    const res = await fetch(`${this.url}/negotiate?negotiateVersion=1`, { method: 'POST' });
    const neg = (await res.json()) as { connectionToken: string };
    this.ws = new WebSocket(`${this.url.replace(/^http/, 'ws')}?id=${encodeURIComponent(neg.connectionToken)}`);
    this.ws.on('message', (d) => {
      for (const rec of String(d).split('\x1e')) if (rec) this.records.add(JSON.parse(rec) as Record<string, unknown>);
    });
    this.ws.on('close', (code) => this.#resolveClosed(code));
    await new Promise<void>((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.ws.send(handshake);
    return this.records.next();
  }

  sendRaw(text: string): void {
    this.ws.send(text);
  }

  /** Invoke and wait for its Completion. */
  async invoke(target: string, args: unknown[]): Promise<Record<string, unknown>> {
    const invocationId = String(this.#nextId++);
    this.ws.send(JSON.stringify({ type: 1, invocationId, target, arguments: args }) + '\x1e');
    return this.records.next((r) => r.type === 3 && r.invocationId === invocationId);
  }

  async barrier(): Promise<void> {
    await this.invoke('IsAuthenticated', []);
  }

  /** Invocation records (pushes) received since the last call. */
  pushes(): { target: string; arguments: unknown[] }[] {
    return this.records.take().filter((r) => r.type === 1) as { target: string; arguments: unknown[] }[];
  }

  close(): void {
    this.ws.terminate();
  }
}
