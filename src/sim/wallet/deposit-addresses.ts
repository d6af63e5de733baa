/**
 * Deposit addresses (GET/POST /addresses). A request answers 201 with status REQUESTED; the address becomes
 * PROVISIONED, with its cryptoAddress (and cryptoAddressTag for currencies that need one), after
 * config.addressProvisionDelayMs of the injected clock — the service provisioned addresses asynchronously.
 *
 * Refusals, checked in this order so nothing changes on a refusal:
 * 404 CURRENCY_DOES_NOT_EXIST; 409 CRYPTO_ADDRESS_ALREADY_EXISTS when one is requested or provisioned (seed);
 * 503 CURRENCY_OFFLINE; 403 NOT_ALLOWED when the account's currency policy forbids blockchain deposits (FIAT
 * currencies by default: they are deposited by wire, not to an address).
 */
import type { Clock } from '../../core/clock.js';
import type { Address } from '../../model/wallet.js';
import { normalizeId } from '../accounts/account-registry.js';
import type { Permissions } from '../accounts/permissions.js';
import type { Catalog } from '../catalog.js';
import type { SimConfig } from '../config.js';
import { conflict, forbidden, notFound, unavailable } from '../sim-error.js';
import { newAddress, newAddressTag } from './address-format.js';

/** Dependencies of {@link DepositAddresses}. */
export interface DepositAddressesDeps {
  clock: Clock;
  catalog: Catalog;
  config: SimConfig;
  permissions: Permissions;
}

/** Deposit addresses per account and currency. */
export class DepositAddresses {
  readonly #deps: DepositAddressesDeps;
  /** account -> currency -> address. */
  readonly #byAccount = new Map<string, Map<string, Address>>();
  /** Tagged currencies share one exchange address per coin type; the tag tells accounts apart. */
  readonly #sharedTagged = new Map<string, string>();

  constructor(deps: DepositAddressesDeps) {
    this.#deps = deps;
  }

  /** POST /addresses: request provisioning of an address for `currencySymbol` (201, status REQUESTED). */
  request(accountId: string, currencySymbol: string): Address {
    const cur = this.#deps.catalog.currency(currencySymbol);
    const key = normalizeId(accountId);
    if (this.#byAccount.get(key)?.has(cur.symbol)) {
      throw conflict('CRYPTO_ADDRESS_ALREADY_EXISTS', `a ${cur.symbol} deposit address already exists`);
    }
    if (cur.status !== 'ONLINE') throw unavailable('CURRENCY_OFFLINE', `${cur.symbol} is offline`);
    if (!this.#deps.permissions.currencyPolicy(key, cur.symbol).deposit.blockchain) {
      throw forbidden('NOT_ALLOWED', `${cur.symbol} cannot be deposited to a blockchain address`);
    }
    const address: Address = { status: 'REQUESTED', currencySymbol: cur.symbol };
    let m = this.#byAccount.get(key);
    if (!m) this.#byAccount.set(key, (m = new Map()));
    m.set(cur.symbol, address);
    this.#deps.clock.setTimeout(() => {
      address.status = 'PROVISIONED';
      if (cur.needsTag) {
        address.cryptoAddress = this.#shared(cur.coinType);
        address.cryptoAddressTag = newAddressTag();
      } else {
        address.cryptoAddress = newAddress(cur.coinType);
      }
    }, this.#deps.config.addressProvisionDelayMs);
    return { ...address };
  }

  /** GET /addresses: every requested or provisioned address of the account, sorted by currency. */
  list(accountId: string): Address[] {
    const m = this.#byAccount.get(normalizeId(accountId));
    if (!m) return [];
    return [...m.values()].sort((a, b) => cmp(a.currencySymbol, b.currencySymbol)).map((a) => ({ ...a }));
  }

  /** GET /addresses/{currencySymbol}; 404 CURRENCY_DOES_NOT_EXIST, or 404 NOT_FOUND when none was requested. */
  get(accountId: string, currencySymbol: string): Address {
    const cur = this.#deps.catalog.currency(currencySymbol);
    const a = this.#byAccount.get(normalizeId(accountId))?.get(cur.symbol);
    if (!a) throw notFound('NOT_FOUND', `no ${cur.symbol} deposit address was requested`);
    return { ...a };
  }

  /** The account's address for a currency (any status), if any; `currencySymbol` must be canonical. */
  find(accountId: string, currencySymbol: string): Address | undefined {
    const a = this.#byAccount.get(normalizeId(accountId))?.get(currencySymbol);
    return a ? { ...a } : undefined;
  }

  /** Currencies the account has an address for (requested or provisioned). */
  currenciesOf(accountId: string): string[] {
    return [...(this.#byAccount.get(normalizeId(accountId))?.keys() ?? [])];
  }

  #shared(coinType: string): string {
    let a = this.#sharedTagged.get(coinType);
    if (!a) this.#sharedTagged.set(coinType, (a = newAddress(coinType)));
    return a;
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
