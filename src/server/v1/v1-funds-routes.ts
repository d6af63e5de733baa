/** /account/* funds routes: balances, deposit address, withdraw, withdrawal and deposit history. */
import type { Address } from '../../model/wallet.js';
import type { SimEngine } from '../../sim/engine.js';
import { SimError } from '../../sim/sim-error.js';
import {
  addressToV1, balanceToV1, depositToV1, withdrawalToV1, withdrawFromV1,
} from '../../wire/v1/mapping/index.js';
import type { NumericIds } from './numeric-ids.js';
import { V1Failure } from './v1-failure.js';
import { addressParams, amountParam, currencyParam, optionalCurrencyParam } from './v1-params.js';
import { signedV1, type V1Routes } from './v1-routes.js';
import { single, type V1ResultShapes } from './v1-shapes.js';

/** The engine parts the v1.1 funds routes use. */
export type V1FundsBackend = Pick<SimEngine, 'funds' | 'currency'>;

/** How many withdrawals/deposits of each kind the history shows (v3's largest page). */
export const V1_FUNDS_HISTORY_SIZE = 200;

/** Add the funds routes. */
export function addV1FundsRoutes(routes: V1Routes, e: V1FundsBackend, depositIds: NumericIds, shapes: V1ResultShapes): void {
  const f = e.funds;
  /** The catalog's currency (INVALID_CURRENCY when unknown). */
  const currency = (c: string) => e.currency(c).symbol;
  const optionalCurrency = (q: URLSearchParams) => {
    const c = optionalCurrencyParam(q);
    return c === undefined ? undefined : currency(c);
  };
  const addressMap = (a: string) => new Map<string, Address>(f.addresses(a).map((x) => [x.currencySymbol, x]));
  routes
    .set('/account/getbalances', signedV1('view', (_q, a) => {
      const addresses = addressMap(a);
      return f.balances(a).data.map((b) => balanceToV1(b, addresses.get(b.currencySymbol)));
    }))
    .set('/account/getbalance', signedV1('view', (q, a) => {
      const c = currency(currencyParam(q));
      return balanceToV1(f.balance(a, c), addressMap(a).get(c));
    }))
    .set('/account/getdepositaddress', signedV1('view', (q, a) => {
      const c = currency(currencyParam(q));
      let address: Address;
      try {
        address = f.address(a, c);
      } catch (err) {
        if (!(err instanceof SimError) || err.code !== 'NOT_FOUND') throw err;
        // Seed section 4: asking is what starts the generation; the call fails until the address exists.
        f.requestAddress(a, c);
        throw new V1Failure('ADDRESS_GENERATING');
      }
      const shown = addressToV1(address);
      if (!shown) throw new V1Failure('ADDRESS_GENERATING');
      return single(shapes, shown);
    }))
    .set('/account/withdraw', signedV1('withdraw', (q, a) => {
      const c = currency(currencyParam(q));
      const quantity = amountParam(q, 'quantity');
      const { address, paymentid } = addressParams(q);
      return { uuid: f.createWithdrawal(a, withdrawFromV1({ currency: c, quantity, address, paymentid })).id };
    }))
    .set('/account/getwithdrawalhistory', signedV1('view', (q, a) => {
      const currencySymbol = optionalCurrency(q);
      const all = [
        ...f.openWithdrawals(a, { currencySymbol }),
        ...f.closedWithdrawals(a, { currencySymbol, pageSize: V1_FUNDS_HISTORY_SIZE }),
      ];
      return all.sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime()).map(withdrawalToV1);
    }))
    .set('/account/getdeposithistory', signedV1('view', (q, a) => {
      const currencySymbol = optionalCurrency(q);
      const all = [
        ...f.openDeposits(a, { currencySymbol }).data,
        ...f.closedDeposits(a, { currencySymbol, pageSize: V1_FUNDS_HISTORY_SIZE }),
      ];
      return all.sort((x, y) => y.updatedAt.getTime() - x.updatedAt.getTime()).map((d) => depositToV1(d, depositIds.idOf(d.id)));
    }));
}
