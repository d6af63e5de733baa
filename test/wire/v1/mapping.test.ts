/**
 * One row per rename, reversal, fold and deprecation of seed 001 section 9 ("Endpoint mapping", "Key field
 * renames"): each row maps a v1.1 value to v3 and a v3 value back to v1.1, where the information exists.
 */
import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { Currency, Market, MarketSummary, Ticker, Trade } from '../../../src/model/market.js';
import type { Order } from '../../../src/model/order.js';
import type { Balance, Deposit, Withdrawal } from '../../../src/model/wallet.js';
import {
  addressFromV1, addressToV1, balanceFromV1, balanceToV1, currencyFromV1, currencyToV1, depositFromV1, depositToV1,
  historyFromV1, marketFromV1, marketToV1, newOrderFromV1, newOrderToV1, orderBookFromV1, orderBookToV1, orderFromV1,
  orderToV1, orderToV1History, summaryFromV1, summaryToV1, symbolToV1Market, tickerFromV1, tickerToV1, tradeFromV1,
  tradeToV1, v1MarketToSymbol, withdrawalFromV1, withdrawalToV1, withdrawFromV1, MappingError,
  balanceDeltaFromV1, balanceDeltaToV1, bookDeltaToV1, exchangeDeltaFromV1, fillToV1, liteSummaryFromV1, orderDeltaFromV1,
  orderDeltaToV1, summaryDeltasFromV1,
  type V1Balance, type V1Currency, type V1DepositHistoryEntry, type V1HistoryEntry, type V1Market, type V1MarketHistoryEntry,
  type V1MarketSummary, type V1Order, type V1WithdrawalHistoryEntry,
} from '../../../src/wire/v1/index.js';

const t0 = new Date('2014-07-09T03:55:48.583Z');
const t1 = new Date('2014-07-09T04:01:00.000Z');

