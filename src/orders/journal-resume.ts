/**
 * Resuming after a restart: replay the journal's fills (positions, dedupe), settle the journal against the
 * exchange ({@link reconcileJournal}, which refuses when anything is unaccounted for), then follow again what is
 * still live, report the fills that were missed, close what closed meanwhile, and arm filled brackets whose legs
 * never got out. Orders found closed get their recovered fills BEFORE their close is applied, so a strategy
 * (and the journal) sees fills, then the close.
 *
 * The journal is read as it was opened, from the fold Journal.open already built (start folds the file once);
 * nothing may append to it before or during reconciliation (a JOURNAL_CHANGED error says so). That fold is the
 * journal's own, which goes on folding every record written later: everything below reads it before the records
 * this resume appends are flushed (at the end of the tick), and reconciliation hands back what it needs.
 */
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { RexbotError } from '../core/errors.js';
import type { ExchangeGateway } from '../gateway/exchange-gateway.js';
import type { BracketEntry } from './bracket-legs.js';
import { InFlightConditional } from './in-flight-conditional.js';
import type { InFlightRegistry } from './in-flight-registry.js';
import { InFlightOrder } from './in-flight.js';
import type { Journal } from './journal.js';
import type { Decimal } from '../core/decimal.js';
import type { OrderTracker } from './order-tracker.js';
import { reconcileJournal, type ReconcileReport } from './reconcile.js';

/** What resuming needs. */
export interface ResumeDeps {
  journal: Journal;
  gateway: ExchangeGateway;
  registry: InFlightRegistry;
  tracker: OrderTracker;
  clock: Clock;
  log: Logger;
  armBracket: (entry: BracketEntry, filled: Decimal) => Promise<void>;
}

/**
 * Resume from the journal (see the module note). Throws a ReconcileError when anything stays unaccounted for.
 *
 * @example
 * const report = await resumeFromJournal({ journal, gateway, registry, tracker, clock, log, armBracket });
 */
export async function resumeFromJournal(d: ResumeDeps): Promise<ReconcileReport> {
  const { journal, registry, tracker } = d;
  for (const w of journal.warnings) d.log.warn({ journal: journal.path }, w);
  const state = journal.takeStateAtOpen();
  for (const f of state.fills.values()) tracker.replayFill(f);
  // Positions as the journal folded them, checkpoint included: the same figures replaying every fill gave before
  // compaction existed, and still right once the fills of finished orders are compacted away.
  tracker.restorePositions(state.positions());
  const result = await reconcileJournal({ gateway: d.gateway, state, log: d.log });
  if (!journal.unchangedSinceOpen) {
    // Reconciliation read a fold that changed under it: what it concluded may not hold.
    throw new RexbotError('JOURNAL_CHANGED', `journal ${journal.path}: records were appended while reconciling; resume must run before anything writes to the journal`);
  }
  const apply: (() => void)[] = [];
  for (const res of result.resolutions) {
    const r = res.request;
    if (res.outcome === 'notPlaced') {
      journal.append({ t: 'lost', at: d.clock.now(), id: r.kind === 'order' ? r.clientOrderId : r.clientConditionalOrderId });
      continue;
    }
    if ('order' in res) {
      const q = res.request;
      const entry = new InFlightOrder({
        clientOrderId: q.clientOrderId,
        strategy: q.strategy,
        intentKey: q.intentKey,
        role: q.role,
        request: { ...q.request, clientOrderId: q.clientOrderId },
        bracket: q.bracket,
        createdAt: q.at,
      });
      tracker.restoreFills(entry);
      registry.addOrder(entry);
      registry.linkOrderId(entry, res.order.id);
      if (q.orderId !== undefined) tracker.markAccepted(entry);
      apply.push(() => tracker.applyOrder(entry, res.order));
    } else {
      const q = res.request;
      const c = new InFlightConditional({
        clientConditionalOrderId: q.clientConditionalOrderId,
        strategy: q.strategy,
        intentKey: q.intentKey,
        role: q.role,
        request: q.request,
        parent: q.parent,
        createdAt: q.at,
      });
      registry.addConditional(c);
      registry.linkConditionalId(c, res.conditional.id);
      if (q.id !== undefined) tracker.markAccepted(c);
      const created = res.createdOrder;
      if (created) apply.push(() => tracker.followCreatedOrder(c, created.id, created));
      apply.push(() => tracker.applyConditional(c, res.conditional));
    }
  }
  // Fills first, so orders found closed are complete when they are applied.
  tracker.onExecutions(result.executions);
  for (const f of apply) f();
  for (const b of result.brackets) {
    const q = b.request;
    await d.armBracket(
      { clientOrderId: q.clientOrderId, strategy: q.strategy, intentKey: q.intentKey, marketSymbol: q.request.marketSymbol, direction: q.request.direction, bracket: q.bracket! },
      b.filled,
    );
  }
  // Debug: the kernel says 'journal reconciled' at info with the same report (a second info line said it twice).
  d.log.debug({ ...result.report, unknownOpenOrders: result.report.unknownOpenOrders.map((o) => o.id) }, 'journal reconciled with the exchange');
  return result.report;
}
