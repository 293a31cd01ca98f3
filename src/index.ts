/**
 * vectordb-local's public surface: only what is exported here is supported.
 */
export { VectorDB, type VectorDBOptions } from './client/vector-db.js';
export { VectorDBCollection, FindIterable } from './client/collection.js';
export {
  DataApiException,
  CollectionNotFoundException,
  KeyspaceNotFoundException,
  KeyspaceAlreadyExistException,
  DocumentAlreadyExistsException,
} from './client/errors.js';
export type {
  CollectionDefinition,
  DocumentId,
  Filter,
  InsertResult,
  JsonDocument,
  JsonObject,
  JsonValue,
  Page,
  Projection,
  SelectQuery,
  SimilarityMetric,
  Sort,
  UpdateResult,
} from './client/types.js';
export type { CommandResponse } from './commands/index.js';
export { VectorDbError, ERROR_CODES, type ErrorCode, type WireError } from './errors/index.js';
export { DEFAULT_LIMITS, type Limits } from './engine/limits.js';
export type { VectorProgress } from './engine/collection-vectors.js';
