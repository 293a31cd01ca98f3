/**
 * CollectionReads: the reading half of a collection, which VectorDBCollection (collection.ts) extends with its
 * writes: finds (by id, by query, by vector, page by page or iterated), counts, stats and waiting for the
 * vector index, built as Data API commands and run through the database's channel. Reads return the found
 * JSON documents, or `DocumentResult<R>`s when given a class or a mapper; find iterates pages.
 */
import type { CommandResponse } from '../commands/response.js';
import type { JsonObject } from '../query/json.js';
import { findOneJson, findPageJson, mapOne, splitMapping, vectorQuery } from './collection-commands.js';
import type { FindAndRerankOptions, FindVectorOptions, HybridSort, IndexStatus, RerankedResult, RerankScores, WaitForIndexOptions } from './collection-options.js';
import { collectionChannel, type DatabaseChannel } from './database-channel.js';
import type { ProviderKeys } from './provider-keys.js';
import type { JsonDocument } from './documents.js';
import { clientException } from './errors.js';
import { filterJson, type FilterLike } from './filter.js';
import { FindIterable } from './find-iterable.js';
import type { CollectionChannel } from './inserts.js';
import { toDocumentResult, type DocumentResult, type FoundDocument, type Page, type ResultMapping } from './results.js';
import { isVectorSort, selectQueryOf, type SelectQuery, type SelectQueryLike } from './select-query.js';
import { collectionStats, type PartialCollectionStats } from './stats.js';
import type { DocumentProjection } from './typed-queries.js';
import type { DocumentId, Projection, Vector } from './types.js';
import { rejectUnknownMembers, toJson } from './wire.js';

// What the implementations take: every typed form is one of these (typed-queries.ts narrows them per T).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySelectQuery = SelectQueryLike<any>;

/** The members each options object takes (a typo would otherwise be ignored: see rejectUnknownMembers). */
const FIND_VECTOR_OPTIONS: ReadonlySet<keyof FindVectorOptions> = new Set(['filter', 'limit', 'includeSimilarity', 'projection', 'efSearch']);
const FIND_ONE_BY_VECTOR_OPTIONS: ReadonlySet<string> = new Set(['filter', 'includeSimilarity', 'projection', 'efSearch']);
const FIND_AND_RERANK_OPTIONS: ReadonlySet<keyof FindAndRerankOptions> = new Set(['filter', 'projection', 'limit', 'hybridLimits', 'rerankOn', 'rerankQuery', 'includeSortVector', 'rerank']);
const WAIT_FOR_INDEX_OPTIONS: ReadonlySet<keyof WaitForIndexOptions> = new Set(['timeoutMs']);
/** One waitForIndex command waits at most this long (ms): no request outlives a proxy's patience. */
const WAIT_FOR_INDEX_STEP_MS = 10_000;

/**
 * The reads of one collection; get the whole collection (a VectorDBCollection) from `db.collection(name)`.
 * @typeParam T the documents' type (default: schemaless {@link JsonDocument})
 */
export class CollectionReads<T extends object = JsonDocument> {
  readonly keyspace: string;
  readonly name: string;
  readonly #db: DatabaseChannel;
  readonly #channel: CollectionChannel;

  /** `keys`: the collection's keys for embedding and reranking providers (db.collection's options). */
  constructor(db: DatabaseChannel, keyspace: string, name: string, keys: ProviderKeys = {}) {
    this.#db = db;
    this.keyspace = keyspace;
    this.name = name;
    this.#channel = collectionChannel(db, keyspace, name, keys);
  }

