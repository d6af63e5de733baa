/**
 * Replay and brute-force defences of the simulator's signed REST requests (issue 9 item 8).
 *
 * - Replays: a signed request is valid anywhere in the ±window of its Api-Timestamp, so a captured signed
 *   `POST /orders` made a new order each time it was sent again. A state-changing request (POST, PUT, DELETE)
 *   whose (key, signature) was already seen is refused while it could still verify; reads are not
 *   tracked (replaying a GET changes nothing, and clients may repeat reads freely).
 * - Repeated authentication failures: each failure of a key, or on a connection, beyond `freeFailures` is answered
 *   only after a delay that doubles per failure (capped), so guessing signatures gets slower and slower while
 *   every valid request is answered at once. A success on a connection forgets that connection's failures; a
 *   key's failures are forgotten after `failureMemoryMs` without one.
 */
import type { Clock } from '../../core/clock.js';
import { MAX_OFFSET, SignatureSet } from './signature-set.js';

/** Options of {@link ReplayGuard}. */
export interface ReplayGuardOptions {
  clock: Clock;
  /** The accepted Api-Timestamp skew: a request is remembered until it can no longer verify. */
  timestampWindowMs: number;
  /** Failures answered at once, per key and per connection; default 5. */
  freeFailures?: number;
  /** Delay of the first slowed failure, doubled per further failure; default 250 ms. */
  baseDelayMs?: number;
  /** Largest delay; default 10 s. */
  maxDelayMs?: number;
  /** A key's failures are forgotten after this long without one; default 10 minutes. */
  failureMemoryMs?: number;
}

interface Failures {
  count: number;
  lastAt: number;
}

/** Remembers state-changing signatures and counts authentication failures; see the module note. */
export class ReplayGuard {
  readonly #clock: Clock;
  readonly #window: number;
  readonly #free: number;
  readonly #base: number;
  readonly #max: number;
  readonly #memory: number;
  /**
   * Time slot of the Api-Timestamp (its `#slotMs` span) -> API key -> signature id ({@link signatureId}) -> the
   * Api-Timestamp(s) it was sent with, as offsets into the slot. A replay carries the same timestamp, so it is looked
   * for in one slot only; a slot whose every timestamp can no longer verify is dropped whole (no walk over every
   * remembered request), and no map grows with the whole window (4000 orders/s for 5 minutes is 1.2M requests).
   */
  readonly #slots = new Map<number, Map<string, Map<number | string, number | number[]>>>();
  /**
   * The same memory for the usual request (a hex signature, an integer timestamp): slot -> API key -> the set of
   * (offset, signature id) pairs, in typed arrays (signature-set.ts) rather than a Map per key. `#slots` keeps the
   * rest (a non-hex signature, a timestamp no integer), exactly as before.
   */
  readonly #sets = new Map<number, Map<string, SignatureSet>>();
  readonly #slotMs: number;
  readonly #keyFailures = new Map<string, Failures>();
  readonly #connFailures = new WeakMap<object, Failures>();
  #nextPrune = 0;

  constructor(opts: ReplayGuardOptions) {
    this.#clock = opts.clock;
    this.#window = opts.timestampWindowMs;
    this.#free = opts.freeFailures ?? 5;
    this.#base = opts.baseDelayMs ?? 250;
    this.#max = opts.maxDelayMs ?? 10_000;
    this.#memory = opts.failureMemoryMs ?? 10 * 60_000;
    // ~16 slots over the window: each small, and a dropped slot is at most a sixteenth of the window late.
    this.#slotMs = Math.max(1000, Math.ceil(this.#window / 16));
  }