const v1Market: V1Market = {
  MarketCurrency: 'LTC', BaseCurrency: 'BTC', MarketCurrencyLong: 'Litecoin', BaseCurrencyLong: 'Bitcoin',
  MinTradeSize: dec('0.01'), MarketName: 'BTC-LTC', IsActive: true, IsRestricted: false, Created: t0,
  Notice: 'maintenance', IsSponsored: true, LogoUrl: 'https://logo/ltc.png',
};
const v3Market: Market = {
  symbol: 'ETH-USD', baseCurrencySymbol: 'ETH', quoteCurrencySymbol: 'USD', minTradeSize: dec('0.005'), precision: 2,
  status: 'OFFLINE', createdAt: t1, prohibitedIn: ['US'], notice: 'n',
};
const currencies = new Map<string, Currency>([
  ['ETH', { symbol: 'ETH', name: 'Ethereum', coinType: 'ETH', status: 'ONLINE', minConfirmations: 36, txFee: dec('0.006'), logoUrl: 'https://logo/eth.png' }],
  ['USD', { symbol: 'USD', name: 'US Dollar', coinType: 'FIAT', status: 'ONLINE', minConfirmations: 0, txFee: dec('0') }],
]);
const v1Currency: V1Currency = {
  Currency: 'BTC', CurrencyLong: 'Bitcoin', MinConfirmation: 2, TxFee: dec('0.0002'), IsActive: false, IsRestricted: true,
  CoinType: 'BITCOIN', BaseAddress: '1base', Notice: null,
};
const v1Summary: V1MarketSummary = {
  MarketName: 'BTC-LTC', High: dec('0.0135'), Low: dec('0.012'), Volume: dec('3833.97619253'), Last: dec('0.0132'),
  BaseVolume: dec('47.03987026'), TimeStamp: t0, Bid: dec('0.01271001'), Ask: dec('0.012911'), OpenBuyOrders: 45,
  OpenSellOrders: 46, PrevDay: dec('0.012'), Created: t1, DisplayMarketName: null,
};
const v3Summary: MarketSummary = {
  symbol: 'ETH-USD', high: dec('2100'), low: dec('1900'), volume: dec('10'), quoteVolume: dec('20000'),
  percentChange: dec('25'), updatedAt: t1,
};
const v3Ticker: Ticker = { symbol: 'ETH-USD', lastTradeRate: dec('2000'), bidRate: dec('1999'), askRate: dec('2001') };
const v1Trade: V1MarketHistoryEntry = {
  Id: 319435, TimeStamp: t0, Quantity: dec('0.30802438'), Price: dec('0.012634'), Total: dec('0.00389158'),
  FillType: 'PARTIAL_FILL', OrderType: 'SELL', Uuid: null,
};
const v3Trade: Trade = { id: 'trade-uuid', executedAt: t1, quantity: dec('2'), rate: dec('1.5'), takerSide: 'BUY' };
const v1Order: V1Order = {
  Uuid: null, OrderUuid: '8925d746-bc9f-4684-b1aa-e507467aaa99', Exchange: 'BTC-LTC', OrderType: 'LIMIT_BUY',
  Quantity: dec('100000'), QuantityRemaining: dec('60000'), Limit: dec('0.00000001'), CommissionPaid: dec('0.00000002'),
  Price: dec('0.0004'), PricePerUnit: dec('0.00000001'), Opened: t0, Closed: null, CancelInitiated: false,
  ImmediateOrCancel: true, IsConditional: false, Condition: 'NONE', ConditionTarget: null,
};
const v3Order: Order = {
  id: 'order-1', marketSymbol: 'ETH-USD', direction: 'SELL', type: 'LIMIT', timeInForce: 'GOOD_TIL_CANCELLED',
  quantity: dec('3'), limit: dec('2000'), fillQuantity: dec('1'), commission: dec('5'), proceeds: dec('2000'),
  status: 'CLOSED', createdAt: t0, closedAt: t1,
};
const v1History: V1HistoryEntry = {
  OrderUuid: 'fd97d393-e9b9-4dd1-9dbf-f288fc72a185', Exchange: 'BTC-LTC', TimeStamp: t0, OrderType: 'SELL_LIMIT',
  Limit: dec('0.00000001'), Quantity: dec('667.03644955'), QuantityRemaining: dec('0'), Commission: dec('0.00004921'),
  Price: dec('0.01968424'), PricePerUnit: dec('0.0000295'), IsConditional: false, Condition: '', ConditionTarget: 0,
  ImmediateOrCancel: false, Closed: t1,
};
const v1Balance: V1Balance = {
  Currency: 'DOGE', Balance: dec('4.21549076'), Available: dec('4.0'), Pending: dec('0'), CryptoAddress: null,
  Requested: true, Uuid: null,
};
const v3Balance: Balance = { currencySymbol: 'BTC', total: dec('1.5'), available: dec('1.25'), updatedAt: t1 };
const v1Withdrawal: V1WithdrawalHistoryEntry = {
  PaymentUuid: 'b52c7a5c-90c6-4c6e-835c-e16df12708b1', Currency: 'BTC', Amount: dec('17'), Address: '1Dea',
  Opened: t0, Authorized: true, PendingPayment: false, TxCost: dec('0.0002'), TxId: 'b4a5', Canceled: false,
  InvalidAddress: false,
};
const v3Withdrawal: Withdrawal = {
  id: 'w-1', currencySymbol: 'ETH', quantity: dec('2'), cryptoAddress: '0xabc', status: 'PENDING', createdAt: t1,
  txCost: dec('0.006'),
};
const v1Deposit: V1DepositHistoryEntry = {
  Id: 1, Amount: dec('2.12345678'), Currency: 'BTC', Confirmations: 2, LastUpdated: t0, TxId: 'e26d', CryptoAddress: '15Vy',
};
const v3Deposit: Deposit = {
  id: 'd-uuid', currencySymbol: 'ETH', quantity: dec('3'), cryptoAddress: '0xdef', confirmations: 40, updatedAt: t1,
  status: 'COMPLETED', txId: '0xtx',
};

