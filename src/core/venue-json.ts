/**
 * The parser for JSON a venue sends us: v3 REST response bodies and hub stream payloads.
 *
 * `JSON.parse` turns every number into its nearest double, so a quantity a venue (or a proxy in between) writes
 * as a bare number with more digits than a double holds loses them silently: `1.0000000000000001` became `1`,
 * `1e-400` became `0`, an integer past 2^53 its neighbour. The decoders judge a decimal from its text
 * ({@link WireNumber}), as the simulator's server does with what clients send ({@link parseWireJson}), but only
 * if the text reaches them.
 *
 * `parseWireJson` keeps that text, but it is written in JavaScript: measured here at 1.2 times V8's native
 * JSON.parse on a 500-level order book body and 3 times on an order. The v3 service writes every decimal as a
 * string, so its bare numbers are small integers a double holds exactly. So {@link parseVenueJson} first looks,
 * with one regular expression, for a number that might not be held exactly (an exponent, or 16 or more digits and
 * points, where a value starts), and only a body that has one is read by `parseWireJson`. The look costs a tenth
 * to a fifth of JSON.parse's time on a book body (it tries a match at every `:` and `,`), well under a
 * microsecond on a small one. It over-approximates: a string that looks like a number (`"a:1234567890123456"`)
 * may send a body the exact way, a number that needs it never goes the fast way.
 */
import { parseWireJson } from './wire-json.js';

export { WireJsonError } from './wire-json.js';

/**
 * Where a JSON value can start (the start of the text, or after `:`, `,` or `[` and any JSON whitespace), a number
 * that JSON.parse may not hold exactly: one with an exponent, or with 16 or more digits and points (a double holds
 * every decimal of up to 15 significant digits; parseWireJson decides the rest, as the server does).
 */
const MAYBE_INEXACT_NUMBER = /(?:^|[:,[])[ \t\n\r]*-?[0-9](?:[0-9.]{15}|[0-9.]*[eE])/;

/**
 * Parse JSON `text` from a venue: `JSON.parse` when every number in it is held exactly by a double (nearly every
 * body), {@link parseWireJson} otherwise, which returns a {@link WireNumber} with the text for each number a
 * double cannot hold, so the decoders accept it exactly or refuse it naming the field. Throws `SyntaxError` for
 * text that is not JSON (a {@link WireJsonError} with the position when read the exact way, which also refuses a
 * duplicate key and nesting deeper than 32 levels); callers say which endpoint or stream it came from.
 *
 * @example
 * parseVenueJson('{"total":"1.5","n":3}')           // { total: '1.5', n: 3 }            (JSON.parse)
 * parseVenueJson('{"total":1.0000000000000001}')    // { total: WireNumber { text: '1.0000000000000001' } }
 */
export function parseVenueJson(text: string): unknown {
  return MAYBE_INEXACT_NUMBER.test(text) ? parseWireJson(text) : JSON.parse(text);
}
