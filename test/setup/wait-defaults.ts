/**
 * A condition wait gives up only when the machine is far too slow, never because it is busy.
 *
 * `vi.waitFor` gives up after 1 s unless told otherwise. That is a statement about machine speed: on a 2-core box
 * running two test files at once (or one shared with other jobs) a server's answer, a child process's start or a
 * GC pause can take longer, and a correct test fails. Waits here are for conditions; the timeout is only the bound
 * on a hung test, so every `vi.waitFor` without its own timeout gets {@link DEFAULT_WAIT_MS}. A test that names a
 * longer timeout keeps it; a shorter one is raised to the default too, for the same reason.
 */
import { vi } from 'vitest';

/** The bound on any condition wait in the suite. */
export const DEFAULT_WAIT_MS = 30_000;

type WaitFor = typeof vi.waitFor;
const original: WaitFor = vi.waitFor.bind(vi);

const patched = ((callback: Parameters<WaitFor>[0], options?: Parameters<WaitFor>[1]) => {
  const given = typeof options === 'number' ? { timeout: options } : { ...options };
  return original(callback, { ...given, timeout: Math.max(given.timeout ?? 0, DEFAULT_WAIT_MS) });
}) as WaitFor;

vi.waitFor = patched;
