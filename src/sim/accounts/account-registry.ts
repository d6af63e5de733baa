/**
 * Who exists on the simulated exchange: master accounts, their sub-accounts, and API keys with scopes.
 *
 * Authorization rules (the service's behaviour where the seed states it, rexbot's documented choice where not):
 * - an unknown Api-Key answers 401 APIKEY_INVALID (seed);
 * - acting for a sub-account (Api-Subaccount-Id) needs a key of a MASTER account that owns that sub-account.
 *   A sub-account id that does not exist and one that belongs to another master both answer 403 FORBIDDEN: the
 *   key is not authorized for it, and answering 404 for only one of the two cases would reveal which ids exist.
 *   A key of a sub-account naming any sub-account also answers 403 FORBIDDEN;
 * - creating a sub-account while acting as a sub-account answers 403 SUBACCOUNT_OF_SUBACCOUNT_NOT_ALLOWED (the
 *   seed names the code, not the status; 403 because it is the actor, not the request, that is not allowed);
 * - GET /subaccounts/{id} of an id that is not one of the caller's answers 404 SUBACCOUNT_NOT_FOUND.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { Account } from '../../model/account.js';
import type { Subaccount } from '../../model/subaccount.js';
import { listPage, type PageQuery } from '../paginate.js';
import { SimError, badRequest, forbidden, notFound } from '../sim-error.js';

/** API key permission scopes (seed section 5). */
export type ApiKeyScope = 'view' | 'trade' | 'withdraw';
/** Every scope, in the seed's order. */
export const API_KEY_SCOPES: readonly ApiKeyScope[] = ['view', 'trade', 'withdraw'];

/**
 * What {@link AccountRegistry.findKey} answers: the key as it was issued, its owner, its secret (for signature
 * checks) and scopes.
 */
export interface ApiKeyRecord {
  /**
   * The key as issued. Keys match case-insensitively, so the spelling a request sent is not an identity: whatever
   * counts or remembers per key (call limits, replay guards) must use this one, or a key spelled in another case
   * would count as a new key.
   */
  apiKey: string;
  accountId: string;
  secret: string;
  scopes: ApiKeyScope[];
}

/** Options of {@link AccountRegistry.createMasterAccount}. */
export interface NewMasterAccountOptions {
  /** A fixed id (demos and tests want stable ids); a random uuid otherwise. */
  accountId?: string;
  /** A partner account (sub-accounts and transfers; see {@link AccountRegistry.isPartner}). Default false. */
  partner?: boolean;
}

interface AccountRecord {
  id: string;
  /** Undefined for a master account. */
  masterId: string | undefined;
  createdAt: number;
  /** Creation order, to keep equal createdAt values in a stable order. */
  seq: number;
  /** When true, withdrawals must go to an ACTIVE allowed address (see the wallet). */
  requireAllowedAddresses: boolean;
  /** A partner of the exchange: may have sub-accounts and move funds to and from them (seed: "partners only"). */
  partner: boolean;
}

