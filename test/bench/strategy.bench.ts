/**
 * Strategy layer figures, in process, without risk or orders:
 *  - `strategy-mm-update-to-intent`: p50/p99 from a book delta applied to the MarketStore to the example market
 *    maker's QuotesIntent reaching the sink (store publish → context → strategy pipeline → runner checks);
 *  - `strategy-runner-intents`: intents/s a trivial strategy pushes through the runner (stamp + shape check).
 */
import { Subject } from 'rxjs';
import { z } from 'zod';
import { VirtualClock } from '../../src/core/clock.js';
import { dec, ZERO } from '../../src/core/decimal.js';
import type { Intent } from '../../src/model/intent.js';
import type { OrderEvent } from '../../src/orders/order-events.js';
import { AccountStore } from '../../src/store/account-store.js';
import { MarketStore } from '../../src/store/market-store.js';
import { defineStrategy, parseStrategyParams, type StrategyDefinition } from '../../src/strategy/define-strategy.js';
import { createStrategyContext } from '../../src/strategy/strategy-context.js';
import { runStrategy } from '../../src/strategy/strategy-runner.js';
import { createLogger } from '../../src/telemetry/logger.js';
import marketMaker from '../../strategies/market-maker.js';
import { type Bench, opsPerSecondSync, percentile } from './harness.js';

const M = 'BTC-USD';

function start(definition: StrategyDefinition, rawParams: unknown, marketStore: MarketStore, sink: () => void) {
  const ctx = createStrategyContext({
    name: definition.name,
    params: parseStrategyParams(definition, rawParams),
    clock: new VirtualClock(0),
    logger: createLogger({ level: 'silent' }),
    markets: [M],
    marketStore,
    account: new AccountStore(),
    portfolio: { position: () => ZERO },
    orderEvents$: new Subject<OrderEvent>(),
  });
  return runStrategy(definition, ctx as never, sink, (f) => {
    throw f;
  });
}

export const benches: Bench[] = [
  {
    name: 'strategy-mm-update-to-intent',
    async run() {
      const store = new MarketStore();
      const levels = Array.from({ length: 25 }, (_, i) => ({ rate: dec(30_000 - i), quantity: dec(1) }));
      const asks = Array.from({ length: 25 }, (_, i) => ({ rate: dec(30_001 + i), quantity: dec(1) }));
      store.resetBook(M, 25, { bid: levels, ask: asks }, 1);
      let delivered = 0;
      start(marketMaker, { throttleMs: 0, levels: 3, spread: '0.002' }, store, () => delivered++);
      const samples: number[] = [];
      let seq = 2;
      for (let i = 0; i < 20_000; i++) {
        // Alternate the best bid between two rates so every update changes the mid, hence the ladder.
        const rate = dec(i % 2 === 0 ? '30000.5' : '30000.25');
        const before = delivered;
        const t0 = performance.now();
        store.applyBookDeltas(M, 25, [{ rate, quantity: dec(1) }], [], seq++);
        const t1 = performance.now();
        store.applyBookDeltas(M, 25, [{ rate, quantity: ZERO }], [], seq++);
        if (delivered > before && i >= 2_000) samples.push((t1 - t0) * 1000);
      }
      return [
        { bench: 'strategy-mm-update-to-intent-p50', value: percentile(samples, 50), unit: 'µs' },
        { bench: 'strategy-mm-update-to-intent-p99', value: percentile(samples, 99), unit: 'µs' },
      ];
    },
  },
  {
    name: 'strategy-runner-intents',
    async run() {
      const input = new Subject<Intent>();
      const echo = defineStrategy({ name: 'echo', params: z.strictObject({}), setup: () => input.asObservable() });
      let delivered = 0;
      start(echo, {}, new MarketStore(), () => delivered++);
      const intent: Intent = {
        kind: 'place',
        key: 'k',
        order: { marketSymbol: M, direction: 'BUY', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec(1), limit: dec(1) },
      };
      const perSec = opsPerSecondSync(() => input.next(intent), { batch: 1000 });
      if (delivered === 0) throw new Error('no intent delivered');
      return [{ bench: 'strategy-runner-intents', value: perSec, unit: 'intents/s' }];
    },
  },
];
