/** Deposit address endpoints. */
import { arrayOf } from '../../../model/decode.js';
import { type Address, decodeAddress } from '../../../model/wallet.js';
import type { CallOptions, HttpTransport } from '../http.js';
import { requireText, segment } from '../validate.js';

/** `client.addresses`: deposit addresses (signed). */
export interface AddressesEndpoints {
  /** GET /addresses — deposit addresses requested or provisioned. */
  list(opts?: CallOptions): Promise<Address[]>;
  /** POST /addresses — request provisioning of a deposit address for a currency that has none (201 Address). */
  create(currencySymbol: string, opts?: CallOptions): Promise<Address>;
  /** GET /addresses/{currencySymbol} — the deposit address of one currency. */
  get(currencySymbol: string, opts?: CallOptions): Promise<Address>;
}

const decodeAddresses = arrayOf(decodeAddress);

/** Builds `client.addresses` over a transport. */
export function createAddressesEndpoints(http: HttpTransport): AddressesEndpoints {
  return {
    list: (opts) => http.call({ method: 'GET', path: '/addresses', signed: true, subaccountId: opts?.subaccountId }, decodeAddresses),
    create: async (currencySymbol, opts) => {
      requireText('currencySymbol', currencySymbol, 'POST /addresses');
      return http.call(
        { method: 'POST', path: '/addresses', body: { currencySymbol }, signed: true, subaccountId: opts?.subaccountId },
        decodeAddress,
      );
    },
    get: async (currencySymbol, opts) =>
      http.call(
        {
          method: 'GET',
          path: `/addresses/${segment('currencySymbol', currencySymbol, 'GET /addresses/{currencySymbol}')}`,
          signed: true,
          subaccountId: opts?.subaccountId,
        },
        decodeAddress,
      ),
  };
}
