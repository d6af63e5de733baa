import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { M, makeRig, ofType, type Rig } from './harness.js';

let rig: Rig;
afterEach(async () => rig?.cleanup());

describe('OrderManager: place', () => {
  it('places a resting limit order: submitted, accepted; state OPEN', async () => {
    rig = await makeRig();
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('0.1'), limit: dec('29000') } });
    await rig.settle();
    expect(rig.events.map((e) => e.type)).toEqual(['submitted', 'accepted']);
    const accepted = ofType(rig.events, 'accepted')[0]!;
    expect(rig.manager.inFlight(accepted.clientOrderId)?.state).toBe('OPEN');
    expect(rig.engine.openOrders(rig.me, M).data).toHaveLength(1);
    expect(rig.engine.openOrders(rig.me, M).data[0]!.clientOrderId).toBe(accepted.clientOrderId);
  });

  it('a taker order fills: fill events then closed', async () => {
    rig = await makeRig();
    rig.manager.submit('s1', { kind: 'place', key: 'k1', order: { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('1.5'), limit: dec('30020') } });
    await rig.settle();
    const types = rig.events.map((e) => e.type);
    expect(types[0]).toBe('submitted');
    expect(types.at(-1)).toBe('closed');
    const fills = ofType(rig.events, 'fill');
    expect(fills).toHaveLength(2);
    expect(fills.reduce((s, f) => s.add(f.quantity), dec(0)).toFixed()).toBe('1.5');
    expect(types.indexOf('closed')).toBeGreaterThan(types.lastIndexOf('fill'));
  });
});
