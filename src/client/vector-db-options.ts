/**
 * What a VectorDB is given besides its endpoint: VectorDBOptions (and DatabaseByIdOptions, their form for
 * `VectorDB.fromDatabaseId`), the target of `db.command` and the options of `db.graphql`, with what the
 * constructor checks of them (the keyspace name, the members VectorDBOptions takes, storage, bodyCacheBytes,
 * durability).
 */
import type { LimitsOption } from '../engine/limits.js';
import type { VectorProgress } from '../engine/progress.js';
import type { RerankerSpec } from '../providers/rerankers.js';
import type { EmbedderSpec } from '../providers/embedders.js';

export interface VectorDBOptions {
  /**
   * Limits of an embedded database: a preset, 'seed' (the default) or 'data-api' (the Data API server's
   * defaults), or overrides on top of one, e.g. `{ preset: 'data-api', maxCollections: 100 }`.
   */
  limits?: LimitsOption;
  /**
   * HNSW backend of an embedded database: 'auto' (default: our native addon when it was built at
   * install, else hnswlib-node when installed, else hnswlib-wasm), 'native-rows' (the addon: each vector
   * held once, built on both cores), 'wasm' or 'native' (hnswlib-node). An index saved by another
   * backend is rebuilt.
   */
  vectorBackend?: 'auto' | 'wasm' | 'native' | 'native-rows';
  /** Progress of long work, such as rebuilding a vector index. */
  onProgress?: (progress: VectorProgress) => void;
  /**
   * Where an embedded database lives: 'persistent' (default; LevelDB in Node and Electron's main process,
   * IndexedDB in a browser or renderer) or 'memory' (memory-level: tests, caches, ephemeral indexes; its
   * data is gone when the last VectorDB on it closes). The endpoint names the in-memory database.
   */
  storage?: 'persistent' | 'memory';
  /**
   * Memory for document bodies an embedded database keeps to answer reads without LevelDB, in bytes
   * (default 32 MiB; 0 keeps none): its row cache of values read holds up to this much, and each vector
   * collection's cache of search hits up to half as much. Only speed depends on it; `db.stats()` reports
   * what the caches hold (`cachedBytes`).
   */
  bodyCacheBytes?: number;
  /**
   * When an embedded database acknowledges a write: 'full' (default) once it is on disk (fsynced, shared by
   * concurrent writers), so it survives a power cut; 'relaxed' once the OS has it, which is faster for bulk
   * loads and caches: a crash of the process loses nothing, a crash of the OS or a power cut may lose the
   * last writes. An http(s) endpoint's server decides (`vectordb-local serve --durability`).
   */
  durability?: 'full' | 'relaxed';
  /**
   * Reranking providers of an embedded database, by the name a collection's `rerank.service.provider` (or a
   * findAndRerank `rerank` override) gives: a function `(query, passages) => scores`, the URL of an endpoint
   * speaking NVIDIA's reranking API, or `{ url, model?, batchSize?, apiKey?, timeoutMs? }` (default 30 000 ms a
   * call). `rrf` is built in.
   */
  rerankers?: Readonly<Record<string, RerankerSpec>>;
  /**
   * Embedding providers of an embedded database (`$vectorize`), by the name a collection's
   * `vector.service.provider` gives: a function `(texts, context) => vectors`, the URL of an endpoint speaking
   * the OpenAI embeddings API (Ollama, LM Studio, vLLM, text-embeddings-inference, OpenAI), `{ url, model?,
   * dimension?, batchSize?, apiKey?, timeoutMs?, sendDimensions? }` or `{ embed, model?, dimension?, batchSize? }`.
   */
  embedders?: Readonly<Record<string, EmbedderSpec>>;
  /**
   * The key embedding providers are called with for `$vectorize` (astra-db-ts's `embeddingApiKey`): sent to an
   * http(s) endpoint as the `x-embedding-api-key` header, handed in process to the provider as `context.apiKey`
   * (an HTTP provider sends it as its bearer token). A collection may have its own: `db.collection(name, {
   * embeddingApiKey })`; one command too: `db.command(command, { embeddingApiKey })`.
   */
  embeddingApiKey?: string;
  /**
   * The key reranking providers are called with for `findAndRerank` (astra-db-ts's `rerankingApiKey`): sent to an
   * http(s) endpoint as the `x-rerank-api-key` header, handed in process to the provider (an HTTP provider sends
   * it as its bearer token, a function gets it as `context.apiKey`). Per collection and per command as
   * `embeddingApiKey`.
   */
  rerankingApiKey?: string;
}

