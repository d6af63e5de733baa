/** The v1.1 REST client, its transport, signing and errors; the wire types and mapping it answers in. */
export * from './v1-auth.js';
export * from './v1-errors.js';
export * from './v1-rest-client.js';
export * from './v1-transport.js';
export * from '../../../wire/v1/index.js';
