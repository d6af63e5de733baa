/**
 * Fault injection for hub pushes: drop, duplicate and reorder, decided by a seeded PRNG so a failing run can be
 * replayed exactly. There is one dice stream per hub, rolled once per (push, recipient) with recipients in the
 * order they subscribed: the same seed, connections and publications give the same faults, while two redundant
 * connections still lose different messages. These are the faults a sequenced stream client must survive (seed section 6, rule 4: a gap
 * means resynchronise), so the simulator offers them to test clients against.
 */
import { mulberry32 } from '../../core/prng.js';

/** What to break. Rates are probabilities in [0, 1] applied per push per connection. */
export interface HubFaultConfig {
  /** Probability that a push is not delivered. */
  dropRate?: number;
  /** Probability that a push is delivered twice in a row. */
  duplicateRate?: number;
  /** Probability that a push is held back and delivered right after the next push to the same connection. */
  reorderRate?: number;
  /** Stop sending heartbeats (connections then look dead to a heartbeat watchdog). */
  stallHeartbeat?: boolean;
  /** PRNG seed; the same seed and the same pushes give the same faults. Default 1. */
  seed?: number;
}

/** The verdict for one push. */
export interface FaultDecision {
  drop: boolean;
  duplicate: boolean;
  reorder: boolean;
}

const NONE: FaultDecision = { drop: false, duplicate: false, reorder: false };

function rate(name: string, v: number | undefined): number {
  if (v === undefined) return 0;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) {
    throw new RangeError(`faults.${name} must be a number between 0 and 1, got ${String(v)}`);
  }
  return v;
}

/**
 * The hub's fault settings. `set` replaces the whole configuration (unnamed faults switch off) and reseeds.
 *
 * @example
 * hub.faults.set({ dropRate: 0.1, reorderRate: 0.05, seed: 42 });
 * hub.faults.set({}); // back to a clean wire
 */
export class HubFaults {
  #config: Required<HubFaultConfig> = { dropRate: 0, duplicateRate: 0, reorderRate: 0, stallHeartbeat: false, seed: 1 };
  #random = mulberry32(1);
  readonly #onChange: () => void;

  /** `onChange` runs after every `set` (the hub uses it to release held-back pushes). */
  constructor(onChange: () => void = () => undefined) {
    this.#onChange = onChange;
  }

  /** Replace the configuration and restart the PRNG from the seed. Throws RangeError on a rate outside [0, 1]. */
  set(config: HubFaultConfig): void {
    const seed = config.seed ?? 1;
    if (!Number.isInteger(seed)) throw new RangeError(`faults.seed must be an integer, got ${String(seed)}`);
    this.#config = {
      dropRate: rate('dropRate', config.dropRate),
      duplicateRate: rate('duplicateRate', config.duplicateRate),
      reorderRate: rate('reorderRate', config.reorderRate),
      stallHeartbeat: config.stallHeartbeat === true,
      seed,
    };
    this.#random = mulberry32(seed);
    this.#onChange();
  }

  /** The current configuration, every field filled in. */
  get(): Required<HubFaultConfig> {
    return { ...this.#config };
  }

  /** True when heartbeats must not be sent. */
  get heartbeatStalled(): boolean {
    return this.#config.stallHeartbeat;
  }

  /** Roll the dice for one push. Draws nothing while no rate is set, so a clean wire costs nothing. */
  decide(): FaultDecision {
    const { dropRate, duplicateRate, reorderRate } = this.#config;
    if (dropRate === 0 && duplicateRate === 0 && reorderRate === 0) return NONE;
    // Always three draws per push, so one fault's rate does not shift the dice the others see.
    const d = this.#random();
    const u = this.#random();
    const r = this.#random();
    return { drop: d < dropRate, duplicate: u < duplicateRate, reorder: r < reorderRate };
  }
}
