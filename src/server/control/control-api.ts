/**
 * The simulator's control API, for tests and demos (never part of the v3 surface): create accounts and keys,
 * credit deposits, add allowed addresses, switch markets on and off, advance a virtual clock, inspect the ledger
 * audit, and inject faults into REST and hub traffic. Every call needs `Authorization: Bearer <control token>`.
 *
 * | Method | Path | Body | Answer |
 * |---|---|---|---|
 * | POST | /accounts | `{ balances?: {CUR: "amount"}, scopes?: [...], apiKey?, apiSecret?, partner? }` | `{ accountId, apiKey, apiSecret }` (`partner: true`: may use sub-accounts and transfers) |
 * | POST | /accounts/{id}/partner | `{ on: boolean }` | `{ accountId, partner }` |
 * | POST | /accounts/{id}/keys | `{ scopes?, apiKey?, apiSecret? }` | `{ apiKey, apiSecret }` |
 * | POST | /accounts/{id}/subaccounts | — | `Subaccount` |
 * | POST | /accounts/{id}/allowed-addresses | `{ currencySymbol, cryptoAddress, cryptoAddressTag? }` | `AllowedAddress` |
 * | POST | /deposits | `{ accountId, currencySymbol, quantity, pending?, txId? }` | `Deposit` |
 * | POST | /accounts/{id}/require-allowed-addresses | `{ on: boolean }` | `{ accountId, on }` (withdrawals then need an ACTIVE allowed address, else WHITELIST_VIOLATION_WITHDRAWAL_ADDRESS) |
 * | POST | /markets/{symbol}/status | `{ status: ONLINE|OFFLINE }` | `{ symbol, status }` |
 * | POST | /currencies/{symbol}/status | `{ status: ONLINE|OFFLINE }` | `{ symbol, status }` (wallet operations on an OFFLINE currency answer 503 CURRENCY_OFFLINE) |
 * | GET | /clock | — | `{ now, mode }` |
 * | POST | /clock/advance | `{ ms }` (virtual clock only) | `{ now }` |
 * | GET | /audit | — | per currency: total, credited, debited, discrepancy |
 * | POST | /faults/rest | RestFaultSettings (empty object clears; unknown names and wrong types answer 400) | settings |
 * | POST | /faults/hub | HubFaultConfig | `{}` |
 * | POST | /hub/close | `{ connectionId? }` | `{ closed }` |
 * | POST | /hub/expire-auth | `{ connectionId? }` | `{}` |
 * | GET | /hub/connections | — | connection list |
 * | POST | /rate-limit | `{ callsPerMinute }` (0 = off) | `{}` |
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { VirtualClock, type Clock } from '../../core/clock.js';
import { parseDecimal } from '../../core/decimal.js';
import type { Catalog } from '../../sim/catalog.js';
import type { Funds } from '../../sim/funds.js';
import type { Ledger } from '../../sim/ledger.js';
import { SimError } from '../../sim/sim-error.js';
import type { Hub } from '../hub/hub.js';
import type { HubFaultConfig } from '../hub/faults.js';
import { checkAmount, parseJsonBody, readBody } from '../rest/body.js';
import type { RestFaults, RestFaultSettings } from '../rest/faults.js';
import type { KeyRateLimiter } from '../rest/rate-limit.js';
import type { Scope } from '../rest/request-auth.js';
import { sendError, sendJson } from '../rest/respond.js';
import { Router } from '../rest/router.js';

/** What the control API drives. */
export interface ControlTarget {
  clock: Clock;
  catalog: Catalog;
  funds: Funds;
  ledger: Ledger;
  restFaults: RestFaults;
  limiter: KeyRateLimiter;
  hub: Hub;
}

type Handler = (body: Record<string, unknown>, params: Record<string, string>) => unknown;

const ALL_SCOPES: Scope[] = ['view', 'trade', 'withdraw'];

function bad(detail: string): SimError {
  return new SimError(400, 'BAD_REQUEST', detail);
}

function str(body: Record<string, unknown>, name: string, required = true): string | undefined {
  const v = body[name];
  if (v === undefined || v === null) {
    if (required) throw bad(`${name} is required`);
    return undefined;
  }
  if (typeof v !== 'string' || v.length === 0) throw bad(`${name} must be a non-empty string`);
  return v;
}

function amount(v: unknown, name: string) {
  const d = parseDecimal(v);
  if (!d || d.lte(0)) throw bad(`${name} must be a positive decimal`);
  // The v3 bodies' sanity (at most 8 decimals, no absurd magnitude such as 1e400), with the control API's code.
  checkAmount(d, name, 'BAD_REQUEST');
  return d;
}

