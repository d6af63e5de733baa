/**
 * The recorder behind `rexbot record`: subscribes hub channels and writes every push as received, plus the REST
 * snapshots a rule-4 synchronizer needs, to a recording (format in recording-format.ts).
 *
 * Which snapshots to take is decided by running the project's own {@link Synchronizer} per sequenced channel,
 * with an applier that keeps nothing: it asks for a snapshot after subscribing, again when the snapshot was older
 * than the first queued message, on every sequence gap and after a reconnection. Its requests are exactly what a
 * synchronizer replaying the file will ask for at the same lines, so each replayed request finds its snapshot as
 * the next snapshot line of the channel.
 */
import type { Observable } from 'rxjs';
import { map, Subject, type Subscription } from 'rxjs';
import { type Clock, systemClock } from '../core/clock.js';
import { GatewaySubscriptionError } from '../bittrex/gateway/gateway-errors.js';
import type { GatewayHubTuning } from '../bittrex/gateway.js';
import { inflatePayload } from '../bittrex/hub/codec.js';
import { createHubClient } from '../bittrex/hub/hub-client.js';
import type { HubClient, HubLifecycleEvent, HubLogger } from '../bittrex/hub/hub-client-types.js';
import { createHubTransport, type HubTransport } from '../bittrex/hub/transport.js';
import type { Credentials } from '../bittrex/rest/auth.js';
import { HttpTransport } from '../bittrex/rest/http.js';
import { createThrottler, type Throttler } from '../bittrex/rest/throttler.js';
import { Synchronizer } from '../sync/synchronizer.js';
import {
  channelOfPayload, RECORDING_FORMAT, RECORDING_VERSION, snapshotEndpoint, snapshotPath, type RecordedEvent,
  type RecordingHeader, type SnapshotEndpoint,
} from './recording-format.js';
import { openRecording, type RecordingWriter } from './recording-writer.js';

/** Options of {@link createRecorder}. */
export interface RecorderOptions {
  /** Hub URL of the chosen flavour (classic `.../signalr`, core `.../hub`). */
  hubUrl: string;
  /** REST base URL with the version path, e.g. `https://api.bittrex.com/v3`. */
  restUrl: string;
  transport: 'classic' | 'core';
  /** Hub channels to record (seed names). Private ones need credentials; `subaccounts_*` are refused. */
  channels: readonly string[];
  /**
   * Output file, conventionally `*.jsonl.gz`; created, and refused if it exists (unless `overwrite`). A start()
   * that fails leaves no file it created.
   */
  out: string;
  /**
   * Replace `out` if it exists, once start() succeeded (a failed start leaves it as it was). Default false: start()
   * rejects with a RecordingExistsError, the file untouched.
   */
  overwrite?: boolean | undefined;
  credentials?: Credentials | undefined;
  /** Receive times (`t`) and every timer. Default the system clock. */
  clock?: Clock | undefined;
  /** Budget for the snapshot calls; share it with other clients of the same key. Default a new one. */
  throttler?: Throttler | undefined;
  logger?: HubLogger | undefined;
  hub?: GatewayHubTuning | undefined;
}

/** What a recorder has written so far. */
export interface RecorderStats {
  file: string;
  messages: number;
  /** Heartbeats among `messages`: a recording with none never saw the hub's liveness signal. */
  heartbeats: number;
  snapshots: number;
  events: number;
  decodeErrors: number;
}

/** A running recording. */
export interface Recorder {
  /**
   * Open the file, connect, subscribe and take the first snapshots. Rejects if any step fails, having removed the
   * file it created (an `overwrite` leaves the existing file as it was).
   */
  start(): Promise<void>;
  /** Disconnect and finish the file; resolves with the final counts once the file is complete. */
  stop(): Promise<RecorderStats>;
  readonly stats: Readonly<RecorderStats>;
  /**
   * The sequence a sequenced channel's recording is synchronized to: the recording holds a snapshot and every
   * message up to it. Undefined while a snapshot is pending (or for an unsequenced channel).
   */
  synced(channel: string): number | undefined;
  /** Problems that do not stop the recording (snapshot failures being retried, undecodable pushes). */
  readonly errors$: Observable<Error>;
  /**
   * What the user should be told that is no problem, one line each: the partial files of `out` left by recorders
   * killed before their recording was kept, removed by start() (recording-writer.ts). Subscribe before start().
   */
  readonly notices$: Observable<string>;
}