export interface GraphqlOptions {
  variables?: Record<string, unknown>;
  operationName?: string;
  /** The keyspace whose schema runs the request (default: the current keyspace). */
  keyspace?: string;
  /** Run on the keyspaces-and-collections schema of /api/graphql-schema instead. */
  schema?: boolean;
}

/** Where `db.command` runs a command (astra-db-ts's convention). */
export interface CommandTargetOptions {
  /** Default: the working keyspace; `null`: the general (database) level, e.g. for `findKeyspaces`. */
  keyspace?: string | null;
  /** A collection of the keyspace. */
  collection?: string;
  /** The embedding provider's key for this command (default: the VectorDB's `embeddingApiKey`). */
  embeddingApiKey?: string;
  /** The reranking provider's key for this command (default: the VectorDB's `rerankingApiKey`). */
  rerankingApiKey?: string;
}

/** What `db.collection(name, options)` takes (astra-db-ts's CollectionOptions, of those that apply here). */
export interface CollectionOptions {
  /** The embedding provider's key for this collection's commands (default: the VectorDB's `embeddingApiKey`). */
  embeddingApiKey?: string;
  /** The reranking provider's key for this collection's commands (default: the VectorDB's `rerankingApiKey`). */
  rerankingApiKey?: string;
}

/** Where and how `VectorDB.fromDatabaseId` opens a database; the home plays the role of the environment. */
export interface DatabaseByIdOptions extends VectorDBOptions {
  /** Default `default_keyspace`; it must exist. */
  keyspace?: string;
  /** When given, the database must be in this region. */
  region?: string;
  /** The home directory (default: `$VECTORDB_HOME`, else `~/.vectordb-local`). */
  home?: string;
}

const KEYSPACE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,47}$/;
export const VECTOR_DB_OPTIONS: ReadonlySet<keyof VectorDBOptions> = new Set(['limits', 'vectorBackend', 'onProgress', 'storage', 'bodyCacheBytes', 'durability', 'rerankers', 'embedders', 'embeddingApiKey', 'rerankingApiKey']);
/** The members of the other options objects of VectorDB (a misspelt one is a TypeError: see rejectUnknownMembers). */
export const DATABASE_BY_ID_OPTIONS: ReadonlySet<keyof DatabaseByIdOptions> = new Set([...VECTOR_DB_OPTIONS, 'keyspace', 'region', 'home']);
export const GRAPHQL_OPTIONS: ReadonlySet<keyof GraphqlOptions> = new Set(['variables', 'operationName', 'keyspace', 'schema']);
export const COMMAND_TARGET_OPTIONS: ReadonlySet<keyof CommandTargetOptions> = new Set(['keyspace', 'collection', 'embeddingApiKey', 'rerankingApiKey']);
export const COLLECTION_OPTIONS: ReadonlySet<keyof CollectionOptions> = new Set(['embeddingApiKey', 'rerankingApiKey']);
export const REPAIR_OPTIONS: ReadonlySet<string> = new Set(['backup', 'onProgress']);

export function checkStorage(storage: unknown, remote: boolean): void {
  if (storage === undefined) return;
  if (storage !== 'persistent' && storage !== 'memory') throw new TypeError(`VectorDBOptions.storage must be 'persistent' or 'memory', not ${JSON.stringify(storage)}`);
  if (remote) throw new TypeError('VectorDBOptions.storage applies to embedded databases only: an http(s) endpoint stores where its server does');
}

export function checkBodyCacheBytes(bytes: unknown, remote: boolean): number {
  if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0) throw new TypeError(`VectorDBOptions.bodyCacheBytes must be a whole number of bytes, 0 or more, not ${JSON.stringify(bytes)}`);
  if (remote) throw new TypeError('VectorDBOptions.bodyCacheBytes applies to embedded databases only: an http(s) endpoint caches in its server (vectordb-local serve --body-cache-mb)');
  return bytes;
}

export function checkDurability(durability: unknown, remote: boolean): 'full' | 'relaxed' {
  if (durability !== 'full' && durability !== 'relaxed') throw new TypeError(`VectorDBOptions.durability must be 'full' or 'relaxed', not ${JSON.stringify(durability)}`);
  if (remote) throw new TypeError('VectorDBOptions.durability applies to embedded databases only: an http(s) endpoint syncs as its server does (vectordb-local serve --durability)');
  return durability;
}

export function checkKeyspaceName(keyspace: unknown): void {
  if (typeof keyspace !== 'string' || !KEYSPACE_NAME.test(keyspace)) {
    throw new TypeError(`VectorDB: keyspace '${String(keyspace)}' is not a valid name (letters, digits and underscores, starting with a letter or underscore, at most 48 characters)`);
  }
}
