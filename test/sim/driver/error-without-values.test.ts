/**
 * withoutValues: what a queued job's author is told of an error no reader gave a reason for apart. A printed object
 * is left out whole, however deep it nests (a value beside a nested object was told); a message of 100 KB, of any
 * shape, is told at once (each case here would take minutes under a regex that backtracks on it).
 */
import { describe, expect, it } from 'vitest';
import { withoutValues } from '../../../src/sim/driver/error-without-values.js';

describe('withoutValues', () => {
  it('leaves a printed object out whole, the values beside a nested object too', () => {
    expect(withoutValues('bad level {Rate: SECRETRATE, Inner: {a: b}} here')).toBe('bad level {…} here');
    expect(withoutValues('bad {x {y {z}}} and {w}')).toBe('bad {…} and {…}');
    // an unbalanced brace is no object: what follows it is told as other text is
    expect(withoutValues('unbalanced { open {a} tail')).toBe('unbalanced { open {…} tail');
  });

  it('tells a message of 100 KB of any shape, cut to its length', () => {
    const N = 100_000;
    const shapes = [
      '{'.repeat(N / 2) + '}'.repeat(N / 2),
      '{a'.repeat(N / 4) + '}'.repeat(N / 4),
      '{a}'.repeat(N / 3),
      '{'.repeat(N),
      '"'.repeat(N),
      ('"' + 'a\\\n').repeat(N / 4),
      " 'a".repeat(N / 3),
      '`'.repeat(N),
      '1:'.repeat(N / 2),
      'a-1.b+2.'.repeat(N / 8),
      'é1😀\n'.repeat(N / 5),
    ];
    for (const s of shapes) expect(withoutValues(s).length).toBeLessThanOrEqual(160);
    expect(withoutValues('{'.repeat(N / 2) + '}'.repeat(N / 2))).toBe('{…}');
  });
});
