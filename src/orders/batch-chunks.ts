/**
 * How `POST /batch` work is cut into requests: cancels first (they free funds), then placements, at most `size`
 * operations per request, each request's placements and cancels in their original order.
 */

/** One request's share of a batch. */
export interface BatchChunk<T> {
  places: T[];
  cancels: T[];
}

/**
 * The chunks of a batch of `places` and `cancels`, `size` operations at most each. No operation makes no chunk (a
 * chunk draws a batch id). One chunk (a quote ladder's usual batch) holds the lists themselves, without the
 * per-operation tagging below.
 *
 * @example
 * batchChunks(['p1', 'p2'], ['c1'], 2); // [{ places: ['p1'], cancels: ['c1'] }, { places: ['p2'], cancels: [] }]
 */
export function batchChunks<T>(places: readonly T[], cancels: T[], size: number): BatchChunk<T>[] {
  const count = cancels.length + places.length;
  if (count === 0) return [];
  if (count <= size) return [{ places: places.slice(), cancels }];
  const ops: { cancel: boolean; entry: T }[] = [
    ...cancels.map((entry) => ({ cancel: true, entry })),
    ...places.map((entry) => ({ cancel: false, entry })),
  ];
  const chunks: BatchChunk<T>[] = [];
  for (let i = 0; i < ops.length; i += size) {
    const chunk = ops.slice(i, i + size);
    chunks.push({ places: chunk.filter((o) => !o.cancel).map((o) => o.entry), cancels: chunk.filter((o) => o.cancel).map((o) => o.entry) });
  }
  return chunks;
}
