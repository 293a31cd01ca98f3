/**
 * VectorDBCollection: document operations on one collection, built as Data API commands and run
 * through the database's transport. Many-document operations loop over the protocol's pages and
 * chunks (insertMany chunks by the server's limit; find iterates pages; updateMany and deleteMany
 * repeat while the server reports more).
 */
import type { JsonObject, JsonValue } from '../query/json.js';
import { DataApiException } from './errors.js';
import type { DocumentId, Filter, InsertResult, JsonDocument, Page, SelectQuery, UpdateResult } from './types.js';
import type { VectorDB } from './vector-db.js';

export class FindIterable<T> implements AsyncIterable<T> {
  readonly #pages: () => AsyncGenerator<T[]>;

  constructor(pages: () => AsyncGenerator<T[]>) {
    this.#pages = pages;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.#pages()) yield* page;
  }

  /** Every result of every page. */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}

export class VectorDBCollection<T extends JsonDocument = JsonDocument> {
  readonly keyspace: string;
  readonly name: string;
  readonly #db: VectorDB;

  constructor(db: VectorDB, keyspace: string, name: string) {
    this.#db = db;
    this.keyspace = keyspace;
    this.name = name;
  }

  #run(command: JsonObject): ReturnType<VectorDB['run']> {
    return this.#db.run(command, { keyspace: this.keyspace, collection: this.name });
  }

  /**
   * Inserts one document; fails with DocumentAlreadyExistsException if its `_id` exists.
   * @example const { id } = await products.insertOne({ name: 'lamp', $vector: [0.1, 0.2, 0.3] });
   */
  async insertOne(document: T): Promise<InsertResult> {
    const response = await this.#run({ insertOne: { document } });
    return { id: (response.status?.insertedIds as DocumentId[])[0]! };
  }

  /**
   * Inserts any number of documents, in chunks of the server's per-request limit, in order.
   * Throws on the first chunk with a failure; `error.response` has what that chunk inserted.
   */
  async insertMany(documents: readonly T[], options: { chunkSize?: number; ordered?: boolean } = {}): Promise<InsertResult[]> {
    const chunkSize = options.chunkSize ?? (await this.#db.insertManyLimit());
    const results: InsertResult[] = [];
    for (let i = 0; i < documents.length; i += chunkSize) {
      const chunk = documents.slice(i, i + chunkSize);
      const response = await this.#run({ insertMany: { documents: chunk as JsonValue[], options: { ordered: options.ordered ?? true } } });
      for (const id of (response.status?.insertedIds ?? []) as DocumentId[]) results.push({ id });
    }
    return results;
  }

  /** The document with this id, or undefined. */
  async findById(id: DocumentId, projection?: JsonObject): Promise<T | undefined> {
    return this.findOne({ filter: { _id: id as JsonValue }, ...(projection ? { projection } : {}) });
  }

  /** The first document the query selects, or undefined. */
  async findOne(query: SelectQuery = {}): Promise<T | undefined> {
    const options: JsonObject = {};
    if (query.includeSimilarity) options.includeSimilarity = true;
    const response = await this.#run({ findOne: { ...queryParts(query), options } });
    const data = response.data as { document: T | null } | undefined;
    return data?.document ?? undefined;
  }

  /**
   * The documents nearest to a vector, best first (at most `limit`, default 20, at most 1000).
   * @example const similar = await products.findVector([0.1, 0.2, 0.3], { filter: { category: 'lamp' }, limit: 5, includeSimilarity: true });
   */
  async findVector(vector: readonly number[] | Float32Array, options: { filter?: Filter; limit?: number; includeSimilarity?: boolean; projection?: JsonObject } = {}): Promise<T[]> {
    const page = await this.findPage({
      sort: { $vector: Array.from(vector) },
      ...(options.filter ? { filter: options.filter } : {}),
      ...(options.projection ? { projection: options.projection } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.includeSimilarity ? { includeSimilarity: true } : {}),
    });
    return page.results;
  }

  /** The document nearest to a vector, or undefined when no document has a vector. */
  async findOneByVector(vector: readonly number[] | Float32Array, options: { filter?: Filter; includeSimilarity?: boolean } = {}): Promise<T | undefined> {
    return this.findOne({ sort: { $vector: Array.from(vector) }, ...(options.filter ? { filter: options.filter } : {}), ...(options.includeSimilarity ? { includeSimilarity: true } : {}) });
  }

  /** One page of results; pass `pageState` back to get the next one. */
  async findPage(query: SelectQuery = {}): Promise<Page<T>> {
    const options: JsonObject = {};
    if (query.limit !== undefined) options.limit = query.limit;
    if (query.skip !== undefined) options.skip = query.skip;
    if (query.pageState) options.pageState = query.pageState;
    if (query.includeSimilarity) options.includeSimilarity = true;
    const response = await this.#run({ find: { ...queryParts(query), options } });
    const data = response.data as { documents: T[]; nextPageState: string | null };
    return { results: data.documents, pageState: data.nextPageState ?? null };
  }

  /**
   * Every result of the query, fetching page after page as you iterate.
   * @example for await (const doc of products.find({ filter: { color: 'red' } })) console.log(doc);
   */
  find(query: SelectQuery = {}): FindIterable<T> {
    const self = this;
    return new FindIterable<T>(async function* pages() {
      let pageState: string | undefined = query.pageState;
      do {
        const page = await self.findPage({ ...query, ...(pageState ? { pageState } : {}) });
        yield page.results;
        pageState = page.pageState ?? undefined;
      } while (pageState);
    });
  }

  /** Every document of the collection. */
  findAll(): FindIterable<T> {
    return this.find({});
  }

  async updateOne(filter: Filter, update: JsonObject, options: { upsert?: boolean; sort?: SelectQuery['sort'] } = {}): Promise<UpdateResult> {
    const command: JsonObject = { filter, update, options: { upsert: options.upsert ?? false } };
    if (options.sort) command.sort = options.sort as JsonObject;
    const response = await this.#run({ updateOne: command });
    return updateResultOf(response.status ?? {});
  }

  /** Updates every matching document (the server works a page per request; this loops). */
  async updateMany(filter: Filter, update: JsonObject, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    const total: UpdateResult = { matchedCount: 0, modifiedCount: 0 };
    let pageState: string | undefined;
    do {
      const commandOptions: JsonObject = { upsert: options.upsert ?? false };
      if (pageState) commandOptions.pageState = pageState;
      const response = await this.#run({ updateMany: { filter, update, options: commandOptions } });
      const status = response.status ?? {};
      const page = updateResultOf(status);
      total.matchedCount += page.matchedCount;
      total.modifiedCount += page.modifiedCount;
      if (page.upsertedId !== undefined) total.upsertedId = page.upsertedId;
      pageState = typeof status.nextPageState === 'string' ? status.nextPageState : undefined;
    } while (pageState);
    return total;
  }

  /** Deletes the first matching document; returns how many were deleted (0 or 1). */
  async deleteOne(filter: Filter, options: { sort?: SelectQuery['sort'] } = {}): Promise<number> {
    const command: JsonObject = { filter };
    if (options.sort) command.sort = options.sort as JsonObject;
    const response = await this.#run({ deleteOne: command });
    return response.status?.deletedCount as number;
  }

  /** Deletes every matching document (looping while the server reports more); -1 when the filter is empty. */
  async deleteMany(filter: Filter = {}): Promise<number> {
    let deleted = 0;
    for (;;) {
      const response = await this.#run({ deleteMany: { filter } });
      const count = response.status?.deletedCount as number;
      if (count === -1) return -1;
      deleted += count;
      if (response.status?.moreData !== true) return deleted;
    }
  }

  /** Counts matching documents up to `upperBound` (the server counts at most 1000). */
  async countDocuments(filter: Filter = {}, upperBound = 1000): Promise<number> {
    const response = await this.#run({ countDocuments: { filter } });
    const count = response.status?.count as number;
    if (response.status?.moreData === true || count > upperBound) {
      throw new DataApiException({
        errors: [{ id: '', family: 'REQUEST', scope: '', errorCode: 'TOO_MANY_DOCUMENTS_TO_COUNT', title: 'Too many documents to count', message: `More than ${Math.min(count, upperBound)} documents match; narrow the filter.` }],
      });
    }
    return count;
  }

  async estimatedDocumentCount(): Promise<number> {
    const response = await this.#run({ estimatedDocumentCount: {} });
    return response.status?.count as number;
  }
}

function queryParts(query: SelectQuery): JsonObject {
  const parts: JsonObject = {};
  if (query.filter) parts.filter = query.filter;
  if (query.projection) parts.projection = query.projection as JsonObject;
  if (query.sort) parts.sort = query.sort as JsonObject;
  return parts;
}

function updateResultOf(status: JsonObject): UpdateResult {
  const result: UpdateResult = { matchedCount: status.matchedCount as number, modifiedCount: status.modifiedCount as number };
  if (status.upsertedId !== undefined) result.upsertedId = status.upsertedId as DocumentId;
  return result;
}
