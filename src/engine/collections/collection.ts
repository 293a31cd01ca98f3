/**
 * A collection's operations: select (filter, sort, paging, vector sort), insert, update, replace,
 * delete and count, with the limits and rules of the engine. Writes run under the collection's mutex
 * and land as one atomic batch each. Inputs are already parsed (query/); outputs are plain documents:
 * the command layer shapes envelopes and applies projections. Loading the vectors, their postings and
 * closing them is vector-state.ts'.
 */
import { VectorDbError } from '../../errors/index.js';
import type { Filter } from '../../query/filter.js';
import type { Document } from '../../query/json.js';
import type { SortSpec } from '../../query/sort.js';
import type { Update } from '../../query/update.js';
import type { KvStore } from '../../storage/index.js';
import { type CollectionRecord, indexingPredicate } from './schema.js';
import type { FoundDocument, InsertOutcome, SelectOptions, SelectResult, SingleChange, UpdateManyOutcome, UpdateOutcome } from './types.js';
import { DocumentStore, type DocumentChange, type StoredDocument } from './document-store.js';
import { alreadyExists, insertDocuments } from './insert.js';
import { changedDocument, upsertDocument } from './single-change.js';
import type { Limits } from '../limits.js';
import { Mutex } from '../mutex.js';
import { matching, pagedSelect, sortedMatches, type MatchSource } from './matching.js';
import { selectByVector } from './vector-select.js';
import { planCandidates } from './planner.js';
import { deniesPositions, zeroVectorError, type ShredContext } from './shredder.js';
import { isZeroVector } from '../../query/vector-value.js';
import { CollectionVectors, type IndexProgress } from '../vectors/collection-vectors.js';
import type { Analyzer } from '../../query/analyzers.js';
import { analyzerOf } from './hybrid-options.js';
import { LexicalIndex } from './lexical-index.js';
import type { FieldRecord } from './field-kinds.js';
import { selectByLexical } from './lexical-select.js';
import { keysWithEveryTerm } from '../lexical-candidates.js';
import { VectorState } from './vector-state.js';

import type { EngineSettings } from '../settings.js';
export type { EngineSettings } from '../settings.js';
export type { FieldRecord } from './field-kinds.js';
export type { FoundDocument, InsertOutcome, SelectOptions, SelectResult, SingleChange, UpdateManyOutcome, UpdateOutcome } from './types.js';

export class Collection {
  readonly record: CollectionRecord;
  readonly isIndexed: (path: string) => boolean;
  /** The analyzer of `$lexical` (undefined: lexical search disabled). */
  readonly analyzer: Analyzer | undefined;
  readonly #lexical: LexicalIndex | undefined;
  readonly #store: DocumentStore;
  readonly #limits: Limits;
  readonly #mutex = new Mutex();
  readonly #shred: ShredContext;
  readonly #kv: KvStore;
  /** The vectors, their postings and candidate cache (vector-state.ts; unused without vectors). */
  readonly #vectorState: VectorState;
  #dropped = false;
  /** The store and limits as matching.ts reads them. */
  readonly #from: MatchSource;

  constructor(kv: KvStore, record: CollectionRecord, settings: EngineSettings) {
    this.record = record;
    this.isIndexed = indexingPredicate(record.options);
    this.#kv = kv;
    this.#store = new DocumentStore(kv, record.cid, record.options.vector?.dimension ?? 0, settings.hitCacheBytes);
    this.#limits = settings.limits;
    this.analyzer = analyzerOf(record.options.lexical);
    const lexical = this.analyzer && new LexicalIndex(kv, record.cid);
    this.#lexical = lexical;
    if (lexical) this.#store.useLexical(lexical);
    const lexicalMatch = lexical && ((terms: readonly string[]) => keysWithEveryTerm(lexical, terms));
    this.#from = { store: this.#store, isIndexed: this.isIndexed, limits: this.#limits, lexicalMatch, checkLive: () => this.#checkLive() };
    this.#shred = { keyspace: record.keyspace, collectionName: record.name, options: record.options, limits: settings.limits, isIndexed: this.isIndexed, analyzer: this.analyzer };
    this.#vectorState = new VectorState({ kv, record, settings, store: this.#store, mutex: this.#mutex, shred: this.#shred, isDropped: () => this.#dropped });
  }

