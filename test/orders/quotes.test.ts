import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import type { BatchOperation } from '../../src/model/order.js';
import type { Quote } from '../../src/model/intent.js';
import { M, makeRig, ofType, type Rig } from './harness.js';

let rig: Rig;
afterEach(async () => rig?.cleanup());

const q = (rate: string, quantity = '0.1'): Quote => ({ rate: dec(rate), quantity: dec(quantity) });
const resting = (rig: Rig) =>
  rig.engine
    .openOrders(rig.me, M)
    .data.map((o) => `${o.direction} ${o.limit!.toFixed()} ${o.quantity!.sub(o.fillQuantity).toFixed()}`)
    .sort();

function spyBatches(rig: Rig): BatchOperation[][] {
  const sent: BatchOperation[][] = [];
  const inner = rig.gateway.batch;
  rig.gateway.batch = async (ops) => {
    sent.push([...ops]);
    return inner(ops);
  };
  return sent;
}

describe('OrderManager: quote ladders', () => {
  it('places a ladder as ONE batch, then sends only the difference', async () => {
    rig = await makeRig();
    const batches = spyBatches(rig);
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900'), q('29800'), q('29700')], asks: [q('30100'), q('30200')] });
    await rig.settle();
    expect(batches).toHaveLength(1);
    expect(batches[0]!.map((o) => o.operation)).toEqual(['POST', 'POST', 'POST', 'POST', 'POST']);
    expect(resting(rig)).toEqual(['BUY 29700 0.1', 'BUY 29800 0.1', 'BUY 29900 0.1', 'SELL 30100 0.1', 'SELL 30200 0.1']);
    const before = new Set(rig.engine.openOrders(rig.me, M).data.map((o) => o.id));

    // One bid moves, one ask changes quantity, the rest stays: 2 cancels + 2 places, cancels first.
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900'), q('29800'), q('29600')], asks: [q('30100'), q('30200', '0.2')] });
    await rig.settle();
    expect(batches).toHaveLength(2);
    expect(batches[1]!.map((o) => o.operation)).toEqual(['DELETE', 'DELETE', 'POST', 'POST']);
    expect(resting(rig)).toEqual(['BUY 29600 0.1', 'BUY 29800 0.1', 'BUY 29900 0.1', 'SELL 30100 0.1', 'SELL 30200 0.2']);
    const kept = rig.engine.openOrders(rig.me, M).data.filter((o) => before.has(o.id));
    expect(kept).toHaveLength(3);

    // The same ladder again: nothing to do, no request.
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900'), q('29800'), q('29600')], asks: [q('30100'), q('30200', '0.2')] });
    await rig.settle();
    expect(batches).toHaveLength(2);
  });

  it('rounds rates to the market precision before comparing (no churn from extra digits)', async () => {
    rig = await makeRig();
    const batches = spyBatches(rig);
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900.12345')], asks: [q('30100.00001')] });
    await rig.settle();
    expect(resting(rig)).toEqual(['BUY 29900.123 0.1', 'SELL 30100.001 0.1']);
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900.1239')], asks: [q('30100.0009')] });
    await rig.settle();
    expect(batches).toHaveLength(1);
  });

  it('a ladder arriving while the previous batch is unanswered waits, and only the latest one is applied', async () => {
    rig = await makeRig();
    const batches = spyBatches(rig);
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900')], asks: [q('30100')] });
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29800')], asks: [q('30100')] });
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29700')], asks: [q('30100')] });
    await rig.settle();
    expect(batches).toHaveLength(2);
    expect(resting(rig)).toEqual(['BUY 29700 0.1', 'SELL 30100 0.1']);
  });

  it('a partially filled quote no longer matches its level: it is replaced', async () => {
    rig = await makeRig();
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29995', '0.5')], asks: [] });
    await rig.settle();
    // Someone sells 0.2 into our bid.
    rig.engine.placeOrder(rig.lp, { marketSymbol: M, direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('0.2'), limit: dec('29995') });
    await rig.settle();
    expect(ofType(rig.events, 'fill')).toHaveLength(1);
    expect(resting(rig)).toEqual(['BUY 29995 0.3']);
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29995', '0.5')], asks: [] });
    await rig.settle();
    expect(resting(rig)).toEqual(['BUY 29995 0.5']);
  });

  it('chunks a large ladder into several batches', async () => {
    rig = await makeRig({ deps: { batchSize: 3 } });
    const batches = spyBatches(rig);
    const bids = Array.from({ length: 7 }, (_, i) => q(String(29000 - i * 10)));
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids, asks: [] });
    await rig.settle();
    expect(batches.map((b) => b.length)).toEqual([3, 3, 1]);
    expect(resting(rig)).toHaveLength(7);
  });

  it('denied levels are left out of the batch; the rest is sent', async () => {
    rig = await makeRig();
    rig.risk.deny = (o) => o.limit!.eq(29800);
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900'), q('29800')], asks: [] });
    await rig.settle();
    expect(ofType(rig.events, 'denied')).toHaveLength(1);
    expect(resting(rig)).toEqual(['BUY 29900 0.1']);
  });

  it('every level denied and nothing resting: no request, no journal record, each denial reported, and the next ladder goes out', async () => {
    rig = await makeRig();
    const batches = spyBatches(rig);
    rig.risk.deny = () => true;
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900'), q('29800')], asks: [q('30100')] });
    await rig.manager.drain();
    await rig.settle();
    expect(batches).toEqual([]);
    expect(ofType(rig.events, 'denied').map((e) => e.reasons[0]!.code)).toEqual(['TEST_DENIED', 'TEST_DENIED', 'TEST_DENIED']);
    expect(ofType(rig.events, 'submitted')).toEqual([]);
    expect(existsSync(rig.journalPath) ? readFileSync(rig.journalPath, 'utf8') : '').not.toContain('"t":"batch"');
    rig.risk.deny = undefined;
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900')], asks: [] });
    await rig.settle();
    expect(batches).toHaveLength(1);
    expect(resting(rig)).toEqual(['BUY 29900 0.1']);
    expect(readFileSync(rig.journalPath, 'utf8')).toContain('"t":"batch"');
  });

  it('a lost batch answer is retried with the same ids: no duplicate quotes', async () => {
    rig = await makeRig();
    rig.gateway.faults.push({ call: 'batch', kind: 'lostAnswer' });
    rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: [q('29900'), q('29800')], asks: [q('30100')] });
    await rig.settle(5_000);
    expect(resting(rig)).toEqual(['BUY 29800 0.1', 'BUY 29900 0.1', 'SELL 30100 0.1']);
    expect(ofType(rig.events, 'accepted')).toHaveLength(3);
    expect(ofType(rig.events, 'rejected')).toEqual([]);
  });
});

