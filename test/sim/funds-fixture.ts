/** Shared setup of the funds tests: a Funds facade over fresh engine foundations in virtual time. */
import { VirtualClock } from '../../src/core/clock.js';
import { Catalog } from '../../src/sim/catalog.js';
import { defaultSimConfig, type SimConfig } from '../../src/sim/config.js';
import { SimEventBus, type SimEvent } from '../../src/sim/events.js';
import { Funds } from '../../src/sim/funds.js';
import { IdempotencyIndex } from '../../src/sim/idempotency.js';
import { Ledger } from '../../src/sim/ledger.js';
import { SequenceCounters } from '../../src/sim/sequences.js';
import { SimError } from '../../src/sim/sim-error.js';

/** 2021-06-14T00:00:00Z, the day of the recorded data. */
export const START = Date.parse('2021-06-14T00:00:00Z');

export function fundsFixture(overrides: Partial<SimConfig> = {}) {
  const clock = new VirtualClock(START);
  const config = defaultSimConfig(overrides);
  const catalog = new Catalog(config);
  const ledger = new Ledger(clock);
  const bus = new SimEventBus();
  const sequences = new SequenceCounters();
  const idempotency = new IdempotencyIndex(clock);
  const funds = new Funds({ clock, ledger, catalog, bus, sequences, idempotency, config });
  const events: SimEvent[] = [];
  bus.on((e) => events.push(e));
  return { clock, config, catalog, ledger, bus, sequences, idempotency, funds, events };
}

/** The SimError `fn` throws (fails the test when it throws something else or nothing). */
export function refusal(fn: () => unknown): SimError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SimError) return e;
    throw e;
  }
  throw new Error('expected a SimError');
}

/** Every currency conserved exactly (sum of balances = credited - debited). */
export function expectConserved(ledger: Ledger): void {
  for (const a of ledger.audit()) {
    if (!a.discrepancy.isZero()) throw new Error(`${a.currency} not conserved: discrepancy ${a.discrepancy.toFixed()}`);
  }
}
