/**
 * What the simulator's unit tests build on: the engine's foundations (the parts `createSimEngine` wires and
 * hands to each facade) in virtual time with every published event captured, and `refusal` for asserting
 * the SimError an operation throws. Each area's harness adds only the facade it tests.
 */
import { VirtualClock } from '../../src/core/clock.js';
import { Catalog } from '../../src/sim/catalog.js';
import { defaultSimConfig, type SimConfig } from '../../src/sim/config.js';
import { SimEventBus, type SimEvent, type SimEventInterest } from '../../src/sim/events.js';
import { IdempotencyIndex } from '../../src/sim/idempotency.js';
import { Ledger } from '../../src/sim/ledger.js';
import { SequenceCounters } from '../../src/sim/sequences.js';
import { SimError } from '../../src/sim/sim-error.js';

/** 2021-06-14T00:00:00Z: the day of the recorded data, and a UTC midnight (so every candle interval starts here). */
export const START = Date.parse('2021-06-14T00:00:00Z');

/**
 * Fresh foundations: a clock at `start`, the default configuration with `overrides`, and a catalog, ledger, event
 * bus (recorded into `events`), sequence counters and idempotency index over them. Hand it to a facade as its
 * deps: `new Funds(simFoundations())`.
 */
export function simFoundations(overrides: Partial<SimConfig> = {}, start = START, interest?: SimEventInterest) {
  const clock = new VirtualClock(start);
  const config = defaultSimConfig(overrides);
  const catalog = new Catalog(config);
  const ledger = new Ledger(clock);
  const bus = new SimEventBus();
  const sequences = new SequenceCounters();
  const idempotency = new IdempotencyIndex(clock);
  const events: SimEvent[] = [];
  // `interest`: the capturing listener declines some kinds, as a hub bridge without subscribers to them does.
  bus.on((e) => events.push(e), interest);
  return { clock, config, catalog, ledger, bus, sequences, idempotency, events };
}

/** The SimError `fn` throws (fails the test when it throws nothing or something else). */
export function refusal(fn: () => unknown): SimError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SimError) return e;
    throw e;
  }
  throw new Error('expected a SimError');
}
