/**
 * VectorDBCollection: document operations on one collection, built as Data API commands and run through
 * the database's transport: the writes here (inserts, upserts, updates, deletes), the reads in
 * collection-reads.ts, which it extends. Writes take JSON documents, JSON strings or `Document<R>`s and return
 * `DocumentResult<R>`s when given a class or a mapper. Many-document operations loop over the protocol's
 * chunks and pages (inserts chunk by the insertMany limit, updateMany and deleteMany repeat while the server
 * reports more).
 */
import type { CommandResponse } from '../commands/response.js';
import type { JsonObject } from '../query/json.js';
import { changeArgs, deleteMany, findOneAndChange, mapOne, updateJson, updateMany, updateOne } from './collection-commands.js';
import type { FindOneAndUpdateOptions, InsertManyOptions, ManyChangeOptions, ManyDocuments, UpsertManyOptions } from './collection-options.js';
import { CollectionReads } from './collection-reads.js';
import { collectionChannel } from './database-channel.js';
import type { ProviderKeys } from './provider-keys.js';
import { documentJson, type Document, type DocumentInput, type JsonDocument } from './documents.js';
import { deleteQueryOf, type DeleteQueryLike } from './delete-query.js';
import { filterJson, type FilterLike } from './filter.js';
import { insertOne, upsertOne, writeMany, type BulkWriteHooks, type BulkWriteSummary, type CollectionChannel } from './inserts.js';
import type { DocumentMutationResult, DocumentResult, FindAndUpdateResult, FoundDocument, JsonDocumentMutationResult, ResultMapping } from './results.js';
import { queryParts } from './select-query.js';
import type { DocumentProjection, DocumentSort, UpdateFilter } from './typed-queries.js';
import type { DocumentId, UpdateResult } from './types.js';
import { updateQueryOf, type UpdateObject, type UpdateQueryLike } from './update-query.js';
// Type-only, back to vector-db.ts (which imports this file): `db` must be the VectorDB class type itself. An
// interface of its methods would not be assignable where users' code takes a VectorDB (its #private fields make
// the class type nominal), and declaration merging would show users another name for it.
import type { VectorDB } from './vector-db.js';
import { rejectUnknownMembers, toJson } from './wire.js';

// What the implementations take: every typed form is one of these (typed-queries.ts narrows them per T).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFilter = FilterLike<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyClause = any; // a sort or a projection: the overloads check the typed forms

/** The members each options object takes (a typo would otherwise be ignored: see rejectUnknownMembers). */
const BULK_HOOKS = ['onProgress', 'onFailure', 'total'] as const;
const INSERT_MANY_OPTIONS: ReadonlySet<keyof InsertManyOptions> = new Set(['chunkSize', 'ordered', 'concurrency', ...BULK_HOOKS]);
const UPSERT_MANY_OPTIONS: ReadonlySet<keyof UpsertManyOptions> = new Set(['chunkSize', 'concurrency', ...BULK_HOOKS]);
const BULK_HOOK_OPTIONS: ReadonlySet<keyof BulkWriteHooks> = new Set(BULK_HOOKS);
const UPDATE_ONE_OPTIONS: ReadonlySet<string> = new Set(['upsert', 'sort']);
const UPDATE_MANY_OPTIONS: ReadonlySet<string> = new Set(['upsert', 'onProgress']);
const MANY_CHANGE_OPTIONS: ReadonlySet<keyof ManyChangeOptions> = new Set(['onProgress']);
const FIND_ONE_AND_DELETE_OPTIONS: ReadonlySet<string> = new Set(['sort', 'projection']);
const DELETE_ONE_OPTIONS: ReadonlySet<string> = new Set(['sort']);

/**
 * One collection. Get it from `db.createCollection(...)` or `db.collection(name)`; type its documents
 * with a type parameter (`db.collection<Product>('products')`).
 * @typeParam T the documents' type (default: schemaless {@link JsonDocument})
 */
export class VectorDBCollection<T extends object = JsonDocument> extends CollectionReads<T> {
  readonly #db: VectorDB;
  readonly #channel: CollectionChannel;

  /** Prefer `db.collection(name, options?)`, which checks that the collection exists. */
  constructor(db: VectorDB, keyspace: string, name: string, keys: ProviderKeys = {}) {
    super(db, keyspace, name, keys);
    this.#db = db;
    this.#channel = collectionChannel(db, keyspace, name, keys);
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
    rejectUnknownMembers(options, FIND_ONE_AND_DELETE_OPTIONS, 'findOneAndDelete options');
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
    rejectUnknownMembers(options, DELETE_ONE_OPTIONS, 'deleteOne options');
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
