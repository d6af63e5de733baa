/** Small records: service ping and the hub's SocketResponse. */
import { bool, int, object, str, type Decoder } from './decode.js';

/** GET /ping. `serverTime` is epoch ms rounded down to the second. */
export interface ServicePing {
  serverTime: number;
}
export const decodeServicePing: Decoder<ServicePing> = object<ServicePing>({ serverTime: int }, {});

/** Result of a hub call (Authenticate, and each channel of Subscribe/Unsubscribe). */
export interface SocketResponse {
  Success: boolean;
  ErrorCode?: string;
}
export const decodeSocketResponse: Decoder<SocketResponse> = object<SocketResponse>(
  { Success: bool },
  { ErrorCode: str },
);