describe('OrderManager: a batch in chunks', () => {
  // The chunking rule: cancels first, then placements, cut every `batchSize` operations, each chunk's cancels then
  // its placements. A batch of one chunk (a ladder's usual) takes the lists as they are: it must send the same.
  it('sends what the chunking rule makes of random ladders, in one chunk or many', async () => {
    let seed = 3;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (const batchSize of [1, 2, 3, 5, 50]) {
      rig = await makeRig({ deps: { batchSize } });
      const batches = spyBatches(rig);
      let live: string[] = [];
      for (let round = 0; round < 6; round++) {
        // Keep some levels, drop the others, add new ones.
        const kept = live.filter(() => rand(2) === 0);
        const added = Array.from({ length: rand(6) }, (_, i) => String(29000 - round * 100 - i * 10));
        const want = [...kept, ...added];
        const cancels = live.length - kept.length;
        batches.length = 0;
        rig.manager.submit('mm', { kind: 'quotes', key: 'l', marketSymbol: M, bids: want.map((r) => q(r)), asks: [] });
        await rig.settle();
        const ops = [...Array<string>(cancels).fill('DELETE'), ...Array<string>(added.length).fill('POST')];
        const expected: string[][] = [];
        for (let i = 0; i < ops.length; i += batchSize) expected.push(ops.slice(i, i + batchSize));
        expect(batches.map((b) => b.map((o) => o.operation))).toEqual(expected);
        expect(batches.flat().filter((o) => o.operation === 'POST').map((o) => (o.payload as { limit: { toFixed(): string } }).limit.toFixed())).toEqual(added);
        live = want;
        expect(resting(rig)).toHaveLength(live.length);
      }
      await rig.cleanup();
    }
  });
});
