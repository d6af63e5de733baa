/**
 * Markets and currencies for a replay configuration, built from a recorded `GET /v3/markets` response (line 1
 * of cryptofeed's `BITTREX.0`: `<url> -> <ts>: <json array>`). The capture's markets (BTC-EUR, DAWN-BTC, ...)
 * are not in the default configuration, so a replay config takes their exact minTradeSize, precision and
 * createdAt from here. The /markets resource says nothing about currencies, so their entries reuse the default
 * configuration's entry when there is one and are otherwise generic (documented below).
 */
import { dec } from '../../core/decimal.js';
import { arrayOf, decode } from '../../model/decode.js';
import { decodeMarket, type Market } from '../../model/market.js';
import { ConfigFileError, readConfigText } from '../../runtime/config/config-file.js';
import { type CurrencyConfig, type MarketConfig, defaultSimConfig } from '../config.js';
import { type LineRef, ReplayFormatError } from './replay-error.js';

/** The markets whose books the 2021 capture (shared/data/bittrex-v3-ws-2021) recorded. */
export const CAPTURE_2021_MARKETS: readonly string[] = [
  'BTC-EUR',
  'DAWN-BTC',
  'KSM-USDT',
  'REPV2-ETH',
  'SUKU-BTC',
  'SOLVE-USD',
  'CRV-ETH',
  'FTC-BTC',
];

/**
 * The largest recorded-markets file read (it is read whole, though only line 1 is used): far above any real one —
 * Bittrex's whole GET /v3/markets response, ~800 markets, is ~200 KB, and the capture's BITTREX.0 holding it 225 KB —
 * yet small enough that a wrong file (a multi-GB capture named by mistake) is refused instead of read into memory.
 */
export const MAX_RECORDED_MARKETS_BYTES = 64 * 2 ** 20;

/** Options of {@link marketsFromRecordedList}. */
export interface RecordedListOptions {
  /** The config field that named the file (`exchange.recordedMarkets.file`), said first in a read error. */
  field?: string;
  /** Keep only these markets (case-insensitive); every recorded market by default. Unknown symbols throw. */
  symbols?: readonly string[];
  /** Known currencies to reuse (by symbol); the default configuration's by default. */
  knownCurrencies?: readonly CurrencyConfig[];
}

/** What {@link marketsFromRecordedList} returns: markets plus every currency they use. */
export interface RecordedMarkets {
  markets: MarketConfig[];
  currencies: CurrencyConfig[];
}

/** Fiat currencies of the period, which had no blockchain and so no confirmations or network fee. */
const FIAT = new Set(['USD', 'EUR']);

/**
 * Parse the text of a `BITTREX.0`-style file (only line 1 is read). `file` names it in errors.
 *
 * @example
 * const { markets, currencies } = marketsFromRecordedText(text, 'BITTREX.0', { symbols: CAPTURE_2021_MARKETS });
 */
export function marketsFromRecordedText(text: string, file: string, opts: RecordedListOptions = {}): RecordedMarkets {
  const nl = text.indexOf('\n');
  const line = nl < 0 ? text : text.slice(0, nl);
  const ref: LineRef = { file, line: 1 };
  const m = /^(\S+) -> \d+(?:\.\d+)?: (.*)$/s.exec(line.replace(/\r$/, ''));
  if (!m) throw new ReplayFormatError(ref, 'is not "<url> -> <ts>: <json>"');
  if (!/\/v3\/markets$/.test(new URL(m[1] as string).pathname)) {
    throw new ReplayFormatError(ref, `is a response of ${m[1]}, not of GET /v3/markets`, { withoutText: 'is not a response of GET /v3/markets' });
  }
  let body: unknown;
  try {
    body = JSON.parse(m[2] as string);
  } catch (err) {
    throw new ReplayFormatError(ref, `body is not JSON: ${(err as Error).message}`, { withoutText: 'body is not JSON' });
  }
  let recorded: Market[];
  try {
    recorded = decode(arrayOf(decodeMarket), body, 'GET /v3/markets');
  } catch (err) {
    throw new ReplayFormatError(ref, (err as Error).message, { cause: err, withoutText: 'body is not a market list' });
  }

  const bySymbol = new Map(recorded.map((r) => [r.symbol.toUpperCase(), r]));
  let chosen: Market[];
  if (opts.symbols) {
    chosen = opts.symbols.map((s) => {
      const r = bySymbol.get(s.toUpperCase());
      if (!r) throw new ReplayFormatError(ref, `lists no market ${s}`);
      return r;
    });
  } else chosen = recorded;

  const markets = chosen.map(toMarketConfig);
  const known = new Map((opts.knownCurrencies ?? defaultSimConfig().currencies).map((c) => [c.symbol, c]));
  const symbols = [...new Set(markets.flatMap((mk) => [mk.baseCurrencySymbol, mk.quoteCurrencySymbol]))].sort();
  const currencies = symbols.map((s) => ({ ...(known.get(s) ?? genericCurrency(s)) }));
  return { markets, currencies };
}

/**
 * Read a `BITTREX.0`-style file and build market and currency entries (see {@link marketsFromRecordedText}).
 * Reading the file is this module's only I/O; the rest of the simulator never touches the file system.
 *
 * @example
 * const rec = marketsFromRecordedList('shared/data/bittrex-v3-ws-2021/BITTREX.0', { symbols: ['BTC-EUR'] });
 * const config = defaultSimConfig({ markets: [...base.markets, ...rec.markets], currencies: merge(base.currencies, rec.currencies) });
 */
export function marketsFromRecordedList(file: string, opts: RecordedListOptions = {}): RecordedMarkets {
  // Synchronous on purpose: it runs once while a configuration is assembled, before anything is started. Read as a
  // config is (a regular file, opened without blocking, capped): a FIFO named here held `rexbot sim` for good.
  let text: string;
  try {
    text = readConfigText(file, MAX_RECORDED_MARKETS_BYTES, 'a recorded-markets file');
  } catch (err) {
    throw new ConfigFileError(`${opts.field ? `${opts.field}: ` : ''}${file}: cannot read file: ${(err as Error).message}`, { cause: err });
  }
  return marketsFromRecordedText(text, file, opts);
}

function toMarketConfig(r: Market): MarketConfig {
  const out: MarketConfig = {
    symbol: r.symbol,
    baseCurrencySymbol: r.baseCurrencySymbol,
    quoteCurrencySymbol: r.quoteCurrencySymbol,
    minTradeSize: r.minTradeSize,
    precision: r.precision,
    status: r.status,
    createdAt: r.createdAt,
    prohibitedIn: [...(r.prohibitedIn ?? [])],
    tags: [...(r.tags ?? [])],
  };
  if (r.notice !== undefined) out.notice = r.notice;
  return out;
}

/**
 * A currency the default configuration does not know. Fiat (USD, EUR) gets no confirmations and no fee; anything
 * else is treated as an ERC-20-style token (36 confirmations, the period's typical ETH_CONTRACT setting) with a
 * token-unit network fee of 1, since the capture records neither.
 */
function genericCurrency(symbol: string): CurrencyConfig {
  if (FIAT.has(symbol)) {
    return { symbol, name: symbol, coinType: 'FIAT', status: 'ONLINE', minConfirmations: 0, txFee: dec('0') };
  }
  return { symbol, name: symbol, coinType: 'ETH_CONTRACT', status: 'ONLINE', minConfirmations: 36, txFee: dec('1') };
}