const uE = {
  MarketName: 'BTC-LTC', Nonce: 41,
  Buys: [{ Type: 1, Rate: dec('0.01'), Quantity: dec('3') }, { Type: 0, Rate: dec('0.02'), Quantity: dec('5') }],
  Sells: [],
  Fills: [{ FillId: 77, OrderType: 'SELL' as const, Rate: dec('0.5'), Quantity: dec('1'), TimeStamp: t0 }],
};
const uO = {
  AccountUuid: 'acct-uuid', Nonce: 8,
  Order: {
    OrderUuid: 'o-9', Exchange: 'BTC-LTC', OrderType: 'LIMIT_BUY', Quantity: dec('3'), QuantityRemaining: dec('2'), Limit: dec('1'),
    CommissionPaid: dec('0'), Price: dec('1'), Opened: t0, Closed: t1, IsOpen: false, ImmediateOrCancel: false, Updated: t1,
  },
};

const s = (v: unknown) => (v === null || v === undefined ? v : typeof v === 'object' && 'toFixed' in (v as object) ? String(v) : v);

/** rename, v1.1 → v3 (actual, expected), v3 → v1.1 (actual, expected). */
const rows: [string, () => unknown, unknown, () => unknown, unknown][] = [
  // Markets
  ['market name reversed (MarketName → symbol)', () => marketFromV1(v1Market).symbol, 'LTC-BTC', () => marketToV1(v3Market).MarketName, 'USD-ETH'],
  ['market parameter reversed → marketSymbol', () => v1MarketToSymbol('btc-ltc'), 'LTC-BTC', () => symbolToV1Market('LTC-BTC'), 'BTC-LTC'],
  ['MarketCurrency → baseCurrencySymbol', () => marketFromV1(v1Market).baseCurrencySymbol, 'LTC', () => marketToV1(v3Market).MarketCurrency, 'ETH'],
  ['BaseCurrency → quoteCurrencySymbol', () => marketFromV1(v1Market).quoteCurrencySymbol, 'BTC', () => marketToV1(v3Market).BaseCurrency, 'USD'],
  ['MarketCurrencyLong → Currency.name', () => marketToV1(v3Market, currencies).MarketCurrencyLong, 'Ethereum', () => marketToV1(v3Market).MarketCurrencyLong, 'ETH'],
  ['BaseCurrencyLong → Currency.name', () => marketToV1(v3Market, currencies).BaseCurrencyLong, 'US Dollar', () => marketToV1(v3Market, currencies).BaseCurrency, 'USD'],
  ['MinTradeSize → minTradeSize', () => s(marketFromV1(v1Market).minTradeSize), '0.01', () => s(marketToV1(v3Market).MinTradeSize), '0.005'],
  ['IsActive → status (ONLINE, OFFLINE)', () => marketFromV1(v1Market).status, 'ONLINE', () => marketToV1(v3Market).IsActive, false],
  ['IsRestricted → prohibitedIn', () => marketFromV1(v1Market).prohibitedIn, [], () => marketToV1(v3Market).IsRestricted, true],
  ['Created → createdAt', () => marketFromV1(v1Market).createdAt, t0, () => marketToV1(v3Market).Created, t1],
  ['Notice → notice', () => marketFromV1(v1Market).notice, 'maintenance', () => marketToV1(v3Market).Notice, 'n'],
  ['LogoUrl → Currency.logoUrl', () => marketToV1(v3Market, currencies).LogoUrl, 'https://logo/eth.png', () => marketToV1(v3Market).LogoUrl, null],
  ['IsSponsored deprecated', () => 'IsSponsored' in marketFromV1(v1Market), false, () => marketToV1(v3Market).IsSponsored, false],
  // Currencies
  ['Currency → symbol', () => currencyFromV1(v1Currency).symbol, 'BTC', () => currencyToV1(currencies.get('ETH')!).Currency, 'ETH'],
  ['CurrencyLong → name', () => currencyFromV1(v1Currency).name, 'Bitcoin', () => currencyToV1(currencies.get('ETH')!).CurrencyLong, 'Ethereum'],
  ['CoinType → coinType', () => currencyFromV1(v1Currency).coinType, 'BITCOIN', () => currencyToV1(currencies.get('USD')!).CoinType, 'FIAT'],
  ['MinConfirmation → minConfirmations', () => currencyFromV1(v1Currency).minConfirmations, 2, () => currencyToV1(currencies.get('ETH')!).MinConfirmation, 36],
  ['TxFee → txFee', () => s(currencyFromV1(v1Currency).txFee), '0.0002', () => s(currencyToV1(currencies.get('ETH')!).TxFee), '0.006'],
  ['currency IsActive → status', () => currencyFromV1(v1Currency).status, 'OFFLINE', () => currencyToV1(currencies.get('ETH')!).IsActive, true],
  ['currency IsRestricted → prohibitedIn', () => currencyFromV1(v1Currency).prohibitedIn, ['*'], () => currencyToV1(currencies.get('ETH')!).IsRestricted, false],
  ['BaseAddress deprecated', () => 'baseAddress' in currencyFromV1(v1Currency), false, () => currencyToV1(currencies.get('ETH')!).BaseAddress, null],
  // Tickers and summaries
  ['Bid → bidRate', () => s(tickerFromV1({ Bid: dec('1'), Ask: dec('2'), Last: dec('3') }, 'BTC-LTC').bidRate), '1', () => s(tickerToV1(v3Ticker).Bid), '1999'],
  ['Ask → askRate', () => s(tickerFromV1({ Bid: dec('1'), Ask: dec('2'), Last: dec('3') }, 'BTC-LTC').askRate), '2', () => s(tickerToV1(v3Ticker).Ask), '2001'],
  ['Last → lastTradeRate', () => s(summaryFromV1(v1Summary).ticker.lastTradeRate), '0.0132', () => s(summaryToV1(v3Summary, v3Ticker).Last), '2000'],
  ['summary MarketName reversed → symbol', () => summaryFromV1(v1Summary).summary.symbol, 'LTC-BTC', () => summaryToV1(v3Summary, v3Ticker).MarketName, 'USD-ETH'],
  ['High, Low, Volume → high, low, volume', () => [s(summaryFromV1(v1Summary).summary.high), s(summaryFromV1(v1Summary).summary.low), s(summaryFromV1(v1Summary).summary.volume)], ['0.0135', '0.012', '3833.97619253'], () => [s(summaryToV1(v3Summary, v3Ticker).High), s(summaryToV1(v3Summary, v3Ticker).Low), s(summaryToV1(v3Summary, v3Ticker).Volume)], ['2100', '1900', '10']],
  ['BaseVolume → quoteVolume', () => s(summaryFromV1(v1Summary).summary.quoteVolume), '47.03987026', () => s(summaryToV1(v3Summary, v3Ticker).BaseVolume), '20000'],
  ['TimeStamp → updatedAt', () => summaryFromV1(v1Summary).summary.updatedAt, t0, () => summaryToV1(v3Summary, v3Ticker).TimeStamp, t1],
  ['PrevDay → percentChange', () => s(summaryFromV1(v1Summary).summary.percentChange), '10', () => s(summaryToV1(v3Summary, v3Ticker).PrevDay), '1600'],
  ['summary Created → Market.createdAt', () => 'createdAt' in summaryFromV1(v1Summary).summary, false, () => summaryToV1(v3Summary, v3Ticker, { created: t0 }).Created, t0],
  ['OpenBuyOrders, OpenSellOrders deprecated', () => 'openBuyOrders' in summaryFromV1(v1Summary).summary, false, () => [summaryToV1(v3Summary, v3Ticker).OpenBuyOrders, summaryToV1(v3Summary, v3Ticker, { openSellOrders: 4 }).OpenSellOrders], [0, 4]],
  // Order book
  ['getorderbook buy/sell → bid/ask', () => s(orderBookFromV1({ buy: [{ quantity: dec('1'), rate: dec('2') }], sell: [] }).bid[0]!.rate), '2', () => orderBookToV1({ bid: [{ quantity: dec('1'), rate: dec('2') }], ask: [{ quantity: dec('3'), rate: dec('4') }] }, 'sell').buy.length, 0],
  // Trades
  ['trade Price → rate', () => s(tradeFromV1(v1Trade).rate), '0.012634', () => s(tradeToV1(v3Trade, 7).Price), '1.5'],
  ['trade TimeStamp → executedAt', () => tradeFromV1(v1Trade).executedAt, t0, () => tradeToV1(v3Trade, 7).TimeStamp, t1],
  ['trade OrderType → takerSide', () => tradeFromV1(v1Trade).takerSide, 'SELL', () => tradeToV1(v3Trade, 7).OrderType, 'BUY'],
  ['trade Id deprecated (uuid id; int numbered by the server)', () => tradeFromV1(v1Trade).id, '319435', () => [tradeToV1(v3Trade, 7).Id, tradeToV1(v3Trade, 7).Uuid], [7, 'trade-uuid']],
  ['Total, FillType deprecated', () => 'total' in tradeFromV1(v1Trade), false, () => [s(tradeToV1(v3Trade, 7).Total), tradeToV1(v3Trade, 7).FillType], ['3', 'FILL']],
  // Orders
  ['Uuid/OrderUuid → id', () => orderFromV1(v1Order).id, v1Order.OrderUuid, () => [orderToV1(v3Order).OrderUuid, orderToV1(v3Order).Uuid], ['order-1', null]],
  ['Exchange → marketSymbol (reversed)', () => orderFromV1(v1Order).marketSymbol, 'LTC-BTC', () => orderToV1(v3Order).Exchange, 'USD-ETH'],
  ['OrderType → type + direction', () => [orderFromV1(v1Order).type, orderFromV1(v1Order).direction], ['LIMIT', 'BUY'], () => orderToV1(v3Order).OrderType, 'LIMIT_SELL'],
  ['history OrderType (BUY_LIMIT) → type + direction', () => [historyFromV1(v1History).type, historyFromV1(v1History).direction], ['LIMIT', 'SELL'], () => orderToV1History(v3Order).OrderType, 'SELL_LIMIT'],
  ['Quantity → quantity', () => s(orderFromV1(v1Order).quantity), '100000', () => s(orderToV1(v3Order).Quantity), '3'],
  ['QuantityRemaining → fillQuantity', () => s(orderFromV1(v1Order).fillQuantity), '40000', () => s(orderToV1(v3Order).QuantityRemaining), '2'],
  ['Limit → limit', () => s(orderFromV1(v1Order).limit), '0.00000001', () => s(orderToV1(v3Order).Limit), '2000'],
  ['CommissionPaid → commission', () => s(orderFromV1(v1Order).commission), '0.00000002', () => s(orderToV1(v3Order).CommissionPaid), '5'],
  ['history Commission → commission', () => s(historyFromV1(v1History).commission), '0.00004921', () => s(orderToV1History(v3Order).Commission), '5'],
  ['Price → proceeds', () => s(orderFromV1(v1Order).proceeds), '0.0004', () => s(orderToV1(v3Order).Price), '2000'],
  ['Opened → createdAt', () => orderFromV1(v1Order).createdAt, t0, () => orderToV1(v3Order).Opened, t0],
  ['Closed → closedAt', () => historyFromV1(v1History).closedAt, t1, () => orderToV1(v3Order).Closed, t1],
  ['Closed/IsOpen → status (OPEN, CLOSED)', () => [orderFromV1(v1Order).status, historyFromV1(v1History).status], ['OPEN', 'CLOSED'], () => orderToV1({ ...v3Order, status: 'OPEN', closedAt: undefined } as Order).Closed, null],
  ['ImmediateOrCancel → timeInForce', () => [orderFromV1(v1Order).timeInForce, historyFromV1(v1History).timeInForce], ['IMMEDIATE_OR_CANCEL', 'GOOD_TIL_CANCELLED'], () => [orderToV1(v3Order).ImmediateOrCancel, orderToV1({ ...v3Order, timeInForce: 'FILL_OR_KILL' }).ImmediateOrCancel], [false, true]],
  ['history TimeStamp → createdAt', () => historyFromV1(v1History).createdAt, t0, () => orderToV1History(v3Order).TimeStamp, t0],
  ['PricePerUnit deprecated (average price shown)', () => 'pricePerUnit' in orderFromV1(v1Order), false, () => s(orderToV1(v3Order).PricePerUnit), '2000'],
  ['CancelInitiated, Condition, ConditionTarget, IsConditional deprecated', () => Object.keys(orderFromV1(v1Order)).some((k) => /cond|cancel/i.test(k)), false, () => [orderToV1(v3Order).CancelInitiated, orderToV1(v3Order).IsConditional, orderToV1(v3Order).Condition, orderToV1(v3Order).ConditionTarget], [false, false, 'NONE', null]],
  // New orders
  ['buylimit rate → limit, type LIMIT, direction by endpoint', () => { const n = newOrderFromV1({ market: 'BTC-LTC', quantity: dec('1.2'), rate: dec('1.3') }, 'BUY'); return [n.marketSymbol, n.type, n.direction, s(n.limit), n.timeInForce]; }, ['LTC-BTC', 'LIMIT', 'BUY', '1.3', 'GOOD_TIL_CANCELLED'], () => { const r = newOrderToV1({ marketSymbol: 'LTC-BTC', direction: 'SELL', type: 'LIMIT', timeInForce: 'IMMEDIATE_OR_CANCEL', quantity: dec('1'), limit: dec('2') }); return [r.endpoint, r.order.market, s(r.order.rate), r.order.timeInForce]; }, ['selllimit', 'BTC-LTC', '2', 'IOC']],
  ['timeInForce GTC/IOC → GOOD_TIL_CANCELLED/IMMEDIATE_OR_CANCEL, FILL_OR_KILL added', () => newOrderFromV1({ market: 'BTC-LTC', quantity: dec('1'), rate: dec('1'), timeInForce: 'IOC' }, 'SELL').timeInForce, 'IMMEDIATE_OR_CANCEL', () => { try { newOrderToV1({ marketSymbol: 'LTC-BTC', direction: 'BUY', type: 'LIMIT', timeInForce: 'FILL_OR_KILL', quantity: dec('1'), limit: dec('1') }); return 'mapped'; } catch (e) { return e instanceof MappingError ? e.field : 'other'; } }, 'timeInForce'],
  // Balances and addresses
  ['Balance → total', () => s(balanceFromV1(v1Balance, t1).balance.total), '4.21549076', () => s(balanceToV1(v3Balance).Balance), '1.5'],
  ['Available → available', () => s(balanceFromV1(v1Balance, t1).balance.available), '4', () => s(balanceToV1(v3Balance).Available), '1.25'],
  ['Requested → Address status (REQUESTED, PROVISIONED)', () => [balanceFromV1(v1Balance, t1).address?.status, balanceFromV1({ ...v1Balance, CryptoAddress: 'D1', Requested: false }, t1).address?.status], ['REQUESTED', 'PROVISIONED'], () => [balanceToV1(v3Balance, { status: 'REQUESTED', currencySymbol: 'BTC' }).Requested, balanceToV1(v3Balance, { status: 'PROVISIONED', currencySymbol: 'BTC', cryptoAddress: '1x' }).CryptoAddress], [true, '1x']],
  ['Pending, balance Uuid deprecated', () => Object.keys(balanceFromV1(v1Balance, t1).balance).sort(), ['available', 'currencySymbol', 'total', 'updatedAt'], () => [s(balanceToV1(v3Balance).Pending), balanceToV1(v3Balance).Uuid], ['0', null]],
  ['getdepositaddress Address → cryptoAddress', () => addressFromV1({ Currency: 'VTC', Address: 'Vy5S' }).cryptoAddress, 'Vy5S', () => [addressToV1({ status: 'PROVISIONED', currencySymbol: 'VTC', cryptoAddress: 'Vy5S' })?.Address, addressToV1({ status: 'REQUESTED', currencySymbol: 'VTC' })], ['Vy5S', undefined]],
  // Withdrawals
  ['PaymentUuid → id', () => withdrawalFromV1(v1Withdrawal).id, v1Withdrawal.PaymentUuid, () => withdrawalToV1(v3Withdrawal).PaymentUuid, 'w-1'],
  ['Amount → quantity', () => s(withdrawalFromV1(v1Withdrawal).quantity), '17', () => s(withdrawalToV1(v3Withdrawal).Amount), '2'],
  ['withdrawal Address → cryptoAddress', () => withdrawalFromV1(v1Withdrawal).cryptoAddress, '1Dea', () => withdrawalToV1(v3Withdrawal).Address, '0xabc'],
  ['withdrawal Opened → createdAt', () => withdrawalFromV1(v1Withdrawal).createdAt, t0, () => withdrawalToV1(v3Withdrawal).Opened, t1],
  ['four withdrawal flags → status', () => [withdrawalFromV1(v1Withdrawal).status, withdrawalFromV1({ ...v1Withdrawal, Canceled: true }).status, withdrawalFromV1({ ...v1Withdrawal, InvalidAddress: true }).status, withdrawalFromV1({ ...v1Withdrawal, Authorized: false }).status, withdrawalFromV1({ ...v1Withdrawal, PendingPayment: true, TxId: null }).status], ['COMPLETED', 'CANCELLED', 'ERROR_INVALID_ADDRESS', 'REQUESTED', 'PENDING'], () => { const w = withdrawalToV1(v3Withdrawal); return [w.Authorized, w.PendingPayment, w.Canceled, w.InvalidAddress]; }, [true, true, false, false]],
  ['withdraw paymentid → cryptoAddressTag', () => withdrawFromV1({ currency: 'xrp', quantity: dec('20.4'), address: 'r1', paymentid: '77' }).cryptoAddressTag, '77', () => withdrawalToV1(v3Withdrawal).TxCost.toString(), '0.006'],
  // Deposits
  ['deposit Id → id, Amount → quantity', () => [depositFromV1(v1Deposit).id, s(depositFromV1(v1Deposit).quantity)], ['1', '2.12345678'], () => [depositToV1(v3Deposit, 9).Id, s(depositToV1(v3Deposit, 9).Amount)], [9, '3']],
  ['LastUpdated → updatedAt', () => depositFromV1(v1Deposit).updatedAt, t0, () => depositToV1(v3Deposit, 9).LastUpdated, t1],
  ['Confirmations, TxId, CryptoAddress', () => [depositFromV1(v1Deposit).confirmations, depositFromV1(v1Deposit).txId, depositFromV1(v1Deposit).cryptoAddress], [2, 'e26d', '15Vy'], () => [depositToV1(v3Deposit, 9).Confirmations, depositToV1(v3Deposit, 9).TxId, depositToV1(v3Deposit, 9).CryptoAddress], [40, '0xtx', '0xdef']],
  // Hub payloads (uE, uS, uL, uO, uB)
  ['Nonce → sequence (uE)', () => exchangeDeltaFromV1(uE).sequence, 41, () => orderDeltaToV1('acct', 9, v3Order).Nonce, 9],
  ['uE MarketName reversed → marketSymbol', () => exchangeDeltaFromV1(uE).marketSymbol, 'LTC-BTC', () => balanceDeltaToV1(3, v3Balance).Nonce, 3],
  ['Buys/Sells → bidDeltas/askDeltas; delta Type deprecated (quantity 0 removes)', () => exchangeDeltaFromV1(uE).bidDeltas.map((e) => s(e.quantity)), ['0', '5'], () => [bookDeltaToV1({ rate: dec('1'), quantity: dec('0') }).Type, bookDeltaToV1({ rate: dec('1'), quantity: dec('2') }, false).Type, bookDeltaToV1({ rate: dec('1'), quantity: dec('2') }).Type], [1, 0, 2]],
  ['FillId (int) → trade id (uuid); fill Rate → rate; OrderType → takerSide', () => { const t = exchangeDeltaFromV1(uE).trades[0]!; return [t.id, s(t.rate), t.takerSide, t.executedAt]; }, ['77', '0.5', 'SELL', t0], () => { const f = fillToV1(v3Trade, 12); return [f.FillId, f.Uuid, s(f.Rate), f.OrderType]; }, [12, 'trade-uuid', '1.5', 'BUY']],
  ['uS Nonce → sequence, Deltas → summaries + tickers', () => { const u = summaryDeltasFromV1({ Nonce: 5, Deltas: [v1Summary] }); return [u.sequence, u.summaries[0]!.symbol, s(u.tickers[0]!.bidRate)]; }, [5, 'LTC-BTC', '0.01271001'], () => summaryToV1(v3Summary, v3Ticker).MarketName, 'USD-ETH'],
  ['uL Last/BaseVolume/PrevDay → lastTradeRate/quoteVolume/percentChange', () => { const l = liteSummaryFromV1({ MarketName: 'BTC-LTC', Last: dec('0.0132'), BaseVolume: dec('47'), PrevDay: dec('0.012') }); return [l.symbol, s(l.lastTradeRate), s(l.quoteVolume), s(l.percentChange)]; }, ['LTC-BTC', '0.0132', '47', '10'], () => s(summaryToV1(v3Summary, v3Ticker).PrevDay), '1600'],
  ['IsOpen → status (OPEN, CLOSED); AccountUuid → accountId; Updated → updatedAt', () => { const o = orderDeltaFromV1(uO); return [o.accountId, o.sequence, o.delta.status, o.delta.updatedAt, s(o.delta.fillQuantity)]; }, ['acct-uuid', 8, 'CLOSED', t1, '1'], () => { const o = orderDeltaToV1('acct', 9, v3Order).Order; return [o.IsOpen, o.OrderUuid, o.Exchange]; }, [false, 'order-1', 'USD-ETH']],
  ['uO Type deprecated (derived from the order state)', () => 'type' in orderDeltaFromV1(uO), false, () => [orderDeltaToV1('a', 1, v3Order).Type, orderDeltaToV1('a', 1, { ...v3Order, status: 'OPEN', closedAt: undefined } as Order).Type], [3, 1]],
  ['uB Balance → total, Nonce → sequence, int AccountId → uuid accountId (named by the caller)', () => { const b = balanceDeltaFromV1({ Nonce: 4, Delta: { Currency: 'BTC', Balance: dec('2'), Available: dec('1'), Updated: t0 } }, 'acct-uuid'); return [b.accountId, b.sequence, s(b.delta.total), b.delta.updatedAt]; }, ['acct-uuid', 4, '2', t0], () => { const b = balanceDeltaToV1(3, v3Balance, 7).Delta; return [b.AccountId, s(b.Balance), b.Updated]; }, [7, '1.5', t1]],
  ['uB Uuid, Pending, AutoSell deprecated', () => Object.keys(balanceDeltaFromV1({ Nonce: 1, Delta: { Currency: 'BTC', Balance: dec('2'), Available: dec('1'), Updated: t0 } }, 'a').delta).sort(), ['available', 'currencySymbol', 'total', 'updatedAt'], () => { const b = balanceDeltaToV1(3, v3Balance).Delta; return [b.Uuid, s(b.Pending), b.AutoSell]; }, [null, '0', false]],
];

