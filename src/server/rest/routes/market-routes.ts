/** Public market data routes (unsigned): markets, currencies, tickers, summaries, books, trades, candles, ping. */
import { CANDLE_INTERVALS, CANDLE_TYPES, type CandleInterval, type CandleType } from '../../../model/enums.js';
import { SimError } from '../../../sim/sim-error.js';
import type { RouteContext, RouteDef, RouteResult } from '../rest-handler.js';
import type { Router } from '../router.js';
import { qint } from '../query.js';
import type { SimRestBackend } from './backend.js';

const pub = (handle: (ctx: RouteContext) => RouteResult): RouteDef => ({ auth: 'public', handle });

function candleArgs(ctx: RouteContext): { type: CandleType; interval: CandleInterval } {
  const type = (ctx.params.candleType ?? 'TRADE') as CandleType;
  if (!CANDLE_TYPES.includes(type)) throw new SimError(400, 'BAD_REQUEST', `candleType must be one of ${CANDLE_TYPES.join(', ')}`, { invalidRequestParameters: ['candleType'] });
  const interval = ctx.params.candleInterval as CandleInterval;
  if (!CANDLE_INTERVALS.includes(interval)) throw new SimError(400, 'BAD_REQUEST', `candleInterval must be one of ${CANDLE_INTERVALS.join(', ')}`, { invalidRequestParameters: ['candleInterval'] });
  return { type, interval };
}

function datePart(ctx: RouteContext, name: 'year' | 'month' | 'day'): number | undefined {
  const v = ctx.params[name];
  if (v === undefined) return undefined;
  // Paths come with or without zero padding (/2021/1/2 and /2021/01/02).
  if (!/^\d{1,4}$/.test(v)) throw new SimError(400, 'BAD_REQUEST', `${name} must be a number`, { invalidRequestParameters: [name] });
  return Number(v);
}

/** Add the public routes to `router`. */
export function addMarketRoutes(router: Router<RouteDef>, b: SimRestBackend): void {
  const market = (ctx: RouteContext) => b.catalog.market(ctx.params.marketSymbol!).symbol;
  router
    .add('GET', '/ping', pub(() => ({ body: { serverTime: Math.floor(b.clock.now() / 1000) * 1000 } })))
    .add('GET', '/currencies', pub(() => ({ body: b.currencies() })))
    .add('GET', '/currencies/{symbol}', pub((c) => ({ body: b.currency(c.params.symbol!) })))
    .add('GET', '/markets', pub(() => ({ body: b.markets() })))
    .add('GET', '/markets/summaries', pub(() => {
      const s = b.summaries();
      return { body: s.data, sequence: s.sequence };
    }))
    .add('HEAD', '/markets/summaries', pub(() => ({ sequence: b.summaries().sequence })))
    .add('GET', '/markets/tickers', pub(() => {
      const t = b.tickers();
      return { body: t.data, sequence: t.sequence };
    }))
    .add('HEAD', '/markets/tickers', pub(() => ({ sequence: b.tickers().sequence })))
    .add('GET', '/markets/{marketSymbol}', pub((c) => ({ body: b.market(c.params.marketSymbol!) })))
    .add('GET', '/markets/{marketSymbol}/ticker', pub((c) => ({ body: b.ticker(market(c)) })))
    .add('GET', '/markets/{marketSymbol}/summary', pub((c) => ({ body: b.summary(market(c)) })))
    .add('GET', '/markets/{marketSymbol}/orderbook', pub((c) => {
      const ob = b.orderBook(market(c), qint(c.query, 'depth') ?? 25);
      return { body: ob.data, sequence: ob.sequence };
    }))
    .add('HEAD', '/markets/{marketSymbol}/orderbook', pub((c) => ({ sequence: b.orderBook(market(c), qint(c.query, 'depth') ?? 25).sequence })))
    .add('GET', '/markets/{marketSymbol}/trades', pub((c) => {
      const t = b.trades(market(c));
      return { body: t.data, sequence: t.sequence };
    }))
    .add('HEAD', '/markets/{marketSymbol}/trade', pub((c) => ({ sequence: b.trades(market(c)).sequence })));

  const recent = (c: RouteContext, head: boolean): RouteResult => {
    const { type, interval } = candleArgs(c);
    const r = b.candles(market(c), type, interval);
    return head ? { sequence: r.sequence } : { body: r.data, sequence: r.sequence };
  };
  const historical = (c: RouteContext): RouteResult => {
    const { type, interval } = candleArgs(c);
    const year = datePart(c, 'year')!;
    const month = datePart(c, 'month');
    const day = datePart(c, 'day');
    return { body: b.historicalCandles(market(c), type, interval, year, month, day) };
  };
  // The candleType segment may be omitted, meaning TRADE (seed).
  for (const prefix of ['/markets/{marketSymbol}/candles/{candleType}/{candleInterval}', '/markets/{marketSymbol}/candles/{candleInterval}']) {
    router
      .add('GET', `${prefix}/recent`, pub((c) => recent(c, false)))
      .add('HEAD', `${prefix}/recent`, pub((c) => recent(c, true)))
      .add('GET', `${prefix}/historical/{year}`, pub(historical))
      .add('GET', `${prefix}/historical/{year}/{month}`, pub(historical))
      .add('GET', `${prefix}/historical/{year}/{month}/{day}`, pub(historical));
  }
}
