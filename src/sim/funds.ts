/**
 * The funds side of the simulated exchange, as one facade: accounts and keys, permissions, volume and fees,
 * balances (and the balance stream), deposit addresses, deposits, withdrawals, allowed addresses, sub-accounts
 * and transfers. Every endpoint method takes the ACTING account id first — the id
 * {@link AccountRegistry.resolveActor} answered for the request's key and Api-Subaccount-Id — and answers the
 * same typed model objects the REST server serializes, or throws {@link SimError}.
 *
 * Control entry points (no REST endpoint; tests, demos and operators use them): {@link Funds.creditDeposit},
 * {@link Funds.confirmDeposit}, {@link Funds.rejectDeposit}, {@link Funds.addAllowedAddress},
 * {@link Funds.setRequireAllowedAddresses}, {@link Funds.permissions} setters, {@link Funds.recordVolume}
 * (called by the trading side for each fill) and {@link Funds.setUsdRateSource}.
 *
 * @example
 * const funds = new Funds({ clock, ledger, catalog, bus, sequences, idempotency, config });
 * const { accountId } = funds.accounts.createMasterAccount();
 * funds.creditDeposit(accountId, 'BTC', dec('1'));
 * funds.balance(accountId, 'BTC').available; // 1
 */
import type { Decimal } from '../core/decimal.js';
import { forbidden } from './sim-error.js';
import type { Account, AccountVolume, CommissionRates, CurrencyPolicy, MarketPolicy } from '../model/account.js';
import type { NewTransfer, ReceivedTransfer, SentTransfer, Subaccount, Transfer } from '../model/subaccount.js';
import type { Address, AllowedAddress, Balance, Deposit, NewWithdrawal, Withdrawal } from '../model/wallet.js';
import { AccountRegistry } from './accounts/account-registry.js';
import { AccountVolumeTracker, usdRatesFromBtcReference, type UsdRateSource } from './accounts/account-volume.js';
import { Permissions } from './accounts/permissions.js';
import { tradingFee, tradingFees } from './accounts/trading-fees.js';
import { BalanceFeed } from './balance-feed.js';
import type { Catalog } from './catalog.js';
import type { EngineDeps } from './engine-deps.js';
import type { PageQuery } from './paginate.js';
import type { Sequenced } from './sequences.js';
import { Transfers, type ReceivedTransfersQuery, type SentTransfersQuery } from './transfers.js';
import { AllowedAddresses } from './wallet/allowed-addresses.js';
import { DepositAddresses } from './wallet/deposit-addresses.js';
import { Deposits, type ClosedDepositsQuery, type CreditDepositOptions, type OpenDepositsQuery } from './wallet/deposits.js';
import { Withdrawals, type ClosedWithdrawalsQuery, type OpenWithdrawalsQuery } from './wallet/withdrawals.js';

/** The funds facade. */
export class Funds {
  /** Accounts, sub-accounts and API keys (also used by the REST layer to authenticate). */
  readonly accounts: AccountRegistry;
  /** Market and currency policies (all allowed by default; setters restrict accounts for tests). */
  readonly permissions: Permissions;
  readonly #catalog: Catalog;
  readonly #volume: AccountVolumeTracker;
  readonly #balances: BalanceFeed;
  readonly #addresses: DepositAddresses;
  readonly #deposits: Deposits;
  readonly #allowed: AllowedAddresses;
  readonly #withdrawals: Withdrawals;
  readonly #transfers: Transfers;
  readonly #partnersOnly: boolean;

