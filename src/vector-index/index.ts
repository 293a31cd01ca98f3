/**
 * The vector layer's surface for the engine: metrics and scores, exact-scan kernels and store, and
 * the HNSW index with its two backends. Nothing here knows about documents, JSON or LevelDB.
 */
export { METRICS, dataApiSimilarity, isMetric, shortestFloat32, similarityScore, scoreFromHnswDistance, type Metric } from './metric.js';
export { dot, l2sq, squaredNorm, cosine, topK, type ScoredRow } from './kernels.js';
export { FlatVectorStore, INT8_TRAINING_ROWS, type FlatVectorStoreOptions, type Quantization } from './flat-store.js';
export { exactTopK, shortlistSize, type ExactReader, type ScoredLabel } from './exact-rescore.js';
export { Int8Scale } from './int8-rows.js';
export type { VectorRows } from './vector-rows.js';
export { trimHeap } from './native-addon.js';
export {
  DEFAULT_PARAMS,
  adoptRows,
  collectionBackend,
  createVectorIndex,
  createVectorRows,
  loadVectorIndex,
  loadVectorIndexFile,
  nativeBackendAvailable,
  readIndexHeader,
  startGraphFileRead,
  type AllowedLabels,
  type BackendChoice,
  type BackendName,
  type CreateVectorIndexOptions,
  type IndexHeader,
  type IndexParams,
  type Int8RowsOptions,
  type LoadVectorIndexOptions,
  type SearchOptions,
  type VectorIndex,
} from './index-backend.js';
export type { GraphFileRead } from './backend-types.js';
export { wasmBytesPerElement, wasmMaxElements } from './wasm-capacity.js';
export { GraphBuilder, graphBuilderAvailable, type BuiltGraph } from './graph-builder.js';