  /**
   * Record a verified state-changing request; false when the same key already sent the same signature inside the
   * window (a replay, to be refused).
   *
   * Remembered per key as (timestamp, the signature's first 52 bits as a number), not as the 128-character header
   * text: every signed POST was kept as its own string for the whole window (5 minutes; ~150 retained bytes per
   * order the GC had to copy and mark), where two numbers do (issue 9 item 9). A replay carries the identical
   * signature and timestamp, so it is always refused. A distinct request is refused wrongly only if the same key
   * signed another one in the same millisecond whose signature shares its first 52 bits (chance 2^-52 per such
   * pair; rexbot's own client never signs two requests of a key in one millisecond). A signature that is not hex
   * (never one that verified) is remembered by its lower-case text, as before.
   */
  firstUse(apiKey: string, timestamp: string, signature: string): boolean {
    const now = this.#clock.now();
    this.#prune(now);
    const ts = Number(timestamp);
    const id = signatureId(signature);
    const slotMs = this.#slotMs;
    const slot = Math.floor(ts / slotMs);
    // Offsets into the slot are small integers (no number object per remembered request, as a raw timestamp was).
    const at = ts - slot * slotMs;
    if (typeof id === 'number' && Number.isSafeInteger(ts) && at >= 0 && at <= MAX_OFFSET) {
      let keySets = this.#sets.get(slot);
      if (keySets === undefined) this.#sets.set(slot, (keySets = new Map()));
      let set = keySets.get(apiKey);
      if (set === undefined) keySets.set(apiKey, (set = new SignatureSet()));
      // Already there with this timestamp: the same request again, refused while it could still verify.
      return set.add(at, id) || ts + this.#window < now;
    }
    let keys = this.#slots.get(slot);
    if (keys === undefined) this.#slots.set(slot, (keys = new Map()));
    let seen = keys.get(apiKey);
    if (seen === undefined) keys.set(apiKey, (seen = new Map()));
    const live = ts + this.#window >= now;
    const known = seen.get(id);
    if (known === undefined) {
      seen.set(id, at);
      return true;
    }
    // Still verifiable with the same timestamp: the same request again. Another timestamp in the slot under the same
    // id is another request: keep both (an expired one goes with its slot).
    if (typeof known === 'number') {
      if (known === at && live) return false;
      if (known !== at) seen.set(id, [known, at]);
      return true;
    }
    for (const t of known) if (t === at) return !live;
    known.push(at);
    return true;
  }

  /** Signatures remembered now (for tests and diagnostics). */
  get remembered(): number {
    let n = 0;
    for (const keySets of this.#sets.values()) for (const set of keySets.values()) n += set.size;
    for (const keys of this.#slots.values()) {
      for (const seen of keys.values()) for (const v of seen.values()) n += typeof v === 'number' ? 1 : v.length;
    }
    return n;
  }

  /**
   * Count an authentication failure of `apiKey` (when the request named one) on `connection`; returns how long
   * to hold the answer back (0 while within the free failures of both).
   */
  failed(apiKey: string | undefined, connection: object): number {
    const now = this.#clock.now();
    const bump = (f: Failures | undefined): Failures => {
      const fresh = !f || now - f.lastAt > this.#memory;
      return { count: fresh ? 1 : f.count + 1, lastAt: now };
    };
    const conn = bump(this.#connFailures.get(connection));
    this.#connFailures.set(connection, conn);
    let worst = conn.count;
    if (apiKey !== undefined) {
      const key = bump(this.#keyFailures.get(apiKey));
      this.#keyFailures.set(apiKey, key);
      worst = Math.max(worst, key.count);
    }
    const over = worst - this.#free;
    return over <= 0 ? 0 : Math.min(this.#max, this.#base * 2 ** Math.min(30, over - 1));
  }

  /** A request on `connection` authenticated: its connection's failures are forgiven (not the key's). */
  succeeded(connection: object): void {
    this.#connFailures.delete(connection);
  }

  #prune(now: number): void {
    if (now < this.#nextPrune) return;
    this.#nextPrune = now + Math.min(10_000, this.#slotMs);
    const oldest = now - this.#window; // a timestamp before this can no longer verify
    // A slot goes when its last timestamp is before `oldest`.
    for (const slot of this.#slots.keys()) if ((slot + 1) * this.#slotMs - 1 < oldest) this.#slots.delete(slot);
    for (const slot of this.#sets.keys()) if ((slot + 1) * this.#slotMs - 1 < oldest) this.#sets.delete(slot);
    for (const [k, f] of this.#keyFailures) if (now - f.lastAt > this.#memory) this.#keyFailures.delete(k);
  }
}

/**
 * The first 13 hex digits (52 bits, exact in a double) of a hex signature as a number, either case; the lower-case
 * text itself when it does not start with 13 hex digits. Read digit by digit: no substring, no lower-cased copy, and
 * no branch per digit (a signature's digits are a random mix of numbers and letters, so a branch on which one it is
 * was mispredicted about every other digit): a digit's value is `(c & 15) + 9 * (c >> 6)` for `0`-`9`, `a`-`f` and
 * `A`-`F` alike, and whether every character was one of those is gathered in `bad` and looked at once.
 */
export function signatureId(signature: string): number | string {
  if (signature.length < 13) return signature.toLowerCase();
  let v = 0;
  let bad = 0;
  for (let i = 0; i < 13; i++) {
    const c = signature.charCodeAt(i);
    const l = c | 32; // a-f or A-F (only they fold into a-f)
    // 1 when outside 0-9 and outside a-f/A-F: each range test is the sign of (c - low) | (high - c).
    bad |= (((c - 48) | (57 - c)) >>> 31) & (((l - 97) | (102 - l)) >>> 31);
    v = v * 16 + (c & 15) + 9 * (c >> 6);
  }
  return bad === 0 ? v : signature.toLowerCase();
}
