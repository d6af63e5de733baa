/**
 * Reader of Tardis-style CSV tick data (format name `tardis`): the `incremental_book_L2` and `trades` files of
 * docs.tardis.dev "Downloadable CSV files", plain or gzipped. Which of the two a file is, its header says.
 *
 * **Format**: comma-separated, LF lines, a header line naming the columns (any order), times in microseconds since
 * epoch (UTC), decimals with a dot.
 *
 *     exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount        incremental_book_L2
 *     bittrex,BTC-USD,1623635619189000,1623635619189000,true,bid,32414.617,0.0509253
 *     exchange,symbol,timestamp,local_timestamp,id,side,price,amount                  trades
 *     bittrex,BTC-USD,1623635620001000,1623635620050000,8f1c…,buy,32420.1,0.002
 *
 * **Book rows → events**: a run of consecutive `is_snapshot=true` rows of one market is one `snapshot` (the start
 * of each file, and again after the exchange connection was restarted: the book is replaced whole); zero-amount
 * snapshot rows are absent levels. Other rows are grouped into one `orderBookDelta` per run of consecutive rows
 * with the same symbol and `local_timestamp` (Tardis: one exchange message), `amount` being the new quantity at
 * `price` (0 removes the level), `side` `bid` or `ask`. Rows before a market's first snapshot are counted as
 * ignored `before-snapshot` (Tardis: buffered updates to skip).
 *
 * **Sequences** (Tardis has none; the sync code needs them): per market a counter starting at 1 numbers every
 * book event in file order, so a snapshot carries sequence N and the deltas after it N+1, N+2, … contiguously; a
 * new snapshot takes the next number, and rule-4 sync drops nothing wrongly and sees no gap. Trades: per market
 * the trade events are numbered 1, 2, … (a stream whose snapshot would be sequence 0).
 *
 * **Trade rows → events**: consecutive rows with the same symbol and `local_timestamp` form one `trade` event;
 * `side` is the taker side (`buy` → BUY, `sell` → SELL; `unknown` rows are counted as ignored `unknown-side`:
 * a fill model needs the aggressor), `executedAt` the exchange `timestamp`, `id` the trade id (or
 * `<local_timestamp>-<line>` when empty).
 *
 * **Time**: events are stamped (`at`) with `local_timestamp` (when the data arrived, as live) rounded to ms; param
 * `time: exchange` uses `timestamp` instead.
 *
 * **Symbols**: Tardis keeps each exchange's own symbols. `BTC-USD`, `BTC/USD`, `btc_usd` become `BTC-USD`;
 * concatenated ones (`BTCUSDT`) are split at a known quote currency suffix (param `quotes`, default USDT, USDC,
 * BUSD, TUSD, USD, EUR, GBP, BTC, ETH). Param `symbols` maps exact exchange symbols to v3 ones
 * (`{ XBTUSD: BTC-USD }`) and wins; param `market` puts every row of the file in one market. An unmappable symbol
 * fails the file (a config problem, not a bad line).
 *
 * **Errors**: a missing header column fails the file; a row with the wrong field count, a bad number, side or
 * is_snapshot value, a negative amount, or a price or amount out of range (more than 31 digits before the point)
 * is a {@link ReplayFormatError} `file:line`, failed or skipped per `onBadLine` (a skipped row is left out of its
 * group; the rest of the group stands).
 *
 * **Params**: `market`, `symbols`, `quotes`, `time` (`local` | `exchange`), `depth` (the depth the deltas claim,
 * default 500: the data is as deep as the exchange sent it).
 */
import { type Decimal, parsePlainDecimal } from '../../src/core/decimal.js';
import { MAX_AMOUNT_EXPONENT } from '../../src/model/decode.js';
import type { OrderBookEntry, Trade } from '../../src/model/market.js';
import { type LineRef, ReplayFormatError } from '../../src/sim/driver/replay-error.js';
import { decimalField, integerField, microsToMs, splitCsvLine, splitSymbol } from './csv.js';
import { type LineParser, type ParseSink, UnreadableFileError, lineReader } from './line-reader.js';
import { ReaderParams } from './params.js';
import type { MarketDataReader, ReaderFactory, ReaderOpenOptions } from './reader.js';

