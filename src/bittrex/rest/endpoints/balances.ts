/** Balance endpoints. */
import { arrayOf } from '../../../model/decode.js';
import { type Balance, decodeBalance } from '../../../model/wallet.js';
import type { CallOptions, HttpTransport, Sequenced } from '../http.js';
import { segment } from '../validate.js';

/** `client.balances`: balances (signed). */
export interface BalancesEndpoints {
  /** GET /balances — one balance per currency with a balance or an address, with the snapshot's Sequence. */
  list(opts?: CallOptions): Promise<Sequenced<Balance[]>>;
  /** HEAD /balances — the Sequence of the balances snapshot. */
  sequence(opts?: CallOptions): Promise<number>;
  /** GET /balances/{currencySymbol} — one balance (succeeds for any existing currency). */
  get(currencySymbol: string, opts?: CallOptions): Promise<Balance>;
}

const decodeBalances = arrayOf(decodeBalance);

/** Builds `client.balances` over a transport. */
export function createBalancesEndpoints(http: HttpTransport): BalancesEndpoints {
  return {
    list: (opts) =>
      http.callSequenced({ method: 'GET', path: '/balances', signed: true, subaccountId: opts?.subaccountId }, decodeBalances),
    sequence: (opts) => http.head({ method: 'HEAD', path: '/balances', signed: true, subaccountId: opts?.subaccountId }),
    get: async (currencySymbol, opts) =>
      http.call(
        {
          method: 'GET',
          path: `/balances/${segment('currencySymbol', currencySymbol, 'GET /balances/{currencySymbol}')}`,
          signed: true,
          subaccountId: opts?.subaccountId,
        },
        decodeBalance,
      ),
  };
}
