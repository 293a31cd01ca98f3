/**
 * vectordb-local's public surface: only what is exported here is supported.
 */
export { VectorDB, type VectorDBOptions } from './client/vector-db.js';
export type { CommandTargetOptions } from './client/vector-db.js';
export {
  VectorDBAdmin,
  /** The seed's other name for VectorDBAdmin (its database-administration section): the same class. */
  VectorDBAdmin as VectorDBClient,
  type DatabaseByIdOptions,
  type VectorDBAdminOptions,
} from './client/vector-db-admin.js';
export type { CreatedToken, DatabaseInfo, TokenInfo, TokenRole, TokenRoleName } from './admin/types.js';
export { TokenRoles } from './admin/types.js';
export type {
  FindOneAndUpdateOptions,
  FindVectorOptions,
  InsertManyOptions,
  ManyDocuments,
  UpsertManyOptions,
} from './client/collection-options.js';
export { VectorDBCollection } from './client/collection.js';
export { VectorDBRepository } from './client/repository.js';
export { FindIterable } from './client/find-iterable.js';
export { Document, DocumentBuilder, JsonDocument, JsonDocumentBuilder, type DocumentInit, type DocumentInput } from './client/documents.js';
export {
  DocumentMutationResult,
  DocumentMutationStatus,
  DocumentResult,
  JsonDocumentMutationResult,
  MutationResult,
  type DocumentClass,
  type DocumentResultInit,
  type DocumentResultMapper,
  type FindAndUpdateResult,
  type FoundDocument,
  type JsonDocumentResult,
  type Page,
  type ResultMapping,
} from './client/results.js';
export { Filter, FilterCondition, type FilterLike, type FilterObject } from './client/filter.js';
export type {
  DocumentFilter,
  DocumentProjection,
  DocumentSort,
  DotPaths,
  FieldCondition,
  FieldOperators,
  StrictFilter,
  StrictProjection,
  StrictSort,
  StrictUpdateFilter,
  UpdateFilter,
} from './client/typed-queries.js';
export { SelectQuery, SelectQueryBuilder, type SelectQueryLike } from './client/select-query.js';
export { UpdateQuery, UpdateQueryBuilder, type UpdateObject, type UpdateQueryLike } from './client/update-query.js';
export { DeleteQuery, DeleteQueryBuilder, type DeleteQueryLike } from './client/delete-query.js';
export { CollectionDefinition, CollectionDefinitionBuilder, SimilarityMetric, type VectorIndexOptions } from './client/collection-definition.js';
export {
  DataApiException,
  CollectionNotFoundException,
  DatabaseInUseException,
  DatabaseNotOpenException,
  UnauthorizedException,
  DatabaseNotFoundException,
  DocumentAlreadyExistsException,
  InvalidArgumentException,
  KeyspaceAlreadyExistException,
  KeyspaceNotFoundException,
  TooManyDocumentsToCountException,
} from './client/errors.js';
export type {
  DataObject,
  DataValue,
  DocumentId,
  InsertResult,
  JsonObject,
  JsonPrimitive,
  JsonValue,
  Projection,
  ReturnDocument,
  Sort,
  UpdateResult,
  Vector,
} from './client/types.js';
export type { CommandResponse } from './commands/response.js';
export { VectorDbError, ERROR_CODES, type ErrorCode, type WireError } from './errors/index.js';
export { DEFAULT_LIMITS, type Limits } from './engine/limits.js';
export type { VectorProgress } from './engine/progress.js';
