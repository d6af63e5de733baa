/**
 * The hub's Authenticate guard counts a key's failures whatever the case it was sent in: keys match
 * case-insensitively, so a guesser who changes the case of the key per try must still meet the key's lock.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { HubAuthGuard } from '../../../src/server/hub/auth-guard.js';

describe('HubAuthGuard', () => {
  it('locks a key after its free failures however the key is spelled', () => {
    const guard = new HubAuthGuard({ clock: new VirtualClock(0), toleranceMs: 60_000, freeFailures: 3 });
    const spellings = ['abcdef', 'ABCDEF', 'aBcDeF'];
    // Three connections, one failure each, the key spelled differently every time.
    spellings.forEach((key, i) => guard.failed(`c${i}`, key));
    // A connection that has failed before meets the key's lock in any spelling; one that never failed may try.
    for (const key of spellings) expect(guard.mayTry('c0', key)).toBe(false);
    expect(guard.mayTry('fresh', 'ABCDEF')).toBe(true);
  });
});
