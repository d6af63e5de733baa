/** Running test code in a strategy's scope, as a strategy context delivering a value runs the strategy's operators. */
import { enterStrategy, leaveStrategy } from '../../src/strategy/strategy-scope.js';

/** `fn` run in strategy `name`'s scope; the scope before is restored after it, also when it throws. */
export function inScope<T>(name: string, fn: () => T): T {
  const outer = enterStrategy(name);
  try {
    return fn();
  } finally {
    leaveStrategy(outer);
  }
}
