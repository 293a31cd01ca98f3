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
 * callers change the documents they get (restoring `$vector`, updates, user code holding results).
 */
import { copyJson, type Document } from '../query/json.js';
import type { StoredDocument } from './document-store.js';

interface Entry {
  readonly label: number;
  /** The document's key and its body. */
  readonly stored: StoredDocument;
  readonly cost: number;
}

/** A rough per-entry cost beyond the body's JSON bytes (Map slot, entry, object headers). */
const ENTRY_OVERHEAD = 256;

export class HitCache {
  readonly #maxBytes: number;
  readonly #maxBodyBytes: number;
  readonly #entries = new Map<number, Entry>();
  /**
   * Entries in the order they came, oldest from `#head` (some replaced or deleted since). Evicting by
   * iterating the Map instead walks every slot a deletion left behind: it cost ~100 us a query.
   */
  #order: Entry[] = [];
  #head = 0;
  #bytes = 0;
  /** The store generation every entry was read at. */
  #generation = 0;

  /** `maxBytes` bounds the cached bodies' JSON bytes (plus overhead); bodies over `maxBodyBytes` are not kept. */
  constructor(maxBytes: number, maxBodyBytes: number) {
    this.#maxBytes = maxBytes;
    this.#maxBodyBytes = maxBodyBytes;
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
      this.#order = [];
      this.#head = 0;
      this.#bytes = 0;
      this.#generation = generation;
      return undefined;
    }
    return this.#entries.get(label)?.stored;
  }

  /**
   * Keeps the body of `label`'s document (parsed from `bodyBytes` bytes of JSON; the caller must not
   * change it afterwards), read by a read that started at `readGeneration`: dropped when a write
   * committed since.
   */
  fill(label: number, key: string, body: Document, bodyBytes: number, readGeneration: number): void {
    if (readGeneration !== this.#generation || bodyBytes > this.#maxBodyBytes || this.#maxBytes === 0) return;
    this.#delete(label);
    const entry: Entry = { label, stored: { key, doc: body }, cost: bodyBytes + ENTRY_OVERHEAD };
    this.#entries.set(label, entry);
    this.#order.push(entry);
    this.#bytes += entry.cost;
    // Past the budget, the bodies cached first go first (a hit does not move its entry).
    while (this.#bytes > this.#maxBytes && this.#head < this.#order.length) {
      const oldest = this.#order[this.#head++]!;
      if (this.#entries.get(oldest.label) === oldest) this.#delete(oldest.label);
    }
    if (this.#head > 1024 && this.#head * 2 > this.#order.length) {
      this.#order = this.#order.slice(this.#head);
      this.#head = 0;
    }
  }

  #delete(label: number): void {
    const entry = this.#entries.get(label);
    if (entry === undefined) return;
    this.#entries.delete(label);
    this.#bytes -= entry.cost;
  }
}
