/**
 * The order journal's record types and their JSON-line form.
 *
 * A record is written as one JSON object per line, with decimals as plain strings (never floats) and request
 * bodies exactly as sent, so that a restarted bot can tell what it asked the exchange for and look each request
 * up by its client id. Records are decoded with the model's wire decoders on replay: a malformed field is an
 * error naming the field, which the journal turns into an error naming the file and line.
 */
import type { Decimal } from '../core/decimal.js';
import { toWireJson } from '../model/encode.js';
import { decodeNewConditionalOrder, type NewConditionalOrder } from '../model/conditional-order.js';
import { arrayOf, bool, date, dec, id, int, object, oneOf, str, type Decoder } from '../model/decode.js';
import { WireFormatError } from '../core/errors.js';
import { ORDER_DIRECTIONS } from '../model/enums.js';
import { decodeNewOrder, type NewOrder } from '../model/order.js';
import type { EquityCurveState } from '../portfolio/equity-curve.js';
import type { PositionSnapshot } from '../portfolio/position.js';
import type { RiskLimitState } from '../risk/risk-engine.js';

/**
 * Why an order exists, so a restarted bot can resume what it was doing: a plain placement, a quote-ladder level,
 * a bracket's entry or one of its legs, a trailing stop, a target-position order.
 */
export const ORDER_ROLES = ['order', 'quote', 'entry', 'takeProfit', 'stopLoss', 'trailingStop', 'target'] as const;
/** See {@link ORDER_ROLES}. */
export type OrderRole = (typeof ORDER_ROLES)[number];

/** Take-profit and stop-loss trigger prices of a bracket entry, placed as an OCO pair once the entry has filled. */
export interface BracketLegs {
  takeProfit: Decimal;
  stopLoss: Decimal;
}

/** A fill as journaled: enough to rebuild positions and to never report the same execution twice. */
export interface FillRecord {
  t: 'fill';
  at: number;
  /** clientOrderId of the order (or clientConditionalOrderId of the conditional order that created it). */
  id: string;
  orderId: string;
  executionId: string;
  marketSymbol: string;
  direction: 'BUY' | 'SELL';
  quantity: Decimal;
  rate: Decimal;
  commission: Decimal;
  isTaker: boolean;
  executedAt: Date;
}

/**
 * What a compaction folded away (see journal-compaction.ts): the positions built from every fill before it (the
 * fills of finished orders are no longer in the file) and the newest fill, which reconciliation pages executions
 * from. Replaying it REPLACES the positions folded so far — the fills kept above it are already in them.
 */
export interface CheckpointRecord {
  t: 'checkpoint';
  at: number;
  positions: PositionSnapshot[];
  lastFill?: { executionId: string; executedAt: Date } | undefined;
}

/**
 * The equity curve's and the risk engine's limit state (day open, peaks, restriction), so that a restart carries
 * the daily-loss and drawdown limits on exactly as if the process had never stopped. Written by the kernel when
 * it changes (src/risk/limits-keeper.ts); the newest one counts, and compaction keeps it.
 */
export interface LimitsRecord {
  t: 'limits';
  at: number;
  curve: EquityCurveState;
  risk: RiskLimitState;
}

/** One line of the journal. `at` is the clock's epoch ms when it was written. */
export type JournalRecord =
  /** An order accepted for sending: written (fsynced) before its request leaves. */
  | {
      t: 'order';
      at: number;
      clientOrderId: string;
      strategy: string;
      intentKey: string;
      role: OrderRole;
      order: NewOrder;
      bracket?: BracketLegs | undefined;
    }
  /** A conditional order accepted for sending; `parent` is the bracket entry's clientOrderId for bracket legs. */
  | {
      t: 'conditional';
      at: number;
      clientConditionalOrderId: string;
      strategy: string;
      intentKey: string;
      role: OrderRole;
      order: NewConditionalOrder;
      parent?: string | undefined;
    }
  /** A POST /batch accepted for sending: its placements (each with its clientOrderId) and its cancels. */
  | {
      t: 'batch';
      at: number;
      batchId: string;
      strategy: string;
      intentKey: string;
      orders: { clientOrderId: string; order: NewOrder }[];
      cancels: string[];
    }
  /** A request (order, conditional order or batch, by its client id) left, for the `attempt`-th time. */
  | { t: 'sent'; at: number; id: string; attempt: number }
  /** The exchange acknowledged: `orderId` is its id for the order or conditional order. */
  | { t: 'ack'; at: number; id: string; orderId: string }
  /** The exchange refused the request: nothing was placed. */
  | { t: 'rejected'; at: number; id: string; code: string }
  /** A conditional order triggered and created order `orderId`. */
  | { t: 'triggered'; at: number; id: string; orderId: string }
  /**
   * Closed on the exchange (filled, cancelled, completed or failed): nothing left to follow. `filled` is the
   * order's fill quantity then, so a compaction can tell whether every fill of it is journaled (absent in
   * journals written before it existed, and for conditional orders that closed without creating an order).
   */
  | { t: 'closed'; at: number; id: string; filled?: Decimal | undefined }
  /** Declared lost: sent, never found on the exchange after repeated lookups. */
  | { t: 'lost'; at: number; id: string }
  /** A filled bracket entry's exit legs were dealt with (placed, denied or refused): never arm it again. */
  | { t: 'armed'; at: number; id: string }
  | FillRecord
  | CheckpointRecord
  | LimitsRecord;

/** A record's type tag. */
export type JournalRecordType = JournalRecord['t'];

