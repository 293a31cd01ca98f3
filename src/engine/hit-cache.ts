/**
 * The parsed bodies of a collection's recent vector search hits, by vector label. Reading the hits is
 * the per-query work of a vector search besides the graph: a cached hit costs a lookup in a small Map
 * and a copy, where a read costs the label's document key (a lookup in the collection's large label
 * map), a row cache lookup under a concatenated LevelDB key, a UTF-8 decode and a JSON.parse.
 *
 * Entries hold for one generation of the document store (its count of committed writes): the first
 * lookup at a newer generation empties the cache, and a body read while a write committed is never
 * kept, so a cached body is never older than the last acknowledged write. Within a generation a label
 * names one document and one body. The cached objects stay private: `get` returns a deep copy, since
 * callers change the documents they get (restoring `$vector`, updates, user code holding results);
 * `peek` lends the body itself to a caller that copies what it keeps (find's projection).
 */
import { copyJson, type Document } from '../query/json.js';
import { FifoCache } from '../storage/fifo-cache.js';
import type { StoredDocument } from './document-store.js';

/** A rough per-entry cost beyond the body's JSON bytes (Map slot, entry, object headers). */
const ENTRY_OVERHEAD = 256;

export class HitCache {
  readonly #maxBodyBytes: number;
  /** Bodies by label; past the budget, the bodies cached first go first (a hit does not move its entry). */
  readonly #entries: FifoCache<number, StoredDocument>;
  /** The store generation every entry was read at. */
  #generation = 0;

  /** `maxBytes` bounds the cached bodies' JSON bytes (plus overhead); bodies over `maxBodyBytes` are not kept. */
  constructor(maxBytes: number, maxBodyBytes: number) {
    this.#maxBodyBytes = maxBytes === 0 ? -1 : maxBodyBytes;
    this.#entries = new FifoCache(maxBytes);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The key and a copy of the body cached for `label`, if read at `generation` (the store's current one). */
  get(label: number, generation: number): StoredDocument | undefined {
    const entry = this.peek(label, generation);
    return entry === undefined ? undefined : { key: entry.key, doc: copyJson(entry.doc) };
  }

  /** As `get`, but the cached body itself: the caller must not change it (nor hand it out unchanged). */
  peek(label: number, generation: number): StoredDocument | undefined {
    if (generation !== this.#generation) {
      this.#entries.clear();
      this.#generation = generation;
      return undefined;
    }
    return this.#entries.get(label);
  }

  /**
   * Keeps the body of `label`'s document (parsed from `bodyBytes` bytes of JSON; the caller must not
   * change it afterwards), read by a read that started at `readGeneration`: dropped when a write
   * committed since.
   */
  fill(label: number, key: string, body: Document, bodyBytes: number, readGeneration: number): void {
    if (readGeneration !== this.#generation || bodyBytes > this.#maxBodyBytes) return;
    this.#entries.set(label, { key, doc: body }, bodyBytes + ENTRY_OVERHEAD);
  }
}
