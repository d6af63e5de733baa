/**
 * What a long-lived journal costs at start and when it compacts, on a generated journal of 200k records of a
 * realistic mix (single orders and 5-quote POST /batch requests, each sent, acknowledged, a third of them filled,
 * closed; 1 in 50 single orders still resting on the exchange):
 *
 * - `journal-open`: ms from Journal.open to the end of OrderManager.reconcile() (parse, fold, reconcile with an
 *   exchange that lists the resting orders, adopt them) — a bot's start before its strategies run. Baseline: the
 *   same plus one more JournalState fold of the records, i.e. what start cost while resume folded the journal a
 *   second time (measured in the same run on a journal opened apart);
 * - `journal-compact`: ms of one Journal.compact of that journal (flush, rewrite, read back, fsync, rename): the
 *   event-loop pause a size-triggered compaction costs.
 *
 * - `journal-open-heap`: MB of heap still held once start is over (after a full GC), against before the open:
 *   what the bot keeps for its whole life from reading its journal.
 *
 * Each timed figure is the median of 3 runs on a fresh copy of the generated file.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { quietGateway } from './quiet-gateway.js';
import { VirtualClock } from '../../src/core/clock.js';
import { dec, ZERO } from '../../src/core/decimal.js';
import type { ExchangeGateway } from '../../src/gateway/exchange-gateway.js';
import type { Market } from '../../src/model/market.js';
import type { NewOrder, Order } from '../../src/model/order.js';
import { Journal } from '../../src/orders/journal.js';
import { readJournal } from '../../src/orders/journal-parse.js';
import { encodeRecord, type JournalRecord } from '../../src/orders/journal-records.js';
import { JournalState } from '../../src/orders/journal-state.js';
import { OrderManager } from '../../src/orders/order-manager.js';
import { AccountStore } from '../../src/store/account-store.js';
import { MarketStore } from '../../src/store/market-store.js';
import { type Bench, percentile } from './harness.js';

const M = 'BTC-USD';
const RECORDS = 200_000;
const RUNS = 3;
const T0 = Date.parse('2021-06-14T10:00:00Z');
const market: Market = { symbol: M, baseCurrencySymbol: 'BTC', quoteCurrencySymbol: 'USD', minTradeSize: dec('0.0001'), precision: 3, status: 'ONLINE', createdAt: new Date(0) };

/** Write the journal; return the orders left resting (what the exchange lists as open). */
function generate(path: string): Order[] {
  const lines: string[] = [];
  const resting: Order[] = [];
  const push = (r: JournalRecord) => lines.push(encodeRecord(r));
  let n = 0;
  let at = T0;
  const request = (i: number, id: string): NewOrder => ({
    marketSymbol: M,
    direction: i % 2 ? 'BUY' : 'SELL',
    type: 'LIMIT',
    timeInForce: 'GOOD_TIL_CANCELLED',
    quantity: dec('0.01'),
    limit: dec(i % 2 ? 29990 - (i % 50) : 30010 + (i % 50)),
    clientOrderId: id,
  });
  const finish = (id: string, orderId: string, i: number, order: NewOrder) => {
    const filled = i % 3 === 0;
    if (filled) {
      push({ t: 'fill', at, id, orderId, executionId: `x-${orderId}`, marketSymbol: M, direction: order.direction, quantity: order.quantity!, rate: order.limit!, commission: dec('0.0075'), isTaker: false, executedAt: new Date(at) });
    }
    push({ t: 'closed', at, id, filled: filled ? order.quantity! : ZERO });
  };
  while (lines.length < RECORDS) {
    const i = n++;
    at += 50;
    if (i % 4 === 3) {
      // A quote ladder: one POST /batch of 5 placements.
      const batchId = `b-${i}`;
      const orders = Array.from({ length: 5 }, (_, l) => ({ clientOrderId: `q-${i}-${l}`, order: request(i + l, `q-${i}-${l}`) }));
      push({ t: 'batch', at, batchId, strategy: 'mm', intentKey: 'ladder', orders, cancels: [] });
      push({ t: 'sent', at, id: batchId, attempt: 1 });
      for (const o of orders) push({ t: 'ack', at, id: o.clientOrderId, orderId: `o-${o.clientOrderId}` });
      for (const [l, o] of orders.entries()) finish(o.clientOrderId, `o-${o.clientOrderId}`, i + l, o.order);
      continue;
    }
    const id = `c-${i}`;
    const order = request(i, id);
    push({ t: 'order', at, clientOrderId: id, strategy: 'mm', intentKey: `k${i % 20}`, role: 'order', order });
    push({ t: 'sent', at, id, attempt: 1 });
    push({ t: 'ack', at, id, orderId: `o-${id}` });
    if (i % 50 === 0) resting.push({ ...order, id: `o-${id}`, fillQuantity: ZERO, commission: ZERO, proceeds: ZERO, status: 'OPEN', createdAt: new Date(at) });
    else finish(id, `o-${id}`, i, order);
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return resting;
}

/** An exchange whose only state is the resting orders. */
function gatewayWith(resting: Order[]): ExchangeGateway {
  const byId = new Map(resting.map((o) => [o.id, o]));
  return quietGateway(market, {
    openOrders: async () => ({ data: resting, sequence: 1 }),
    order: async (id) => byId.get(id) ?? Promise.reject(new Error(`no order ${id}`)),
    openConditionalOrders: async () => ({ data: [], sequence: 1 }),
    lastExecution: async () => ({ data: {}, sequence: 1 }),
  });
}

/** A full GC (V8's gc(), exposed for this process on first use). */
function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function median(samples: number[]): number {
  return percentile(samples, 50);
}

/** Generate the journal in a temp dir, run `fn` with a fresh copy per call, clean up. */
async function withJournal<T>(fn: (fresh: () => string, resting: Order[]) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-journal-bench-'));
  try {
    const pristine = join(dir, 'pristine.jsonl');
    const resting = generate(pristine);
    let copies = 0;
    const fresh = () => {
      const p = join(dir, `run-${copies++}.jsonl`);
      copyFileSync(pristine, p);
      return p;
    };
    return await fn(fresh, resting);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const benches: Bench[] = [
  {
    name: 'journal-open',
    async run() {
      return withJournal(async (fresh, resting) => {
        const starts: number[] = [];
        const folds: number[] = [];
        let heapBefore = 0;
        let heapAfter = 0;
        for (let r = 0; r < RUNS; r++) {
          const path = fresh();
          // Heap on the first run only: later ones would count what the previous run still held.
          if (r === 0) {
            collect();
            heapBefore = process.memoryUsage().heapUsed;
          }
          const start = performance.now();
          const journal = Journal.open(path);
          const clock = new VirtualClock(T0 + 1e9);
          const orders = new OrderManager({
            gateway: gatewayWith(resting),
            risk: { evaluate: () => ({ approved: false, reasons: [{ code: 'BENCH', message: 'no orders in this bench' }] }) },
            journal,
            clock,
            account: new AccountStore(),
            marketStore: new MarketStore(),
            markets: (s) => (s === M ? market : undefined),
            portfolio: undefined,
          });
          const report = await orders.reconcile();
          starts.push(performance.now() - start);
          if (report.adopted.length !== resting.length) throw new Error(`adopted ${report.adopted.length} of ${resting.length} resting orders`);
          if (r === 0) {
            collect();
            heapAfter = process.memoryUsage().heapUsed;
          }
          await orders.close();
          // The second fold start used to pay, timed on records read apart (the records in memory, as that fold had
          // them: `Journal.replayed` re-reads the file since the open folds while reading).
          const { records } = readJournal(fresh());
          const t = performance.now();
          JournalState.from(records);
          folds.push(performance.now() - t);
        }
        const value = median(starts);
        return [
          { bench: 'journal-open', value, unit: 'ms', baseline: value + median(folds), note: `open + reconcile ${RECORDS} records, ${resting.length} resting; baseline adds the second fold` },
          { bench: 'journal-open-heap', value: (heapAfter - heapBefore) / 2 ** 20, unit: 'MB', note: 'heap held after start (manager and journal alive, after a full GC)' },
        ];
      });
    },
  },
  {
    name: 'journal-compact',
    async run() {
      return withJournal(async (fresh, resting) => {
        const pauses: number[] = [];
        let after = 0;
        let bytes = 0;
        for (let r = 0; r < RUNS; r++) {
          const journal = Journal.open(fresh());
          bytes = journal.size.bytes;
          const t = performance.now();
          after = journal.compact(T0 + 1e9).after.records;
          pauses.push(performance.now() - t);
          journal.close();
        }
        return [{ bench: 'journal-compact', value: median(pauses), unit: 'ms', note: `Journal.compact of ${RECORDS} records (${(bytes / 2 ** 20).toFixed(1)} MiB) down to ${after} (${resting.length} resting)` }];
      });
    },
  },
];
