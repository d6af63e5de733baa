/** zod building blocks shared by rexbot's config schemas. */
import { z } from 'zod';
import { type Decimal, parseDecimal } from '../../core/decimal.js';

/** A decimal written as a YAML string ("0.0035") or number; becomes an exact Decimal. */
export const decimalSchema = z
  .union([z.string(), z.number()])
  .transform((v, ctx): Decimal => {
    const d = parseDecimal(v);
    if (!d) {
      ctx.addIssue({ code: 'custom', message: `not a decimal: ${JSON.stringify(v)}` });
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