/**
 * Create a recorder (nothing happens until start()).
 *
 * @example
 * const rec = createRecorder({ hubUrl: sim.hubUrl, restUrl: sim.restUrl, transport: 'classic',
 *   channels: ['orderbook_BTC-USD_25', 'trade_BTC-USD'], out: 'btc.jsonl.gz' });
 * await rec.start();
 * await clock.sleep(60_000);
 * console.log(await rec.stop()); // { messages: 1234, snapshots: 2, ... }
 */
export function createRecorder(opts: RecorderOptions): Recorder {
  return new RecorderImpl(opts);
}

const identity = (v: unknown): unknown => v;

class RecorderImpl implements Recorder {
  readonly #opts: RecorderOptions;
  readonly #clock: Clock;
  readonly #endpoints = new Map<string, SnapshotEndpoint>();
  readonly #syncs = new Map<string, Synchronizer<undefined, { sequence: number }>>();
  readonly #errors = new Subject<Error>();
  readonly stats: RecorderStats;
  readonly errors$: Observable<Error> = this.#errors.asObservable();
  readonly #notices = new Subject<string>();
  readonly notices$: Observable<string> = this.#notices.asObservable();
  #writer: RecordingWriter | undefined;
  #http: HttpTransport | undefined;
  #hub: HubClient | undefined;
  #lifecycle: Subscription | undefined;
  #stopped = false;
  /** start() succeeded: the recording is kept. */
  #started = false;

