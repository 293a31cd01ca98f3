/**
 * VectorDBCollection: document operations on one collection, built as Data API commands and run through
 * the database's transport. Reads return the found JSON documents, or `DocumentResult<R>`s when given a
 * class or a mapper; writes take JSON documents, JSON strings or `Document<R>`s. Many-document operations
 * loop over the protocol's pages and chunks (inserts chunk by the insertMany limit, find iterates pages,
 * updateMany and deleteMany repeat while the server reports more).
 */
import type { CommandResponse } from '../commands/response.js';
import type { JsonObject } from '../query/json.js';
import {
  changeArgs,
  deleteMany,
  findOneAndChange,
  findOneJson,
  findPageJson,
  mapOne,
  splitMapping,
  updateJson,
  updateMany,
  updateOne,
  vectorQuery,
} from './collection-commands.js';
import { documentJson, type Document, type DocumentInput, type JsonDocument } from './documents.js';
import { deleteQueryOf, type DeleteQueryLike } from './delete-query.js';
import { clientException } from './errors.js';
import { filterJson, type FilterLike } from './filter.js';
import { FindIterable } from './find-iterable.js';
import { insertOne, upsertOne, writeMany, type BulkWriteHooks, type BulkWriteSummary, type CollectionChannel } from './inserts.js';
import {
  toDocumentResult,
  type DocumentMutationResult,
  type DocumentResult,
  type FindAndUpdateResult,
  type FoundDocument,
  type JsonDocumentMutationResult,
  type Page,
  type ResultMapping,
} from './results.js';
import { isVectorSort, queryParts, selectQueryOf, type SelectQuery, type SelectQueryLike } from './select-query.js';
import type { DocumentId, Projection, UpdateResult, Vector } from './types.js';
import type {
  FindOneAndUpdateOptions,
  FindVectorOptions,
  IndexStatus,
  InsertManyOptions,
  ManyChangeOptions,
  ManyDocuments,
  UpsertManyOptions,
  WaitForIndexOptions,
} from './collection-options.js';
import type { DocumentProjection, DocumentSort, UpdateFilter } from './typed-queries.js';
import { updateQueryOf, type UpdateObject, type UpdateQueryLike } from './update-query.js';
import type { VectorDB } from './vector-db.js';
import { rejectUnknownMembers, toJson } from './wire.js';
import { collectionStats, type PartialCollectionStats } from './stats.js';

// What the implementations take: every typed form is one of these (typed-queries.ts narrows them per T).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySelectQuery = SelectQueryLike<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFilter = FilterLike<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyClause = any; // a sort or a projection: the overloads check the typed forms

/** The members each options object takes (a typo would otherwise be ignored: see rejectUnknownMembers). */
const BULK_HOOKS = ['onProgress', 'onFailure', 'total'] as const;
const INSERT_MANY_OPTIONS: ReadonlySet<keyof InsertManyOptions> = new Set(['chunkSize', 'ordered', 'concurrency', ...BULK_HOOKS]);
const UPSERT_MANY_OPTIONS: ReadonlySet<keyof UpsertManyOptions> = new Set(['chunkSize', 'concurrency', ...BULK_HOOKS]);
const BULK_HOOK_OPTIONS: ReadonlySet<keyof BulkWriteHooks> = new Set(BULK_HOOKS);
const FIND_VECTOR_OPTIONS: ReadonlySet<keyof FindVectorOptions> = new Set(['filter', 'limit', 'includeSimilarity', 'projection', 'efSearch']);
const FIND_ONE_BY_VECTOR_OPTIONS: ReadonlySet<string> = new Set(['filter', 'includeSimilarity', 'projection', 'efSearch']);
const UPDATE_ONE_OPTIONS: ReadonlySet<string> = new Set(['upsert', 'sort']);
const UPDATE_MANY_OPTIONS: ReadonlySet<string> = new Set(['upsert', 'onProgress']);
const MANY_CHANGE_OPTIONS: ReadonlySet<keyof ManyChangeOptions> = new Set(['onProgress']);
const WAIT_FOR_INDEX_OPTIONS: ReadonlySet<keyof WaitForIndexOptions> = new Set(['timeoutMs']);
/** One waitForIndex command waits at most this long (ms): no request outlives a proxy's patience. */
const WAIT_FOR_INDEX_STEP_MS = 10_000;

