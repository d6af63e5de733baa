/**
 * v1.1 numbers what v3 identifies by uuid (trade Id, deposit Id, fill FillId). The simulator hands out small
 * ints per uuid, stable while remembered; the oldest are forgotten past `capacity` so a long run stays bounded
 * (a forgotten uuid seen again gets a new, larger number — it has long left every recent list by then).
 */
export class NumericIds {
  readonly #ids = new Map<string, number>();
  readonly #capacity: number;
  #next = 1;

  constructor(capacity = 100_000) {
    this.#capacity = capacity;
  }

  /** The int of `uuid`, assigning the next one on first sight. */
  idOf(uuid: string): number {
    let n = this.#ids.get(uuid);
    if (n === undefined) {
      n = this.#next++;
      this.#ids.set(uuid, n);
      if (this.#ids.size > this.#capacity) this.#ids.delete(this.#ids.keys().next().value!);
    }
    return n;
  }
}
