/**
 * A wish the submit-rate brake turned away is tried again when the brake's window admits it: a quote ladder whose
 * strategy says nothing new (a quiet market) must not stay incomplete for good. Only wishes (quotes, target
 * positions) are retried, only brake denials, and a newer wish of the key replaces the held one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { dec } from '../../src/core/decimal.js';
import type { OrderSpec, ProposedOrder, Quote, RiskVerdict } from '../../src/model/intent.js';
import { M, makeRig, ofType, type Rig } from './harness.js';

let rig: Rig;
afterEach(async () => rig?.cleanup());

const q = (rate: string): Quote => ({ rate: dec(rate), quantity: dec('0.1') });

/** A submit-rate brake: `budget` approvals, then denials for `codes` until `opensIn` ms from its start have passed. */
class Brake {
  clock!: Clock;
  constructor(
    private budget: number,
    private readonly opensIn: number,
    private readonly codes = ['SUBMIT_RATE'],
  ) {}
  #opensAt = 0;
  start(): void {
    this.#opensAt = this.clock.now() + this.opensIn;
  }
  evaluate(o: ProposedOrder): RiskVerdict {
    if (this.clock.now() >= this.#opensAt || this.budget > 0) {
      this.budget--;
      return { approved: true, order: o };
    }
    return { approved: false, reasons: this.codes.map((code) => ({ code, message: 'brake' })) };
  }
  submitSlotAt(): number | undefined {
    return this.clock.now() >= this.#opensAt || this.budget > 0 ? undefined : this.#opensAt;
  }
}

async function rigWith(brake: Brake): Promise<Rig> {
  rig = await makeRig({ deps: { risk: brake } });
  brake.clock = rig.clock;
  brake.start();
  return rig;
}

const resting = (rig: Rig) =>
  rig.engine
    .openOrders(rig.me, M)
    .data.map((o) => `${o.direction} ${o.limit!.toFixed()}`)
    .sort();

describe('OrderManager: wishes the submit-rate brake turned away', () => {
  it('places the rest of a ladder when the window admits it, with no new intent', async () => {
    await rigWith(new Brake(2, 5000));
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900'), q('29800')], asks: [q('30100'), q('30200')] });
    await rig.settle();
    expect(resting(rig)).toHaveLength(2);
    expect(ofType(rig.events, 'denied').flatMap((e) => e.reasons.map((r) => r.code))).toEqual(['SUBMIT_RATE', 'SUBMIT_RATE']);
    await rig.settle(4000);
    expect(resting(rig)).toHaveLength(2); // not before the window admits it
    await rig.settle(2000);
    expect(resting(rig)).toEqual(['BUY 29800', 'BUY 29900', 'SELL 30100', 'SELL 30200']);
  });

  it('drops the held ladder when a newer wish of its key arrives', async () => {
    await rigWith(new Brake(2, 5000));
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900'), q('29800')], asks: [q('30100'), q('30200')] });
    await rig.settle();
    const placed = resting(rig);
    expect(placed).toHaveLength(2);
    // The newer wish is exactly what rests: nothing to place, nothing held; the older asks never come.
    const bids = placed.filter((o) => o.startsWith('BUY')).map((o) => q(o.slice(4)));
    const asks = placed.filter((o) => o.startsWith('SELL')).map((o) => q(o.slice(5)));
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids, asks });
    await rig.settle(10_000);
    expect(resting(rig)).toEqual(placed);
  });

  it('does not retry a one-off order, nor a ladder denied for another reason', async () => {
    await rigWith(new Brake(0, 5000));
    const order: OrderSpec = { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('29000') };
    rig.manager.submit('s', { kind: 'place', key: 'p', order });
    await rig.settle(10_000);
    expect(resting(rig)).toEqual([]);
    expect(ofType(rig.events, 'denied')).toHaveLength(1);
    await rig.cleanup();

    // The brake and another limit: retrying when the brake opens would meet the other one.
    await rigWith(new Brake(0, 5000, ['SUBMIT_RATE', 'MAX_OPEN_ORDERS']));
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900')], asks: [] });
    await rig.settle(10_000);
    expect(resting(rig)).toEqual([]);
    expect(ofType(rig.events, 'denied')).toHaveLength(1);
  });
});
