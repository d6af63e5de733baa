/**
 * {@link LazyIdList}: a list in arrival order whose id index is built when a lookup asks, from where the previous
 * lookup stopped. The simulator keeps every account's closed orders and executions this way: each is added on the
 * order path, looked up by id by few clients, and dropped oldest first by retention.
 */

/** Items in arrival order, oldest first, with an id index brought up to date at each lookup. */
export class LazyIdList<T> {
  /** The items, oldest first. Append with {@link push}, remove only with {@link dropFront}. */
  readonly items: T[] = [];
  /** Lower-cased id -> item, for `items[0, #indexed)`. */
  readonly #index = new Map<string, T>();
  #indexed = 0;
  readonly #idOf: (item: T) => string;

  constructor(idOf: (item: T) => string) {
    this.#idOf = idOf;
  }

  /** Append an item (no index work: a lookup indexes it when it first asks). */
  push(item: T): void {
    this.items.push(item);
  }

  /** The item whose lower-cased id is `key`. The same answer as an index kept up to date at every push. */
  get(key: string): T | undefined {
    const { items } = this;
    for (let i = this.#indexed; i < items.length; i++) this.#index.set(this.#idOf(items[i]!).toLowerCase(), items[i]!);
    this.#indexed = items.length;
    return this.#index.get(key);
  }

  /** Remove the `k` oldest items and answer their ids (as they are, not lower-cased). */
  dropFront(k: number): string[] {
    const gone = this.items.splice(0, k);
    const ids = new Array<string>(gone.length);
    for (let i = 0; i < gone.length; i++) {
      ids[i] = this.#idOf(gone[i]!);
      if (i < this.#indexed) this.#index.delete(ids[i]!.toLowerCase());
    }
    this.#indexed = Math.max(0, this.#indexed - gone.length);
    return ids;
  }
}
