/**
 * The synthetic market driver: for each configured market a seeded random-walk mid, K market makers quoting
 * ladders around it and a Poisson noise taker trading against them, all through the engine's ordinary order
 * entry on ordinary, generously funded accounts. Time comes only from the injected Clock, randomness only from
 * the seed, so a run under a VirtualClock is reproducible trade for trade.
 *
 * Engine refusals are counted in {@link SyntheticMarket.stats} (and answered by a top-up where money is the
 * reason); anything unexpected is caught at the timer boundary, counted and passed to `onError`, so a timer
 * never throws into the clock.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import { type Decimal, dec } from '../../core/decimal.js';
import type { MarketConfig } from '../config.js';
import { maxFee } from '../trading-amounts.js';
import type { DriverEngine } from './driver-engine.js';
import { type DriverStats, newDriverStats } from './driver-stats.js';
import { historyTape } from './history-tape.js';
import { MarketMaker } from './market-maker.js';
import { NoiseTaker } from './noise-taker.js';
import { type Participant, ParticipantPool } from './participant.js';
import { PriceWalk } from './price-walk.js';
import { Prng } from './prng.js';
import { startPriceFor } from './start-prices.js';
import { type SyntheticMarketConfig, type SyntheticMarketInput, marketSettings, resolveSyntheticConfig } from './synthetic-config.js';

/** Hooks of a {@link SyntheticMarket}. */
export interface SyntheticMarketHooks {
  /** Unexpected failures caught at a timer boundary (engine refusals are only counted). */
  onError?: (err: unknown) => void;
}

interface MarketRun {
  market: MarketConfig;
  walk: PriceWalk;
  makers: MarketMaker[];
  taker: NoiseTaker;
}

/**
 * @example
 * const engine = createSimEngine({ clock });
 * const driver = new SyntheticMarket(engine, clock, { seed: 7, markets: ['BTC-USD'] });
 * driver.start();
 * await clock.advance(60_000); // a minute of quotes and trades
 * driver.stop();
 */
export class SyntheticMarket {
  /** The effective configuration (defaults filled in). */
  readonly config: SyntheticMarketConfig;
  readonly #engine: DriverEngine;
  readonly #clock: Clock;
  readonly #hooks: SyntheticMarketHooks;
  #stats: DriverStats = newDriverStats();
  #pool: ParticipantPool | undefined;
  #runs: MarketRun[] = [];
  #timer: TimerHandle | undefined;
  #historySeeded = false;

  constructor(engine: DriverEngine, clock: Clock, config: SyntheticMarketInput = {}, hooks: SyntheticMarketHooks = {}) {
    this.#engine = engine;
    this.#clock = clock;
    this.config = resolveSyntheticConfig(config);
    this.#hooks = hooks;
    // Fail at construction, not in a timer, when a configured market does not exist.
    for (const s of this.config.markets ?? []) engine.catalog.market(s);
  }

  /** What the driver did since the last start. */
  get stats(): DriverStats {
    return this.#stats;
  }

  /** True between start() and stop(). */
  get running(): boolean {
    return this.#timer !== undefined;
  }

  /** The markets being driven. */
  get markets(): string[] {
    return this.#runs.map((r) => r.market.symbol);
  }

  /** The current model mid of a driven market. */
  mid(marketSymbol: string): Decimal | undefined {
    return this.#runs.find((r) => r.market.symbol === marketSymbol)?.walk.mid();
  }

