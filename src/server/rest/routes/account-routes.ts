/** Signed account and funds routes: account, permissions, fees, balances, addresses, deposits, withdrawals, sub-accounts, transfers. */
import type { RouteContext, RouteDef, RouteResult } from '../rest-handler.js';
import type { Scope } from '../request-auth.js';
import type { Router } from '../router.js';
import { pageQuery, qbool, qstr } from '../query.js';
import { parseNewAddress, parseNewSubaccount, parseNewTransfer, parseNewWithdrawal } from '../request-bodies.js';
import type { SimRestBackend } from './backend.js';

/** A signed route acting for the caller's (sub-)account. */
export function signed(scope: Scope, handle: (ctx: RouteContext, accountId: string) => RouteResult): RouteDef {
  return { auth: scope, handle: (ctx) => handle(ctx, ctx.caller!.accountId) };
}

/** Add the account and funds routes to `router`. */
export function addAccountRoutes(router: Router<RouteDef>, b: SimRestBackend): void {
  const f = b.funds;
  const view = (h: (c: RouteContext, a: string) => unknown) => signed('view', (c, a) => ({ body: h(c, a) }));
  router
    .add('GET', '/account', view((_c, a) => f.account(a)))
    .add('GET', '/account/volume', view((_c, a) => f.accountVolume(a)))
    .add('GET', '/account/fees/trading', view((_c, a) => f.tradingFees(a)))
    .add('GET', '/account/fees/trading/{marketSymbol}', view((c, a) => f.tradingFee(a, c.params.marketSymbol!)))
    .add('GET', '/account/permissions/markets', view((_c, a) => f.marketPolicies(a)))
    .add('GET', '/account/permissions/markets/{marketSymbol}', view((c, a) => f.marketPolicy(a, c.params.marketSymbol!)))
    .add('GET', '/account/permissions/currencies', view((_c, a) => f.currencyPolicies(a)))
    .add('GET', '/account/permissions/currencies/{currencySymbol}', view((c, a) => f.currencyPolicy(a, c.params.currencySymbol!)))

    .add('GET', '/balances', signed('view', (_c, a) => {
      const s = f.balances(a);
      return { body: s.data, sequence: s.sequence };
    }))
    .add('HEAD', '/balances', signed('view', (_c, a) => ({ sequence: f.balancesSequence(a) })))
    .add('GET', '/balances/{currencySymbol}', view((c, a) => f.balance(a, c.params.currencySymbol!)))

    .add('GET', '/addresses', view((_c, a) => f.addresses(a)))
    .add('POST', '/addresses', signed('view', (c, a) => ({ status: 201, body: f.requestAddress(a, parseNewAddress(c.body).currencySymbol) })))
    .add('GET', '/addresses/{currencySymbol}', view((c, a) => f.address(a, c.params.currencySymbol!)))

    .add('GET', '/deposits/open', signed('view', (c, a) => {
      const s = f.openDeposits(a, { status: qstr(c.query, 'status'), currencySymbol: qstr(c.query, 'currencySymbol') });
      return { body: s.data, sequence: s.sequence };
    }))
    .add('HEAD', '/deposits/open', signed('view', (_c, a) => ({ sequence: f.depositsSequence(a) })))
    .add('GET', '/deposits/closed', view((c, a) => f.closedDeposits(a, { ...pageQuery(c.query), status: qstr(c.query, 'status'), currencySymbol: qstr(c.query, 'currencySymbol') })))
    .add('GET', '/deposits/ByTxId/{txId}', view((c, a) => f.depositsByTxId(a, c.params.txId!)))
    .add('GET', '/deposits/{depositId}', view((c, a) => f.deposit(a, c.params.depositId!)))

    .add('GET', '/withdrawals/open', view((c, a) => f.openWithdrawals(a, { status: qstr(c.query, 'status'), currencySymbol: qstr(c.query, 'currencySymbol') })))
    .add('GET', '/withdrawals/closed', view((c, a) => f.closedWithdrawals(a, { ...pageQuery(c.query), status: qstr(c.query, 'status'), currencySymbol: qstr(c.query, 'currencySymbol') })))
    .add('GET', '/withdrawals/ByTxId/{txId}', view((c, a) => f.withdrawalsByTxId(a, c.params.txId!)))
    .add('GET', '/withdrawals/allowed-addresses', view((_c, a) => f.allowedAddresses(a)))
    // The older path still works (seed).
    .add('GET', '/withdrawals/whitelistAddresses', view((_c, a) => f.allowedAddresses(a)))
    .add('GET', '/withdrawals/{withdrawalId}', view((c, a) => f.withdrawal(a, c.params.withdrawalId!)))
    .add('DELETE', '/withdrawals/{withdrawalId}', signed('withdraw', (c, a) => ({ body: f.cancelWithdrawal(a, c.params.withdrawalId!) })))
    .add('POST', '/withdrawals', signed('withdraw', (c, a) => ({ status: 201, body: f.createWithdrawal(a, parseNewWithdrawal(c.body)) })))

    .add('GET', '/subaccounts', view((c, a) => f.subaccounts(a, pageQuery(c.query))))
    .add('POST', '/subaccounts', signed('trade', (c, a) => {
      parseNewSubaccount(c.body);
      return { status: 201, body: f.createSubaccount(a) };
    }))
    .add('GET', '/subaccounts/{subaccountId}', view((c, a) => f.subaccount(a, c.params.subaccountId!)))

    .add('GET', '/transfers/sent', view((c, a) => f.sentTransfers(a, {
      ...pageQuery(c.query),
      toSubaccountId: qstr(c.query, 'toSubaccountId'),
      toMasterAccount: qbool(c.query, 'toMasterAccount'),
      currencySymbol: qstr(c.query, 'currencySymbol'),
    })))
    .add('GET', '/transfers/received', view((c, a) => f.receivedTransfers(a, {
      ...pageQuery(c.query),
      fromSubaccountId: qstr(c.query, 'fromSubaccountId'),
      fromMasterAccount: qbool(c.query, 'fromMasterAccount'),
      currencySymbol: qstr(c.query, 'currencySymbol'),
    })))
    .add('GET', '/transfers/{transferId}', view((c, a) => f.transfer(a, c.params.transferId!)))
    .add('POST', '/transfers', signed('withdraw', (c, a) => ({ status: 201, body: f.createTransfer(a, parseNewTransfer(c.body)) })));
}