/** An existing account id: money or addresses for an id nobody has would vanish silently (a typo in a test). */
function existing(t: Pick<ControlTarget, 'funds'>, accountId: string): string {
  if (!t.funds.accounts.has(accountId)) throw bad(`unknown account ${accountId}`);
  return accountId;
}

const FAULT_NUMBERS = ['delayMs', 'dropRate', 'errorRate', 'errorStatus', 'throttleStorm', 'loseResponses', 'seed'] as const;

/** RestFaultSettings from a body; unknown names and wrong types are refused so a typo cannot silently do nothing. */
function faultSettings(b: Record<string, unknown>): RestFaultSettings {
  for (const [k, v] of Object.entries(b)) {
    if ((FAULT_NUMBERS as readonly string[]).includes(k)) {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw bad(`${k} must be a non-negative number`);
      if ((k === 'dropRate' || k === 'errorRate') && v > 1) throw bad(`${k} must be between 0 and 1`);
      if (k === 'errorStatus' && !(Number.isInteger(v) && v >= 400 && v <= 599)) throw bad('errorStatus must be an HTTP error status');
    } else if (k === 'path' || k === 'method') {
      if (typeof v !== 'string') throw bad(`${k} must be a string`);
    } else {
      throw bad(`unknown fault setting '${k}'`);
    }
  }
  return b as RestFaultSettings;
}

function scopes(v: unknown): Scope[] {
  if (v === undefined) return ALL_SCOPES;
  if (!Array.isArray(v) || !v.every((s) => ALL_SCOPES.includes(s as Scope))) throw bad(`scopes must be a subset of ${ALL_SCOPES.join(', ')}`);
  return v as Scope[];
}

/** Create an account with keys and optional starting balances (credited as completed deposits). */
export function createFundedAccount(
  t: Pick<ControlTarget, 'funds'>,
  body: { balances?: Record<string, unknown>; scopes?: unknown; apiKey?: string | undefined; apiSecret?: string | undefined; partner?: unknown },
) {
  if (body.partner !== undefined && typeof body.partner !== 'boolean') throw bad('partner must be true or false');
  const { accountId } = t.funds.accounts.createMasterAccount({ partner: body.partner === true });
  const keyOpts: { apiKey?: string; apiSecret?: string } = {};
  if (body.apiKey) keyOpts.apiKey = body.apiKey;
  if (body.apiSecret) keyOpts.apiSecret = body.apiSecret;
  const key = t.funds.accounts.createApiKey(accountId, scopes(body.scopes), keyOpts);
  for (const [cur, v] of Object.entries(body.balances ?? {})) {
    t.funds.creditDeposit(accountId, cur, amount(v, `balances.${cur}`));
  }
  return { accountId, apiKey: key.apiKey, apiSecret: key.apiSecret };
}

