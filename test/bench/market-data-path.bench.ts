/**
 * `market-data-path`: stream messages/s from a gateway's messages$ through LiveData (routing, rule-4 sync), the
 * MarketStore and a strategy context's book$ and trades$ to a strategy that only counts — the share of every
 * backtest and live event that src/sync, src/store and src/strategy own. Five book messages (one or two levels
 * near the top of a 100-level book) to one trade message, as in the backtest bench's recording. In process, one
 * market; messages are made per event as a reader or the hub decoder makes them.
 */
import { BehaviorSubject, EMPTY } from 'rxjs';
import type { StreamMessage } from '../../src/bittrex/hub/messages.js';
import { VirtualClock } from '../../src/core/clock.js';
import { dec, ZERO } from '../../src/core/decimal.js';
import { Multicast } from '../../src/core/multicast.js';
import type { OrderBookEntry } from '../../src/model/index.js';
import { createStrategyContext } from '../../src/strategy/strategy-context.js';
import { createLiveData } from '../../src/sync/live-data.js';
import { createLogger } from '../../src/telemetry/logger.js';
import type { Bench } from './harness.js';
import { quietGateway } from './quiet-gateway.js';

const M = 'BTC-USD';

export const benches: Bench[] = [
  {
    name: 'market-data-path',
    async run() {
      const clock = new VirtualClock(1_700_000_000_000);
      const messages = new Multicast<StreamMessage>();
      const bid = Array.from({ length: 50 }, (_, i): OrderBookEntry => ({ rate: dec(30_000 - i), quantity: dec('1.5') }));
      const ask = Array.from({ length: 50 }, (_, i): OrderBookEntry => ({ rate: dec(30_001 + i), quantity: dec('1.5') }));
      const gateway = quietGateway(
        { symbol: M } as never,
        {
          streams: { messages$: messages.observable, connectionEpoch$: new BehaviorSubject(1), subscribe: async () => {}, unsubscribe: async () => {} },
          orderBook: async () => ({ data: { bid, ask }, sequence: 0 }),
          trades: async () => ({ data: [], sequence: 0 }),
        },
      );
      const live = createLiveData(gateway, { clock, markets: [M], depths: [500], trades: true, account: false });
      await live.start();
      await new Promise((r) => setImmediate(r));
      if (!live.isLive(M)) throw new Error('market-data-path: the book did not go live');
      const ctx = createStrategyContext({
        name: 'count',
        params: {},
        clock,
        logger: createLogger({ level: 'silent' }),
        markets: [M],
        marketStore: live.market,
        account: { changes$: EMPTY, state$: EMPTY } as never,
        portfolio: { position: () => ZERO },
        orderEvents$: EMPTY,
        bookDepth: 500,
      });
      let books = 0;
      let trades = 0;
      ctx.book$(M).subscribe(() => void books++);
      ctx.trades$(M).subscribe(() => void trades++);
      // Deltas near the top: a quantity change, a level leaving (0) or joining, one side or both.
      const pool = Array.from({ length: 997 }, (_, i) => {
        const level = (base: number, sign: number): OrderBookEntry[] => [
          { rate: dec(base + sign * (i % 6)), quantity: i % 7 === 0 ? ZERO : dec(`${1 + (i % 5)}.25`) },
        ];
        return i % 3 === 0 ? { b: level(30_000, -1), a: level(30_001, 1) } : i % 2 ? { b: level(30_000, -1), a: [] } : { b: [], a: level(30_001, 1) };
      });
      const at = new Date(1_700_000_000_000);
      let bookSeq = 0;
      let tradeSeq = 0;
      const send = (n: number): void => {
        for (let i = 0; i < n; i++) {
          if ((bookSeq + tradeSeq) % 6 === 5) {
            tradeSeq++;
            const t = { id: `t${tradeSeq}`, executedAt: at, quantity: bid[0]!.quantity, rate: bid[0]!.rate, takerSide: 'BUY' as const };
            messages.next({ name: 'trade', data: { marketSymbol: M, sequence: tradeSeq, deltas: [t] } });
          } else {
            bookSeq++;
            const p = pool[bookSeq % 997]!;
            messages.next({ name: 'orderBook', data: { marketSymbol: M, depth: 500, sequence: bookSeq, bidDeltas: p.b, askDeltas: p.a } });
          }
        }
      };
      send(200_000); // warm-up
      const n = 1_000_000;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      send(n);
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      // The book's state at subscription came first.
      if (books - 1 + trades !== bookSeq + tradeSeq || live.stats(`orderbook_${M}_500`)?.gaps !== 0) {
        throw new Error(`market-data-path: delivered ${books}+${trades} of ${bookSeq}+${tradeSeq}`);
      }
      await live.stop();
      return [
        { bench: 'market-data-path', value: (n * 1000) / ms, unit: 'events/s', note: 'gateway messages$ → LiveData → store → book$/trades$' },
        { bench: 'market-data-path-cpu', value: ((cpu.user + cpu.system) * 1000) / n, unit: 'ns CPU/event' },
      ];
    },
  },
];
