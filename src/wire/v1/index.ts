/**
 * The v1.1 REST wire, below its three users (ARCHITECTURE: "the wire belongs to no side"): the client in
 * `bittrex/v1/`, the simulator's v1.1 routes in `server/v1/` and recorded-data readers all import it, and it
 * imports none of them. Exact JSON text (`json.ts`), dates (`dates.ts`), market names (`market-name.ts`),
 * resource types and decoders (`rest-types.ts`), message codes (`message-codes.ts`) and the v1.1 ⇄ v3 mapping
 * (`mapping/`).
 */
export * from './dates.js';
export * from './decode.js';
export * from './json.js';
export * from './market-name.js';
export * from './message-codes.js';
export * from './rest-types.js';
export * from './mapping/index.js';
