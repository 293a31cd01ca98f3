/**
 * VectorDBLocalStore: LangChain.js's VectorStore over one vectordb-local collection, through the public client
 * only, so it works on a data directory in process and on any Data API endpoint alike. Metadata filters are
 * Data API filters; scores are the Data API's `$similarity` (higher is nearer). Documents are stored in the
 * layout of documents.ts.
 */
import type { Callbacks } from '@langchain/core/callbacks/manager';
import type { DocumentInterface } from '@langchain/core/documents';
import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import { maximalMarginalRelevance } from '@langchain/core/utils/math';
import { VectorStore, type MaxMarginalRelevanceSearchOptions } from '@langchain/core/vectorstores';
import { VectorDB, type FilterObject, type JsonDocumentResult, type SimilarityMetric, type VectorDBCollection, type VectorDBOptions } from '../../index.js';
import { randomUuid } from '../../platform/random.js';
import { rejectUnknownMembers } from '../../client/wire.js';
import { langchainDocument, storedDocument, vectorOf } from './documents.js';

/** A metadata filter: a Data API filter on the stored documents' fields, e.g. `{ source: 'faq', year: { $gte: 2024 } }`. */
export type VectorDBLocalFilter = FilterObject;

/** Where the database is when the store opens it itself: the arguments of `new VectorDB(token, endpoint, keyspace, options)`. */
export interface VectorDBLocalConnection {
  token: string;
  /** A data directory, a `file:` URL or an `http(s)://` Data API endpoint. */
  endpoint: string;
  keyspace?: string;
  options?: VectorDBOptions;
}

export interface VectorDBLocalStoreArgs {
  /** An open `VectorDB` (the store never closes it), or where to open one (then `close()` closes it). */
  db: VectorDB | VectorDBLocalConnection;
  /** The collection; created when missing, with the embeddings' dimension, at the first write (or use, given `dimension`). */
  collectionName: string;
  /** The dimension of a collection the store creates: known at once, so that even a first search creates it. */
  dimension?: number;
  /** The metric of a collection the store creates: `cosine` unless said. */
  metric?: SimilarityMetric;
  /** The field holding a document's text: `text`, as LangChain's AstraDBVectorStore, which reads the same documents. */
  contentKey?: string;
  /** Documents per write request (the database's insertMany limit unless said). */
  chunkSize?: number;
  /** Write requests in flight at once (1 unless said). */
  concurrency?: number;
}

/** What `delete` takes: the ids to delete, or a filter (`{}` deletes every document). */
export interface VectorDBLocalDeleteParams {
  ids?: readonly string[];
  filter?: VectorDBLocalFilter;
}

/** The members each argument object takes (a misspelt one, `contentkey`, is a TypeError, never ignored). */
const STORE_ARGS: ReadonlySet<keyof VectorDBLocalStoreArgs> = new Set(['db', 'collectionName', 'dimension', 'metric', 'contentKey', 'chunkSize', 'concurrency']);
const CONNECTION_ARGS: ReadonlySet<keyof VectorDBLocalConnection> = new Set(['token', 'endpoint', 'keyspace', 'options']);
const DELETE_PARAMS: ReadonlySet<keyof VectorDBLocalDeleteParams> = new Set(['ids', 'filter']);

/**
 * A LangChain vector store on a vectordb-local collection.
 * @example
 * const store = await VectorDBLocalStore.fromTexts(['a cat', 'a dog'], [{ kind: 'pet' }, { kind: 'pet' }], embeddings,
 *   { db: { token: 'token', endpoint: './data' }, collectionName: 'notes' });
 * const hits = await store.similaritySearch('kitten', 1, { kind: 'pet' });
 * await store.close();
 */
export class VectorDBLocalStore extends VectorStore {
  declare FilterType: VectorDBLocalFilter;

  readonly collectionName: string;
  readonly contentKey: string;
  readonly #db: VectorDB;
  readonly #ownsDb: boolean;
  readonly #args: VectorDBLocalStoreArgs;
  #collection: VectorDBCollection | undefined;

  _vectorstoreType(): string {
    return 'vectordb-local';
  }

  constructor(embeddings: EmbeddingsInterface, args: VectorDBLocalStoreArgs) {
    super(embeddings, args as unknown as Record<string, unknown>);
    if (typeof args?.collectionName !== 'string' || args.collectionName === '') throw new TypeError('VectorDBLocalStore: collectionName is required');
    if (args.db === undefined || args.db === null) throw new TypeError('VectorDBLocalStore: db is required (a VectorDB, or { token, endpoint })');
    rejectUnknownMembers(args, STORE_ARGS, 'VectorDBLocalStoreArgs');
    if (!(args.db instanceof VectorDB)) rejectUnknownMembers(args.db, CONNECTION_ARGS, 'VectorDBLocalStoreArgs.db');
    this.collectionName = args.collectionName;
    this.contentKey = args.contentKey ?? 'text';
    this.#args = args;
    this.#ownsDb = !(args.db instanceof VectorDB);
    this.#db = args.db instanceof VectorDB ? args.db : new VectorDB(args.db.token, args.db.endpoint, args.db.keyspace, args.db.options);
  }

  /** The database the store works on. */
  get db(): VectorDB {
    return this.#db;
  }

