/** Shared setup of the funds tests: a Funds facade over fresh engine foundations in virtual time. */
import type { SimConfig } from '../../src/sim/config.js';
import { Funds } from '../../src/sim/funds.js';
import type { Ledger } from '../../src/sim/ledger.js';
import { simFoundations } from './sim-fixture.js';

export { START, refusal } from './sim-fixture.js';

export function fundsFixture(overrides: Partial<SimConfig> = {}) {
  const foundations = simFoundations(overrides);
  return { ...foundations, funds: new Funds(foundations) };
}

/** Every currency conserved exactly (sum of balances = credited - debited). */
export function expectConserved(ledger: Ledger): void {
  for (const a of ledger.audit()) {
    if (!a.discrepancy.isZero()) throw new Error(`${a.currency} not conserved: discrepancy ${a.discrepancy.toFixed()}`);
  }
}
