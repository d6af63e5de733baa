/**
 * Crash safety (issue 5): the bot process killed with SIGKILL at random points while placing orders — including
 * right after the exchange accepted an order (POST /orders), a batch (POST /batch) or an order that filled at
 * once, whose response AND stream pushes were lost — and restarted each time: no duplicate order, no order
 * forgotten, balances agree.
 *
 * Everything runs as separate processes over real sockets, the way a user runs it: `rexbot sim` (the exchange)
 * and `rexbot run` with a LIVE venue pointing at it, a test-only strategy (test/fixtures/crash/order-spammer.ts)
 * placing resting orders, quote ladders (batches), cancels and crossing orders a few times a second, and one
 * journal file that every restart reconciles. The kill points come from a seeded PRNG (REXBOT_CRASH_SEED replays
 * a run). The verdict is read from the exchange (REST with the demo key, the control API's ledger audit) and
 * from the journal file (parsed with the order manager's own reader).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/prng.js';
import type { Order } from '../../src/model/index.js';
import { decodeRecord, type JournalRecord } from '../../src/orders/journal-records.js';
import { JournalState } from '../../src/orders/journal-state.js';
import { parseJournal } from '../../src/orders/journal.js';
import type { PositionSnapshot } from '../../src/portfolio/position.js';
import { repoPath } from '../helpers/shared.js';
import { type BotProcess, killAllChildren, type LogLine, type SimProcess, startBotProcess, startSimProcess } from './crash-processes.js';
import { type AuditRow, balancesFromFills, control, readAccount } from './exchange-truth.js';

const SEED = Number(process.env.REXBOT_CRASH_SEED ?? 5_2021);
const CREDENTIALS = { apiKey: 'c0ffee00c0ffee00c0ffee00c0ffee00', apiSecret: 'deadbeefdeadbeefdeadbeefdeadbeef' };
/** test/fixtures/crash/sim.yaml `demo.balances`. */
const INITIAL = { USD: '100000', BTC: '2' };
const SIM_YAML = repoPath('test/fixtures/crash/sim.yaml');
const BOT_YAML = repoPath('test/fixtures/crash/bot.yaml');

/** A kill round: SIGKILL at a random moment, or right after a request the exchange applied but never answered. */
type Round = { kind: 'random' } | { kind: 'lostResponse'; path: '/orders' | '/batch'; mode: Mode };
/** The strategy's mode (test/fixtures/crash/order-spammer.ts): `cross` makes every order one that fills at once. */
type Mode = 'spam' | 'cross' | 'settle';
const ROUNDS: Round[] = [
  { kind: 'random' },
  { kind: 'lostResponse', path: '/orders', mode: 'spam' },
  { kind: 'random' },
  { kind: 'lostResponse', path: '/batch', mode: 'spam' },
  { kind: 'random' },
  // An order that FILLED while its response and its stream pushes were lost: the restart must find its fills.
  { kind: 'lostResponse', path: '/orders', mode: 'cross' },
];
/** A lost-response round whose retry beat the kill (the order got acknowledged) is run again, at most this often. */
const MAX_EXTRA_LOST_ROUNDS = 2;

/** Only schedules the kills; nothing is asserted on time. */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The compacted journal alone: what a restart reads. */
const readJournal = (path: string): JournalRecord[] => parseJournal(path, readFileSync(path, 'utf8')).records;

/**
 * Every record the bot ever wrote: the history (each journal a compaction replaced, in order; a copy cut by a
 * SIGKILL may have left a torn line, skipped here) followed by the current journal. Folded, it is the state an
 * uncompacted journal would have.
 */
function readAllRecords(path: string): JournalRecord[] {
  const out: JournalRecord[] = [];
  if (existsSync(`${path}.history`)) {
    for (const line of readFileSync(`${path}.history`, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        out.push(decodeRecord(JSON.parse(line)));
      } catch {
        // a torn line of an interrupted copy
      }
    }
  }
  return [...out, ...readJournal(path)];
}

/** Client ids a journaled request placed: an order's, or every placement of a batch. */
function placedBy(records: readonly JournalRecord[], requestId: string): string[] {
  for (const r of records) {
    if (r.t === 'order' && r.clientOrderId === requestId) return [r.clientOrderId];
    if (r.t === 'batch' && r.batchId === requestId) return r.orders.map((o) => o.clientOrderId);
  }
  return [];
}

/** A 'lost response' the bot learnt nothing about before it died. */
interface LostResponse {
  path: string;
  requestId: string;
  clientOrderIds: string[];
  /** Those still open on the exchange when the bot died: the next start must adopt them. */
  openIds: string[];
  /** Whether any of them had filled: the next start must recover executions the journal never saw. */
  filled: boolean;
}

