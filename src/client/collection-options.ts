/**
 * The option objects of VectorDBCollection's methods (inserts, vector search, findOneAnd...).
 */
import type { FilterLike } from './filter.js';
import type { BulkWriteHooks } from './inserts.js';
import type { ProgressListener } from './progress.js';
import type { Projection, ReturnDocument, Sort } from './types.js';

/** Options of insertMany (with the bulk-write hooks: onProgress, onFailure, total). */
export interface InsertManyOptions extends BulkWriteHooks {
  /** Documents per request (default: the database's insertMany limit, 20 by default). */
  chunkSize?: number;
  /** Stop at the first failure (default true with concurrency 1; must be false with concurrency > 1). */
  ordered?: boolean;
  /** Chunks sent at once (default 1). */
  concurrency?: number;
}

/** Options of upsertMany (with the bulk-write hooks: onProgress, onFailure, total). */
export interface UpsertManyOptions extends BulkWriteHooks {
  chunkSize?: number;
  concurrency?: number;
}

/** Options of findVector. */
export interface FindVectorOptions {
  filter?: FilterLike;
  /** At most this many (default 20, at most 1000). */
  limit?: number;
  includeSimilarity?: boolean;
  projection?: Projection;
  /** The HNSW candidate list size for this search, 1 to 4096 (ours, not the Data API's; see SelectQuery.efSearch). */
  efSearch?: number;
}

/** Options of findOneAndUpdate / findOneAndReplace in their (filter, change, options) form. */
export interface FindOneAndUpdateOptions {
  sort?: Sort;
  projection?: Projection;
  upsert?: boolean;
  returnDocument?: ReturnDocument;
}

/** Options of updateMany and deleteMany. */
export interface ManyChangeOptions {
  /** Called after each page of changes; `total` is unknown. */
  onProgress?: ProgressListener;
}

/** Many documents: an array or any iterable, or a JSON array string. */
export type ManyDocuments<D> = Iterable<D> | string;

/** Options of waitForIndex. */
export interface WaitForIndexOptions {
  /** Give up after this many milliseconds and resolve with `caughtUp: false` (default: wait as long as it takes). */
  timeoutMs?: number;
}

/** What waitForIndex resolves with. */
export interface IndexStatus {
  /** Whether the HNSW graph holds every acknowledged vector. */
  caughtUp: boolean;
  /** Vectors not in the graph yet (searches scan them exactly meanwhile). */
  pendingVectors: number;
}