  #run(command: JsonObject): Promise<CommandResponse> {
    return this.#channel.run(command);
  }

  // ---- reads ----------------------------------------------------------------------------------

  /**
   * The document with this id, or undefined; with a class or mapper, a typed result.
   * @example
   * const json = await products.findById('lamp');                 // JsonDocumentResult | undefined
   * const typed = await products.findById('lamp', Product);        // DocumentResult<Product> | undefined
   * const priced = await products.findById('lamp', { price: 1 });  // projection
   */
  findById<R>(id: DocumentId, as: ResultMapping<R>): Promise<DocumentResult<R> | undefined>;
  findById<R>(id: DocumentId, projection: DocumentProjection<T>, as: ResultMapping<R>): Promise<DocumentResult<R> | undefined>;
  findById(id: DocumentId, projection?: DocumentProjection<T>): Promise<FoundDocument<T> | undefined>;
  async findById(id: DocumentId, ...rest: unknown[]): Promise<unknown> {
    const [args, as] = splitMapping(rest);
    const projection = args[0] as Projection | undefined;
    const found = await findOneJson(this.#channel, { filter: { _id: toJson(id, '_id') }, ...(projection ? { projection } : {}) });
    return mapOne(found, as);
  }

  /**
   * True when a document has this id.
   * @example if (await products.isDocumentExists('lamp')) console.log('lamp is there');
   */
  async isDocumentExists(id: DocumentId): Promise<boolean> {
    return (await findOneJson(this.#channel, { filter: { _id: toJson(id, '_id') }, projection: { _id: 1 } })) !== undefined;
  }

  /**
   * The first document the query selects, or undefined.
   * @example
   * const cheapest = await products.findOne({ filter: { category: 'lighting' }, sort: { price: 1 } });
   * const typed = await products.findOne(SelectQuery.findWithFilter({ color: 'red' }), Product);
   */
  findOne<R>(query: SelectQueryLike<T>, as: ResultMapping<R>): Promise<DocumentResult<R> | undefined>;
  findOne(query?: SelectQueryLike<T>): Promise<FoundDocument<T> | undefined>;
  async findOne(query?: AnySelectQuery, as?: ResultMapping<unknown>): Promise<unknown> {
    return mapOne(await findOneJson(this.#channel, selectQueryOf(query)), as);
  }

  /**
   * The document nearest to a vector, or undefined when no document has a vector.
   * @example const nearest = await products.findOneByVector([0.9, 0.1, 0.1], { includeSimilarity: true });
   */
  findOneByVector<R>(vector: Vector, as: ResultMapping<R>): Promise<DocumentResult<R> | undefined>;
  findOneByVector<R>(vector: Vector, options: Omit<FindVectorOptions, 'limit'>, as: ResultMapping<R>): Promise<DocumentResult<R> | undefined>;
  findOneByVector(vector: Vector, options?: Omit<FindVectorOptions, 'limit'>): Promise<FoundDocument<T> | undefined>;
  async findOneByVector(vector: Vector, ...rest: unknown[]): Promise<unknown> {
    const [args, as] = splitMapping(rest);
    const options = (args[0] ?? {}) as Omit<FindVectorOptions, 'limit'>;
    rejectUnknownMembers(options, FIND_ONE_BY_VECTOR_OPTIONS, 'findOneByVector options');
    return mapOne(await findOneJson(this.#channel, vectorQuery(vector, options)), as);
  }

  /**
   * Every result of the query, fetched page after page as you iterate (nothing runs before).
   * @example
   * for await (const doc of products.find({ filter: { color: 'red' } })) console.log(doc.name);
   * const typed = await products.find(SelectQuery.builder().where('price').isLessThan(30), Product).toArray();
   */
  find<R>(query: SelectQueryLike<T> | undefined, as: ResultMapping<R>): FindIterable<DocumentResult<R>>;
  find(query?: SelectQueryLike<T>): FindIterable<FoundDocument<T>>;
  find(query?: AnySelectQuery, as?: ResultMapping<unknown>): FindIterable<unknown> {
    const select = selectQueryOf(query);
    const channel = this.#channel;
    const iterable = new FindIterable(async function* pages(): AsyncGenerator<JsonObject[]> {
      let pageState = select.pageState;
      do {
        const page = await findPageJson(channel, { ...select, ...(pageState ? { pageState } : {}) });
        yield page.results;
        pageState = page.pageState ?? undefined;
      } while (pageState);
    });
    return as === undefined ? iterable : iterable.map((json) => toDocumentResult(json, as));
  }

  /**
   * Every document of the collection, page after page.
   * @example const everything = await products.findAll().toArray();
   */
  findAll<R>(as: ResultMapping<R>): FindIterable<DocumentResult<R>>;
  findAll(): FindIterable<FoundDocument<T>>;
  findAll(as?: ResultMapping<unknown>): FindIterable<unknown> {
    return as === undefined ? this.find({}) : this.find({}, as);
  }

  /**
   * One page of results; pass its `pageState` back in the query for the next (null after the last).
   * @example
   * const first = await products.findPage({ filter: { color: 'red' } });
   * const second = first.pageState ? await products.findPage({ filter: { color: 'red' }, pageState: first.pageState }) : undefined;
   */
  findPage<R>(query: SelectQueryLike<T> | undefined, as: ResultMapping<R>): Promise<Page<DocumentResult<R>>>;
  findPage(query?: SelectQueryLike<T>): Promise<Page<FoundDocument<T>>>;
  async findPage(query?: AnySelectQuery, as?: ResultMapping<unknown>): Promise<Page<unknown>> {
    const page = await findPageJson(this.#channel, selectQueryOf(query));
    return as === undefined ? page : { results: page.results.map((json) => toDocumentResult(json, as)), pageState: page.pageState };
  }

  /**
   * The documents nearest to a vector, best first (at most `limit`, default 20, at most 1000); or the
   * results of a query with a `$vector` sort.
   * @example
   * const similar = await products.findVector([0.1, 0.2, 0.3], { filter: { category: 'lamp' }, limit: 5, includeSimilarity: true });
   * const typed = await products.findVector([0.1, 0.2, 0.3], { limit: 3 }, Product);
   */
  findVector<R>(vector: Vector, as: ResultMapping<R>): Promise<DocumentResult<R>[]>;
  findVector<R>(vector: Vector, options: FindVectorOptions, as: ResultMapping<R>): Promise<DocumentResult<R>[]>;
  findVector(vector: Vector, options?: FindVectorOptions): Promise<FoundDocument<T>[]>;
  findVector<R>(query: SelectQueryLike<T>, as: ResultMapping<R>): Promise<DocumentResult<R>[]>;
  findVector(query: SelectQueryLike<T>): Promise<FoundDocument<T>[]>;
  async findVector(source: Vector | AnySelectQuery, ...rest: unknown[]): Promise<unknown[]> {
    const [args, as] = splitMapping(rest);
    let query: SelectQuery;
    if (Array.isArray(source) || source instanceof Float32Array) {
      const options = (args[0] ?? {}) as FindVectorOptions;
      rejectUnknownMembers(options, FIND_VECTOR_OPTIONS, 'FindVectorOptions');
      query = vectorQuery(source as Vector, options);
    } else {
      query = selectQueryOf(source as SelectQueryLike);
      if (!isVectorSort(query.sort)) throw new TypeError('findVector(query): the query needs a $vector sort (SelectQuery.builder().orderByVector(...))');
    }
    const page = await findPageJson(this.#channel, query);
    return as === undefined ? page.results : page.results.map((json) => toDocumentResult(json, as));
  }

  /**
   * Hybrid search (the Data API's findAndRerank): a vector read and a BM25 (`$lexical`) read with the same
   * filter, merged, reranked by the collection's provider (or `options.rerank`), best first, each with its
   * scores. Not paginated. With the built-in `rrf` provider the order is reciprocal-rank fusion (k = 60).
   * @example
   * const hits = await docs.findAndRerank({ $hybrid: { $vector: queryVector, $lexical: 'banana bread' } }, { rerankOn: 'text', rerankQuery: 'banana bread' });
   */
  async findAndRerank(sort: HybridSort, options: FindAndRerankOptions = {}): Promise<RerankedResult<T>[]> {
    rejectUnknownMembers(options, FIND_AND_RERANK_OPTIONS, 'findAndRerank options');
    const { filter, projection, ...rest } = options;
    const command: JsonObject = { sort: toJson(sort) as JsonObject, options: { ...(toJson(rest) as JsonObject), includeScores: true } };
    if (filter !== undefined) command.filter = filterJson(filter);
    if (projection !== undefined) command.projection = toJson(projection);
    const response = await this.#run({ findAndRerank: command });
    const documents = (response.data as { documents: JsonObject[] }).documents;
    const responses = (response.status?.documentResponses ?? []) as { scores?: RerankScores }[];
    return documents.map((document, i) => ({ document: document as unknown as T, scores: responses[i]?.scores ?? ({} as RerankScores) }));
  }

  // ---- counts ---------------------------------------------------------------------------------

  /**
   * Counts matching documents; throws TooManyDocumentsToCountException above `upperBound` (the server
   * counts at most 1000).
   * @example const reds = await products.countDocuments({ color: 'red' });
   */
  countDocuments(filter?: FilterLike<T>, upperBound?: number): Promise<number>;
  async countDocuments(filter: FilterLike = {}, upperBound = 1000): Promise<number> {
    const response = await this.#run({ countDocuments: { filter: filterJson(filter) } });
    const count = response.status?.count as number;
    if (response.status?.moreData === true || count > upperBound) {
      throw clientException('TOO_MANY_DOCUMENTS_TO_COUNT', '', 'Too many documents to count', `More than ${Math.min(count, upperBound)} documents match; narrow the filter.`);
    }
    return count;
  }

  /**
   * The number of documents in the collection, without a filter.
   * @example const total = await products.estimatedDocumentCount();
   */
  async estimatedDocumentCount(): Promise<number> {
    const response = await this.#run({ estimatedDocumentCount: {} });
    return response.status?.count as number;
  }

  /**
   * Documents, bytes on disk, index entries and, for a vector collection, its dimension, metric, HNSW
   * parameters, vectors in the graph vs pending and the last snapshot save time. Against a Data API server
   * without vectordb-local's stats command, the document count only.
   * @example const { documents, vector } = await products.stats();
   */
  async stats(): Promise<PartialCollectionStats> {
    return collectionStats(this.#db, this.keyspace, this.name);
  }

  // ---- vector index ---------------------------------------------------------------------------

  /**
   * Resolves once the collection's HNSW graph holds every acknowledged vector. Inserts are acknowledged
   * when durable and the graph catches up in the background; searches are exact meanwhile, only slower.
   * Useful after a bulk load and before a benchmark. With `timeoutMs`, resolves by then, with
   * `caughtUp: false` if the graph still lacks some. A collection without vectors is always caught up.
   * vectordb-local's own command (`waitForIndex`), embedded and over HTTP; not in the Data API.
   * @example
   * await products.insertMany(catalogue);
   * await products.waitForIndex();
   */
  async waitForIndex(options: WaitForIndexOptions = {}): Promise<IndexStatus> {
    rejectUnknownMembers(options, WAIT_FOR_INDEX_OPTIONS, 'waitForIndex options');
    const { timeoutMs } = options;
    if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs >= 0)) {
      throw new TypeError(`waitForIndex: timeoutMs must be a number of at least 0, got ${String(timeoutMs)}`);
    }
    const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
    for (;;) {
      const maxTimeMS = Math.floor(Math.max(0, Math.min(WAIT_FOR_INDEX_STEP_MS, deadline - Date.now())));
      const status = (await this.#run({ waitForIndex: { options: { maxTimeMS } } })).status ?? {};
      const result: IndexStatus = { caughtUp: status.caughtUp === true, pendingVectors: Number(status.pendingVectors ?? 0) };
      if (result.caughtUp || Date.now() >= deadline) return result;
    }
  }
}
