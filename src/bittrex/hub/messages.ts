/**
 * Typed v3 stream messages (seed section 6, streams table) and their decoders.
 *
 * A message arrives as hub method `name` with one argument, the payload, already inflated by the codec.
 * {@link decodeStreamMessage} turns it into a {@link StreamMessage}: exact decimals, dates and enums, with a
 * {@link WireFormatError} naming the stream and the field for anything malformed. Object schemas are the REST
 * resources, so the src/model decoders do the field work; this file adds the envelopes.
 */
import { WireFormatError } from '../../core/errors.js';
import type { Decimal } from '../../core/decimal.js';
import {
  arrayOf,
  CANDLE_INTERVALS,
  CANDLE_TYPES,
  decodeBalance,
  decodeCandle,
  decodeConditionalOrder,
  decodeDeposit,
  decodeExecution,
  decodeMarketSummary,
  decodeOrder,
  decodeTicker,
  decodeTrade,
  id,
  int,
  object,
  oneOf,
  str,
  type Balance,
  type Candle,
  type CandleInterval,
  type CandleType,
  type ConditionalOrder,
  type Decoder,
  type Deposit,
  type Execution,
  type MarketSummary,
  type Order,
  type OrderBookDepth,
  type OrderBookEntry,
  type Ticker,
  type Trade,
} from '../../model/index.js';
import { MAX_AMOUNT_EXPONENT, dec as decimal } from '../../model/decode.js';
import { parseDecimal } from '../../core/decimal.js';

/** `orderBook`: deltas of one (market, depth) book. Quantity 0 removes the level. */
export interface OrderBookMessage {
  marketSymbol: string;
  depth: OrderBookDepth;
  sequence: number;
  bidDeltas: OrderBookEntry[];
  askDeltas: OrderBookEntry[];
}
/** `tickers`: changed tickers of all markets. */
export interface TickersMessage {
  sequence: number;
  deltas: Ticker[];
}
/** `trade`: new trades of one market. */
export interface TradeMessage {
  sequence: number;
  marketSymbol: string;
  deltas: Trade[];
}
/** `candle`: the current candle of one (market, interval), sent at its start and on every trade. */
export interface CandleMessage {
  sequence: number;
  marketSymbol: string;
  interval: CandleInterval;
  delta: Candle;
  /** Present on the real service (`TRADE`); not in the seed's table. */
  candleType?: CandleType;
}
/** `marketSummaries`: changed summaries of all markets. */
export interface MarketSummariesMessage {
  sequence: number;
  deltas: MarketSummary[];
}
/** `balance`: one balance of account `accountId` (sequence per account). */
export interface BalanceMessage {
  accountId: string;
  sequence: number;
  delta: Balance;
}
/** `order`: full state of one order. */
export interface OrderMessage {
  accountId: string;
  sequence: number;
  delta: Order;
}
/** `conditionalOrder`: full state of one conditional order. */
export interface ConditionalOrderMessage {
  accountId: string;
  sequence: number;
  delta: ConditionalOrder;
}
/** `deposit`: full state of one deposit. */
export interface DepositMessage {
  accountId: string;
  sequence: number;
  delta: Deposit;
}
/** `execution`: new fills of the account's orders. */
export interface ExecutionMessage {
  accountId: string;
  sequence: number;
  deltas: Execution[];
}

/** Every stream message, keyed by its message (hub method) name. */
export type StreamMessage =
  | { name: 'orderBook'; data: OrderBookMessage }
  | { name: 'ticker'; data: Ticker }
  | { name: 'tickers'; data: TickersMessage }
  | { name: 'trade'; data: TradeMessage }
  | { name: 'candle'; data: CandleMessage }
  | { name: 'marketSummary'; data: MarketSummary }
  | { name: 'marketSummaries'; data: MarketSummariesMessage }
  | { name: 'balance'; data: BalanceMessage }
  | { name: 'order'; data: OrderMessage }
  | { name: 'conditionalOrder'; data: ConditionalOrderMessage }
  | { name: 'deposit'; data: DepositMessage }
  | { name: 'execution'; data: ExecutionMessage }
  | { name: 'heartbeat'; data: undefined }
  /** The seed does not show this payload's schema, so it is passed through as sent. */
  | { name: 'authenticationExpiring'; data: unknown };

