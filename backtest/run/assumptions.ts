/**
 * Every modelling assumption of a backtest run, one sentence each, for the report: a reader of the report must
 * be able to tell from it alone what the fills it shows could and could not have been.
 */
import type { BacktestVenueConfig } from '../../src/runtime/config/backtest-venue.js';
import type { SimEngine } from '../../src/sim/engine.js';
import type { GatewayLatencies } from '../venue/backtest-gateway.js';
import type { QueueModel } from '../venue/queue-model.js';

/** What the sentences are made from. */
export interface AssumptionInputs {
  venue: BacktestVenueConfig;
  queue: QueueModel;
  latency: GatewayLatencies;
  markets: readonly string[];
  engine: SimEngine;
  queueStats: { cancellations: number };
  unknownMarketEvents: number;
  /** Decided fills the engine matched to another of our orders than the model chose (0 unless the model has a bug). */
  mismatches?: number | undefined;
  /** Book deltas left out (before the first snapshot or contained in it) and sequence gaps seen. */
  deltasBeforeSnapshot?: number | undefined;
  /** Deltas recorded before their market's first snapshot and played right after it. */
  earlyDeltas?: number | undefined;
  sequenceGaps?: number | undefined;
  /** Markets traded on bar data. */
  barMarkets?: readonly string[] | undefined;
}

/** The assumptions in force, in a stable order. */
export function backtestAssumptions(a: AssumptionInputs): string[] {
  const out: string[] = [
    'The recorded order book is the market: our orders never change it. The book the strategy sees is the recorded one with our own resting orders added at their prices, as a venue shows them; the recorded trades are the trade stream (our fills are not added to it).',
    'Liquidity our marketable orders took stays taken: a recorded level offers its recorded quantity less what we consumed there, the consumed part shrinking with the level and vanishing with it.',
    'A marketable order walks the recorded book as it stands when the order reaches the venue, under the simulator engine\'s rules for fees, price precision, minimum trade size, dust value and self-trade.',
    'A resting order joins the queue behind the recorded quantity at its price when it reaches the venue; our orders at one price share one queue, first come first served.',
    'A recorded trade at our price, taker on the other side, fills us only after the quantity ahead of us is used up; each traded quantity fills at most one of our orders.',
    'A recorded trade at a worse price than ours (through our price) fills our order fully.',
    'The recorded opposite side reaching our price with liquidity we have not consumed fills our order fully at our price.',
    'A recorded decrease of our level that the trades seen at that price do not explain is a cancellation; increases of the level join behind us.',
    'A recorded trade at our price seen within 100 ms after a decrease of our level explains that decrease (recordings do not order a trade and its book change reliably): the decrease then no longer counts as a cancellation, so one quantity never moves us up twice.',
    a.queue.describe(),
    a.latency.marketData.describe('Market-data (venue to bot)') + ' Private streams and request answers take the same path and never overtake earlier messages.',
    a.latency.orderEntry.describe('Order-entry (bot to venue)') + ' An order reaches the venue at exactly that virtual time.',
    a.latency.cancel.describe('Cancel (bot to venue)') + ' A fill can land while a cancel is in flight; the cancel then fails as on a real venue.',
    'Reads (balances, open orders, book, trade and candle snapshots) answer at once with the venue\'s state.',
    'Fills are settled by the simulator engine against a counterparty standing for the recorded liquidity, so balances, fees and the ledger are the engine\'s to the last 1e-8.',
    `Conditional orders (stop, stop-limit, trailing stop, OCO through orderToCancel) follow the simulator engine's rules and trigger on recorded trades only, ${a.engine.config.conditionalTriggerDelayMs} ms after the triggering trade; the order they create meets the recorded book like any of ours.`,
  ];
  for (const m of a.markets) {
    const fees = a.engine.catalog.feeRates(m);
    const market = a.engine.catalog.market(m);
    out.push(
      `${m}: maker commission ${fees.maker.toFixed()}, taker commission ${fees.taker.toFixed()}, minimum trade size ${market.minTradeSize.toFixed()}, price precision ${market.precision} decimals.`,
    );
  }
  out.push(
    `The dust rule (minimum order value ${a.engine.config.dustMinValueSatoshi} satoshi) values orders at the simulator's reference rates: the last fill of ours on a market linking the quote currency to BTC, else its configured reference rate.`,
  );
  if (a.barMarkets && a.barMarkets.length > 0) {
    const m = a.barMarkets.join(', ');
    out.push(
      `${m}: bar-level data (closed candles, no book). Within a bar the price went open, low, high, close when the bar closed at or above its open, and open, high, low, close otherwise.`,
      a.venue.fillModel.barLimitFill === 'touch'
        ? `${m}: a resting limit order fills whole at its limit when the bar's path touches its price (touch rule).`
        : `${m}: a resting limit order fills whole at its limit only when the bar's path goes through its price (trade-through rule); touching it is not enough.`,
      `${m}: an order marketable on arrival fills whole at the last bar's close as a taker; bars carry no depth, so order size never limits the fill.`,
      `${m}: the book shown to the strategy is one level on each side at the last close, with the bar's volume as its quantity (an indication only).`,
    );
  }
  if (a.venue.from !== undefined) out.push('Recorded events before the start of the run only build the book the run starts with.');
  out.push('A recorded book starts at its first snapshot (the stream\'s own synchronization rule, as the simulator replays the same recording): sequenced deltas recorded before it wait, those it already contains are left out and the newer ones are played right after it; later deltas at or below the last applied sequence are left out; unsequenced deltas always apply.');
  if (a.deltasBeforeSnapshot) out.push(`${a.deltasBeforeSnapshot} recorded book deltas were left out by that rule.`);
  if (a.earlyDeltas) out.push(`${a.earlyDeltas} recorded book deltas arrived before their market's first snapshot and were played right after it.`);
  if (a.sequenceGaps) out.push(`The recording misses book messages in ${a.sequenceGaps} places (sequence gaps); the book is applied as recorded across them.`);
  if (a.mismatches) out.push(`${a.mismatches} fills the fill model decided were matched by the engine to another of our orders than the one it chose (a modelling inconsistency worth reporting).`);
  if (a.unknownMarketEvents > 0) out.push(`${a.unknownMarketEvents} recorded events of markets not in the run were left out.`);
  out.push('Equity is valued at the mid of the recorded book (or its one side, or the last recorded trade) of each holding\'s market against the valuation currency.');
  return out;
}
