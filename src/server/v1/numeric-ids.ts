/**
 * v1.1 numbers what v3 identifies by uuid (trade Id, deposit Id, fill FillId). The simulator hands out small
 * ints per uuid, stable while remembered; old ones are forgotten so a long run stays bounded (a forgotten uuid
 * seen again gets a new, larger number — it has long left every recent list by then).
 *
 * Memory is two generations of at most `capacity / 2` ids each: the newest `capacity / 2` to `capacity` ids are
 * remembered. Not one Map trimmed oldest-first: deleting a Map's first entry leaves a tombstone that every later
 * `keys().next()` walks past until the table is rebuilt, so at capacity each new id cost several microseconds
 * (the hub numbers every trade of the simulator this way).
 */
export class NumericIds {
  #current = new Map<string, number>();
  #previous = new Map<string, number>();
  readonly #generation: number;
  #next = 1;

  constructor(capacity = 100_000) {
    this.#generation = Math.max(1, Math.ceil(capacity / 2));
  }

  /** The int of `uuid`, assigning the next one on first sight. */
  idOf(uuid: string): number {
    let n = this.#current.get(uuid) ?? this.#previous.get(uuid);
    if (n === undefined) {
      n = this.#next++;
      if (this.#current.size >= this.#generation) {
        this.#previous = this.#current;
        this.#current = new Map();
      }
      this.#current.set(uuid, n);
    }
    return n;
  }
}
