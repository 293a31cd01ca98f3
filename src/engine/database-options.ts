/**
 * What a database is opened with (DatabaseOptions: limits, vector backend, progress, storage, body cache,
 * durability) and the checks of the body cache's budget and the durability. Database.open reads them.
 */
import { VectorDbError } from '../errors/index.js';
import { DEFAULT_ROW_CACHE_BYTES, DURABILITIES, type Durability } from '../storage/index.js';
import type { StorageKind } from '../storage/storage-kind.js';
import type { BackendChoice } from '../vector-index/index.js';
import type { LimitsOption } from './limits.js';
import type { VectorProgress } from './progress.js';

export interface DatabaseOptions {
  /** A limits preset ('seed', the default, or 'data-api'), or overrides on top of one (see limits.ts). */
  readonly limits?: LimitsOption;
  /** HNSW backend for vector collections: 'auto' (default: the native addon, else hnswlib-node when installed, else hnswlib-wasm), 'native-rows', 'wasm' or 'native'. */
  readonly vectorBackend?: BackendChoice;
  /** Progress of long work (vector index rebuilds). */
  readonly onProgress?: (progress: VectorProgress) => void;
  /** 'persistent' (default: LevelDB in Node, IndexedDB in a browser) or 'memory' (memory-level, gone at close). */
  readonly storage?: StorageKind;
  /**
   * The memory for document bodies kept to answer reads without LevelDB, in bytes (default
   * DEFAULT_BODY_CACHE_BYTES, 32 MiB; 0 keeps none): the database's row cache of values read holds up to
   * this much, and each vector collection's cache of search hits (parsed bodies) up to half as much.
   * A cache is speed only: every read answers the same without it.
   */
  readonly bodyCacheBytes?: number;
  /**
   * When a write is acknowledged: 'full' (default) once fsynced, so it survives a power cut; 'relaxed' once
   * in the OS's page cache (faster bulk loads and caches; a process crash loses nothing, a power cut may).
   */
  readonly durability?: Durability;
}

/** The default of DatabaseOptions.bodyCacheBytes: the row cache's budget; each hit cache gets half. */
export const DEFAULT_BODY_CACHE_BYTES = DEFAULT_ROW_CACHE_BYTES;

/** DatabaseOptions.bodyCacheBytes, checked: a whole number of bytes, 0 or more (default 32 MiB). */
export function checkBodyCacheBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_BODY_CACHE_BYTES;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw VectorDbError.of('INVALID_ARGUMENT', { reason: `bodyCacheBytes must be a whole number of bytes, 0 or more (0 caches no bodies), not ${String(value)}` });
  }
  return value;
}

/** DatabaseOptions.durability, checked: 'full' (the default) or 'relaxed'. */
export function checkDurability(value: unknown): Durability {
  if (value === undefined) return 'full';
  if (!DURABILITIES.includes(value as Durability)) {
    throw VectorDbError.of('INVALID_ARGUMENT', { reason: `durability must be ${DURABILITIES.map((d) => `'${d}'`).join(' or ')}, not ${JSON.stringify(value)}` });
  }
  return value as Durability;
}
