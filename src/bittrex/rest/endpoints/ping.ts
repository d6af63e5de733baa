/** The service ping (public, unsigned). */
import { type ServicePing, decodeServicePing } from '../../../model/misc.js';
import type { HttpTransport } from '../http.js';

/** `client.ping`. */
export interface PingEndpoints {
  /** GET /ping — the server time (epoch ms rounded down to the second). */
  get(): Promise<ServicePing>;
}

/** Builds `client.ping` over a transport. */
export function createPingEndpoints(http: HttpTransport): PingEndpoints {
  const req = { method: 'GET', path: '/ping', signed: false } as const;
  return { get: () => http.call(req, decodeServicePing) };
}
