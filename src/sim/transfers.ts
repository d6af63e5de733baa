/**
 * Transfers between a master account and its sub-accounts (POST/GET /transfers..., partners only). A transfer
 * is one {@link Ledger.move} from the sender's available balance, executed at once (201).
 *
 * Partners: a master sends to one of its sub-accounts (`toSubaccountId`); a sub-account sends to its master
 * (`toMasterAccount: true`). Refusals, in the order checked (nothing changes on a refusal):
 * - 400 BAD_REQUEST: neither or both of toSubaccountId / toMasterAccount, a master naming toMasterAccount,
 *   a non-positive amount or more than 8 decimals;
 * - 409 REQUESTID_ALREADY_EXISTS with data {existingTransferId} when requestId was used within 24 h (seed);
 * - 404 CURRENCY_DOES_NOT_EXIST;
 * - 404 SUBACCOUNT_NOT_FOUND when toSubaccountId is not one of the master's sub-accounts (unknown and foreign
 *   ids answer alike, so other partners' ids are not revealed);
 * - 403 NOT_ALLOWED when a sub-account names a sub-account (sub-accounts only send to their master);
 * - 409 INSUFFICIENT_FUNDS from the ledger.
 *
 * Lists are newest first by executedAt (seed for /sent; rexbot applies the same order to /received) with the
 * shared pagination and startDate/endDate on executedAt.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import type { NewTransfer, ReceivedTransfer, SentTransfer, Transfer } from '../model/subaccount.js';
import { normalizeId, type AccountRegistry } from './accounts/account-registry.js';
import type { Catalog } from './catalog.js';
import type { IdempotencyIndex } from './idempotency.js';
import type { Ledger } from './ledger.js';
import { listPage, validatePageQuery, type PageQuery } from './paginate.js';
import { conflict, forbidden, notFound } from './sim-error.js';
import { invalidParameter, newestFirst, requirePositiveAmount } from './wallet/wallet-common.js';

/** Query of GET /transfers/sent. */
export interface SentTransfersQuery extends PageQuery {
  toSubaccountId?: string | undefined;
  toMasterAccount?: boolean | undefined;
  currencySymbol?: string | undefined;
}
/** Query of GET /transfers/received. */
export interface ReceivedTransfersQuery extends PageQuery {
  fromSubaccountId?: string | undefined;
  fromMasterAccount?: boolean | undefined;
  currencySymbol?: string | undefined;
}

/** Dependencies of {@link Transfers}. */
export interface TransfersDeps {
  clock: Clock;
  ledger: Ledger;
  catalog: Catalog;
  idempotency: IdempotencyIndex;
  accounts: AccountRegistry;
}

interface TransferRecord {
  id: string;
  from: string;
  to: string;
  /** True when the receiver is the sender's master (a sub-account sending up). */
  toMaster: boolean;
  requestId: string | undefined;
  currencySymbol: string;
  amount: Decimal;
  executedAt: number;
  seq: number;
}

/** The idempotency namespace of transfer requestIds (the index is shared with clientOrderId and others). */
const idemKey = (requestId: string) => `transfer:${requestId.toLowerCase()}`;

/** All transfers. */
export class Transfers {
  readonly #deps: TransfersDeps;
  readonly #byId = new Map<string, TransferRecord>();
  readonly #sent = new Map<string, TransferRecord[]>();
  readonly #received = new Map<string, TransferRecord[]>();
  #seq = 0;

  constructor(deps: TransfersDeps) {
    this.#deps = deps;
  }

