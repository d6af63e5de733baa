/** Helpers for the transport tests: the hub server kit's server in virtual time, and an event recorder per transport. */
import { filter, firstValueFrom, type Subscription } from 'rxjs';
import { createHubTransport, type HubTransport, type TransportEvent } from '../../../../src/bittrex/hub/transport.js';
import type { HubServer } from '../../../../src/server/hub/attach-hub.js';

export { KEYS, authArgs, useTestHub } from '../../../server/hub/hub-test-kit.js';

/** A transport plus everything its events$ emitted, recorded from before connect. */
export interface Recorded {
  t: HubTransport;
  events: TransportEvent[];
  completed: boolean;
  sub: Subscription;
}

/** Make a transport of `kind` for `srv` and record its events. */
export function recorded(kind: 'classic' | 'core', srv: HubServer, url?: string): Recorded {
  const t = createHubTransport(kind, { url: url ?? (kind === 'classic' ? srv.classicUrl : srv.coreUrl), connectTimeoutMs: 10_000 });
  const r: Recorded = { t, events: [], completed: false, sub: undefined as unknown as Subscription };
  r.sub = t.events$.subscribe({ next: (e) => r.events.push(e), complete: () => (r.completed = true) });
  return r;
}

/** Messages recorded so far (and forget them). */
export function takeMessages(r: Recorded): { method: string; args: unknown[] }[] {
  const out = r.events.filter((e) => e.type === 'message').map((e) => ({ method: e.method, args: e.args }));
  r.events = r.events.filter((e) => e.type !== 'message');
  return out;
}

/** Resolve once the recorder has seen a `closed` event. */
export async function closedEvent(r: Recorded): Promise<TransportEvent> {
  const seen = r.events.find((x) => x.type === 'closed');
  if (seen) return seen;
  return firstValueFrom(r.t.events$.pipe(filter((e) => e.type === 'closed')));
}