/** A stream message name. */
export type StreamMessageName = StreamMessage['name'];
/** The payload type of message `N`. */
export type StreamMessageData<N extends StreamMessageName> = Extract<StreamMessage, { name: N }>['data'];

/** A sequenced stream message name (everything the rule-4 synchronizer handles). */
export type SequencedMessageName =
  | 'orderBook'
  | 'tickers'
  | 'trade'
  | 'candle'
  | 'marketSummaries'
  | 'balance'
  | 'order'
  | 'conditionalOrder'
  | 'deposit'
  | 'execution';

/** The error of the book-level field at `path` out of range, its value cut short (it may be hundreds of digits). */
function outOfRange(where: string, path: string, value: Decimal): WireFormatError {
  const text = String(value);
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return new WireFormatError(where, path, { reason: 'is out of range', text: `is out of range: ${shown}` });
}

/**
 * A book level from a stream: quantity must be ≥ 0 (0 = remove) and rate > 0, both within the decoders' range
 * ({@link MAX_AMOUNT_EXPONENT}, as `amountProblem`: a rate of `1e400` crossed every book). Rejected here, at the
 * edge, so a book never has to undo half a delta list.
 */
const bookDelta: Decoder<OrderBookEntry> = (v, path, where) => {
  const e = object<{ quantity: Decimal; rate: Decimal }>({ quantity: decimal, rate: decimal }, {})(v, path, where);
  if (e.quantity.isNegative()) throw new WireFormatError(where, `${path}.quantity`, { reason: 'is negative', text: `is negative: ${e.quantity}` });
  if (!e.rate.isPositive() || e.rate.isZero()) throw new WireFormatError(where, `${path}.rate`, { reason: 'is not positive', text: `is not positive: ${e.rate}` });
  if (e.rate.e > MAX_AMOUNT_EXPONENT) throw outOfRange(where, `${path}.rate`, e.rate);
  if (e.quantity.e > MAX_AMOUNT_EXPONENT) throw outOfRange(where, `${path}.quantity`, e.quantity);
  return e;
};

const depth: Decoder<OrderBookDepth> = (v, path, where) => {
  const n = int(v, path, where);
  if (n !== 1 && n !== 25 && n !== 500) throw new WireFormatError(where, path, { reason: 'is not 1, 25 or 500', text: `is not 1, 25 or 500: ${n}` });
  return n;
};

const sequence: Decoder<number> = (v, path, where) => {
  const n = int(v, path, where);
  if (n < 0) throw new WireFormatError(where, path, { reason: 'is negative', text: `is negative: ${n}` });
  return n;
};

/** The general orderBook decoder: the reference for what is accepted, and the author of every error message. */
const orderBookChecked = object<OrderBookMessage>(
  { marketSymbol: str, depth, sequence, bidDeltas: arrayOf(bookDelta), askDeltas: arrayOf(bookDelta) },
  {},
);

/** decimal.js's documented sign field (`s`: 1 or -1; both for zero). */
const signOf = (d: Decimal): number => (d as unknown as { s: number }).s;

/** A well-formed book level as the service sends it, or undefined for anything the fast path does not vouch for. */
function plainLevel(v: unknown): OrderBookEntry | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const level = v as { quantity?: unknown; rate?: unknown };
  const quantity = parseDecimal(level.quantity);
  const rate = parseDecimal(level.rate);
  if (quantity === undefined || rate === undefined) return undefined;
  // Same acceptance as bookDelta: quantity not negative (decimal.js calls -0 negative), rate above zero, both in
  // range (the exponent is a field of the parsed value: one comparison each, nothing built).
  if (signOf(quantity) < 0 || signOf(rate) < 0 || rate.isZero()) return undefined;
  if (quantity.e > MAX_AMOUNT_EXPONENT || rate.e > MAX_AMOUNT_EXPONENT) return undefined;
  return { quantity, rate };
}

function plainLevels(v: unknown): OrderBookEntry[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out = new Array<OrderBookEntry>(v.length);
  for (let i = 0; i < v.length; i++) {
    const level = plainLevel(v[i]);
    if (level === undefined) return undefined;
    out[i] = level;
  }
  return out;
}

/**
 * The orderBook decoder. Every message of the hottest stream used to go through the general object()/arrayOf()
 * machinery, which builds a field path string per level and field whether or not anything is wrong. The fast
 * path below accepts only what {@link orderBookChecked} accepts (a plain object, depth and sequence as JSON
 * numbers, every level valid) and builds the same values; for anything else it hands the payload to
 * orderBookChecked, which decodes the unusual-but-valid (e.g. a quoted sequence) and words every error.
 */
