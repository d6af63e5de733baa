/**
 * The list of addresses an account allows withdrawals to (GET /withdrawals/allowed-addresses). An address is
 * added through the control entry point {@link AllowedAddresses.add} (the service did this on its website) and
 * is PENDING until activeAt = createdAt + config.allowedAddressWaitMs, then ACTIVE. The status is derived from
 * the injected clock on every read, so it flips exactly at activeAt without a timer.
 */
import type { Clock } from '../../core/clock.js';
import type { AllowedAddress } from '../../model/wallet.js';
import { normalizeId } from '../accounts/account-registry.js';
import type { Catalog } from '../catalog.js';
import type { SimConfig } from '../config.js';
import { invalidParameter } from './wallet-common.js';

/** Dependencies of {@link AllowedAddresses}. */
export interface AllowedAddressesDeps {
  clock: Clock;
  catalog: Catalog;
  config: SimConfig;
}

/** Where a withdrawal destination stands in the account's allowed list. */
export type AllowedAddressStanding = 'ACTIVE' | 'PENDING' | 'ABSENT';

interface Entry {
  currencySymbol: string;
  cryptoAddress: string;
  cryptoAddressTag: string | undefined;
  createdAt: number;
  activeAt: number;
}

/** Allowed withdrawal addresses per account. */
export class AllowedAddresses {
  readonly #deps: AllowedAddressesDeps;
  readonly #byAccount = new Map<string, Entry[]>();

  constructor(deps: AllowedAddressesDeps) {
    this.#deps = deps;
  }

  /**
   * Control entry point: allow `cryptoAddress` (with `cryptoAddressTag` when given) for withdrawals of
   * `currencySymbol`. Adding the same destination again answers the existing entry (its waiting period does not
   * restart).
   */
  add(accountId: string, currencySymbol: string, cryptoAddress: string, cryptoAddressTag?: string): AllowedAddress {
    const cur = this.#deps.catalog.currency(currencySymbol);
    if (cryptoAddress.trim() === '') throw invalidParameter('cryptoAddress', 'cryptoAddress is required');
    const existing = this.#find(accountId, cur.symbol, cryptoAddress, cryptoAddressTag);
    if (existing) return this.#view(existing);
    const now = this.#deps.clock.now();
    const entry: Entry = {
      currencySymbol: cur.symbol,
      cryptoAddress,
      cryptoAddressTag: cryptoAddressTag || undefined,
      createdAt: now,
      activeAt: now + this.#deps.config.allowedAddressWaitMs,
    };
    const key = normalizeId(accountId);
    let list = this.#byAccount.get(key);
    if (!list) this.#byAccount.set(key, (list = []));
    list.push(entry);
    return this.#view(entry);
  }

  /** GET /withdrawals/allowed-addresses: the account's entries, oldest first (the order they were added). */
  list(accountId: string): AllowedAddress[] {
    return (this.#byAccount.get(normalizeId(accountId)) ?? []).map((e) => this.#view(e));
  }

  /**
   * Whether a withdrawal destination is allowed now. An entry without a tag allows that address with any tag;
   * an entry with a tag allows only that tag.
   */
  standing(accountId: string, currencySymbol: string, cryptoAddress: string, cryptoAddressTag?: string): AllowedAddressStanding {
    const e = this.#find(accountId, currencySymbol, cryptoAddress, cryptoAddressTag, true);
    if (!e) return 'ABSENT';
    return this.#deps.clock.now() >= e.activeAt ? 'ACTIVE' : 'PENDING';
  }

  #find(accountId: string, currency: string, address: string, tag: string | undefined, anyTagEntry = false): Entry | undefined {
    const wantedTag = tag || undefined;
    const list = this.#byAccount.get(normalizeId(accountId)) ?? [];
    // Prefer an ACTIVE match when several entries fit (an untagged and a tagged entry for the same address).
    const fits = list.filter(
      (e) =>
        e.currencySymbol === currency &&
        e.cryptoAddress === address &&
        (e.cryptoAddressTag === wantedTag || (anyTagEntry && e.cryptoAddressTag === undefined)),
    );
    return fits.sort((a, b) => a.activeAt - b.activeAt)[0];
  }

  #view(e: Entry): AllowedAddress {
    const a: AllowedAddress = {
      currencySymbol: e.currencySymbol,
      createdAt: new Date(e.createdAt),
      status: this.#deps.clock.now() >= e.activeAt ? 'ACTIVE' : 'PENDING',
      activeAt: new Date(e.activeAt),
      cryptoAddress: e.cryptoAddress,
    };
    if (e.cryptoAddressTag !== undefined) a.cryptoAddressTag = e.cryptoAddressTag;
    return a;
  }
}