describe('v1.1 ⇄ v3 mapping (seed 001 section 9)', () => {
  it.each(rows)('%s', (_name, fromV1, v3, toV1, v1) => {
    expect(fromV1()).toEqual(v3);
    expect(toV1()).toEqual(v1);
  });

  it('refuses what v1.1 cannot express, naming the field', () => {
    const base = { marketSymbol: 'LTC-BTC', direction: 'BUY', timeInForce: 'GOOD_TIL_CANCELLED', quantity: dec('1'), limit: dec('1') } as const;
    expect(() => newOrderToV1({ ...base, type: 'MARKET' })).toThrow(/type MARKET has no v1.1 form/);
    expect(() => newOrderToV1({ ...base, type: 'LIMIT', clientOrderId: 'x' })).toThrow(/clientOrderId/);
    expect(() => orderFromV1({ ...v1Order, OrderType: 'STOP_BUY' })).toThrow(/OrderType is not a v1.1 order type/);
    expect(() => orderFromV1({ ...v1Order, Exchange: 'BTCLTC' })).toThrow(/Exchange is not a v1.1 market name/);
  });

  it('round-trips an order both ways without losing what both sides have', () => {
    const back = orderFromV1(orderToV1(v3Order));
    expect(back).toMatchObject({ id: v3Order.id, marketSymbol: 'ETH-USD', direction: 'SELL', type: 'LIMIT', status: 'CLOSED', closedAt: t1 });
    expect(back.fillQuantity.toString()).toBe('1');
    const again = orderToV1(orderFromV1(v1Order));
    expect(again.QuantityRemaining.toString()).toBe('60000');
    expect(again.Exchange).toBe('BTC-LTC');
  });
});