describe('crash safety (SIGKILL while placing orders, then restart)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rexbot-crash-'));
  const journalPath = join(dir, 'crash-bot.jsonl');
  let sim: SimProcess | undefined;
  let failed = true;

  afterAll(async () => {
    await killAllChildren();
    if (failed) process.stderr.write(`crash-safety: seed ${SEED}; journal and state kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  });

  it('leaves no duplicate order, no forgotten order, and balances that agree with the fills', { timeout: 240_000 }, async () => {
    const rand = mulberry32(SEED);
    const between = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo));
    sim = await startSimProcess(SIM_YAML, CREDENTIALS);
    const ready = sim.ready;
    const env = (mode: Mode) => ({
      REXBOT_CRASH_REST: ready.rest,
      REXBOT_CRASH_HUB: ready.hub,
      REXBOT_API_KEY: CREDENTIALS.apiKey,
      REXBOT_API_SECRET: CREDENTIALS.apiSecret,
      REXBOT_CRASH_JOURNAL_DIR: dir,
      REXBOT_CRASH_MODE: mode,
    });
    /** Start the bot and wait until it reconciled the journal and runs its strategy; returns its reconcile line. */
    const startBot = async (mode: Mode): Promise<{ bot: BotProcess; reconciled: LogLine }> => {
      const bot = startBotProcess(BOT_YAML, env(mode));
      await bot.waitForLine((l) => l.msg === 'kernel running', "'kernel running'");
      return { bot, reconciled: bot.lines.find((l) => l.msg === 'journal reconciled')! };
    };

    const reports: LogLine[] = [];
    /** 'journal compacted' lines of every run. */
    const compactions: LogLine[] = [];
    const lostResponses: LostResponse[] = [];
    let kills = 0;
    let extraLostRounds = 0;
    /** A lost response of the round just played, for the next start to account for. */
    let pending: LostResponse | undefined;
    const rounds = [...ROUNDS];
    for (let i = 0; i < rounds.length; i++) {
      const round = rounds[i]!;
      const { bot, reconciled } = await startBot(round.kind === 'lostResponse' ? round.mode : 'spam');
      reports.push(reconciled);
      // The previous round's lost response: the exchange holds those orders; this start must know them.
      if (pending) checkAccountedFor(pending, reconciled);
      pending = undefined;

      if (round.kind === 'random') {
        await pause(between(200, 2000));
        bot.kill('SIGKILL');
      } else {
        await pause(between(200, 1000));
        const operation = round.path === '/orders' ? 'place' : 'batch';
        // Killed in the same tick the bot logs the failure: before its retry (500 ms later) can learn the answer.
        const killedAfter = new Promise<LogLine>((resolve) =>
          bot.onLine(
            (l) => l.msg === `${operation} failed (ambiguous); retrying with the same id`,
            (l) => {
              bot.kill('SIGKILL');
              resolve(l);
            },
          ),
        );
        // No stream push either: the order and balance deltas of the accepted request are dropped too.
        await control(ready, 'POST', '/faults/hub', { dropRate: 1 });
        await control(ready, 'POST', '/faults/rest', { loseResponses: 1, path: round.path, method: 'POST' });
        let noFailure: NodeJS.Timeout | undefined;
        const failure = await Promise.race([
          killedAfter,
          bot.exited.then(() => Promise.reject(new Error(`bot exited before a lost ${round.path} response; last lines:\n${bot.tail()}`))),
          new Promise<never>((_, reject) => {
            noFailure = setTimeout(() => reject(new Error(`no POST ${round.path} failed within 20 s; last lines:\n${bot.tail()}`)), 20_000);
          }),
        ]).finally(() => clearTimeout(noFailure));
        const requestId = String(failure.id);
        await bot.exited;
        const records = readAllRecords(journalPath);
        const clientOrderIds = placedBy(records, requestId);
        const acked = new Set(records.filter((r) => r.t === 'ack').map((r) => (r as { id: string }).id));
        if (clientOrderIds.length > 0 && clientOrderIds.every((id) => !acked.has(id))) {
          // The exchange applied the request: every placement of it exists there, under its client id, once.
          const truth = await readAccount(ready, CREDENTIALS);
          for (const id of clientOrderIds) expect(truth.orders.filter((o) => o.clientOrderId === id), `lost ${round.path} placement ${id}`).toHaveLength(1);
          const openIds = clientOrderIds.filter((id) => truth.orders.some((o) => o.clientOrderId === id && o.status === 'OPEN'));
          const filled = truth.orders.some((o) => clientOrderIds.includes(o.clientOrderId ?? '') && o.fillQuantity.gt(0));
          pending = { path: round.path, requestId, clientOrderIds, openIds, filled };
          lostResponses.push(pending);
        } else if (extraLostRounds < MAX_EXTRA_LOST_ROUNDS) {
          // The retry (or a cancel-only batch) got there first: the scenario did not happen; play it again.
          extraLostRounds++;
          rounds.push(round);
        }
      }
      const exit = await bot.exited;
      compactions.push(...bot.lines.filter((l) => l.msg === 'journal compacted'));
      expect(exit.signal, `bot of round ${i} should have been killed; last lines:\n${bot.tail()}`).toBe('SIGKILL');
      kills++;
      await control(ready, 'POST', '/faults/rest', {});
      await control(ready, 'POST', '/faults/hub', {});
    }
    expect(kills).toBeGreaterThanOrEqual(ROUNDS.length);
    expect(lostResponses.map((l) => l.path).sort(), 'every lost-response scenario happened').toEqual(['/batch', '/orders', '/orders']);
    expect(lostResponses.some((l) => l.filled), 'an order filled while its response was lost').toBe(true);

    // The last run: reconcile, then only the ladder (once), until the exchange shows it settled; then a graceful
    // stop that leaves orders resting.
    const { bot: last, reconciled: lastReport } = await startBot('settle');
    reports.push(lastReport);
    if (pending) checkAccountedFor(pending, lastReport);
    await vi.waitFor(
      async () => {
        const truth = await readAccount(ready, CREDENTIALS);
        const state = JournalState.from(readAllRecords(journalPath));
        const ladder = truth.orders.filter((o) => o.status === 'OPEN' && state.orders.get(o.clientOrderId ?? '')?.intentKey === 'ladder');
        // Every ladder order a killed run left behind was adopted into the key and reconciled away.
        expect(ladder.filter((o) => o.direction === 'BUY')).toHaveLength(2);
        expect(ladder.filter((o) => o.direction === 'SELL')).toHaveLength(2);
      },
      { timeout: 30_000, interval: 500 },
    );
    last.kill('SIGTERM');
    expect((await last.exited).code, `graceful stop; last lines:\n${last.tail()}`).toBe(0);
    compactions.push(...last.lines.filter((l) => l.msg === 'journal compacted'));
    // Every start found a journal to compact (the first one's was empty).
    expect(compactions.filter((l) => l.trigger === 'start').length).toBeGreaterThanOrEqual(kills);

    // ---- the verdict ---------------------------------------------------------------------------------------
    const truth = await readAccount(ready, CREDENTIALS);
    const state = JournalState.from(readAllRecords(journalPath));
    // The compacted journal alone (what the next start would read) holds the same positions as every record ever
    // written: the checkpoint carried what the compactions dropped.
    const compacted = JournalState.from(readJournal(journalPath));
    expect(compacted.positions().map(showPosition)).toEqual(state.positions().map(showPosition));
    expect(compacted.lastFill?.executionId).toBe(state.lastFill?.executionId);

    // Every start reconciled with nothing unaccounted for (it would have refused to start) and no order on the
    // exchange that the journal never saw.
    expect(reports).toHaveLength(kills + 1);
    for (const r of reports) expect(r.unknownOpenOrders, JSON.stringify(r)).toBe(0);

    // NO DUPLICATE ORDER: one exchange order per clientOrderId, and one per unique intent key.
    const byClientId = new Map<string, Order[]>();
    for (const o of truth.orders) {
      expect(o.clientOrderId, `exchange order ${o.id} without a clientOrderId`).toBeDefined();
      byClientId.set(o.clientOrderId!, [...(byClientId.get(o.clientOrderId!) ?? []), o]);
    }
    const duplicated = [...byClientId].filter(([, list]) => list.length > 1).map(([id]) => id);
    expect(duplicated, 'clientOrderIds with more than one exchange order').toEqual([]);
    const byKey = new Map<string, number>();
    for (const o of truth.orders) {
      const key = state.orders.get(o.clientOrderId!)?.intentKey;
      if (key && key !== 'ladder') byKey.set(key, (byKey.get(key) ?? 0) + 1);
    }
    expect([...byKey].filter(([, n]) => n > 1), 'one-off intent keys placed more than once').toEqual([]);

    // NO ORDER FORGOTTEN: every exchange order is journaled, acknowledged under its exchange id, and journaled
    // closed exactly when the exchange closed it; every journaled order is settled, and those the journal calls
    // lost or rejected do not exist.
    for (const o of truth.orders) {
      const j = state.orders.get(o.clientOrderId!);
      expect(j, `exchange order ${o.id} (${o.clientOrderId}) is not in the journal`).toBeDefined();
      expect({ id: o.clientOrderId, orderId: j!.orderId, status: j!.status }).toEqual({
        id: o.clientOrderId,
        orderId: o.id,
        status: o.status === 'OPEN' ? 'acked' : 'closed',
      });
    }
    for (const j of state.orders.values()) {
      expect(['acked', 'closed', 'lost', 'rejected'], `journaled order ${j.clientOrderId} left ${j.status}`).toContain(j.status);
      if (j.status === 'lost' || j.status === 'rejected') expect(byClientId.has(j.clientOrderId), `${j.clientOrderId} is ${j.status} but exists`).toBe(false);
    }
    for (const lr of lostResponses) {
      for (const id of lr.clientOrderIds) expect(state.orders.get(id)?.status, `lost ${lr.path} response ${id}`).toMatch(/^(acked|closed)$/);
    }

    // BALANCES AGREE: the journal holds exactly the exchange's executions; balances are the initial ones moved by
    // those fills; the simulator's ledger has no discrepancy in any currency.
    expect(truth.executions.length, 'the crossing orders filled').toBeGreaterThan(0);
    expect([...state.fills.keys()].sort()).toEqual(truth.executions.map((e) => e.id).sort());
    for (const e of truth.executions) expect(state.fills.get(e.id)!.quantity.eq(e.quantity), `fill ${e.id} quantity`).toBe(true);
    // The position the compacted journal restores is the exchange's net fill.
    const net = truth.executions.reduce((sum, e) => {
      const buy = truth.orders.find((o) => o.id === e.orderId)!.direction === 'BUY';
      return buy ? sum.plus(e.quantity) : sum.minus(e.quantity);
    }, dec(0));
    expect(compacted.positions().reduce((sum, p) => sum.plus(p.quantity), dec(0)).toFixed()).toBe(net.toFixed());
    const expected = balancesFromFills(INITIAL, truth.orders, truth.executions);
    const actual = new Map(truth.balances.map((b) => [b.currencySymbol, b.total]));
    for (const c of new Set([...expected.keys(), ...actual.keys()])) {
      expect(`${c} ${(actual.get(c) ?? dec(0)).toFixed()}`).toBe(`${c} ${(expected.get(c) ?? dec(0)).toFixed()}`);
    }
    const audit = (await control(ready, 'GET', '/audit')) as AuditRow[];
    expect(audit.length).toBeGreaterThan(0);
    for (const row of audit) expect(`${row.currency} ${dec(row.discrepancy).toFixed()}`).toBe(`${row.currency} 0`);

    process.stderr.write(
      `crash-safety: seed ${SEED}, ${kills} kills, lost responses ${lostResponses.map((l) => `${l.path}(${l.clientOrderIds.length})`).join(' ')}, ` +
        `${truth.orders.length} orders (${truth.orders.filter((o) => o.status === 'OPEN').length} open), ${truth.executions.length} executions, ` +
        `${compactions.length} compactions (${compactions.filter((l) => l.trigger === 'size').length} by size), ` +
        `adopted per start ${reports.map((r) => (r.adopted as unknown[]).length).join('/')}, lost per start ${reports.map((r) => (r.lost as unknown[]).length).join('/')}\n`,
    );
    failed = false;
  });
});

/** A position as comparable text. */
function showPosition(p: PositionSnapshot): string {
  return `${p.strategy} ${p.marketSymbol} ${p.quantity.toFixed()} cost ${p.cost.toFixed()} trading ${p.trading.toFixed()} commission ${p.commission.toFixed()} lots ${p.lots.length}`;
}

/** The start after a lost response adopted the open orders of it and declared none of them lost. */
function checkAccountedFor(lr: LostResponse, reconciled: LogLine): void {
  const lost = reconciled.lost as string[];
  const adopted = reconciled.adopted as string[];
  for (const id of lr.clientOrderIds) expect(lost, `${lr.path} placement ${id} whose response was lost`).not.toContain(id);
  for (const id of lr.openIds) expect(adopted, `open ${lr.path} placement ${id} whose response was lost`).toContain(id);
  if (lr.filled) expect(reconciled.recoveredFills as number, `fills of the ${lr.path} placement whose response was lost`).toBeGreaterThan(0);
}
