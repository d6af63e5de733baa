/**
 * Market drivers of the simulator: what moves the books besides user orders. Synthetic participants
 * ({@link SyntheticMarket}), a recorded v3 capture ({@link ReplayMarket}), chosen with {@link createMarketDriver}.
 */
export { createMarketDriver, type MarketDriver, type MarketDriverConfig } from './market-driver.js';
export type { DriverEngine } from './driver-engine.js';
export type { DriverStats } from './driver-stats.js';
export {
  DEFAULT_SYNTHETIC_MARKET_CONFIG,
  resolveSyntheticConfig,
  type MakerConfig,
  type SyntheticMarketConfig,
  type SyntheticMarketInput,
  type SyntheticMarketOverride,
  type TakerConfig,
} from './synthetic-config.js';
export { SyntheticMarket, type SyntheticMarketHooks } from './synthetic-market.js';
export { DEFAULT_START_PRICES, DEFAULT_USD_VALUES, startPriceFor } from './start-prices.js';
export { DEFAULT_REPLAY_CONFIG, ReplayMarket, type ReplayConfig, type ReplayHooks, type ReplayInput, type ReplayStats } from './replay-market.js';
export { MAX_REPLAY_FILE_BYTES, loadReplayFiles, replayFromTexts, type LoadOptions, type LoadedReplay, type ReplayFiles, type ReplayTexts } from './replay-load.js';
export { buildReplayTimeline, type ReplayTimeline, type TimelineOptions, type TimelineStats } from './replay-timeline.js';
export { readWsCapture } from './replay-ws-reader.js';
export { readHttpCapture } from './replay-http-reader.js';
export type { ReplayEvent, ReplayOrderBookDelta, ReplaySnapshot, ReplayTicker, ReplayTrade } from './replay-events.js';
export { ReplayFormatError, type BadLinePolicy, type ReaderOptions } from './replay-error.js';
export { RecordedBook } from './recorded-book.js';
export {
  CAPTURE_2021_MARKETS,
  marketsFromRecordedList,
  marketsFromRecordedText,
  type RecordedListOptions,
  type RecordedMarkets,
} from './recorded-markets.js';