  constructor(deps: EngineDeps) {
    const { clock, ledger, catalog, bus, sequences, idempotency, config } = deps;
    this.#partnersOnly = config.partnersOnly;
    this.#catalog = catalog;
    this.accounts = new AccountRegistry(clock);
    this.permissions = new Permissions(catalog);
    this.#volume = new AccountVolumeTracker(clock, usdRatesFromBtcReference(config.btcReferenceRates));
    this.#addresses = new DepositAddresses({ clock, catalog, config, permissions: this.permissions });
    this.#balances = new BalanceFeed({
      clock,
      ledger,
      catalog,
      bus,
      sequences,
      addressCurrencies: (a) => this.#addresses.currenciesOf(a),
    });
    this.#deposits = new Deposits({ clock, ledger, catalog, bus, sequences, addresses: this.#addresses });
    this.#allowed = new AllowedAddresses({ clock, catalog, config });
    this.#withdrawals = new Withdrawals({
      clock,
      ledger,
      catalog,
      config,
      idempotency,
      accounts: this.accounts,
      permissions: this.permissions,
      allowed: this.#allowed,
    });
    this.#transfers = new Transfers({ clock, ledger, catalog, idempotency, accounts: this.accounts });
  }

  // ---- account ---------------------------------------------------------------------------------------------

  /** GET /account. */
  account(actorId: string): Account {
    return this.accounts.accountInfo(actorId);
  }

  /** GET /account/volume: 30-day volume in USD. */
  accountVolume(actorId: string): AccountVolume {
    return this.#volume.volume(actorId);
  }

  /** GET /account/fees/trading: commission rates of every market. */
  tradingFees(_actorId: string): CommissionRates[] {
    return tradingFees(this.#catalog);
  }

  /** GET /account/fees/trading/{marketSymbol}. */
  tradingFee(_actorId: string, marketSymbol: string): CommissionRates {
    return tradingFee(this.#catalog, marketSymbol);
  }

  /** GET /account/permissions/markets. */
  marketPolicies(actorId: string): MarketPolicy[] {
    return this.permissions.marketPolicies(actorId);
  }

  /** GET /account/permissions/markets/{marketSymbol}. */
  marketPolicy(actorId: string, marketSymbol: string): MarketPolicy {
    return this.permissions.marketPolicy(actorId, marketSymbol);
  }

  /** GET /account/permissions/currencies. */
  currencyPolicies(actorId: string): CurrencyPolicy[] {
    return this.permissions.currencyPolicies(actorId);
  }

  /** GET /account/permissions/currencies/{currencySymbol}. */
  currencyPolicy(actorId: string, currencySymbol: string): CurrencyPolicy {
    return this.permissions.currencyPolicy(actorId, currencySymbol);
  }

  /**
   * Trading-side hook: a fill of `quoteAmount` in `quoteCurrency` for `accountId` at `at` (epoch ms or Date,
   * default now). Call once per account per fill (maker and taker).
   */
  recordVolume(accountId: string, quoteAmount: Decimal, quoteCurrency: string, at?: number | Date): void {
    this.#volume.record(accountId, quoteAmount, quoteCurrency, at);
  }

  /** Value volume with another USD rate source (e.g. live last-trade prices) instead of the config's references. */
  setUsdRateSource(rates: UsdRateSource): void {
    this.#volume.setRateSource(rates);
  }

  // ---- balances --------------------------------------------------------------------------------------------

  /** GET /balances with its Sequence (HEAD /balances). */
  balances(actorId: string): Sequenced<Balance[]> {
    return { data: this.#balances.balances(actorId), sequence: this.#balances.sequence(actorId) };
  }

  /** GET /balances/{currencySymbol}. */
  balance(actorId: string, currencySymbol: string): Balance {
    return this.#balances.balance(actorId, currencySymbol);
  }

  /** HEAD /balances. */
  balancesSequence(actorId: string): number {
    return this.#balances.sequence(actorId);
  }

  // ---- addresses -------------------------------------------------------------------------------------------

  /** GET /addresses. */
  addresses(actorId: string): Address[] {
    return this.#addresses.list(actorId);
  }

  /** GET /addresses/{currencySymbol}. */
  address(actorId: string, currencySymbol: string): Address {
    return this.#addresses.get(actorId, currencySymbol);
  }

  /** POST /addresses (201 REQUESTED; PROVISIONED after config.addressProvisionDelayMs). */
  requestAddress(actorId: string, currencySymbol: string): Address {
    return this.#addresses.request(actorId, currencySymbol);
  }

  // ---- deposits --------------------------------------------------------------------------------------------

  /** GET /deposits/open with its Sequence (HEAD /deposits/open). */
  openDeposits(actorId: string, q: OpenDepositsQuery = {}): Sequenced<Deposit[]> {
    return { data: this.#deposits.open(actorId, q), sequence: this.#deposits.sequence(actorId) };
  }

  /** HEAD /deposits/open. */
  depositsSequence(actorId: string): number {
    return this.#deposits.sequence(actorId);
  }

  /** GET /deposits/closed. */
  closedDeposits(actorId: string, q: ClosedDepositsQuery = {}): Deposit[] {
    return this.#deposits.closed(actorId, q);
  }

  /** GET /deposits/ByTxId/{txId}. */
  depositsByTxId(actorId: string, txId: string): Deposit[] {
    return this.#deposits.byTxId(actorId, txId);
  }

  /** GET /deposits/{depositId}. */
  deposit(actorId: string, depositId: string): Deposit {
    return this.#deposits.get(actorId, depositId);
  }

  /** Control: money arrives for `accountId` (PENDING until minConfirmations, or COMPLETED and credited at once). */
  creditDeposit(accountId: string, currencySymbol: string, amount: Decimal, opts: CreditDepositOptions = {}): Deposit {
    return this.#deposits.credit(accountId, currencySymbol, amount, opts);
  }

  /** Control: a PENDING deposit now has `confirmations`; completes (and credits) at minConfirmations. */
  confirmDeposit(accountId: string, depositId: string, confirmations: number): Deposit {
    return this.#deposits.confirm(accountId, depositId, confirmations);
  }

  /** Control: a PENDING deposit ends ORPHANED or INVALIDATED without credit. */
  rejectDeposit(accountId: string, depositId: string, status: 'ORPHANED' | 'INVALIDATED'): Deposit {
    return this.#deposits.reject(accountId, depositId, status);
  }

  // ---- withdrawals -----------------------------------------------------------------------------------------

  /** POST /withdrawals (201). */
  createWithdrawal(actorId: string, n: NewWithdrawal): Withdrawal {
    return this.#withdrawals.create(actorId, n);
  }

  /** DELETE /withdrawals/{withdrawalId} (200). */
  cancelWithdrawal(actorId: string, withdrawalId: string): Withdrawal {
    return this.#withdrawals.cancel(actorId, withdrawalId);
  }

  /** GET /withdrawals/open. */
  openWithdrawals(actorId: string, q: OpenWithdrawalsQuery = {}): Withdrawal[] {
    return this.#withdrawals.open(actorId, q);
  }

  /** GET /withdrawals/closed. */
  closedWithdrawals(actorId: string, q: ClosedWithdrawalsQuery = {}): Withdrawal[] {
    return this.#withdrawals.closed(actorId, q);
  }

  /** GET /withdrawals/ByTxId/{txId}. */
  withdrawalsByTxId(actorId: string, txId: string): Withdrawal[] {
    return this.#withdrawals.byTxId(actorId, txId);
  }

  /** GET /withdrawals/{withdrawalId}. */
  withdrawal(actorId: string, withdrawalId: string): Withdrawal {
    return this.#withdrawals.get(actorId, withdrawalId);
  }

  /** GET /withdrawals/allowed-addresses (and the older /withdrawals/whitelistAddresses). */
  allowedAddresses(actorId: string): AllowedAddress[] {
    return this.#allowed.list(actorId);
  }

  /** Control: allow a withdrawal destination (PENDING for config.allowedAddressWaitMs, then ACTIVE). */
  addAllowedAddress(accountId: string, currencySymbol: string, cryptoAddress: string, cryptoAddressTag?: string): AllowedAddress {
    return this.#allowed.add(accountId, currencySymbol, cryptoAddress, cryptoAddressTag);
  }

  /** Control: require (or stop requiring) withdrawals to go to ACTIVE allowed addresses. Off by default. */
  setRequireAllowedAddresses(accountId: string, on: boolean): void {
    this.accounts.setRequireAllowedAddresses(accountId, on);
  }

  // ---- sub-accounts and transfers --------------------------------------------------------------------------

  // Every sub-account and transfer endpoint is for partners only (seed), unless config.partnersOnly is off: 403
  // FORBIDDEN for an account that is not a partner (nor a sub-account of one), before anything else is looked at.

  /** GET /subaccounts (createdAt descending, paginated). */
  subaccounts(actorId: string, q: PageQuery = {}): Subaccount[] {
    this.#requirePartner(actorId);
    return this.accounts.listSubaccounts(actorId, q);
  }

  /** POST /subaccounts (201). */
  createSubaccount(actorId: string): Subaccount {
    this.#requirePartner(actorId);
    return this.accounts.createSubaccount(actorId);
  }

  /** GET /subaccounts/{subaccountId}. */
  subaccount(actorId: string, subaccountId: string): Subaccount {
    this.#requirePartner(actorId);
    return this.accounts.getSubaccount(actorId, subaccountId);
  }

  /** POST /transfers (201). */
  createTransfer(actorId: string, n: NewTransfer): SentTransfer {
    this.#requirePartner(actorId);
    return this.#transfers.create(actorId, n);
  }

  /** GET /transfers/sent. */
  sentTransfers(actorId: string, q: SentTransfersQuery = {}): SentTransfer[] {
    this.#requirePartner(actorId);
    return this.#transfers.sent(actorId, q);
  }

  /** GET /transfers/received. */
  receivedTransfers(actorId: string, q: ReceivedTransfersQuery = {}): ReceivedTransfer[] {
    this.#requirePartner(actorId);
    return this.#transfers.received(actorId, q);
  }

  /** GET /transfers/{transferId}. */
  transfer(actorId: string, transferId: string): Transfer {
    this.#requirePartner(actorId);
    return this.#transfers.get(actorId, transferId);
  }

  #requirePartner(actorId: string): void {
    if (this.#partnersOnly && !this.accounts.isPartner(actorId)) {
      throw forbidden('FORBIDDEN', 'sub-accounts and transfers are for partner accounts only');
    }
  }

  /** Stop listening to the ledger (an engine being torn down). */
  dispose(): void {
    this.#balances.dispose();
  }
}
