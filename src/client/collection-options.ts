/**
 * The option objects of VectorDBCollection's methods (inserts, vector search, findOneAnd...).
 */
import type { FilterLike } from './filter.js';
import type { BulkWriteHooks } from './inserts.js';
import type { ProgressListener } from './progress.js';
import type { Projection, ReturnDocument, Sort, Vector } from './types.js';

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

/** findAndRerank's sort: one text for both reads (needs vectorize), or the vector and the lexical query apart. */
export type HybridSort = { $hybrid: string | { $vector?: Vector | null; $vectorize?: string | null; $lexical?: string | null } };

/** Options of findAndRerank (the Data API's; `includeScores` is always on here: every result has its scores). */
export interface FindAndRerankOptions {
  filter?: FilterLike;
  projection?: Projection;
  /** Documents returned (default 10). */
  limit?: number;
  /** Documents each read contributes, 1 to 100 (default 50), or per read. */
  hybridLimits?: number | { $vector?: number; $lexical?: number };
  /** The field whose text the reranker reads; documents without it are dropped. */
  rerankOn?: string;
  /** The text the reranker compares the passages with. */
  rerankQuery?: string;
  includeSortVector?: boolean;
  /** A reranking service for this command instead of the collection's. */
  rerank?: { provider: string; modelName?: string; authentication?: Record<string, unknown>; parameters?: Record<string, unknown> };
}

/** The scores of a reranked document (the Data API's `status.documentResponses[i].scores`). */
export interface RerankScores {
  $rerank: number;
  /** The vector read's similarity, null when only the lexical read found the document. */
  $vector: number | null;
  $vectorRank: number | null;
  $bm25Rank: number | null;
  /** Reciprocal-rank fusion: the sum of 1 / (60 + rank) over the reads. */
  $rrf: number;
}

/** One result of findAndRerank, like astra-db-ts's RerankedResult. */
export interface RerankedResult<T> {
  document: T;
  scores: RerankScores;
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