/** Accounts, sub-accounts and API keys. */
export class AccountRegistry {
  readonly #clock: Clock;
  readonly #accounts = new Map<string, AccountRecord>();
  readonly #subaccounts = new Map<string, AccountRecord[]>();
  readonly #keys = new Map<string, ApiKeyRecord>();
  #seq = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Open a master account. */
  createMasterAccount(opts: NewMasterAccountOptions = {}): { accountId: string } {
    const id = normalizeId(opts.accountId ?? randomUUID());
    if (this.#accounts.has(id)) throw new Error(`accounts: account ${id} already exists`);
    const record = this.#record(id, undefined);
    record.partner = opts.partner ?? false;
    this.#accounts.set(id, record);
    return { accountId: id };
  }

  /**
   * Create a sub-account of `masterId` (POST /subaccounts, 201). 403 SUBACCOUNT_OF_SUBACCOUNT_NOT_ALLOWED when
   * `masterId` is itself a sub-account.
   */
  createSubaccount(masterId: string): Subaccount {
    const master = this.#require(masterId);
    if (master.masterId !== undefined) {
      throw forbidden('SUBACCOUNT_OF_SUBACCOUNT_NOT_ALLOWED', 'a sub-account cannot create sub-accounts');
    }
    const sub = this.#record(randomUUID(), master.id);
    this.#accounts.set(sub.id, sub);
    let list = this.#subaccounts.get(master.id);
    if (!list) this.#subaccounts.set(master.id, (list = []));
    list.push(sub);
    return toSubaccount(sub);
  }

  /** The sub-accounts of `masterId`, sorted by createdAt descending (newest first) as GET /subaccounts. */
  subaccountsOf(masterId: string): Subaccount[] {
    const list = this.#subaccounts.get(normalizeId(masterId)) ?? [];
    return [...list].sort(newestFirst).map(toSubaccount);
  }

  /** GET /subaccounts: one page of {@link subaccountsOf} (pagination without dates, as the endpoint). */
  listSubaccounts(actorId: string, q: PageQuery = {}): Subaccount[] {
    const { startDate: _s, endDate: _e, ...paging } = q;
    return listPage(this.subaccountsOf(actorId), { idOf: (s) => s.id }, paging);
  }

  /** GET /subaccounts/{id}: one of the caller's sub-accounts; 404 SUBACCOUNT_NOT_FOUND otherwise. */
  getSubaccount(actorId: string, subaccountId: string): Subaccount {
    const sub = this.#accounts.get(normalizeId(subaccountId));
    if (!sub || sub.masterId !== normalizeId(actorId)) {
      throw notFound('SUBACCOUNT_NOT_FOUND', `sub-account ${subaccountId} not found`);
    }
    return toSubaccount(sub);
  }

  /**
   * Issue an API key for `accountId`. Key and secret are 32 lowercase hex characters (the service's format)
   * unless given; scopes must be a non-empty subset of view/trade/withdraw.
   */
  createApiKey(
    accountId: string,
    scopes: readonly ApiKeyScope[],
    opts: { apiKey?: string; apiSecret?: string } = {},
  ): { apiKey: string; apiSecret: string } {
    const account = this.#require(accountId);
    if (scopes.length === 0 || scopes.some((s) => !API_KEY_SCOPES.includes(s))) {
      throw new Error(`accounts: scopes must be a non-empty subset of ${API_KEY_SCOPES.join('/')}`);
    }
    const apiKey = opts.apiKey ?? randomBytes(16).toString('hex');
    const apiSecret = opts.apiSecret ?? randomBytes(16).toString('hex');
    if (this.#keys.has(apiKey.toLowerCase())) throw new Error('accounts: api key already exists');
    this.#keys.set(apiKey.toLowerCase(), { apiKey, accountId: account.id, secret: apiSecret, scopes: [...new Set(scopes)] });
    return { apiKey, apiSecret };
  }

  /** The key record, or undefined for an unknown key (the REST layer answers 401 APIKEY_INVALID). */
  findKey(apiKey: string): ApiKeyRecord | undefined {
    const k = this.#keys.get(apiKey.toLowerCase());
    return k ? { apiKey: k.apiKey, accountId: k.accountId, secret: k.secret, scopes: [...k.scopes] } : undefined;
  }

  /**
   * The account a request acts for: the key's account, or the sub-account named by Api-Subaccount-Id when the
   * key's master owns it. 401 APIKEY_INVALID for an unknown key; 403 FORBIDDEN for a sub-account the key may
   * not act for (see the module notes).
   */
  resolveActor(apiKey: string, subaccountId?: string): string {
    const key = this.#keys.get(apiKey.toLowerCase());
    if (!key) throw new SimError(401, 'APIKEY_INVALID', 'unknown api key');
    if (subaccountId === undefined || subaccountId === '') return key.accountId;
    const sub = this.#accounts.get(normalizeId(subaccountId));
    if (!sub || sub.masterId === undefined || sub.masterId !== key.accountId) {
      throw forbidden('FORBIDDEN', `this key may not act for sub-account ${subaccountId}`);
    }
    return sub.id;
  }

  /** True when the scopes of `apiKey` include `scope`. */
  keyHasScope(apiKey: string, scope: ApiKeyScope): boolean {
    return this.#keys.get(apiKey.toLowerCase())?.scopes.includes(scope) ?? false;
  }

  /** GET /account: `{accountId}` for a master account, `{subaccountId}` when acting for a sub-account. */
  accountInfo(actorId: string): Account {
    const a = this.#require(actorId);
    // Seed: accountId is "only for master accounts"; subaccountId echoes the sub-account acted for.
    return a.masterId === undefined ? { accountId: a.id } : { subaccountId: a.id };
  }

  /** True when `accountId` exists. */
  has(accountId: string): boolean {
    return this.#accounts.has(normalizeId(accountId));
  }

  /** The master of a sub-account; undefined for a master (or unknown) account. */
  masterOf(accountId: string): string | undefined {
    return this.#accounts.get(normalizeId(accountId))?.masterId;
  }

  /** True when `accountId` is a sub-account. */
  isSubaccount(accountId: string): boolean {
    return this.masterOf(accountId) !== undefined;
  }

  /** When true, the account's withdrawals must go to an ACTIVE allowed address. Default false. */
  requiresAllowedAddresses(accountId: string): boolean {
    return this.#accounts.get(normalizeId(accountId))?.requireAllowedAddresses ?? false;
  }

  /**
   * Turn the allowed-address list on or off for an account (control entry point: the service had this as an
   * account setting on its website; off by default so plain clients such as ccxt can withdraw).
   */
  setRequireAllowedAddresses(accountId: string, on: boolean): void {
    this.#require(accountId).requireAllowedAddresses = on;
  }

  /**
   * True when `accountId` is a partner account, or a sub-account of one: the seed opens sub-accounts, transfers
   * and acting for a sub-account to partners only.
   */
  isPartner(accountId: string): boolean {
    const a = this.#accounts.get(normalizeId(accountId));
    if (!a) return false;
    return a.masterId === undefined ? a.partner : (this.#accounts.get(a.masterId)?.partner ?? false);
  }

  /** Make a master account a partner or not (control entry point; the service's partner programme). */
  setPartner(accountId: string, on: boolean): void {
    const a = this.#require(accountId);
    if (a.masterId !== undefined) throw badRequest('BAD_REQUEST', `${accountId} is a sub-account: partners are master accounts`);
    a.partner = on;
  }

  /** The account record, 400 BAD_REQUEST when the id is unknown (engine calls always name existing accounts). */
  #require(accountId: string): AccountRecord {
    const a = this.#accounts.get(normalizeId(accountId));
    if (!a) throw badRequest('BAD_REQUEST', `unknown account ${accountId}`);
    return a;
  }

  #record(id: string, masterId: string | undefined): AccountRecord {
    return { id, masterId, createdAt: this.#clock.now(), seq: this.#seq++, requireAllowedAddresses: false, partner: false };
  }
}

/** Uuids compare case-insensitively on the wire; the registry keeps them lowercase. */
export function normalizeId(id: string): string {
  return id.toLowerCase();
}

function newestFirst(a: AccountRecord, b: AccountRecord): number {
  return b.createdAt - a.createdAt || b.seq - a.seq;
}

function toSubaccount(r: AccountRecord): Subaccount {
  return { id: r.id, createdAt: new Date(r.createdAt) };
}