/** Encode a record as one JSON line (without the newline). */
export function encodeRecord(record: JournalRecord): string {
  // toWireJson is JSON.stringify(toWire(record, 'plain')) written straight to text, without the copy.
  return toWireJson(record, 'plain');
}

const where = 'journal';

const positionSnapshot = object<PositionSnapshot>(
  {
    strategy: str,
    marketSymbol: str,
    quantity: dec,
    lots: arrayOf(object<{ quantity: Decimal; rate: Decimal }>({ quantity: dec, rate: dec }, {})),
    cost: dec,
    trading: dec,
    commission: dec,
    lastRate: dec,
  },
  {},
);
const curveState = object<EquityCurveState>({ at: int, equity: dec, peak: dec, maxDrawdown: dec, day: int, dayOpen: dec }, {});
const riskLimitState = object<RiskLimitState>(
  { peak: dec, day: int, state: oneOf(['ACTIVE', 'REDUCING', 'HALTED'] as const), reason: str },
  {
    resumeBase: object<{ day: number; equity: Decimal }>({ day: int, equity: dec }, {}),
    cause: oneOf(['manual', 'dailyLoss', 'drawdown'] as const),
  },
);
const bracket = object<BracketLegs>({ takeProfit: dec, stopLoss: dec }, {});
const role = oneOf(ORDER_ROLES);

type Rec<K extends JournalRecordType> = Extract<JournalRecord, { t: K }>;
const tag = <K extends JournalRecordType>(t: K): Decoder<K> => oneOf([t] as const) as Decoder<K>;

// A fill the exchange reported always has a positive quantity and rate and a commission of at least zero; a line
// saying otherwise is a damaged journal, to be named with its file and line, never folded into a position.
const positive: Decoder<Decimal> = (v, path, where) => {
  const d = dec(v, path, where);
  if (d.isZero() || d.isNegative()) throw new WireFormatError(where, path, `is not positive: ${d.toFixed()}`);
  return d;
};
const nonNegative: Decoder<Decimal> = (v, path, where) => {
  const d = dec(v, path, where);
  if (d.isNegative()) throw new WireFormatError(where, path, `is negative: ${d.toFixed()}`);
  return d;
};

const decoders: { [K in JournalRecordType]: Decoder<Rec<K>> } = {
  order: object<Rec<'order'>>(
    { t: tag('order'), at: int, clientOrderId: id, strategy: str, intentKey: str, role, order: decodeNewOrder },
    { bracket },
  ),
  conditional: object<Rec<'conditional'>>(
    {
      t: tag('conditional'),
      at: int,
      clientConditionalOrderId: id,
      strategy: str,
      intentKey: str,
      role,
      order: decodeNewConditionalOrder,
    },
    { parent: id },
  ),
  batch: object<Rec<'batch'>>(
    {
      t: tag('batch'),
      at: int,
      batchId: id,
      strategy: str,
      intentKey: str,
      orders: arrayOf(object<{ clientOrderId: string; order: NewOrder }>({ clientOrderId: id, order: decodeNewOrder }, {})),
      cancels: arrayOf(id),
    },
    {},
  ),
  sent: object<Rec<'sent'>>({ t: tag('sent'), at: int, id, attempt: int }, {}),
  ack: object<Rec<'ack'>>({ t: tag('ack'), at: int, id, orderId: id }, {}),
  rejected: object<Rec<'rejected'>>({ t: tag('rejected'), at: int, id, code: str }, {}),
  triggered: object<Rec<'triggered'>>({ t: tag('triggered'), at: int, id, orderId: id }, {}),
  closed: object<Rec<'closed'>>({ t: tag('closed'), at: int, id }, { filled: dec }),
  lost: object<Rec<'lost'>>({ t: tag('lost'), at: int, id }, {}),
  armed: object<Rec<'armed'>>({ t: tag('armed'), at: int, id }, {}),
  fill: object<FillRecord>(
    {
      t: tag('fill'),
      at: int,
      id,
      orderId: id,
      executionId: id,
      marketSymbol: str,
      direction: oneOf(ORDER_DIRECTIONS),
      quantity: positive,
      rate: positive,
      commission: nonNegative,
      isTaker: bool,
      executedAt: date,
    },
    {},
  ),
  checkpoint: object<CheckpointRecord>(
    { t: tag('checkpoint'), at: int, positions: arrayOf(positionSnapshot) },
    { lastFill: object<{ executionId: string; executedAt: Date }>({ executionId: id, executedAt: date }, {}) },
  ),
  limits: object<LimitsRecord>({ t: tag('limits'), at: int, curve: curveState, risk: riskLimitState }, {}),
};

/**
 * Decode one parsed JSON line. Throws a WireFormatError naming the field when it does not match a record type.
 *
 * @example
 * decodeRecord(JSON.parse('{"t":"ack","at":1,"id":"c1","orderId":"o1"}')) // { t: 'ack', at: 1, id: 'c1', orderId: 'o1' }
 */
export function decodeRecord(value: unknown): JournalRecord {
  const kind = typeof value === 'object' && value !== null ? (value as { t?: unknown }).t : undefined;
  const decoder = typeof kind === 'string' && Object.hasOwn(decoders, kind) ? decoders[kind as JournalRecordType] : undefined;
  if (!decoder) return oneOf(Object.keys(decoders) as JournalRecordType[])(kind, 't', where) as never;
  return (decoder as Decoder<JournalRecord>)(value, '', where);
}