/**
 * One collection. Get it from `db.createCollection(...)` or `db.collection(name)`; type its documents
 * with a type parameter (`db.collection<Product>('products')`).
 * @typeParam T the documents' type (default: schemaless {@link JsonDocument})
 */
export class VectorDBCollection<T extends object = JsonDocument> {
  readonly keyspace: string;
  readonly name: string;
  readonly #db: VectorDB;
  readonly #channel: CollectionChannel;

  /** Prefer `db.collection(name)`, which checks that the collection exists. */
  constructor(db: VectorDB, keyspace: string, name: string) {
    this.#db = db;
    this.keyspace = keyspace;
    this.name = name;
    const target = { keyspace, collection: name };
    this.#channel = {
      run: (command) => db.run(command, target),
      send: (command) => db.command(command, target),
      insertManyLimit: () => db.insertManyLimit(),
    };
  }

  #run(command: JsonObject): Promise<CommandResponse> {
    return this.#channel.run(command);
  }

  // ---- insert and upsert ----------------------------------------------------------------------

  /**
   * Inserts one document (a JSON object, a JSON string or a `Document<R>`); throws
   * DocumentAlreadyExistsException when its `_id` exists. The result has the id (generated when absent).
   * @example
   * const { id } = await products.insertOne({ name: 'lamp', $vector: [0.1, 0.2, 0.3] });
   * const typed = await products.insertOne(Document.of<Product>({ name: 'lamp', price: 25 }, { id: 'lamp' }));
   */
  insertOne<R>(document: Document<R>): Promise<DocumentMutationResult<R>>;
  insertOne(document: DocumentInput<T> | string): Promise<JsonDocumentMutationResult<T>>;
  async insertOne(document: unknown): Promise<unknown> {
    return insertOne(this.#channel, document);
  }

  /**
   * Inserts or replaces one document by `_id`: CREATED, UPDATED, or UNCHANGED when identical.
   * @example const { status } = await products.upsertOne({ _id: 'lamp', name: 'Desk lamp', price: 20 });
   */
  upsertOne<R>(document: Document<R>): Promise<DocumentMutationResult<R>>;
  upsertOne(document: DocumentInput<T> | string): Promise<JsonDocumentMutationResult<T>>;
  async upsertOne(document: unknown): Promise<unknown> {
    return upsertOne(this.#channel, document);
  }

  /**
   * Inserts any number of documents in chunks of the database's limit; results in input order, all
   * CREATED. On a failure (an existing `_id`: DocumentAlreadyExistsException) it throws after the chunks
   * that ran, with every document's status (CREATED, ALREADY_EXISTS, NOT_PROCESSED) in `error.results`.
   * @example
   * An AsyncIterable (a file stream's parsed lines, a generator) is read a chunk at a time, with bounded
   * memory, and resolves to counts ({@link BulkWriteSummary}); `onProgress` reports as chunks land and
   * `onFailure` gets each document not written (with it, a stream's failures do not throw).
   * @example
   * const results = await products.insertMany([{ _id: 'a' }, { _id: 'b' }]);
   * await products.insertMany('[{"_id": "c"}, {"_id": "d"}]');
   * const summary = await products.insertMany(readDocuments(), { concurrency: 4, onProgress: (p) => console.log(p.done, p.rate) });
   */
  insertMany(documents: AsyncIterable<DocumentInput<T> | Document<unknown>>, options?: InsertManyOptions): Promise<BulkWriteSummary>;
  insertMany<R>(documents: Iterable<Document<R>>, options?: InsertManyOptions): Promise<DocumentMutationResult<R>[]>;
  insertMany(documents: ManyDocuments<DocumentInput<T>>, options?: InsertManyOptions): Promise<JsonDocumentMutationResult<T>[]>;
  async insertMany(documents: unknown, options: InsertManyOptions = {}): Promise<unknown> {
    rejectUnknownMembers(options, INSERT_MANY_OPTIONS, 'InsertManyOptions');
    const ordered = options.ordered ?? (options.concurrency ?? 1) === 1;
    return writeMany(this.#channel, documents, { ...options, ordered, upsert: false, checkChunkSize: false });
  }

  /**
   * insertMany in chunks of `chunkSize` (1 to the insertMany limit), `concurrency` chunks at a time
   * (unordered: every chunk runs; failures throw at the end with `error.results`).
   * An AsyncIterable resolves to counts, as with insertMany.
   * @example await products.insertManyChunked(bigList, 20, 4, { onProgress: (p) => console.log(`${p.done}/${p.total}`) });
   */
  insertManyChunked(documents: AsyncIterable<DocumentInput<T> | Document<unknown>>, chunkSize: number, concurrency?: number, hooks?: BulkWriteHooks): Promise<BulkWriteSummary>;
  insertManyChunked<R>(documents: Iterable<Document<R>>, chunkSize: number, concurrency?: number, hooks?: BulkWriteHooks): Promise<DocumentMutationResult<R>[]>;
  insertManyChunked(documents: ManyDocuments<DocumentInput<T>>, chunkSize: number, concurrency?: number, hooks?: BulkWriteHooks): Promise<JsonDocumentMutationResult<T>[]>;
  async insertManyChunked(documents: unknown, chunkSize: number, concurrency = 1, hooks: BulkWriteHooks = {}): Promise<unknown> {
    rejectUnknownMembers(hooks, BULK_HOOK_OPTIONS, 'insertManyChunked hooks');
    return writeMany(this.#channel, documents, { ...hooks, chunkSize, concurrency, ordered: false, upsert: false, checkChunkSize: true });
  }

  /**
   * Inserts or replaces any number of documents by `_id` (CREATED, UPDATED or UNCHANGED each, input order).
   * An AsyncIterable resolves to counts, as with insertMany.
   * @example const statuses = (await products.upsertMany(list)).map((r) => r.status);
   */
  upsertMany(documents: AsyncIterable<DocumentInput<T> | Document<unknown>>, options?: UpsertManyOptions): Promise<BulkWriteSummary>;
  upsertMany<R>(documents: Iterable<Document<R>>, options?: UpsertManyOptions): Promise<DocumentMutationResult<R>[]>;
  upsertMany(documents: ManyDocuments<DocumentInput<T>>, options?: UpsertManyOptions): Promise<JsonDocumentMutationResult<T>[]>;
  async upsertMany(documents: unknown, options: UpsertManyOptions = {}): Promise<unknown> {
    rejectUnknownMembers(options, UPSERT_MANY_OPTIONS, 'UpsertManyOptions');
    return writeMany(this.#channel, documents, { ...options, ordered: false, upsert: true, checkChunkSize: false });
  }

  /**
   * upsertMany in chunks of `chunkSize` (1 to the insertMany limit), `concurrency` chunks at a time.
   * @example await products.upsertManyChunked(bigList, 10, 4);
   */
  upsertManyChunked(documents: AsyncIterable<DocumentInput<T> | Document<unknown>>, chunkSize: number, concurrency?: number, hooks?: BulkWriteHooks): Promise<BulkWriteSummary>;
  upsertManyChunked<R>(documents: Iterable<Document<R>>, chunkSize: number, concurrency?: number, hooks?: BulkWriteHooks): Promise<DocumentMutationResult<R>[]>;
  upsertManyChunked(documents: ManyDocuments<DocumentInput<T>>, chunkSize: number, concurrency?: number, hooks?: BulkWriteHooks): Promise<JsonDocumentMutationResult<T>[]>;
  async upsertManyChunked(documents: unknown, chunkSize: number, concurrency = 1, hooks: BulkWriteHooks = {}): Promise<unknown> {
    rejectUnknownMembers(hooks, BULK_HOOK_OPTIONS, 'upsertManyChunked hooks');
    return writeMany(this.#channel, documents, { ...hooks, chunkSize, concurrency, ordered: false, upsert: true, checkChunkSize: true });
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

  // ---- updates --------------------------------------------------------------------------------

  /**
   * Updates the first matching document (with `upsert`, inserts when none matches).
   * @example
   * await products.updateOne({ _id: 'lamp' }, { $inc: { price: 1 } });
   * await products.updateOne(UpdateQuery.builder().where('_id').isEqualsTo('lamp').set('price', 20).upsert());
   */
  updateOne(query: UpdateQueryLike): Promise<UpdateResult>;
  updateOne(filter: FilterLike<T>, update: UpdateFilter<T>, options?: { upsert?: boolean; sort?: DocumentSort<T> }): Promise<UpdateResult>;
  async updateOne(first: AnyFilter | UpdateQueryLike, update?: UpdateObject, options: { upsert?: boolean; sort?: AnyClause } = {}): Promise<UpdateResult> {
    rejectUnknownMembers(options, UPDATE_ONE_OPTIONS, 'updateOne options');
    const query = update === undefined ? updateQueryOf(first as UpdateQueryLike) : { filter: first as FilterLike, update, ...options };
    return updateOne(this.#channel, query);
  }

  /**
   * Updates every matching document (the server works a page per request; this loops).
   * `onProgress` reports after each page (done = documents matched so far).
   * @example await products.updateMany({ category: 'lighting' }, { $set: { onSale: true } }, { onProgress: (p) => console.log(p.done) });
   */
  updateMany(query: UpdateQueryLike, options?: ManyChangeOptions): Promise<UpdateResult>;
  updateMany(filter: FilterLike<T>, update: UpdateFilter<T>, options?: { upsert?: boolean } & ManyChangeOptions): Promise<UpdateResult>;
  async updateMany(first: AnyFilter | UpdateQueryLike, second?: UpdateObject | ManyChangeOptions, third: { upsert?: boolean } & ManyChangeOptions = {}): Promise<UpdateResult> {
    const queryForm = isUpdateQueryForm(second);
    const { onProgress, ...options } = (queryForm ? (second ?? {}) : third) as { upsert?: boolean } & ManyChangeOptions;
    rejectUnknownMembers(options, UPDATE_MANY_OPTIONS, 'updateMany options');
    const query = queryForm ? updateQueryOf(first as UpdateQueryLike) : { filter: first as FilterLike, update: second as UpdateObject, ...options };
    return updateMany(this.#channel, query, onProgress);
  }

  /**
   * Updates the first matching document and returns it (as before the update, or after with
   * returnDocument 'after') with the update counts.
   * @example
   * const { document } = await products.findOneAndUpdate({ _id: 'lamp' }, { $inc: { stock: -1 } }, { returnDocument: 'after' });
   */
  findOneAndUpdate<R>(query: UpdateQueryLike, as: ResultMapping<R>): Promise<FindAndUpdateResult<DocumentResult<R>>>;
  findOneAndUpdate(query: UpdateQueryLike): Promise<FindAndUpdateResult<FoundDocument<T>>>;
  findOneAndUpdate(filter: FilterLike<T>, update: UpdateFilter<T>, options?: FindOneAndUpdateOptions): Promise<FindAndUpdateResult<FoundDocument<T>>>;
  async findOneAndUpdate(first: AnyFilter | UpdateQueryLike, second?: UpdateObject | ResultMapping<unknown>, options: FindOneAndUpdateOptions = {}): Promise<FindAndUpdateResult<unknown>> {
    const [query, as] = changeArgs(first, second, options, 'update');
    return findOneAndChange(this.#channel, 'findOneAndUpdate', { update: updateJson(query, 'findOneAndUpdate') }, query, as);
  }

  /**
   * Replaces the first matching document (with `upsert`, inserts when none matches) and returns it.
   * @example await products.findOneAndReplace({ _id: 'lamp' }, { name: 'Desk lamp', price: 20 }, { upsert: true });
   */
  findOneAndReplace<R>(query: UpdateQueryLike, as: ResultMapping<R>): Promise<FindAndUpdateResult<DocumentResult<R>>>;
  findOneAndReplace(query: UpdateQueryLike): Promise<FindAndUpdateResult<FoundDocument<T>>>;
  findOneAndReplace(filter: FilterLike<T>, replacement: DocumentInput<T> | Document<unknown>, options?: FindOneAndUpdateOptions): Promise<FindAndUpdateResult<FoundDocument<T>>>;
  async findOneAndReplace(first: AnyFilter | UpdateQueryLike, second?: object, options: FindOneAndUpdateOptions = {}): Promise<FindAndUpdateResult<unknown>> {
    const [query, as] = changeArgs(first, second, options, 'replacement');
    if (query.replacement === undefined) throw new TypeError('findOneAndReplace: the query needs a replacement (UpdateQuery.builder().replaceBy(...))');
    return findOneAndChange(this.#channel, 'findOneAndReplace', { replacement: documentJson(query.replacement, 'replacement') }, query, as);
  }

  // ---- deletes --------------------------------------------------------------------------------

  /**
   * Deletes the first matching document and returns it (undefined when none matched).
   * @example const removed = await products.findOneAndDelete({ stock: 0 }, { sort: { price: 1 } });
   */
  findOneAndDelete<R>(query: FilterLike<T> | DeleteQueryLike, as: ResultMapping<R>): Promise<DocumentResult<R> | undefined>;
  findOneAndDelete(query: FilterLike<T> | DeleteQueryLike, options?: { sort?: DocumentSort<T>; projection?: DocumentProjection<T> }): Promise<FoundDocument<T> | undefined>;
  async findOneAndDelete(first: AnyFilter | DeleteQueryLike, second?: { sort?: AnyClause; projection?: AnyClause } | ResultMapping<unknown>): Promise<unknown> {
    const as = typeof second === 'function' ? second : undefined;
    const options = typeof second === 'function' ? {} : (second ?? {});
    const { filter, sort } = deleteQueryOf(first);
    const response = await this.#run({ findOneAndDelete: queryParts({ filter: filter ?? {}, sort: options.sort ?? sort, projection: options.projection }) });
    return mapOne((response.data as { document: JsonObject | null } | undefined)?.document ?? undefined, as);
  }

  /**
   * Deletes the first matching document (sorted, when a sort is given); returns 0 or 1.
   * @example
   * await products.deleteOne({ _id: 'lamp' });
   * await products.deleteOne(DeleteQuery.deleteByVector([0.9, 0.1, 0.1]));
   */
  deleteOne(query: FilterLike<T> | DeleteQueryLike, options?: { sort?: DocumentSort<T> }): Promise<number>;
  async deleteOne(query: AnyFilter | DeleteQueryLike, options: { sort?: AnyClause } = {}): Promise<number> {
    const { filter, sort } = deleteQueryOf(query);
    const response = await this.#run({ deleteOne: queryParts({ filter: filter ?? {}, sort: options.sort ?? sort }) });
    return response.status?.deletedCount as number;
  }

  /**
   * Deletes the document with this id; returns 0 or 1.
   * @example await products.deleteById('lamp');
   */
  async deleteById(id: DocumentId): Promise<number> {
    return this.deleteOne({ _id: toJson(id, '_id') } as FilterLike<T>);
  }

  /**
   * Deletes every matching document (looping while the server reports more); -1 when the filter is
   * empty (the collection is emptied at once and not counted).
   * `onProgress` reports after each page of deletions.
   * @example await products.deleteMany({ stock: 0 }, { onProgress: (p) => console.log(p.done, p.rate) });
   */
  deleteMany(query?: FilterLike<T> | DeleteQueryLike, options?: ManyChangeOptions): Promise<number>;
  async deleteMany(query: FilterLike | DeleteQueryLike = {}, options: ManyChangeOptions = {}): Promise<number> {
    rejectUnknownMembers(options, MANY_CHANGE_OPTIONS, 'deleteMany options');
    return deleteMany(this.#channel, filterJson(deleteQueryOf(query).filter), options.onProgress);
  }

  /**
   * Deletes every document of the collection (the collection stays).
   * @example await products.clear();
   */
  async clear(): Promise<void> {
    await this.#run({ deleteMany: {} });
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

  /** The database this collection belongs to. @example await products.db.deleteCollection(products.name); */
  get db(): VectorDB {
    return this.#db;
  }
}

/** updateMany(query, options?) rather than updateMany(filter, update, options?): no update operators second. */
function isUpdateQueryForm(second: unknown): boolean {
  if (second === undefined) return true;
  const keys = typeof second === 'object' && second !== null ? Object.keys(second) : [];
  return keys.length > 0 && keys.every((key) => key === 'onProgress');
}