/** Build the control request handler mounted at `basePath`. Returns false for paths outside it. */
export function createControlHandler(t: ControlTarget, opts: { basePath: string; token: string }) {
  const router = new Router<Handler>();
  router
    .add('POST', '/accounts', (b) => {
      const balances = b.balances;
      if (balances !== undefined && (typeof balances !== 'object' || balances === null || Array.isArray(balances))) throw bad('balances must be an object');
      return createFundedAccount(t, { balances: balances as Record<string, unknown> | undefined, scopes: b.scopes, apiKey: str(b, 'apiKey', false), apiSecret: str(b, 'apiSecret', false), partner: b.partner });
    })
    .add('POST', '/accounts/{id}/partner', (b, p) => {
      if (typeof b.on !== 'boolean') throw bad('on must be true or false');
      const accountId = existing(t, p.id!);
      t.funds.accounts.setPartner(accountId, b.on);
      return { accountId, partner: b.on };
    })
    .add('POST', '/accounts/{id}/keys', (b, p) => {
      const o: { apiKey?: string; apiSecret?: string } = {};
      const k = str(b, 'apiKey', false);
      const s = str(b, 'apiSecret', false);
      if (k) o.apiKey = k;
      if (s) o.apiSecret = s;
      return t.funds.accounts.createApiKey(p.id!, scopes(b.scopes), o);
    })
    .add('POST', '/accounts/{id}/subaccounts', (_b, p) => t.funds.accounts.createSubaccount(p.id!))
    .add('POST', '/accounts/{id}/allowed-addresses', (b, p) =>
      t.funds.addAllowedAddress(existing(t, p.id!), str(b, 'currencySymbol')!, str(b, 'cryptoAddress')!, str(b, 'cryptoAddressTag', false)),
    )
    .add('POST', '/deposits', (b) => {
      const o: { pending?: boolean; txId?: string } = {};
      if (b.pending !== undefined) o.pending = Boolean(b.pending);
      const tx = str(b, 'txId', false);
      if (tx) o.txId = tx;
      return t.funds.creditDeposit(existing(t, str(b, 'accountId')!), str(b, 'currencySymbol')!, amount(b.quantity, 'quantity'), o);
    })
    .add('POST', '/accounts/{id}/require-allowed-addresses', (b, p) => {
      if (typeof b.on !== 'boolean') throw bad('on must be true or false');
      const accountId = existing(t, p.id!);
      t.funds.setRequireAllowedAddresses(accountId, b.on);
      return { accountId, on: b.on };
    })
    .add('POST', '/currencies/{symbol}/status', (b, p) => {
      const status = b.status;
      if (status !== 'ONLINE' && status !== 'OFFLINE') throw bad('status must be ONLINE or OFFLINE');
      t.catalog.setCurrencyStatus(p.symbol!, status);
      return { symbol: t.catalog.currency(p.symbol!).symbol, status };
    })
    .add('POST', '/markets/{symbol}/status', (b, p) => {
      const status = b.status;
      if (status !== 'ONLINE' && status !== 'OFFLINE') throw bad('status must be ONLINE or OFFLINE');
      t.catalog.setMarketStatus(p.symbol!, status);
      return { symbol: t.catalog.market(p.symbol!).symbol, status };
    })
    .add('GET', '/clock', () => ({ now: t.clock.now(), mode: t.clock instanceof VirtualClock ? 'virtual' : 'system' }))
    .add('POST', '/clock/advance', async (b) => {
      if (!(t.clock instanceof VirtualClock)) throw new SimError(409, 'NOT_ALLOWED', 'the simulator runs on the system clock; start it with clock: virtual');
      const ms = b.ms;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > 366 * 86_400_000) throw bad('ms must be a number of milliseconds (0 .. 1 year)');
      await t.clock.advance(ms);
      return { now: t.clock.now() };
    })
    .add('GET', '/audit', () => t.ledger.audit().map((a) => ({ currency: a.currency, total: a.total, held: a.held, credited: a.credited, debited: a.debited, discrepancy: a.discrepancy })))
    .add('POST', '/faults/rest', (b) => {
      t.restFaults.set(faultSettings(b));
      return t.restFaults.get();
    })
    .add('POST', '/faults/hub', (b) => {
      t.hub.faults.set(b as HubFaultConfig);
      return {};
    })
    .add('POST', '/hub/close', (b) => {
      const id = str(b, 'connectionId', false);
      if (id) return { closed: t.hub.close(id) ? 1 : 0 };
      const n = t.hub.connections().length;
      t.hub.closeAll();
      return { closed: n };
    })
    .add('POST', '/hub/expire-auth', (b) => {
      t.hub.expireAuth(str(b, 'connectionId', false));
      return {};
    })
    .add('GET', '/hub/connections', () => t.hub.connections())
    .add('POST', '/rate-limit', (b) => {
      const n = b.callsPerMinute;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw bad('callsPerMinute must be a whole number (0 = off)');
      t.limiter.configure(n);
      return {};
    });

  const base = opts.basePath.replace(/\/$/, '');
  const expected = Buffer.from(`Bearer ${opts.token}`);
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const target = req.url ?? '/';
    const path = target.split('?')[0]!;
    if (path !== base && !path.startsWith(`${base}/`)) return false;
    const auth = Buffer.from(String(req.headers.authorization ?? ''));
    if (auth.length !== expected.length || !timingSafeEqual(auth, expected)) {
      req.resume();
      sendError(res, 401, 'UNAUTHORIZED', 'control API needs Authorization: Bearer <control token>');
      return true;
    }
    const m = router.match(req.method ?? 'GET', path.slice(base.length) || '/');
    if (m.kind !== 'found') {
      req.resume();
      sendError(res, m.kind === 'not-found' ? 404 : 405, 'NOT_FOUND', `no control endpoint ${req.method} ${path}`);
      return true;
    }
    try {
      const body = parseJsonBody(await readBody(req)) ?? {};
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('body must be a JSON object');
      const out = await m.handler(body as Record<string, unknown>, m.params);
      sendJson(res, 200, out);
    } catch (err) {
      if (err instanceof SimError) sendError(res, err.status, err.code, err.detail, err.data);
      else sendError(res, 400, 'BAD_REQUEST', (err as Error).message);
    }
    return true;
  };
}
