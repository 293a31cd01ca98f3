/**
 * A cache of recently read values by key (RocksDB calls this a row cache): a hot point read costs a Map
 * lookup instead of a LevelDB Get, which searches the memtable and every level's block index. Values
 * enter only when read; a committed write removes the keys it touched, so the cache never answers with
 * a value older than the last acknowledged write. Past the budget, the values cached first go first
 * (a hit does not move its value: hits stay a single Map lookup).
 */
export class RowCache {
  readonly #maxBytes: number;
  readonly #maxValueBytes: number;
  readonly #rows = new Map<string, Uint8Array>();
  #bytes = 0;
  /** Bumped by every invalidation: a read that started earlier must not fill in what it read. */
  #generation = 0;

  constructor(maxBytes: number, maxValueBytes: number) {
    this.#maxBytes = maxBytes;
    this.#maxValueBytes = maxValueBytes;
  }

  get generation(): number {
    return this.#generation;
  }

  get(key: string): Uint8Array | undefined {
    return this.#rows.get(key);
  }

  /** Remembers a value read from the store, unless a write committed since the read started. */
  fill(key: string, value: Uint8Array, readGeneration: number): void {
    if (readGeneration !== this.#generation || value.byteLength > this.#maxValueBytes || this.#maxBytes === 0) return;
    this.#drop(key);
    this.#rows.set(key, value);
    this.#bytes += entryBytes(key, value);
    for (const [oldest, old] of this.#rows) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#rows.delete(oldest);
      this.#bytes -= entryBytes(oldest, old);
    }
  }

  /** Forgets the keys a committed write changed. */
  invalidate(writes: Iterable<{ readonly key: string }>): void {
    this.#generation++;
    if (this.#rows.size === 0) return;
    for (const { key } of writes) this.#drop(key);
  }

  clear(): void {
    this.#generation++;
    this.#rows.clear();
    this.#bytes = 0;
  }

  #drop(key: string): void {
    const old = this.#rows.get(key);
    if (old === undefined) return;
    this.#rows.delete(key);
    this.#bytes -= entryBytes(key, old);
  }
}

function entryBytes(key: string, value: Uint8Array): number {
  return key.length * 2 + value.byteLength + 64;
}