  /**
   * The collection, created when missing and a dimension is known (a write's vectors, or `dimension`);
   * a read of a missing collection without `dimension` throws CollectionNotFoundException.
   */
  async collection(dimension = this.#args.dimension): Promise<VectorDBCollection> {
    if (this.#collection !== undefined) return this.#collection;
    const exists = await this.#db.isCollectionExists(this.collectionName);
    this.#collection =
      exists || dimension === undefined
        ? await this.#db.collection(this.collectionName)
        : await this.#db.createCollection(this.collectionName, dimension, this.#args.metric ?? 'cosine');
    return this.#collection;
  }

  /** Embeds the documents' text and stores them; resolves to their ids (`options.ids`, else each document's `id`, else new UUIDs). */
  async addDocuments(documents: DocumentInterface[], options?: { ids?: string[] }): Promise<string[]> {
    const vectors = await this.embeddings.embedDocuments(documents.map((document) => document.pageContent));
    return this.addVectors(vectors, documents, options);
  }

  /** Stores documents with their vectors, replacing any of the same id; resolves to their ids. */
  async addVectors(vectors: number[][], documents: DocumentInterface[], options?: { ids?: string[] }): Promise<string[]> {
    if (vectors.length !== documents.length) throw new TypeError(`VectorDBLocalStore.addVectors: ${vectors.length} vectors for ${documents.length} documents`);
    if (options?.ids !== undefined && options.ids.length !== documents.length) throw new TypeError(`VectorDBLocalStore.addVectors: ${options.ids.length} ids for ${documents.length} documents`);
    if (documents.length === 0) return [];
    const ids = documents.map((document, i) => options?.ids?.[i] ?? document.id ?? randomUuid());
    const stored = documents.map((document, i) => storedDocument(ids[i]!, vectors[i]!, document, this.contentKey));
    const collection = await this.collection(vectors[0]!.length);
    const { chunkSize, concurrency } = this.#args;
    await collection.upsertMany(stored, { ...(chunkSize !== undefined ? { chunkSize } : {}), ...(concurrency !== undefined ? { concurrency } : {}) });
    return ids;
  }

  /** The `k` documents nearest to a vector (matching `filter`), best first, with their `$similarity`. */
  async similaritySearchVectorWithScore(query: number[], k: number, filter?: VectorDBLocalFilter): Promise<[DocumentInterface, number][]> {
    const hits = await this.#nearest(query, k, filter, false);
    return hits.map((hit) => [langchainDocument(hit, this.contentKey), hit.$similarity as number]);
  }

  /**
   * Maximal marginal relevance: the `fetchK` (20) nearest documents, of which `k` are chosen for being near the
   * query and far from each other (`lambda` 0.5: 1 is nearness alone, 0 diversity alone).
   */
  override async maxMarginalRelevanceSearch(query: string, options: MaxMarginalRelevanceSearchOptions<this['FilterType']>, _callbacks?: Callbacks): Promise<DocumentInterface[]> {
    const vector = await this.embeddings.embedQuery(query);
    const candidates = await this.#nearest(vector, Math.max(options.fetchK ?? 20, options.k), options.filter, true);
    if (candidates.length === 0) return [];
    const chosen = maximalMarginalRelevance(vector, candidates.map(vectorOf), options.lambda ?? 0.5, options.k);
    return chosen.map((index) => langchainDocument(candidates[index]!, this.contentKey));
  }

  /** Deletes by ids or by filter (`{ filter: {} }` deletes every document); one of the two is required. */
  override async delete(params?: VectorDBLocalDeleteParams): Promise<void> {
    if (params !== undefined) rejectUnknownMembers(params, DELETE_PARAMS, 'VectorDBLocalStore.delete params');
    if (params?.ids === undefined && params?.filter === undefined) throw new TypeError('VectorDBLocalStore.delete: give { ids } or { filter } ({ filter: {} } deletes every document)');
    if (params.ids !== undefined && params.filter !== undefined) throw new TypeError('VectorDBLocalStore.delete: give { ids } or { filter }, not both');
    const collection = await this.collection();
    if (params.ids !== undefined) {
      if (params.ids.length > 0) await collection.deleteMany({ _id: { $in: [...params.ids] } });
    } else {
      await collection.deleteMany(params.filter!);
    }
  }

  /** Closes the database if the store opened it (a `VectorDB` passed in stays open). */
  async close(): Promise<void> {
    if (this.#ownsDb) await this.#db.close();
  }

  /** A store of these texts, with one metadata object for all or one per text. */
  static override async fromTexts(texts: string[], metadatas: object[] | object, embeddings: EmbeddingsInterface, args: VectorDBLocalStoreArgs): Promise<VectorDBLocalStore> {
    const documents = texts.map((pageContent, i) => ({ pageContent, metadata: (Array.isArray(metadatas) ? metadatas[i] : metadatas) ?? {} }));
    return VectorDBLocalStore.fromDocuments(documents, embeddings, args);
  }

  /** A store of these documents (added at once). */
  static override async fromDocuments(documents: DocumentInterface[], embeddings: EmbeddingsInterface, args: VectorDBLocalStoreArgs): Promise<VectorDBLocalStore> {
    const store = new VectorDBLocalStore(embeddings, args);
    await store.addDocuments(documents);
    return store;
  }

  async #nearest(vector: number[], k: number, filter: VectorDBLocalFilter | undefined, withVectors: boolean): Promise<JsonDocumentResult[]> {
    const collection = await this.collection();
    return collection.findVector(vector, {
      limit: k,
      includeSimilarity: true,
      ...(filter !== undefined ? { filter } : {}),
      ...(withVectors ? { projection: { '*': 1 } } : {}),
    });
  }
}
