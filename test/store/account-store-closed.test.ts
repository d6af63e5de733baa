/**
 * The account store's window of recently closed orders against a model of its rule (closed orders in a Map whose
 * insertion order is the close order, the oldest evicted past the limit), on random opens, closes, re-closes and
 * reopens: the same lookups by id and client id, and the same closed list, oldest close first, through evictions.
 */
import { describe, it } from 'vitest';
import { mulberry32 } from '../../src/core/prng.js';
import type { Order } from '../../src/model/index.js';
import { AccountStore } from '../../src/store/account-store.js';
import { equalTo, sameAs } from '../helpers/cheap-expect.js';

/** The rule: closed orders in a Map whose insertion order is the close order. */
class Model {
  readonly open = new Map<string, Order>();
  readonly closed = new Map<string, Order>();
  readonly byClientId = new Map<string, string>();
  constructor(private readonly maxClosed: number) {}
  get(id: string): Order | undefined {
    return this.open.get(id) ?? this.closed.get(id);
  }
  upsert(o: Order): void {
    if (o.clientOrderId !== undefined) this.byClientId.set(o.clientOrderId, o.id);
    if (o.status === 'OPEN') {
      this.closed.delete(o.id);
      this.open.set(o.id, o);
      return;
    }
    this.open.delete(o.id);
    this.closed.delete(o.id);
    this.closed.set(o.id, o);
    if (this.closed.size > this.maxClosed) {
      const [oldestId, oldest] = this.closed.entries().next().value as [string, Order];
      this.closed.delete(oldestId);
      if (oldest.clientOrderId !== undefined && this.byClientId.get(oldest.clientOrderId) === oldestId) this.byClientId.delete(oldest.clientOrderId);
    }
  }
}

describe('AccountStore: recently closed orders', () => {
  for (const [seed, maxClosed, ids] of [[1, 5, 12], [2, 5, 40], [3, 0, 10], [4, 50, 60], [5, 3, 2000], [6, 20, 25], [7, 100, 20]] as const) {
    it(`equal the Map in close order, seed ${seed}, keeping ${maxClosed} of ${ids} ids`, () => {
      const rng = mulberry32(seed);
      const store = new AccountStore({ maxRecentClosed: maxClosed });
      const model = new Model(maxClosed);
      for (let step = 0; step < 20_000; step++) {
        const n = Math.floor(rng() * ids);
        const o = {
          id: `o${n}`,
          clientOrderId: rng() < 0.8 ? `c${n % 7 === 0 ? Math.floor(rng() * ids) : n}` : undefined,
          status: rng() < 0.4 ? 'OPEN' : 'CLOSED',
          step,
        } as unknown as Order;
        store.applyOrder(o);
        model.upsert(o);
        // Up to ~50k checks a seed: equalTo and sameAs call `expect` only for a case that differs.
        if (step % 97 === 0 || step > 19_900) {
          equalTo(store.recentClosedOrders(), [...model.closed.values()], () => `step ${step}: closed list`);
          for (let k = 0; k < Math.min(ids, 80); k++) {
            sameAs(store.order(`o${k}`), model.get(`o${k}`), () => `step ${step}: order o${k}`);
            const id = model.byClientId.get(`c${k}`);
            sameAs(store.orderByClientOrderId(`c${k}`), id === undefined ? undefined : model.get(id), () => `step ${step}: client id c${k}`);
          }
        }
      }
    });
  }
});