  /** The accounts trading, with their roles (makers and takers of each market). */
  participants(): Array<{ accountId: string; label: string }> {
    return (this.#pool?.all() ?? []).map((p) => ({ accountId: p.accountId, label: p.label }));
  }

  /**
   * Open and fund the participants, generate `historyHours` of past trades (when the engine takes history),
   * place the first quotes and start the clock-driven loop.
   */
  start(): void {
    if (this.running) return;
    const cfg = this.config;
    const catalog = this.#engine.catalog;
    this.#stats = newDriverStats();
    const pool = (this.#pool = new ParticipantPool(this.#engine, this.#stats));
    const root = new Prng(cfg.seed);
    const symbols = cfg.markets
      ? cfg.markets.map((s) => catalog.market(s).symbol)
      : catalog.markets().filter((m) => m.status === 'ONLINE').map((m) => m.symbol);

    this.#runs = symbols.map((symbol) => {
      const market = catalog.market(symbol);
      const s = marketSettings(cfg, symbol);
      const feeMax = maxFee(catalog.feeRates(symbol));
      const anchor = startPriceFor(market, s.startPrice === undefined ? undefined : dec(s.startPrice));
      const walk = new PriceWalk(
        { anchor, volatilityPerSqrtSecond: s.volatilityPerSqrtSecond, anchorPullPerSecond: s.anchorPullPerSecond, precision: market.precision },
        root.fork(`${symbol}/walk`),
      );
      const makers = Array.from({ length: s.makers.count }, (_, index) => {
        const participant = pool.create(`maker ${symbol} #${index}`);
        const maker = new MarketMaker({ market, participant, rng: root.fork(`${symbol}/maker/${index}`), config: s.makers, index, feeMax });
        fundBoth(participant, market, maker.startFunding(anchor, cfg.fundingMultiple));
        return maker;
      });
      const takerParticipant = pool.create(`taker ${symbol}`);
      const taker = new NoiseTaker({
        clock: this.#clock,
        market,
        participant: takerParticipant,
        rng: root.fork(`${symbol}/taker`),
        config: s.takers,
        mid: () => walk.mid(),
        feeMax,
        onError: (err) => this.#fail(err),
      });
      fundBoth(takerParticipant, market, taker.startFunding(anchor, cfg.fundingMultiple));
      // Once per driver: a restart continues the same market, whose past already exists.
      if (cfg.historyHours > 0 && this.#engine.marketData && !this.#historySeeded) {
        const trades = historyTape({
          market,
          endPrice: anchor,
          endAt: this.#clock.now(),
          spanMs: cfg.historyHours * 3_600_000,
          volatilityPerSqrtSecond: s.volatilityPerSqrtSecond,
          anchorPullPerSecond: s.anchorPullPerSecond,
          lots: s.takers.lots,
          rng: root.fork(`${symbol}/history`),
        });
        this.#engine.marketData.seedHistory(symbol, trades);
      }
      return { market, walk, makers, taker };
    });

    this.#historySeeded = true;
    // First quotes right away, so the books are two-sided from the start.
    for (const run of this.#runs) this.#quote(run);
    this.#timer = this.#clock.setInterval(() => this.#tick(), cfg.tickMs);
    for (const run of this.#runs) run.taker.start();
  }

  /** Stop all timers; with `cancelOnStop` (default) cancel every participant order. Balances stay. */
  stop(): void {
    if (!this.running) return;
    this.#timer?.cancel();
    this.#timer = undefined;
    for (const run of this.#runs) run.taker.stop();
    if (this.config.cancelOnStop) {
      for (const p of this.#pool?.all() ?? []) this.#guard(() => p.cancelAll());
    }
    this.#pool?.dispose();
  }

  #tick(): void {
    for (const run of this.#runs) {
      run.walk.advance(this.config.tickMs);
      this.#quote(run);
    }
  }

  #quote(run: MarketRun): void {
    const mid = run.walk.mid();
    for (const maker of run.makers) this.#guard(() => maker.tick(mid));
  }

  #guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.#fail(err);
    }
  }

  #fail(err: unknown): void {
    this.#stats.errors++;
    this.#hooks.onError?.(err);
  }
}

function fundBoth(p: Participant, market: MarketConfig, amounts: { base: Decimal; quote: Decimal }): void {
  p.fund(market.baseCurrencySymbol, amounts.base);
  p.fund(market.quoteCurrencySymbol, amounts.quote);
}