const BOOK_COLUMNS = ['exchange', 'symbol', 'timestamp', 'local_timestamp', 'is_snapshot', 'side', 'price', 'amount'] as const;
const TRADE_COLUMNS = ['exchange', 'symbol', 'timestamp', 'local_timestamp', 'id', 'side', 'price', 'amount'] as const;
const DEFAULT_QUOTES = ['USDT', 'USDC', 'BUSD', 'TUSD', 'USD', 'EUR', 'GBP', 'BTC', 'ETH'];

interface TardisSettings {
  market: string | undefined;
  symbols: Record<string, string>;
  quotes: string[];
  exchangeTime: boolean;
  depth: number;
}

/**
 * Open a Tardis CSV file (`incremental_book_L2` or `trades`).
 *
 * @example
 * openTardisCsv('bittrex_incremental_book_L2_2021-06-14_BTC-USD.csv.gz', { params: { time: 'local' } });
 */
export const openTardisCsv: ReaderFactory = (path: string, opts: ReaderOpenOptions): MarketDataReader => {
  const p = new ReaderParams('tardis', opts.params, ['market', 'symbols', 'quotes', 'time', 'depth']);
  const settings: TardisSettings = {
    market: p.string('market')?.toUpperCase(),
    symbols: p.stringMap('symbols') ?? {},
    quotes: (p.stringList('quotes') ?? DEFAULT_QUOTES).map((q) => q.toUpperCase()).sort((a, b) => b.length - a.length),
    exchangeTime: p.oneOf('time', ['local', 'exchange'], 'local') === 'exchange',
    depth: p.positiveInt('depth', 500),
  };
  return lineReader(path, opts, () => new TardisParser(settings));
};

/** Rows being grouped into one event. */
interface Group {
  kind: 'snapshot' | 'delta' | 'trade';
  market: string;
  localTs: number;
  at: number;
  source: LineRef;
  bids: OrderBookEntry[];
  asks: OrderBookEntry[];
  trades: Trade[];
}

class TardisParser implements LineParser {
  readonly #s: TardisSettings;
  #kind: 'book' | 'trades' | undefined;
  #col: Record<string, number> = {};
  #width = 0;
  #group: Group | undefined;
  /** Per market: the last sequence given (book or trade counter). */
  readonly #seq = new Map<string, number>();
  readonly #symbolCache = new Map<string, string>();
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  #lastSymbol: string | undefined;
  #lastMarket = '';

  constructor(settings: TardisSettings) {
    this.#s = settings;
  }

