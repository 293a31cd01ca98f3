/**
 * A cache of recently read values by key (RocksDB calls this a row cache): a hot point read costs a Map
 * lookup instead of a LevelDB Get, which searches the memtable and every level's block index. Values
 * enter only when read; a committed write removes the keys it touched, so the cache never answers with
 * a value older than the last acknowledged write. Past the budget, the values cached first go first
 * (a hit does not move its value: hits stay a single Map lookup).
 */
import { FifoCache } from './fifo-cache.js';

export class RowCache {
  readonly #maxValueBytes: number;
  readonly #rows: FifoCache<string, Uint8Array>;
  /** Bumped by every invalidation: a read that started earlier must not fill in what it read. */
  #generation = 0;

  constructor(maxBytes: number, maxValueBytes: number) {
    this.#maxValueBytes = maxBytes === 0 ? -1 : maxValueBytes;
    this.#rows = new FifoCache(maxBytes);
  }

  /** About how many bytes the cached values hold (keys, values and per-entry overhead). */
  get bytes(): number {
    return this.#rows.cost;
  }

  get generation(): number {
    return this.#generation;
  }

  get(key: string): Uint8Array | undefined {
    return this.#rows.get(key);
  }

  /** Remembers a value read from the store, unless a write committed since the read started. */
  fill(key: string, value: Uint8Array, readGeneration: number): void {
    if (readGeneration !== this.#generation || value.byteLength > this.#maxValueBytes) return;
    this.#rows.set(key, value, key.length * 2 + value.byteLength + 64);
  }

  /** Forgets the keys a committed write changed. */
  invalidate(writes: Iterable<{ readonly key: string }>): void {
    this.#generation++;
    if (this.#rows.size === 0) return;
    for (const { key } of writes) this.#rows.delete(key);
  }

  clear(): void {
    this.#generation++;
    this.#rows.clear();
  }
}
