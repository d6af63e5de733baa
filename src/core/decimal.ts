/**
 * Exact decimal arithmetic for money.
 *
 * rexbot uses one configured decimal.js constructor everywhere so that balances, fills, fees and PnL are exact
 * and every currency is conserved to the last 1e-8. Wire values are parsed once at the edge with
 * {@link parseDecimal}; everything inside the kernel is a {@link Decimal}.
 */
import { Decimal as DecimalJs } from 'decimal.js';

/**
 * The project's decimal type. 40 significant digits covers any 8-dp amount up to 1e31, far past any
 * realistic balance, so arithmetic on wire values never rounds.
 */
export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -40,
  toExpPos: 40,
});
/** An exact decimal value. */
export type Decimal = InstanceType<typeof Decimal>;

/** Zero, shared (decimal.js values are immutable). */
export const ZERO: Decimal = new Decimal(0);
/** One, shared. */
export const ONE: Decimal = new Decimal(1);

/** Anything the wire may carry for a number: JSON strings like `"0.00010000"` or JSON numbers. */
export type DecimalInput = string | number | Decimal;

const DECIMAL_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Parse a wire decimal (string or number) exactly. Returns `undefined` when the value is not a finite decimal
 * (NaN, Infinity, `"abc"`, `""`, objects); callers turn that into an error that names the field.
 *
 * @example
 * parseDecimal('0.00010000')?.toString() // '0.0001'
 * parseDecimal(1.5)?.toString()          // '1.5'
 * parseDecimal('NaN')                    // undefined
 */
export function parseDecimal(value: unknown): Decimal | undefined {
  if (typeof value === 'string') {
    if (!DECIMAL_RE.test(value)) return undefined;
    const d = new Decimal(value);
    return d.isFinite() ? d : undefined;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    // Number -> shortest round-trip string, so 0.1 becomes exactly 0.1 rather than its binary expansion.
    return new Decimal(String(value));
  }
  if (DecimalJs.isDecimal(value)) return new Decimal(value as DecimalJs);
  return undefined;
}

/** Construct a decimal from trusted input (literals in code and tests). Throws on invalid input. */
export function dec(value: DecimalInput): Decimal {
  const d = parseDecimal(value);
  if (!d) throw new TypeError(`not a finite decimal: ${String(value)}`);
  return d;
}

/** True when `value` is a {@link Decimal}. */
export function isDecimal(value: unknown): value is Decimal {
  return DecimalJs.isDecimal(value);
}

/**
 * Format as the service did: a fixed-point string with 8 decimals (`"0.00010000"`).
 * Values with more than 8 decimals are rounded half-even; the engine never produces such values on the wire.
 */
export function toWire8(d: Decimal): string {
  return d.toFixed(8);
}

/** Number of digits after the decimal point, ignoring trailing zeros (`"1.2300"` -> 2). */
export function decimalPlaces(d: Decimal): number {
  return d.decimalPlaces();
}

/** Minimum of two decimals. */
export function dmin(a: Decimal, b: Decimal): Decimal {
  return a.lte(b) ? a : b;
}

/** Maximum of two decimals. */
export function dmax(a: Decimal, b: Decimal): Decimal {
  return a.gte(b) ? a : b;
}
