/**
 * A size-bounded map whose oldest entries go first once past its budget (a hit does not move an entry, so
 * a hit stays one Map lookup). The shared core of the row cache and the engine's hit cache: it owns only
 * the entries and their cost, not when they are valid.
 */

interface Entry<K, V> {
  readonly key: K;
  readonly value: V;
  readonly cost: number;
}

export class FifoCache<K, V> {
  readonly #maxCost: number;
  readonly #entries = new Map<K, Entry<K, V>>();
  /**
   * Entries in the order they came, oldest from `#head` (some replaced or deleted since). Evicting by
   * iterating the Map instead walks every slot a deletion left behind until the Map is rehashed: it cost
   * the hit cache ~100 us a query.
   */
  #order: Entry<K, V>[] = [];
  #head = 0;
  #cost = 0;

  /** `maxCost`: the budget, in the unit of the costs given to `set`. */
  constructor(maxCost: number) {
    this.#maxCost = maxCost;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The cost of the entries held (within the budget). */
  get cost(): number {
    return this.#cost;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /** Keeps `value` under `key` (replacing any), then drops the oldest entries while over the budget. */
  set(key: K, value: V, cost: number): void {
    this.delete(key);
    const entry: Entry<K, V> = { key, value, cost };
    this.#entries.set(key, entry);
    this.#order.push(entry);
    this.#cost += cost;
    while (this.#cost > this.#maxCost && this.#head < this.#order.length) {
      const oldest = this.#order[this.#head++]!;
      if (this.#entries.get(oldest.key) === oldest) this.delete(oldest.key);
    }
    if (this.#head > 1024 && this.#head * 2 > this.#order.length) {
      this.#order = this.#order.slice(this.#head);
      this.#head = 0;
    }
    // Entries replaced or deleted while under budget are never evicted, so drop them from the queue once
    // they outnumber the live ones: a set/delete cycle (a row read, then written) must not grow it forever.
    if (this.#order.length - this.#head > 2 * this.#entries.size + 1024) {
      this.#order = this.#order.slice(this.#head).filter((e) => this.#entries.get(e.key) === e);
      this.#head = 0;
    }
  }

  /** Entries waiting in the eviction queue, live or replaced (bounded by about twice the live ones). */
  get queued(): number {
    return this.#order.length - this.#head;
  }

  delete(key: K): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#cost -= entry.cost;
  }

  clear(): void {
    this.#entries.clear();
    this.#order = [];
    this.#head = 0;
    this.#cost = 0;
  }
}
