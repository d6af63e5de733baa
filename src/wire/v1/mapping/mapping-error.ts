/** The error a mapping throws when a value has no form on the other side (a v3 order type v1.1 cannot place). */
import { RexbotError, type WireProblem } from '../../../core/errors.js';

/**
 * A value cannot be mapped between v1.1 and v3. `field` names it; the message says why. The problem is a text
 * (which may quote the value) or, like a {@link WireProblem}, a reason quoting nothing received apart from the text,
 * so whoever may not see the data (a queued backtest job's author) still learns the field and why.
 */
export class MappingError extends RexbotError {
  readonly field: string;
  /** The problem quoting no value (`is not a v1.1 market name`); undefined when only a text was given. */
  readonly reason: string | undefined;
  constructor(field: string, problem: string | WireProblem) {
    super('V1_MAPPING', `${field} ${typeof problem === 'string' ? problem : (problem.text ?? problem.reason)}`);
    this.field = field;
    this.reason = typeof problem === 'string' ? undefined : problem.reason;
  }
}
