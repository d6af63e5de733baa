/** What a v1.1 route is: the scope it needs (or `public`) and a synchronous handler answering the `result`. */
import type { Scope } from '../rest/request-auth.js';
import type { V1Caller } from './v1-auth.js';

/** What a v1.1 handler sees. */
export interface V1RouteContext {
  caller: V1Caller | undefined;
  query: URLSearchParams;
}

/** One v1.1 endpoint. */
export interface V1RouteDef {
  auth: Scope | 'public';
  handle(ctx: V1RouteContext): unknown;
}

/** v1.1 routes by lower-case path below the base (`/public/getmarkets`). */
export type V1Routes = Map<string, V1RouteDef>;

/** A signed route acting for the caller's account. */
export function signedV1(scope: Scope, handle: (q: URLSearchParams, accountId: string) => unknown): V1RouteDef {
  return { auth: scope, handle: (ctx) => handle(ctx.query, ctx.caller!.accountId) };
}