  constructor(opts: RecorderOptions) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
    this.stats = { file: opts.out, messages: 0, heartbeats: 0, snapshots: 0, events: 0, decodeErrors: 0 };
    if (opts.channels.length === 0) throw new RangeError('createRecorder: no channels to record');
    for (const channel of opts.channels) {
      const endpoint = snapshotEndpoint(channel);
      if (endpoint?.signed && !opts.credentials) throw new RangeError(`createRecorder: ${channel} is private and needs credentials`);
      if (endpoint) this.#endpoints.set(channel, endpoint);
    }
  }

  synced(channel: string): number | undefined {
    return this.#syncs.get(channel)?.sequence;
  }

  async start(): Promise<void> {
    const o = this.#opts;
    const header: RecordingHeader = {
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      startedAt: this.#clock.now(),
      channels: [...o.channels],
      source: { hub: o.hubUrl, rest: o.restUrl, transport: o.transport },
    };
    const onRemovedPartials = (paths: string[]) => {
      const what = paths.length === 1 ? 'a partial recording' : `${paths.length} partial recordings`;
      const who = paths.length === 1 ? 'a recorder' : 'recorders';
      this.#notices.next(`removed ${what} of ${o.out} left by ${who} no longer running: ${paths.join(', ')}`);
    };
    this.#writer = await openRecording(o.out, header, { overwrite: o.overwrite, onRemovedPartials });
    try {
      if (this.#stopped) throw new Error('the recorder was stopped before it started');
      await this.#connect();
      // Only a recording that started is kept: with overwrite, this is when it replaces the existing file.
      await this.#writer.keep();
      this.#started = true;
    } catch (e) {
      // A failed start leaves nothing behind: no file it created (the same command can simply be run again) and,
      // with overwrite, the file it was to replace as it was.
      await this.#shutDown().catch(() => undefined);
      await this.#writer.discard();
      throw e;
    }
    for (const sync of this.#syncs.values()) sync.start();
  }

  /** Set up the snapshot client and the synchronizers, connect the hub and subscribe every channel. */
  async #connect(): Promise<void> {
    const o = this.#opts;
    this.#http = new HttpTransport({
      baseUrl: o.restUrl,
      credentials: o.credentials,
      throttler: o.throttler ?? createThrottler({ clock: this.#clock }),
      clock: this.#clock,
      logger: o.logger,
    });
    for (const [channel, endpoint] of this.#endpoints) {
      this.#syncs.set(
        channel,
        new Synchronizer<undefined, { sequence: number }>({
          name: channel,
          clock: this.#clock,
          applier: { reset: () => undefined, apply: () => undefined },
          fetchSnapshot: () => this.#snapshot(channel, endpoint),
        }),
      );
    }
    for (const [channel, sync] of this.#syncs) {
      // A snapshot that keeps failing is retried by the synchronizer; say so without stopping the recording.
      sync.status$.subscribe((s) => {
        if (s.state === 'resyncing' && s.reason === 'error') this.#errors.next(new Error(`${channel}: snapshot failed: ${String((s.error as Error)?.message ?? s.error)}`));
      });
    }
    const hub = createHubClient({
      ...o.hub,
      transport: () => this.#tap(createHubTransport(o.transport, { url: o.hubUrl })),
      credentials: o.credentials,
      clock: this.#clock,
      logger: o.logger,
    });
    this.#hub = hub;
    this.#lifecycle = hub.lifecycle$.subscribe((e) => this.#onLifecycle(e));
    await hub.start();
    const refused = (await hub.subscribe(o.channels)).flatMap((r) => (r.success ? [] : [r.error]));
    if (refused.length > 0) throw new GatewaySubscriptionError(refused);
  }

  async stop(): Promise<RecorderStats> {
    await this.#shutDown();
    // Stopped before start() succeeded, the start fails: nothing of it is kept.
    if (this.#started) await this.#writer?.close();
    else await this.#writer?.discard();
    return { ...this.stats };
  }

  /** Disconnect and stop the synchronizers and the snapshot client (the file is the caller's). Idempotent. */
  async #shutDown(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#lifecycle?.unsubscribe();
    await this.#hub?.stop();
    for (const sync of this.#syncs.values()) sync.stop();
    await this.#http?.close();
    this.#errors.complete();
    this.#notices.complete();
  }

  /** The transport with every push copied to the recording before the hub client sees it. */
  #tap(inner: HubTransport): HubTransport {
    return {
      connect: () => inner.connect(),
      invoke: (method, ...args) => inner.invoke(method, ...args),
      close: () => inner.close(),
      events$: inner.events$.pipe(
        map((ev) => {
          if (ev.type === 'message') this.#onPush(ev.method, ev.args);
          return ev;
        }),
      ),
    };
  }

  #onPush(name: string, args: unknown[]): void {
    const t = this.#clock.now();
    if (args.length === 0) {
      this.#write(`{"t":${t},"name":${JSON.stringify(name)}}`);
      this.stats.messages++;
      if (name.toLowerCase() === 'heartbeat') this.stats.heartbeats++;
      return;
    }
    let text: string;
    let payload: unknown;
    try {
      if (typeof args[0] !== 'string') throw new Error(`argument is a ${typeof args[0]}, not base64 text`);
      // The hub client's own inflater, capped at 64 MiB of output: a few KB that inflate to gigabytes (a hostile
      // or broken venue) are a decode error, not a recorder out of memory (inflateRawSync had no cap).
      text = inflatePayload(args[0]);
      payload = JSON.parse(text);
    } catch (e) {
      this.stats.decodeErrors++;
      this.#event({ t, event: 'decode-error', name, reason: (e as Error).message });
      this.#errors.next(new Error(`${name}: undecodable push: ${(e as Error).message}`));
      return;
    }
    // The payload text is copied as sent (decimals untouched); one that spans lines is written re-serialised.
    const body = /[\r\n\u2028\u2029]/.test(text) ? JSON.stringify(payload) : text;
    this.#write(`{"t":${t},"name":${JSON.stringify(name)},"payload":${body}}`);
    this.stats.messages++;
    const sync = this.#syncs.get(channelOfPayload(name, payload) ?? '');
    const sequence = (payload as { sequence?: unknown } | null)?.sequence;
    if (sync && typeof sequence === 'number') {
      try {
        sync.push({ sequence });
      } catch (e) {
        this.#errors.next(e as Error);
      }
    }
  }

  async #snapshot(channel: string, endpoint: SnapshotEndpoint): Promise<{ data: undefined; sequence: number }> {
    const http = this.#http!;
    const res = await http.callSequenced(
      { method: 'GET', path: endpoint.path, query: endpoint.query, signed: endpoint.signed },
      identity,
    );
    const t = this.#clock.now();
    // Written before the synchronizer hears of it, so it precedes every message the synchronizer sees after it.
    this.#write(JSON.stringify({ t, snapshot: snapshotPath(endpoint), channel, sequence: res.sequence, body: res.data }));
    this.stats.snapshots++;
    return { data: undefined, sequence: res.sequence };
  }

  #onLifecycle(e: HubLifecycleEvent): void {
    switch (e.type) {
      case 'connected':
        this.#event({ t: e.at, event: 'connected', epoch: e.epoch });
        return;
      case 'reconnected':
        // The line first: the snapshots these resyncs take must follow it in the file, as they do in a replay.
        this.#event({ t: e.at, event: 'reconnected', epoch: e.epoch, reason: e.reason });
        for (const sync of this.#syncs.values()) sync.reconnect();
        return;
      case 'resubscribed':
        this.#event({ t: e.at, event: 'resubscribed', epoch: e.epoch, reason: e.reason, channels: e.channels });
        for (const c of e.channels) this.#syncs.get(c)?.reconnect();
        return;
      case 'authenticated':
        return;
    }
  }

  #event(e: RecordedEvent): void {
    this.#write(JSON.stringify(e));
    this.stats.events++;
  }

  #write(line: string): void {
    if (!this.#stopped) this.#writer?.writeLine(line);
  }
}
