/**
 * Public value types of the client: documents, ids, collection definitions, query and result shapes.
 */
import type { JsonObject, JsonValue } from '../query/json.js';

export type { JsonObject, JsonValue } from '../query/json.js';

/** A document id: string, number, boolean, null or an EJSON `$uuid` / `$objectId` / `$date` wrapper. */
export type DocumentId = string | number | boolean | null | { $uuid: string } | { $objectId: string } | { $date: number };

/** A schemaless JSON document; `_id` and `$vector` are optional on input. */
export interface JsonDocument extends JsonObject {}

export type SimilarityMetric = 'cosine' | 'euclidean' | 'dot_product';

export interface CollectionDefinition {
  name: string;
  options?: {
    vector?: { dimension: number; metric?: SimilarityMetric; index?: { m?: number; efConstruction?: number; efSearch?: number } };
    indexing?: { allow: string[] } | { deny: string[] };
    defaultId?: { type: 'uuid' | 'uuidv6' | 'uuidv7' | 'objectId' };
  };
}

export type Filter = JsonObject;
export type Projection = Record<string, JsonValue>;
export type Sort = Record<string, 1 | -1 | number[] | { $binary: string }>;

/** A find query as plain JSON parts. */
export interface SelectQuery {
  filter?: Filter;
  projection?: Projection;
  sort?: Sort;
  limit?: number;
  skip?: number;
  pageState?: string;
  includeSimilarity?: boolean;
}

export interface Page<T> {
  results: T[];
  /** null after the last page. */
  pageState: string | null;
}

export interface InsertResult {
  id: DocumentId;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedId?: DocumentId;
}
