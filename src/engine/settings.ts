/**
 * The database-wide settings every collection and table is opened with (limits, vector backend, progress
 * callback, hit-cache budget, a graph file read started at open). Types only, a leaf below the wings.
 */
import type { BackendChoice } from '../vector-index/index.js';
import type { Limits } from './limits.js';
import type { VectorProgress } from './progress.js';
import type { GraphPrefetch } from './vectors/graph-prefetch.js';

/** Database-wide settings every collection needs. */
export interface EngineSettings {
  readonly limits: Limits;
  /** HNSW backend: 'auto' (native-rows when the addon loads, else native when hnswlib-node loads, else wasm), 'native-rows', 'wasm' or 'native'. */
  readonly vectorBackend: BackendChoice;
  readonly onProgress?: ((progress: VectorProgress) => void) | undefined;
  /**
   * The budget of each vector collection's search-hit cache, in bytes of document bodies (0: none;
   * default DEFAULT_HIT_CACHE_BYTES). Set from the database's bodyCacheBytes.
   */
  readonly hitCacheBytes?: number | undefined;
  /** A graph file read started while the database opened, for the collection it was started for. */
  readonly graphPrefetch?: GraphPrefetch | undefined;
}