  line(text: string, ref: LineRef, out: ParseSink): void {
    if (this.#kind === undefined) return this.#header(text, ref);
    // Field boundaries without splitting (no string per field): starts[i]..ends[i] is column i.
    const starts = this.#starts;
    const ends = this.#ends;
    if (text.includes('"')) {
      this.#quoted(text, ref, out);
      return;
    }
    let n = 0;
    let from = 0;
    for (let comma = text.indexOf(','); ; comma = text.indexOf(',', from)) {
      if (n >= this.#width) throw new ReplayFormatError(ref, `has more than ${this.#width} fields, the header ${this.#width}`);
      starts[n] = from;
      ends[n] = comma < 0 ? text.length : comma;
      n++;
      if (comma < 0) break;
      from = comma + 1;
    }
    this.#row(text, n, ref, out);
  }

  /** A row with quoted fields (Tardis writes none, but a re-saved file may): split, then read as usual. */
  #quoted(text: string, ref: LineRef, out: ParseSink): void {
    const fields = splitCsvLine(text, ',', ref);
    const joined = fields.join(',');
    if (fields.some((f) => f.includes(','))) throw new ReplayFormatError(ref, 'has a comma inside a quoted field');
    let from = 0;
    fields.forEach((f, i) => {
      this.#starts[i] = from;
      this.#ends[i] = from + f.length;
      from += f.length + 1;
    });
    this.#row(joined, fields.length, ref, out);
  }

  #row(text: string, fields: number, ref: LineRef, out: ParseSink): void {
    if (fields !== this.#width) throw new ReplayFormatError(ref, `has ${fields} fields, the header ${this.#width}`);
    const c = this.#col;
    const starts = this.#starts;
    const ends = this.#ends;
    const market = this.#marketAt(text, starts[c.symbol!]!, ends[c.symbol!]!, ref);
    const localTs = integerAt(text, starts[c.local_timestamp!]!, ends[c.local_timestamp!]!) ?? integerField(this.#field(text, c.local_timestamp!), 'local_timestamp', ref);
    const ts = integerAt(text, starts[c.timestamp!]!, ends[c.timestamp!]!) ?? integerField(this.#field(text, c.timestamp!), 'timestamp', ref);
    const rate = parsePlainDecimal(text, starts[c.price!]!, ends[c.price!]!) ?? decimalField(this.#field(text, c.price!), 'price', ref);
    const quantity = parsePlainDecimal(text, starts[c.amount!]!, ends[c.amount!]!) ?? decimalField(this.#field(text, c.amount!), 'amount', ref);
    if (quantity.isNegative()) throw new ReplayFormatError(ref, `amount is negative: ${this.#field(text, c.amount!)}`, { withoutText: 'amount is negative' });
    // As the rexbot reader: a level or trade at a price of zero or below is no market (it crossed every book).
    if (!rate.isPositive() || rate.isZero()) throw new ReplayFormatError(ref, `price is not positive: ${this.#field(text, c.price!)}`, { withoutText: 'price is not positive' });
    // The decoders' range (MAX_AMOUNT_EXPONENT, src/model/decode.ts): a price of 1e400 or a 400-digit amount is no
    // market's. `e` is a field of the parsed value: no work per value.
    if (rate.e > MAX_AMOUNT_EXPONENT) throw outOfRange('price', this.#field(text, c.price!), ref);
    if (quantity.e > MAX_AMOUNT_EXPONENT) throw outOfRange('amount', this.#field(text, c.amount!), ref);
    const side = this.#field(text, c.side!);
    const at = microsToMs(this.#s.exchangeTime ? ts : localTs);
    if (this.#kind === 'book') this.#bookRow(this.#field(text, c.is_snapshot!), side, market, localTs, at, rate, quantity, ref, out);
    else this.#tradeRow(this.#field(text, c.id!), side, market, localTs, ts, at, rate, quantity, ref, out);
  }

  #field(text: string, i: number): string {
    return text.slice(this.#starts[i], this.#ends[i]);
  }

  /** The market of the symbol in text[start, end), the last one answered without cutting a string. */
  #marketAt(text: string, start: number, end: number, ref: LineRef): string {
    const last = this.#lastSymbol;
    if (last !== undefined && end - start === last.length && text.startsWith(last, start)) return this.#lastMarket;
    const symbol = text.slice(start, end);
    const market = this.#market(symbol, ref);
    this.#lastSymbol = symbol;
    this.#lastMarket = market;
    return market;
  }

  end(out: ParseSink): void {
    this.#flush(out);
  }

  #header(text: string, ref: LineRef): void {
    const names = splitCsvLine(text, ',', ref).map((n) => n.trim().toLowerCase());
    const kind = names.includes('is_snapshot') ? 'book' : names.includes('id') ? 'trades' : undefined;
    if (!kind) throw new UnreadableFileError(ref, `is not a Tardis incremental_book_L2 or trades header: ${text.slice(0, 120)}`, { withoutText: 'is not a Tardis incremental_book_L2 or trades header' });
    const required = kind === 'book' ? BOOK_COLUMNS : TRADE_COLUMNS;
    const missing = required.filter((r) => r !== 'exchange' && !names.includes(r));
    if (missing.length > 0) throw new UnreadableFileError(ref, `header lacks column(s) ${missing.join(', ')}`);
    // Two columns of one name: which one holds the price is a guess (the last one won, silently).
    const twice = names.find((n, i) => n !== '' && names.indexOf(n) !== i);
    if (twice !== undefined) throw new UnreadableFileError(ref, `header names column ${twice} twice`, { withoutText: 'header names a column twice' });
    this.#col = Object.fromEntries(names.map((n, i) => [n, i]));
    this.#width = names.length;
    this.#kind = kind;
  }

  #market(symbol: string, ref: LineRef): string {
    if (this.#s.market) return this.#s.market;
    const cached = this.#symbolCache.get(symbol);
    if (cached) return cached;
    const mapped = this.#s.symbols[symbol] ?? splitSymbol(symbol) ?? this.#bySuffix(symbol);
    if (!mapped) {
      throw new UnreadableFileError(ref, `symbol ${JSON.stringify(symbol)} has no BASE-QUOTE form; map it with params.symbols (e.g. { ${symbol}: BTC-USD }) or params.market`, {
        withoutText: 'a symbol has no BASE-QUOTE form; map it with params.symbols or params.market',
      });
    }
    this.#symbolCache.set(symbol, mapped.toUpperCase());
    return mapped.toUpperCase();
  }

  #bySuffix(symbol: string): string | undefined {
    const s = symbol.toUpperCase();
    const quote = this.#s.quotes.find((q) => s.length > q.length && s.endsWith(q));
    return quote ? `${s.slice(0, -quote.length)}-${quote}` : undefined;
  }

  #bookRow(snapText: string, side: string, market: string, localTs: number, at: number, rate: Decimal, quantity: Decimal, ref: LineRef, out: ParseSink): void {
    const snapshot = snapText === 'true' ? true : snapText === 'false' ? false : undefined;
    if (snapshot === undefined) throw new ReplayFormatError(ref, `is_snapshot is not true or false: ${JSON.stringify(snapText)}`, { withoutText: 'is_snapshot is not true or false' });
    if (side !== 'bid' && side !== 'ask') throw new ReplayFormatError(ref, `side is not bid or ask: ${JSON.stringify(side)}`, { withoutText: 'side is not bid or ask' });
    // The row is valid: from here on it is applied.
    const kind = snapshot ? 'snapshot' : 'delta';
    let g = this.#group;
    const sameGroup = g !== undefined && g.market === market && g.kind === kind && (snapshot || g.localTs === localTs);
    if (!sameGroup) {
      this.#flush(out);
      if (!snapshot && !this.#seq.has(market)) return out.ignore('before-snapshot');
      g = this.#group = { kind, market, localTs, at, source: ref, bids: [], asks: [], trades: [] };
    }
    if (snapshot && quantity.isZero()) return;
    (side === 'bid' ? g!.bids : g!.asks).push({ quantity, rate });
  }

  #tradeRow(id: string, side: string, market: string, localTs: number, ts: number, at: number, rate: Decimal, quantity: Decimal, ref: LineRef, out: ParseSink): void {
    const takerSide = side === 'buy' ? 'BUY' : side === 'sell' ? 'SELL' : undefined;
    if (takerSide === undefined) {
      if (side === 'unknown') return out.ignore('unknown-side');
      throw new ReplayFormatError(ref, `side is not buy, sell or unknown: ${JSON.stringify(side)}`, { withoutText: 'side is not buy, sell or unknown' });
    }
    const g = this.#group;
    if (!(g !== undefined && g.market === market && g.localTs === localTs)) {
      this.#flush(out);
      this.#group = { kind: 'trade', market, localTs, at, source: ref, bids: [], asks: [], trades: [] };
    }
    this.#group!.trades.push({ id: id.length > 0 ? id : `${localTs}-${ref.line}`, executedAt: new Date(microsToMs(ts)), quantity, rate, takerSide });
  }

  #flush(out: ParseSink): void {
    const g = this.#group;
    if (!g) return;
    this.#group = undefined;
    const sequence = (this.#seq.get(g.market) ?? 0) + 1;
    this.#seq.set(g.market, sequence);
    if (g.kind === 'trade') {
      out.event({ kind: 'trade', at: g.at, marketSymbol: g.market, sequence, trades: g.trades, source: g.source });
    } else if (g.kind === 'snapshot') {
      out.event({ kind: 'snapshot', at: g.at, marketSymbol: g.market, sequence, depth: this.#s.depth, bid: sortLevels(g.bids, -1), ask: sortLevels(g.asks, 1), source: g.source });
    } else {
      out.event({ kind: 'orderBookDelta', at: g.at, marketSymbol: g.market, depth: this.#s.depth, sequence, bidDeltas: g.bids, askDeltas: g.asks, source: g.source });
    }
  }
}

/** The error of a `column` whose value `text` is out of range, the value cut short (it may be hundreds of digits). */
function outOfRange(column: string, text: string, ref: LineRef): ReplayFormatError {
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return new ReplayFormatError(ref, `${column} is out of range: ${shown}`, { withoutText: `${column} is out of range` });
}

/** The non-negative integer written in text[start, end) (at most 16 digits), or undefined. */
function integerAt(text: string, start: number, end: number): number | undefined {
  if (end <= start || end - start > 16) return undefined;
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
    n = n * 10 + (c - 48);
  }
  return n;
}

/** Snapshot levels best first (bids descending, asks ascending), a price listed twice keeping its last amount. */
function sortLevels(levels: OrderBookEntry[], dir: 1 | -1): OrderBookEntry[] {
  const byRate = new Map<string, OrderBookEntry>();
  for (const l of levels) byRate.set(l.rate.toFixed(), l);
  return [...byRate.values()].sort((a, b) => dir * a.rate.comparedTo(b.rate));
}
