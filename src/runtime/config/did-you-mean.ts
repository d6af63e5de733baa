/**
 * "Did you mean" for unknown config keys: the known keys at a path of a zod schema, and the closest one to a
 * misspelt key. A typo (`sprad`) is the commonest config mistake a newcomer makes; naming the intended key
 * (`spread`) saves a trip to the docs.
 */
import type { z } from 'zod';

/** Edit distance (insertions, deletions, substitutions, and swaps of neighbours) between `a` and `b`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known key closest to `key`, if it is close enough to be a typo (at most a third of the key's letters off,
 * case ignored), else undefined.
 *
 * @example
 * closestKey('sprad', ['spread', 'levels', 'size']); // 'spread'
 */
export function closestKey(key: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const dist = editDistance(key.toLowerCase(), k.toLowerCase());
    if (dist < bestDistance) {
      best = k;
      bestDistance = dist;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(key.length / 3)) ? best : undefined;
}

interface ZodDefLike {
  type?: string;
  shape?: Record<string, unknown>;
  /** An object's schema for keys its shape does not name: none (strip them), `never` (strict), `unknown` (loose). */
  catchall?: unknown;
  innerType?: unknown;
  element?: unknown;
  options?: unknown[];
  in?: unknown;
  valueType?: unknown;
}

function defOf(schema: unknown): ZodDefLike | undefined {
  return (schema as { _zod?: { def?: ZodDefLike } } | undefined)?._zod?.def;
}

/** Object schemas `schema` may be at `path` (several for a union), wrappers (optional, default, pipe) unwrapped. */
function objectsAt(schema: unknown, path: readonly PropertyKey[]): ZodDefLike[] {
  const def = defOf(schema);
  if (!def) return [];
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return objectsAt(def.innerType, path);
    case 'pipe':
      return objectsAt(def.in, path);
    case 'union':
      return (def.options ?? []).flatMap((o) => objectsAt(o, path));
    case 'array':
      return path.length === 0 ? [] : objectsAt(def.element, path.slice(1));
    case 'record':
      return path.length === 0 ? [] : objectsAt(def.valueType, path.slice(1));
    case 'object':
      if (path.length === 0) return [def];
      return objectsAt(def.shape?.[String(path[0])], path.slice(1));
    default:
      return [];
  }
}

/** The keys an object schema accepts at `path` inside `schema` (empty when it is not an object there). */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  return [...new Set(objectsAt(schema, path).flatMap((d) => Object.keys(d.shape ?? {})))];
}

/** `unknown field "sprad"`, with `; did you mean "spread"?` when a known key is that close. */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const near = closestKey(key, known);
  return near === undefined ? `unknown field "${key}"` : `unknown field "${key}"; did you mean "${near}"?`;
}

/**
 * The keys of `raw` that `schema` would drop without a word: it is (behind optional, default, pipe, ...) a
 * `z.object` in zod's default mode, which strips keys its shape does not name. A strict object refuses them itself
 * and a loose one (`z.looseObject`, a `catchall`) wants them, so neither has any; nor has a union of objects, whose
 * keys depend on the branch. Only the top level is looked at.
 *
 * @example
 * droppedKeys(z.object({ slow: z.number() }), { slwo: 20 }); // ['slwo']
 * droppedKeys(z.strictObject({ slow: z.number() }), { slwo: 20 }); // [] (safeParse reports it)
 */
export function droppedKeys(schema: z.ZodType, raw: unknown): string[] {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return [];
  const objects = objectsAt(schema, []);
  if (objects.length !== 1 || objects[0]!.catchall !== undefined) return [];
  const shape = objects[0]!.shape ?? {};
  return Object.keys(raw).filter((k) => !Object.hasOwn(shape, k));
}
