/**
 * Sending: every request the order manager makes, with the journal first and the retry policy around it.
 *
 * A placement is journaled (fsynced) before its first attempt; every attempt carries the same client id, so a
 * retry after a lost answer either lands once or answers *_ALREADY_EXISTS, which adopts the existing order.
 * When the retries are spent and an attempt may have reached the exchange, the order is AMBIGUOUS and looked up
 * by client id a few times before it is declared lost. Cancels are not journaled (a restart reads the order's
 * state from the exchange) and never go through risk.
 */
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { ExchangeGateway } from '../gateway/exchange-gateway.js';
import type { BatchResponse, Order } from '../model/order.js';
import { batchChunks } from './batch-chunks.js';
import type { InFlightConditional } from './in-flight-conditional.js';
import type { InFlightOrder, InFlightState } from './in-flight.js';
import type { Journal } from './journal.js';
import type { OrderEvent } from './order-events.js';
import { batchOperations, cancellableOrders, cancelsStillPending } from './order-lists.js';
import { findConditionalByClientId, findOrderByClientId } from './order-lookup.js';
import type { ReadonlyAccountStore } from './order-manager-deps.js';
import { idOf, type OrderTracker } from './order-tracker.js';
import { classifyFailure, withRetries, type Failure, type RetryPolicy } from './retry-policy.js';

/** Dependencies of {@link OrderRequests}. */
export interface OrderRequestsDeps {
  gateway: ExchangeGateway;
  journal: Journal;
  clock: Clock;
  account: ReadonlyAccountStore;
  tracker: OrderTracker;
  policy: RetryPolicy;
  batchSize: number;
  newId: () => string;
  log: Logger;
  emit: (event: OrderEvent) => void;
  /** Count a request outcome (metrics). */
  count: (operation: string, outcome: string) => void;
}

const NOT_OPEN_CODES = new Set(['ORDER_NOT_OPEN', 'NOT_FOUND', 'CONDITIONAL_ORDER_NOT_OPEN']);

type Attempted<T> = Awaited<ReturnType<typeof withRetries<T>>>;

/** The manager's request side (see the module note). */
export class OrderRequests {
  readonly #d: OrderRequestsDeps;

  constructor(deps: OrderRequestsDeps) {
    this.#d = deps;
  }

  // ---- orders ----------------------------------------------------------------------------------------------

  /** Journal (fsynced), announce and send one order. Never throws. */
  async placeOrder(entry: InFlightOrder): Promise<void> {
    const { journal, tracker } = this.#d;
    try {
      await journal.appendDurable({
        t: 'order',
        at: entry.createdAt,
        clientOrderId: entry.clientOrderId,
        strategy: entry.strategy,
        intentKey: entry.intentKey,
        role: entry.role,
        order: entry.request!,
        bracket: entry.bracket,
      });
    } catch (e) {
      tracker.fail(entry, 'JOURNAL_ERROR', `journal write failed, order not sent: ${(e as Error).message}`);
      return;
    }
    this.#submitted(entry.strategy, entry.intentKey, entry.clientOrderId);
    await this.#sendOrder(entry);
  }

