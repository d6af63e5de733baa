/**
 * What the gateway under test can express, from the venue table (src/model/venue-features.ts): a shared case that
 * needs a capability the venue lacks is registered as skipped, its title naming the capability and why the venue
 * lacks it (never silently absent); and comparisons with the engine leave out exactly the fields a lacked
 * capability stands for (each such field has its own case in the suite, skipped the same way).
 */
import { expect, it } from 'vitest';
import type { VenueCapability, VenueLacks } from '../../src/model/venue-features.js';
import { plain } from './conformance-helpers.js';

/** Fields left out of engine comparisons when a capability is lacked: on objects having all `on` keys, `keys`. */
const UNCOMPARED: Partial<Record<VenueCapability, { on: readonly string[]; keys: readonly string[] }>> = {
  orderUpdateTimes: { on: ['fillQuantity', 'direction'], keys: ['updatedAt'] },
  exchangeClientOrderId: { on: ['fillQuantity', 'direction'], keys: ['clientOrderId'] },
  balanceUpdateTimes: { on: ['currencySymbol', 'available'], keys: ['updatedAt'] },
  marketDetails: { on: ['minTradeSize', 'baseCurrencySymbol'], keys: ['precision', 'tags', 'associatedTermsOfService', 'prohibitedIn'] },
  currencyDetails: { on: ['coinType', 'minConfirmations'], keys: ['associatedTermsOfService', 'tags'] },
  exchangeExecutions: { on: ['orderId', 'isTaker'], keys: ['id', 'executedAt', 'isTaker', 'direction'] },
  exchangeSequences: { on: ['data', 'sequence'], keys: ['sequence'] },
};

type Body = () => Promise<void>;

/** The capabilities of one gateway under test. */
export class Capabilities {
  readonly lacks: VenueLacks;

  constructor(lacks: VenueLacks) {
    this.lacks = lacks;
  }

  /** Those of `caps` the venue lacks. */
  missing<C extends VenueCapability>(caps: readonly C[]): C[] {
    return caps.filter((c) => this.lacks[c] !== undefined);
  }

  /** Register `title` as a case needing `caps`: run it, or skip it naming each lacked capability and why. */
  it(caps: readonly VenueCapability[], title: string, body: Body): void {
    const missing = this.missing(caps);
    const why = missing.map((c) => `lacks ${c}: ${this.lacks[c]!.why}`).join('; ');
    it.skipIf(missing.length > 0)(missing.length > 0 ? `${title} [not applicable: ${why}]` : title, body);
  }

  /** `actual` equals the engine's `truth` field for field, leaving out the fields of lacked capabilities. */
  same(actual: unknown, truth: unknown): void {
    expect(this.#strip(plain(actual))).toEqual(this.#strip(plain(truth)));
  }

  #strip(v: unknown): unknown {
    if (Array.isArray(v)) return v.map((x) => this.#strip(x));
    if (typeof v !== 'object' || v === null) return v;
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = this.#strip(x);
    for (const cap of this.missing(Object.keys(UNCOMPARED) as VenueCapability[])) {
      const u = UNCOMPARED[cap]!;
      if (u.on.every((k) => k in o)) for (const k of u.keys) delete o[k];
    }
    return o;
  }
}