  /** POST /transfers (201): move `amount` from the acting account to its partner; answers the sent transfer. */
  create(accountId: string, n: NewTransfer): SentTransfer {
    const { accounts, catalog, idempotency, ledger, clock } = this.#deps;
    const from = normalizeId(accountId);
    const toMaster = n.toMasterAccount === true;
    if (toMaster === (n.toSubaccountId !== undefined && n.toSubaccountId !== '')) {
      throw invalidParameter('toSubaccountId', 'give exactly one of toSubaccountId and toMasterAccount');
    }
    const master = accounts.masterOf(from);
    if (toMaster && master === undefined) throw invalidParameter('toMasterAccount', 'a master account cannot transfer to itself');
    requirePositiveAmount('amount', n.amount);
    if (n.requestId !== undefined) {
      const existing = idempotency.find(from, idemKey(n.requestId));
      if (existing !== undefined) throw conflict('REQUESTID_ALREADY_EXISTS', 'requestId already used', { existingTransferId: existing });
    }
    const cur = catalog.currency(n.currencySymbol);
    let to: string;
    if (toMaster) {
      to = master!;
    } else {
      if (master !== undefined) throw forbidden('NOT_ALLOWED', 'a sub-account can only transfer to its master account');
      to = normalizeId(n.toSubaccountId!);
      if (accounts.masterOf(to) !== from) throw notFound('SUBACCOUNT_NOT_FOUND', `sub-account ${n.toSubaccountId} not found`);
    }
    ledger.move(accountId, to, cur.symbol, n.amount, { fromHeld: false });

    const rec: TransferRecord = {
      id: randomUUID(),
      from,
      to,
      toMaster,
      requestId: n.requestId,
      currencySymbol: cur.symbol,
      amount: n.amount,
      executedAt: clock.now(),
      seq: this.#seq++,
    };
    this.#byId.set(rec.id, rec);
    push(this.#sent, from, rec);
    push(this.#received, to, rec);
    if (n.requestId !== undefined) idempotency.remember(from, idemKey(n.requestId), rec.id);
    return sentView(rec);
  }

  /** GET /transfers/sent. */
  sent(accountId: string, q: SentTransfersQuery = {}): SentTransfer[] {
    validatePageQuery(q);
    const currency = q.currencySymbol === undefined ? undefined : this.#deps.catalog.currency(q.currencySymbol).symbol;
    const toSub = q.toSubaccountId === undefined ? undefined : normalizeId(q.toSubaccountId);
    const list = (this.#sent.get(normalizeId(accountId)) ?? []).filter(
      (r) =>
        (currency === undefined || r.currencySymbol === currency) &&
        (toSub === undefined || (!r.toMaster && r.to === toSub)) &&
        (q.toMasterAccount === undefined || r.toMaster === q.toMasterAccount),
    );
    return this.#page(list, q).map(sentView);
  }

  /** GET /transfers/received. */
  received(accountId: string, q: ReceivedTransfersQuery = {}): ReceivedTransfer[] {
    validatePageQuery(q);
    const currency = q.currencySymbol === undefined ? undefined : this.#deps.catalog.currency(q.currencySymbol).symbol;
    const fromSub = q.fromSubaccountId === undefined ? undefined : normalizeId(q.fromSubaccountId);
    const list = (this.#received.get(normalizeId(accountId)) ?? []).filter(
      (r) =>
        (currency === undefined || r.currencySymbol === currency) &&
        // A transfer received from a sub-account is exactly one a sub-account sent up to its master.
        (fromSub === undefined || (r.toMaster && r.from === fromSub)) &&
        (q.fromMasterAccount === undefined || !r.toMaster === q.fromMasterAccount),
    );
    return this.#page(list, q).map(receivedView);
  }

  /** GET /transfers/{id}: a transfer the account sent or received, seen from its side; 404 NOT_FOUND otherwise. */
  get(accountId: string, transferId: string): Transfer {
    const me = normalizeId(accountId);
    const rec = this.#byId.get(normalizeId(transferId));
    if (rec?.from === me) return sentView(rec) as Transfer;
    if (rec?.to === me) return receivedView(rec) as Transfer;
    throw notFound('NOT_FOUND', `transfer ${transferId} not found`);
  }

  #page(list: TransferRecord[], q: PageQuery): TransferRecord[] {
    const sorted = newestFirst([...list], (r) => r.executedAt, (r) => r.seq);
    return listPage(sorted, { idOf: (r) => r.id, dateOf: (r) => new Date(r.executedAt) }, q);
  }
}

function push(m: Map<string, TransferRecord[]>, key: string, rec: TransferRecord): void {
  let list = m.get(key);
  if (!list) m.set(key, (list = []));
  list.push(rec);
}

function sentView(r: TransferRecord): SentTransfer {
  const t: SentTransfer = { id: r.id, currencySymbol: r.currencySymbol, amount: r.amount, executedAt: new Date(r.executedAt) };
  if (r.toMaster) t.toMasterAccount = true;
  else {
    t.toSubaccountId = r.to;
    t.toMasterAccount = false;
  }
  if (r.requestId !== undefined) t.requestId = r.requestId;
  return t;
}

function receivedView(r: TransferRecord): ReceivedTransfer {
  const t: ReceivedTransfer = { id: r.id, currencySymbol: r.currencySymbol, amount: r.amount, executedAt: new Date(r.executedAt) };
  if (r.toMaster) {
    t.fromSubaccountId = r.from;
    t.fromMasterAccount = false;
  } else t.fromMasterAccount = true;
  if (r.requestId !== undefined) t.requestId = r.requestId;
  return t;
}
