/**
 * What a collection's operations take and return: plain documents with their storage keys, per-document
 * insert outcomes and update counts. The command layer turns these into Data API envelopes.
 */
import type { VectorDbError } from '../../errors/index.js';
import type { Filter } from '../../query/filter.js';
import type { Document, JsonValue } from '../../query/json.js';
import type { SortSpec } from '../../query/sort.js';
import type { Update } from '../../query/update.js';

export interface SelectOptions {
  readonly filter: Filter;
  readonly sort: SortSpec;
  readonly skip?: number;
  readonly limit?: number;
  readonly pageState?: string;
  /** False when the caller does not return `$vector` (its values are then not read). Default true. */
  readonly withVector?: boolean;
  /** A vector search's HNSW candidate list size for this query (default: the collection's efSearch). */
  readonly efSearch?: number;
  /**
   * The caller copies what it keeps of the documents and changes none: a vector search may then return
   * its cache's bodies as they are (no deep copy of each). Default false.
   */
  readonly shared?: boolean;
  /**
   * False when the caller does not read a vector search's `similarity`: it is then the search's ranking
   * score, not the Data API's float32 `$similarity` (the order is the same but for near ties). Default true.
   */
  readonly withSimilarity?: boolean;
}

/** A document as read from the store, with its storage key. */
export interface StoredDocument {
  readonly key: string;
  readonly doc: Document;
}

export interface FoundDocument {
  readonly key: string;
  readonly doc: Document;
  readonly similarity?: number;
}

export interface SelectResult {
  readonly documents: readonly FoundDocument[];
  readonly nextPageState: string | null;
}

export type InsertOutcome =
  | { readonly status: 'OK'; readonly id: JsonValue }
  | { readonly status: 'ERROR'; readonly id: JsonValue | undefined; readonly error: VectorDbError }
  | { readonly status: 'SKIPPED'; readonly id: JsonValue | undefined };

export interface UpdateOutcome {
  readonly matchedCount: number;
  readonly modifiedCount: number;
  readonly upsertedId?: JsonValue;
  readonly before: Document | null;
  readonly after: Document | null;
}

export interface UpdateManyOutcome {
  readonly matchedCount: number;
  readonly modifiedCount: number;
  readonly upsertedId?: JsonValue;
  readonly nextPageState: string | null;
}

/** What to do with the one document a findOneAnd*, updateOne or deleteOne selects. */
export type SingleChange =
  | { readonly kind: 'update'; readonly update: Update; readonly upsert: boolean }
  | { readonly kind: 'replace'; readonly replacement: Document; readonly upsert: boolean };