const orderBookMessage: Decoder<OrderBookMessage> = (v, path, where) => {
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const m = v as Record<string, unknown>;
    const { marketSymbol, depth: d, sequence: seq } = m;
    if (
      typeof marketSymbol === 'string' &&
      (d === 25 || d === 500 || d === 1) &&
      typeof seq === 'number' &&
      Number.isSafeInteger(seq) &&
      seq >= 0
    ) {
      const bidDeltas = plainLevels(m.bidDeltas);
      const askDeltas = bidDeltas && plainLevels(m.askDeltas);
      if (askDeltas !== undefined) return { marketSymbol, depth: d, sequence: seq, bidDeltas: bidDeltas!, askDeltas };
    }
  }
  return orderBookChecked(v, path, where);
};

const DECODERS: { [N in StreamMessageName]: Decoder<StreamMessageData<N>> } = {
  orderBook: orderBookMessage,
  ticker: decodeTicker,
  tickers: object<TickersMessage>({ sequence, deltas: arrayOf(decodeTicker) }, {}),
  trade: object<TradeMessage>({ sequence, marketSymbol: str, deltas: arrayOf(decodeTrade) }, {}),
  candle: object<CandleMessage>(
    { sequence, marketSymbol: str, interval: oneOf(CANDLE_INTERVALS), delta: decodeCandle },
    { candleType: oneOf(CANDLE_TYPES) },
  ),
  marketSummary: decodeMarketSummary,
  marketSummaries: object<MarketSummariesMessage>({ sequence, deltas: arrayOf(decodeMarketSummary) }, {}),
  balance: object<BalanceMessage>({ accountId: id, sequence, delta: decodeBalance }, {}),
  order: object<OrderMessage>({ accountId: id, sequence, delta: decodeOrder }, {}),
  conditionalOrder: object<ConditionalOrderMessage>({ accountId: id, sequence, delta: decodeConditionalOrder }, {}),
  deposit: object<DepositMessage>({ accountId: id, sequence, delta: decodeDeposit }, {}),
  execution: object<ExecutionMessage>({ accountId: id, sequence, deltas: arrayOf(decodeExecution) }, {}),
  heartbeat: () => undefined,
  authenticationExpiring: (v) => v,
};

/** Lower-cased name -> canonical name, because method names arrive in any case. */
const CANONICAL = new Map<string, StreamMessageName>(
  (Object.keys(DECODERS) as StreamMessageName[]).map((n) => [n.toLowerCase(), n]),
);
/** Canonical names themselves, looked up first: the service sends them so, and lower-casing allocates a string. */
const EXACT = new Map<string, StreamMessageName>((Object.keys(DECODERS) as StreamMessageName[]).map((n) => [n, n]));

/** The canonical message name for `name` in any case, or undefined when it names no stream message. */
export function streamMessageName(name: string): StreamMessageName | undefined {
  return EXACT.get(name) ?? CANONICAL.get(name.toLowerCase());
}

/**
 * Decode one stream message. `name` is the hub method (any case); `payload` the inflated JSON (undefined for
 * heartbeat). Throws {@link WireFormatError} whose `where` is `stream <name>` and whose `path` names the field.
 *
 * @example
 * const msg = decodeStreamMessage('orderBook', decodePayload(args[0]));
 * if (msg.name === 'orderBook') console.log(msg.data.sequence, msg.data.bidDeltas.length);
 */
export function decodeStreamMessage(name: string, payload: unknown): StreamMessage {
  const canonical = streamMessageName(name);
  if (canonical === undefined) throw new WireFormatError(`stream ${name}`, '', 'is not a known stream message');
  const decoder = DECODERS[canonical] as Decoder<unknown>;
  return { name: canonical, data: decoder(payload, '', `stream ${canonical}`) } as StreamMessage;
}

/** The sequence number of a sequenced message, or undefined for ticker, marketSummary, heartbeat, ... */
export function sequenceOf(message: StreamMessage): number | undefined {
  const d = message.data as { sequence?: unknown } | undefined;
  return d !== null && typeof d === 'object' && typeof d.sequence === 'number' ? d.sequence : undefined;
}

// Channel (subscription) names live in channels.ts; re-exported so existing imports keep working.
export * from './channels.js';
