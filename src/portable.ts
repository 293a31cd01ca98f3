/**
 * The part of the public surface that runs everywhere (Node, Electron, a browser): index.ts adds what
 * needs Node (homes of databases), browser.ts is this alone. Only what the two entries export is supported.
 */
export { VectorDB, type CollectionOptions, type CommandTargetOptions, type GraphqlOptions, type VectorDBOptions } from './client/vector-db.js';
export type { RerankContext, RerankFunction, RerankerSpec, HttpRerankerSpec } from './providers/rerankers.js';
export type { EmbedContext, EmbedFunction, EmbedderSpec, FunctionEmbedderSpec, HttpEmbedderSpec } from './providers/embedders.js';
export type { GraphqlError, GraphqlResult } from './graphql/result.js';
export type {
  FindAndRerankOptions,
  HybridSort,
  RerankedResult,
  RerankScores,
  FindOneAndUpdateOptions,
  FindVectorOptions,
  IndexStatus,
  InsertManyOptions,
  ManyDocuments,
  UpsertManyOptions,
  WaitForIndexOptions,
} from './client/collection-options.js';
export { VectorDBCollection } from './client/collection.js';
export { MetadataVectorTable, ClusteredMetadataVectorTable, type AnnQuery, type AnnResult } from './client/cassio-tables.js';
export {
  MetadataVectorRecord,
  ClusteredMetadataVectorRecord,
  metadataString,
  timeUuid,
  type MetadataVectorRecordInit,
  type ClusteredMetadataVectorRecordInit,
} from './client/cassio-records.js';
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
  DatabaseCorruptedException,
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
export { DATA_API_LIMITS, DEFAULT_LIMITS, LIMIT_PRESETS, type Limits, type LimitsOption, type LimitsPreset } from './engine/limits.js';
export { ExactDecimal, type ExactNumber } from './query/exact-number.js';
export type { VectorProgress } from './engine/progress.js';
export type { Progress, ProgressListener } from './client/progress.js';
export type { BulkWriteFailure, BulkWriteHooks, BulkWriteSummary } from './client/inserts.js';
export type { ManyChangeOptions } from './client/collection-options.js';
export type { CollectionStats, DatabaseStats, PartialCollectionStats, TableStats, VectorStats } from './client/stats.js';
export type { VerifyReport, VerifyProblem, VerifiedObject, ProblemKind } from './engine/integrity/verify-report.js';
export type { RepairOptions, RepairReport, RepairedObject } from './engine/integrity/repair-report.js';