  /**
   * A collection created by a build before isFiled, with a deny rule naming an array position, lacks the
   * index entries of those elements: they are written once, at open, before it serves reads.
   */
  async refileLegacyIndex(): Promise<void> {
    if (deniesPositions(this.record.options)) await this.#store.refileIndex(this.#shred);
  }

  /** @internal The document store, shredding context and lexical index (verify and repair recompute index entries and postings). */
  get integrity(): { readonly store: DocumentStore; readonly shred: ShredContext; readonly lexical: LexicalIndex | undefined } {
    return { store: this.#store, shred: this.#shred, lexical: this.#lexical };
  }

  /** About how many bytes the collection's caches hold now: bodies of search hits, hot postings of the lexical index (stats). */
  get cachedBytes(): number {
    return this.#store.cachedBytes + (this.#lexical?.cachedBytes ?? 0);
  }

  /** The collection's vectors, loaded on first use and ready for any use; undefined for a collection without vectors. */
  vectors(): Promise<CollectionVectors> | undefined {
    return this.#vectorState.vectors();
  }

  get name(): string {
    return this.record.name;
  }

  get limits(): Limits {
    return this.#limits;
  }

  /** Marks the collection dropped: later calls fail as if it never existed. */
  markDropped(): void {
    this.#dropped = true;
  }

  // ---- reads --------------------------------------------------------------------------------

  /** Finds documents: one page of an unsorted scan, or the single page of a sorted or vector query. */
  select(options: SelectOptions): Promise<SelectResult> {
    // Not itself async: a vector search's promise is handed on as it is (an async layer costs microtask turns).
    return options.sort.kind === 'vector' ? this.#vectorSelect(options) : this.#otherSelect(options);
  }

  async #otherSelect(options: SelectOptions): Promise<SelectResult> {
    const { sort } = options;
    if (sort.kind === 'lexical') return { documents: await this.lexicalSelect(options, sort.text), nextPageState: null };
    if (sort.kind === 'fields') {
      const skip = options.skip ?? 0;
      const count = Math.min(options.limit ?? this.#limits.pageSize, this.#limits.pageSize);
      const sorted = await sortedMatches(this.#from, options.filter, sort, skip + count, options.withVector ?? true);
      return { documents: sorted.slice(skip, skip + count), nextPageState: null };
    }
    return pagedSelect(this.#from, options);
  }

  /** The first document the filter and sort select, or null. */
  async selectOne(filter: Filter, sort: SortSpec, read: Pick<SelectOptions, 'withVector' | 'efSearch' | 'shared' | 'withSimilarity'> = {}): Promise<FoundDocument | null> {
    if (sort.kind === 'none' && filter.idLookup !== undefined && filter.idLookup.length <= 1) {
      // findOne's common case, an unsorted `_id` lookup: the planner's one key is read directly, without paging.
      this.#checkLive();
      const plan = await planCandidates(filter, { store: this.#store, isIndexed: this.isIndexed, maxCandidates: 1 });
      if (plan.kind === 'keys' && plan.keys.length <= 1) return this.#candidate(plan.keys[0], filter, read.withVector ?? true);
    }
    const result = await this.select({ filter, sort, limit: 1, ...read });
    return result.documents[0] ?? null;
  }

  /** The document under `key` when the filter matches it. */
  async #candidate(key: string | undefined, filter: Filter, withVector: boolean): Promise<FoundDocument | null> {
    if (key === undefined) return null;
    const doc = await this.#store.get(key, { withVector });
    return doc !== null && filter.matches(doc) ? { key, doc } : null;
  }

  async countDocuments(filter: Filter): Promise<{ count: number; moreData: boolean }> {
    const cap = this.#limits.maxCountDocuments;
    let count = 0;
    for await (const _ of matching(this.#from, filter, { withVector: false })) {
      count++;
      if (count > cap) return { count: cap, moreData: true };
    }
    return { count, moreData: false };
  }

  async estimatedDocumentCount(): Promise<number> {
    this.#checkLive();
    return this.#store.count();
  }

  /**
   * Waits, at most `maxTimeMs`, until the HNSW graph holds every acknowledged vector (bulk loads and
   * benchmarks; searches are exact meanwhile). A collection without vectors is always caught up.
   */
  async waitForIndex(maxTimeMs: number): Promise<IndexProgress> {
    this.#checkLive();
    const vectors = await this.vectors();
    return vectors ? vectors.waitForIndexWithin(maxTimeMs) : { caughtUp: true, pendingVectors: 0 };
  }

  /** The filter's documents holding every term of `text`, best BM25 score first (`score` on each). */
  async lexicalSelect(options: Pick<SelectOptions, 'filter' | 'limit' | 'withVector'>, text: string): Promise<(FoundDocument & { readonly score: number })[]> {
    this.#checkLive();
    if (!this.#lexical || !this.analyzer) throw VectorDbError.of('LEXICAL_NOT_ENABLED_FOR_COLLECTION', { keyspace: this.record.keyspace, collection: this.record.name });
    const k = Math.min(options.limit ?? this.#limits.pageSize, this.#limits.maxVectorSearchLimit);
    return selectByLexical({ store: this.#store, index: this.#lexical, analyzer: this.analyzer, filter: options.filter, text, k, withVector: options.withVector ?? true });
  }

  /** A vector search's one page (no await before the search once the vectors answer one, as most do). */
  async #vectorSelect(options: SelectOptions): Promise<SelectResult> {
    const pending = this.#vectorState.forSearch(!options.filter.isEmpty);
    const settings = this.record.options.vector;
    if (!pending || !settings || options.sort.kind !== 'vector') {
      throw VectorDbError.of('VECTOR_SEARCH_NOT_SUPPORTED', { keyspace: this.record.keyspace, collection: this.record.name });
    }
    const query = options.sort.vector;
    if (query.length !== settings.dimension) {
      throw VectorDbError.of('INVALID_VECTOR_LENGTH', { actual: query.length, expected: settings.dimension, collection: this.record.name });
    }
    if (settings.metric === 'cosine' && isZeroVector(query)) throw zeroVectorError();
    const k = Math.min(options.limit ?? this.#limits.pageSize, this.#limits.maxVectorSearchLimit);
    const withVector = options.withVector ?? true;
    const documents = selectByVector({
      store: this.#store,
      vectors: pending instanceof CollectionVectors ? pending : await pending,
      isIndexed: this.isIndexed,
      filter: options.filter,
      query,
      k,
      withVector,
      efSearch: options.efSearch,
      shared: options.shared,
      withSimilarity: options.withSimilarity,
      candidates: this.#vectorState.candidates,
      postings: this.#vectorState.postings,
      lexicalMatch: this.#from.lexicalMatch,
    });
    // Most searches answer at once (hits cached or read synchronously): no await, no microtask turn.
    return { documents: Array.isArray(documents) ? documents : await documents, nextPageState: null };
  }

  // ---- writes -------------------------------------------------------------------------------

  /** Inserts documents: ordered stops at the first failure (the rest are SKIPPED); unordered tries each. */
  async insertMany(rawDocuments: readonly unknown[], ordered: boolean): Promise<InsertOutcome[]> {
    return this.#write(async () => {
      const hook = this.#vectorState.hook(await this.vectors());
      return insertDocuments({ store: this.#store, shred: this.#shred, hook }, rawDocuments, ordered);
    });
  }

  /**
   * Selects one document (filter + sort) and updates, replaces or upserts it: updateOne,
   * findOneAndUpdate and findOneAndReplace.
   */
  async changeOne(filter: Filter, sort: SortSpec, change: SingleChange): Promise<UpdateOutcome> {
    return this.#write(async () => {
      const found = await this.selectOne(filter, sort);
      if (found === null) {
        if (!change.upsert) return { matchedCount: 0, modifiedCount: 0, before: null, after: null };
        const created = upsertDocument(this.#shred, filter, change);
        if (await this.#store.has(created.key)) throw alreadyExists(created.id);
        await this.#commit([{ key: created.key, before: null, after: created }]);
        return { matchedCount: 0, modifiedCount: 0, upsertedId: created.id, before: null, after: created.doc };
      }
      const next = changedDocument(this.#shred, found.doc, change);
      if (next === null) return { matchedCount: 1, modifiedCount: 0, before: found.doc, after: found.doc };
      await this.#commit([{ key: found.key, before: found.doc, after: next }]);
      return { matchedCount: 1, modifiedCount: 1, before: found.doc, after: next.doc };
    });
  }

  /** updateMany: one page of matching documents per call, resumable with the returned page state. */
  async updateMany(filter: Filter, update: Update, upsert: boolean, pageState: string | undefined): Promise<UpdateManyOutcome> {
    return this.#write(async () => {
      const page = await pagedSelect(this.#from, { filter, sort: { kind: 'none' }, pageState });
      if (page.documents.length === 0 && upsert && pageState === undefined) {
        const created = upsertDocument(this.#shred, filter, { kind: 'update', update, upsert });
        await this.#commit([{ key: created.key, before: null, after: created }]);
        return { matchedCount: 0, modifiedCount: 0, upsertedId: created.id, nextPageState: null };
      }
      const changes: DocumentChange[] = [];
      for (const found of page.documents) {
        const next = changedDocument(this.#shred, found.doc, { kind: 'update', update, upsert: false });
        if (next !== null) changes.push({ key: found.key, before: found.doc, after: next });
      }
      await this.#commit(changes);
      return { matchedCount: page.documents.length, modifiedCount: changes.length, nextPageState: page.nextPageState };
    });
  }

  /** Deletes the one document filter + sort select; returns it (findOneAndDelete, deleteOne). */
  async deleteOne(filter: Filter, sort: SortSpec): Promise<Document | null> {
    return this.#write(async () => {
      const found = await this.selectOne(filter, sort);
      if (found === null) return null;
      await this.#commit([{ key: found.key, before: found.doc, after: null }]);
      return found.doc;
    });
  }

  /** Deletes up to maxDeleteManyDocuments matches; an empty filter empties the collection (count -1). */
  async deleteMany(filter: Filter): Promise<{ deletedCount: number; moreData: boolean }> {
    return this.#write(async () => {
      if (filter.isEmpty) {
        await this.#store.clear();
        await this.#vectorState.reset();
        return { deletedCount: -1, moreData: false };
      }
      const max = this.#limits.maxDeleteManyDocuments;
      const victims: StoredDocument[] = [];
      let moreData = false;
      for await (const found of matching(this.#from, filter)) {
        if (victims.length === max) {
          moreData = true;
          break;
        }
        victims.push(found);
      }
      await this.#commit(victims.map((v) => ({ key: v.key, before: v.doc, after: null })));
      return { deletedCount: victims.length, moreData };
    });
  }

  // ---- helpers ------------------------------------------------------------------------------

  async #commit(changes: readonly DocumentChange[]): Promise<void> {
    if (changes.length === 0) return;
    await this.#store.write(changes, this.#shred, this.#vectorState.hook(await this.vectors()));
  }

  async #write<T>(fn: () => Promise<T>): Promise<T> {
    this.#checkLive();
    await this.vectors(); // the label map must be loaded before a write can change vectors
    await this.#lexical?.ready(); // and the BM25 statistics before a write changes them
    await this.#store.fieldKinds.ready(); // and the field record, which a write may extend
    let result: T;
    try {
      result = await this.#mutex.run(async () => {
        this.#checkLive();
        return fn();
      });
    } catch (error) {
      // A write that failed part way may have committed some batches (an insertMany): they are synced all the same.
      await this.#store.syncWrites().catch(() => undefined);
      throw error;
    }
    // Acknowledged once on disk; outside the mutex, so that writers queued behind this one share the fsync.
    await this.#store.syncWrites();
    return result;
  }

  #checkLive(): void {
    if (this.#dropped) {
      throw VectorDbError.of('UNKNOWN_COLLECTION_OR_TABLE', { collection: this.record.name, keyspace: this.record.keyspace, known: '' });
    }
  }

  /**
   * The record of the collection's top-level fields and the kinds of value each has held, with its
   * generation (field-kinds.ts): read from memory, except once for a collection written before the record
   * existed (its documents are read then). Widen-only: fields of deleted documents stay.
   */
  async fieldRecord(): Promise<FieldRecord> {
    this.#checkLive();
    return this.#store.fieldKinds.describe(
      () => this.#store.scan(undefined, { withVector: false }),
      (ops) =>
        this.#mutex.run(async () => {
          this.#checkLive(); // a collection dropped during the scan gets no record back
          await this.#kv.batch(ops);
        }),
    );
  }

  /** Resolves once the postings build started at open has ended (tests, benchmarks). */
  postingsBuilt(): Promise<boolean> {
    return this.#vectorState.postingsBuilt();
  }

  /** Waits for queued writes (used before close). */
  async drain(): Promise<void> {
    await this.#mutex.run(async () => undefined);
  }

  /** Finishes writes, then stops vector indexing and saves its snapshot (unless dropped). */
  async close(): Promise<void> {
    await this.#vectorState.close(() => this.drain());
  }
}
