/** Account resources: the account itself, volume, permissions and commission rates. */
import type { Decimal } from '../core/decimal.js';
import { arrayOf, bool, date, dec, id, object, str, type Decoder } from './decode.js';

/** GET /account. */
export interface Account {
  /** Echo of the Api-Subaccount-Id header, when the call was made on behalf of a sub-account. */
  subaccountId?: string;
  /** Only for master accounts. */
  accountId?: string;
  /** Actions the account holder must take (official document only). */
  actionsNeeded?: string[];
}
export const decodeAccount: Decoder<Account> = object<Account>(
  {},
  { subaccountId: id, accountId: id, actionsNeeded: arrayOf(str) },
);

/** GET /account/volume. */
export interface AccountVolume {
  updated: Date;
  volume30days: Decimal;
}
export const decodeAccountVolume: Decoder<AccountVolume> = object<AccountVolume>(
  { updated: date, volume30days: dec },
  {},
);

/** Market permission (GET /account/permissions/markets). */
export interface MarketPolicy {
  symbol: string;
  view: boolean;
  buy: boolean;
  sell: boolean;
}
export const decodeMarketPolicy: Decoder<MarketPolicy> = object<MarketPolicy>(
  { symbol: str, view: bool, buy: bool, sell: bool },
  {},
);

/** Deposit methods a currency allows. */
export interface DepositMethods {
  blockchain?: boolean;
  creditCard?: boolean;
  wireTransfer?: boolean;
  ach?: boolean;
}
/** Withdrawal methods a currency allows. */
export interface WithdrawMethods {
  blockchain?: boolean;
  wireTransfer?: boolean;
  ach?: boolean;
}
/** Currency permission (GET /account/permissions/currencies). */
export interface CurrencyPolicy {
  symbol: string;
  view: boolean;
  deposit: DepositMethods;
  withdraw: WithdrawMethods;
}
export const decodeCurrencyPolicy: Decoder<CurrencyPolicy> = object<CurrencyPolicy>(
  {
    symbol: str,
    view: bool,
    deposit: object<DepositMethods>({}, { blockchain: bool, creditCard: bool, wireTransfer: bool, ach: bool }),
    withdraw: object<WithdrawMethods>({}, { blockchain: bool, wireTransfer: bool, ach: bool }),
  },
  {},
);

/** Commission rates for one market (GET /account/fees/trading). Rates are fractions: 0.0075 = 0.75 %. */
export interface CommissionRates {
  marketSymbol: string;
  makerRate: Decimal;
  takerRate: Decimal;
}
export const decodeCommissionRates: Decoder<CommissionRates> = object<CommissionRates>(
  { marketSymbol: str, makerRate: dec, takerRate: dec },
  {},
);
