/** Shared setup of the funds tests: a Funds facade over fresh engine foundations in virtual time. */
import type { SimConfig } from '../../src/sim/config.js';
import { Funds } from '../../src/sim/funds.js';
import type { Ledger } from '../../src/sim/ledger.js';
import { simFoundations } from './sim-fixture.js';

export { START, refusal } from './sim-fixture.js';

/**
 * The funds tests exercise sub-account and transfer mechanics between plain accounts, so the partners-only rule
 * is off here unless a test asks for it (its own tests: funds-partners.test.ts).
 */
export function fundsFixture(overrides: Partial<SimConfig> = {}) {
  const foundations = simFoundations({ partnersOnly: false, ...overrides });
  return { ...foundations, funds: new Funds(foundations) };
}

/** Every currency conserved exactly (sum of balances = credited - debited). */
export function expectConserved(ledger: Ledger): void {
  for (const a of ledger.audit()) {
    if (!a.discrepancy.isZero()) throw new Error(`${a.currency} not conserved: discrepancy ${a.discrepancy.toFixed()}`);
  }
}
