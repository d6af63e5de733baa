/**
 * Keeps `String.prototype` in V8's fast-properties mode, which every `charCodeAt` scan on the hot paths depends on
 * (wire JSON, decimals, signatures, the recorded-data readers).
 *
 * Why this exists: the first time any code makes `String.prototype` the prototype of a new object
 * (`class X extends String`, `Object.create(String.prototype)`), V8 (Node 20) switches it to dictionary mode for
 * "prototype setup", and nothing that only touches string primitives ever switches it back. From then on
 * `s.charCodeAt(i)` is no longer inlined: a byte scan runs about 4x slower. ioredis does exactly this at import
 * (its RESP3 `VerbatimString extends String`), so a process that loaded the Redis client (the shared rate budget,
 * the sweep queue, or `import 'rexbot'`) paid ~10 µs more per signed order round trip through the simulator.
 *
 * The cure is what V8 itself does for prototypes in use: a property load through an object that inherits from
 * `String.prototype`, once its inline cache has feedback, marks the prototype "should be fast" and migrates it back
 * to fast properties; after that, later `extends String` no longer normalizes it. So this runs such a load enough
 * times for feedback to be allocated (V8 allocates it after a few calls), at import; the order against ioredis's
 * import does not matter. It changes no property and no behaviour: only how V8 stores the prototype's properties.
 */

/** Calls of the load below: above V8's budget before a function gets feedback (8 in Node 20), with room. */
const LOADS = 64;

function loadThrough(o: { charCodeAt?: unknown }): unknown {
  return o.charCodeAt;
}

/**
 * Makes V8 keep `String.prototype` as a fast prototype (see the module note). Idempotent and cheap; runs once at
 * import, and may be called again after loading code that subclasses `String` (not needed on Node 20, where the
 * prototype stays fast once marked).
 */
export function keepStringPrototypeFast(): void {
  const heir = Object.create(String.prototype) as { charCodeAt?: unknown };
  for (let i = 0; i < LOADS; i++) loadThrough(heir);
}

keepStringPrototypeFast();
