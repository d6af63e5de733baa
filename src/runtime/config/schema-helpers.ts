/** zod building blocks shared by rexbot's config schemas. */
import { z } from 'zod';
import { type Decimal, parseDecimal } from '../../core/decimal.js';

/** The largest decimal exponent a config amount may have, either way. */
const MAX_EXPONENT = 40;

/** A decimal written as a YAML string ("0.0035") or number; becomes an exact Decimal. */
export const decimalSchema = z
  .union([z.string(), z.number()])
  .transform((v, ctx): Decimal => {
    const d = parseDecimal(v);
    if (!d) {
      ctx.addIssue({ code: 'custom', message: `not a decimal: ${JSON.stringify(v)}` });
      return z.NEVER;
    }
    // No amount, price or rate is 1e41 or 1e-41: '1e999999999' is a valid decimal whose every formatting is a
    // billion-digit string (a backtest with such a balance ran out of memory after 48 s, saying nothing).
    if (!d.isZero() && (d.e > MAX_EXPONENT || d.e < -MAX_EXPONENT)) {
      ctx.addIssue({ code: 'custom', message: `out of range: ${JSON.stringify(typeof v === 'string' && v.length > 40 ? `${v.slice(0, 37)}...` : v)} (amounts are between 1e-${MAX_EXPONENT} and 1e${MAX_EXPONENT})` });
      return z.NEVER;
    }
    return d;
  });

/** A non-negative decimal. */
export const nonNegativeDecimal = decimalSchema.refine((d) => !d.isNegative(), 'must not be negative');

/** A positive decimal. */
export const positiveDecimal = decimalSchema.refine((d) => d.gt(0), 'must be greater than zero');

/** A market symbol `BASE-QUOTE`. */
export const marketSymbolSchema = z.string().regex(/^[A-Z0-9]+-[A-Z0-9]+$/, 'must be a market symbol like BTC-USD');

/** A TCP port (0 = any free port). */
export const portSchema = z.number().int().min(0).max(65535);