  /** Send an already journaled order (with retries) and settle the outcome. */
  async #sendOrder(entry: InFlightOrder): Promise<void> {
    const r = await this.#attempt(
      'place',
      [entry],
      entry.clientOrderId,
      () => this.#d.gateway.placeOrder(entry.request!),
    );
    await this.#settlePlacement(entry, r);
  }

  async #settlePlacement(entry: InFlightOrder, r: Attempted<Order | undefined>): Promise<void> {
    if (r.ok) {
      if (r.value) this.#d.tracker.applyOrder(entry, r.value);
      return;
    }
    await this.#settleFailure(entry, r.failure, r.everAmbiguous);
  }

  async #settleFailure(e: InFlightOrder | InFlightConditional, f: Failure, everAmbiguous: boolean): Promise<void> {
    // The stream may have answered while the request was failing.
    if (!e.isUnacknowledged) return;
    if (f.kind === 'exists') await this.#adopt(e, f.existingId);
    else if (everAmbiguous || f.kind === 'ambiguous') await this.resolveAmbiguous(e);
    else this.#d.tracker.fail(e, f.code, f.message);
  }

  /** An earlier attempt landed: follow the existing order instead of placing another. */
  async #adopt(e: InFlightOrder | InFlightConditional, existingId: string | undefined): Promise<void> {
    const { gateway, account, tracker, log } = this.#d;
    try {
      if (isConditional(e)) {
        const found = existingId
          ? await gateway.conditionalOrder(existingId)
          : await findConditionalByClientId(gateway, account, e.clientConditionalOrderId, { marketSymbol: e.marketSymbol, since: e.createdAt });
        if (found) {
          tracker.applyConditional(e, found);
          return;
        }
      } else {
        const found = existingId
          ? await gateway.order(existingId)
          : await findOrderByClientId(gateway, account, e.clientOrderId, { marketSymbol: e.marketSymbol, since: e.createdAt });
        if (found) {
          tracker.applyOrder(e, found);
          return;
        }
      }
    } catch (err) {
      log.warn({ err, clientId: idOf(e) }, 'adopting the existing order failed; resolving by lookups');
    }
    await this.resolveAmbiguous(e);
  }

  /**
   * Look an unanswered request up by client id until found or not found `lookupAttempts` times (then lost).
   * Failed lookups do not count as "not found"; after too many of them the entry stays AMBIGUOUS (the stream or
   * the next reconciliation settles it).
   */
  async resolveAmbiguous(e: InFlightOrder | InFlightConditional): Promise<void> {
    const { gateway, account, tracker, policy, clock, log } = this.#d;
    tracker.ambiguous(e);
    const scope = { marketSymbol: e.marketSymbol, since: e.createdAt };
    for (let tries = 0; e.state === 'AMBIGUOUS' && e.lookups < policy.lookupAttempts && tries < policy.lookupAttempts * 5; tries++) {
      await clock.sleep(policy.lookupDelayMs);
      if (e.state !== 'AMBIGUOUS') return;
      try {
        if (isConditional(e)) {
          const found = await findConditionalByClientId(gateway, account, e.clientConditionalOrderId, scope);
          if (found) return tracker.applyConditional(e, found);
        } else {
          const found = await findOrderByClientId(gateway, account, e.clientOrderId, scope);
          if (found) return tracker.applyOrder(e, found);
        }
        e.lookups++;
      } catch (err) {
        log.warn({ err, clientId: idOf(e) }, 'lookup of an ambiguous order failed');
      }
    }
    if (e.state !== 'AMBIGUOUS') return;
    if (e.lookups >= policy.lookupAttempts) tracker.lost(e);
    else log.error({ clientId: idOf(e) }, 'order still ambiguous: lookups keep failing; the next reconciliation will settle it');
  }

  // ---- conditional orders ----------------------------------------------------------------------------------

  /** Journal (fsynced), announce and send one conditional order. Never throws. */
  async placeConditional(c: InFlightConditional): Promise<void> {
    const { journal, tracker, gateway } = this.#d;
    try {
      await journal.appendDurable({
        t: 'conditional',
        at: c.createdAt,
        clientConditionalOrderId: c.clientConditionalOrderId,
        strategy: c.strategy,
        intentKey: c.intentKey,
        role: c.role,
        order: c.request,
        parent: c.parent,
      });
    } catch (e) {
      tracker.fail(c, 'JOURNAL_ERROR', `journal write failed, conditional order not sent: ${(e as Error).message}`);
      return;
    }
    this.#submitted(c.strategy, c.intentKey, c.clientConditionalOrderId);
    const r = await this.#attempt('conditional', [c], c.clientConditionalOrderId, () => gateway.placeConditionalOrder(c.request));
    if (r.ok) {
      if (r.value) tracker.applyConditional(c, r.value);
      return;
    }
    await this.#settleFailure(c, r.failure, r.everAmbiguous);
  }

  /** Cancel a conditional order (when it has an exchange id; otherwise as soon as it gets one). */
  async cancelConditional(c: InFlightConditional): Promise<void> {
    const { gateway, tracker } = this.#d;
    if (c.isFinal || c.state === 'CANCEL_PENDING') return;
    if (c.id === undefined || c.isUnacknowledged) {
      c.cancelRequested = true;
      return;
    }
    const id = c.id;
    c.transition('CANCEL_PENDING');
    const r = await withRetries(this.#d.policy, (ms) => this.#d.clock.sleep(ms), () => gateway.cancelConditionalOrder(id));
    this.#d.count('cancelConditional', r.ok ? 'ok' : r.failure.code);
    if (r.ok) return tracker.applyConditional(c, r.value);
    try {
      tracker.applyConditional(c, await gateway.conditionalOrder(id));
    } catch {
      // Keep what is known; the stream will tell.
    }
    // Re-read: the lookup above may have moved it (TypeScript cannot see that through the await).
    if (stateOf(c) === 'CANCEL_PENDING') {
      c.transition('OPEN');
      this.#cancelFailed(c.strategy, c.intentKey, c.clientConditionalOrderId, r.failure);
    }
  }

  // ---- cancels and batches ---------------------------------------------------------------------------------

  /**
   * Cancel orders: unacknowledged ones as soon as their id is known, one acknowledged order with DELETE, several
   * with POST /batch (one request per chunk instead of one per order — rate limits are per call).
   */
  async cancelOrders(entries: readonly InFlightOrder[]): Promise<void> {
    const ready: InFlightOrder[] = [];
    for (const e of entries) {
      if (e.isFinal || e.state === 'CANCEL_PENDING') continue;
      if (e.orderId === undefined || e.isUnacknowledged) e.cancelRequested = true;
      else ready.push(e);
    }
    if (ready.length === 1) await this.#cancelOne(ready[0]!);
    else if (ready.length > 1) await this.batch([], ready);
  }

  async #cancelOne(entry: InFlightOrder): Promise<void> {
    const { gateway, tracker } = this.#d;
    const orderId = entry.orderId!;
    entry.transition('CANCEL_PENDING');
    const r = await withRetries(this.#d.policy, (ms) => this.#d.clock.sleep(ms), () => gateway.cancelOrder(orderId));
    this.#d.count('cancel', r.ok ? 'ok' : r.failure.code);
    if (r.ok) tracker.applyOrder(entry, r.value);
    else await this.#settleCancelFailure(entry, r.failure);
  }

  async #settleCancelFailure(entry: InFlightOrder, f: Failure): Promise<void> {
    const { gateway, tracker, log } = this.#d;
    if (entry.state !== 'CANCEL_PENDING') return;
    // Already closed (ORDER_NOT_OPEN), or the answer was lost: the order's own state says what happened.
    try {
      tracker.applyOrder(entry, await gateway.order(entry.orderId!));
    } catch (err) {
      log.warn({ err, clientOrderId: entry.clientOrderId }, 'order lookup after a failed cancel failed');
    }
    if (entry.state !== 'CANCEL_PENDING') return;
    entry.transition(entry.order?.fillQuantity.gt(0) ? 'PARTIALLY_FILLED' : 'OPEN');
    if (!NOT_OPEN_CODES.has(f.code)) this.#cancelFailed(entry.strategy, entry.intentKey, entry.clientOrderId, f);
    tracker.changed(entry);
  }

  /**
   * POST /batch: `cancels` first (they free funds), then `places`, in chunks of `batchSize`. Placements are
   * journaled (one fsynced record per chunk) before the chunk leaves; a retry resends the chunk unchanged.
   */
  async batch(places: readonly InFlightOrder[], cancelsIn: readonly InFlightOrder[]): Promise<void> {
    const size = Math.max(1, this.#d.batchSize);
    // Marked before anything is awaited, so a plan made meanwhile sees these cancels as pending.
    const cancels = cancellableOrders(cancelsIn);
    for (const c of cancels) c.transition('CANCEL_PENDING');
    for (const chunk of batchChunks(places, cancels, size)) await this.#batchChunk(chunk.places, chunk.cancels);
  }

  async #batchChunk(places: InFlightOrder[], cancelsIn: InFlightOrder[]): Promise<void> {
    const { journal, tracker, gateway, clock } = this.#d;
    // A cancel whose order closed meanwhile (stream) needs no request.
    const cancels = cancelsStillPending(cancelsIn);
    const batchId = this.#d.newId();
    let sendPlaces = places;
    if (places.length > 0) {
      const first = places[0]!;
      try {
        await journal.appendDurable({
          t: 'batch',
          at: clock.now(),
          batchId,
          strategy: first.strategy,
          intentKey: first.intentKey,
          orders: places.map((p) => ({ clientOrderId: p.clientOrderId, order: p.request! })),
          cancels: cancels.map((c) => c.orderId!),
        });
        for (const p of places) this.#submitted(p.strategy, p.intentKey, p.clientOrderId);
      } catch (e) {
        for (const p of places) tracker.fail(p, 'JOURNAL_ERROR', `journal write failed, order not sent: ${(e as Error).message}`);
        sendPlaces = [];
      }
    }
    if (cancels.length === 0 && sendPlaces.length === 0) return;
    const operations = batchOperations(cancels, sendPlaces);
    const r = await this.#attempt('batch', sendPlaces, batchId, async () => {
      const answer = await gateway.batch(operations);
      if (answer.length !== operations.length) {
        throw new Error(`batch answered ${answer.length} results for ${operations.length} operations`);
      }
      return answer;
    });
    if (!r.ok) {
      for (const p of sendPlaces) await this.#settleFailure(p, r.failure, r.everAmbiguous);
      for (const c of cancels) await this.#settleCancelFailure(c, r.failure);
      return;
    }
    const answers = r.value ?? [];
    for (let i = 0; i < cancels.length; i++) {
      const res = answers[i]!;
      if (res.ok) tracker.applyOrder(cancels[i]!, res.payload);
      else await this.#settleCancelFailure(cancels[i]!, failureOf(res));
    }
    for (let i = 0; i < sendPlaces.length; i++) {
      const p = sendPlaces[i]!;
      const res = answers[cancels.length + i];
      if (!res) continue;
      if (res.ok) {
        tracker.applyOrder(p, res.payload);
        continue;
      }
      const f = failureOf(res);
      if (!p.isUnacknowledged) continue;
      // One operation of the batch was throttled or failed on the server: resend that order alone, same id.
      if (f.kind === 'throttled' || f.kind === 'ambiguous' || f.kind === 'notSent') {
        if (p.state === 'SUBMITTED') p.transition('PENDING_SUBMIT');
        await this.#sendOrder(p);
      } else await this.#settleFailure(p, f, r.everAmbiguous);
    }
  }

  // ---- shared ----------------------------------------------------------------------------------------------

  /**
   * Attempts of one request for `entries` (placements: SUBMITTED while an attempt is out, PENDING_SUBMIT between
   * attempts). Resolves undefined without sending when the stream acknowledged every entry meanwhile.
   */
  async #attempt<T>(
    operation: string,
    entries: readonly (InFlightOrder | InFlightConditional)[],
    id: string,
    send: () => Promise<T>,
  ): Promise<Attempted<T | undefined>> {
    const { journal, clock, policy, log } = this.#d;
    const r = await withRetries<T | undefined>(
      policy,
      (ms) => clock.sleep(ms),
      async (attempt) => {
        if (entries.length > 0 && entries.every((e) => !e.isUnacknowledged)) return undefined;
        for (const e of entries) if (e.state === 'PENDING_SUBMIT') e.transition('SUBMITTED');
        journal.append({ t: 'sent', at: clock.now(), id, attempt });
        return send();
      },
      (failure, attempt) => {
        this.#d.count(operation, `retry_${failure.kind}`);
        log.warn({ id, attempt, code: failure.code }, `${operation} failed (${failure.kind}); retrying with the same id`);
        for (const e of entries) if (e.state === 'SUBMITTED') e.transition('PENDING_SUBMIT');
      },
    );
    this.#d.count(operation, r.ok ? 'ok' : r.failure.code);
    return r;
  }

  #submitted(strategy: string, intentKey: string, clientOrderId: string): void {
    this.#d.emit({ type: 'submitted', strategy, intentKey, clientOrderId, at: this.#d.clock.now() });
  }

  #cancelFailed(strategy: string, intentKey: string, clientOrderId: string, f: Failure): void {
    this.#d.emit({ type: 'rejected', strategy, intentKey, clientOrderId, code: f.code, message: `cancel failed: ${f.message}`, at: this.#d.clock.now() });
  }
}

function stateOf(e: InFlightOrder | InFlightConditional): InFlightState {
  return e.state;
}

function isConditional(e: InFlightOrder | InFlightConditional): e is InFlightConditional {
  return 'clientConditionalOrderId' in e;
}

function failureOf(res: Extract<BatchResponse, { ok: false }>): Failure {
  return classifyFailure(new ApiError({ status: res.status, code: res.payload.code, detail: res.payload.detail, data: res.payload.data }));
}
