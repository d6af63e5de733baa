/** The error a mapping throws when a value has no form on the other side (a v3 order type v1.1 cannot place). */
import { RexbotError } from '../../../core/errors.js';

/** A value cannot be mapped between v1.1 and v3. `field` names it; the message says why. */
export class MappingError extends RexbotError {
  readonly field: string;
  constructor(field: string, problem: string) {
    super('V1_MAPPING', `${field} ${problem}`);
    this.field = field;
  }
}
