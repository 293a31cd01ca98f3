/**
 * The store a database opens on, from its options (Database.open builds the database over it): the options
 * checked into the engine settings; the LevelDB (or IndexedDB, or memory) store opened with its row cache and
 * durability, while the first collection's graph file is read (graph-prefetch.ts) and the native vector addon
 * loads; the storage format checked; the next collection number. A failure leaves nothing open.
 */
import { KvStore, keys } from '../storage/index.js';
import { nativeBackendAvailable } from '../vector-index/index.js';
import { checkBodyCacheBytes, checkDurability, type DatabaseOptions } from './database-options.js';
import { resolveLimits } from './limits.js';
import type { EngineSettings } from './settings.js';
import { checkStorageFormat } from './storage-format.js';
import { GraphPrefetch } from './vectors/graph-prefetch.js';

/** A collection by its keyspace and name. */
export interface CollectionName {
  readonly keyspace: string;
  readonly collection: string;
}

export interface OpenedStore {
  readonly kv: KvStore;
  readonly settings: EngineSettings;
  /** No storage format recorded yet: a new database (or one from before the format was recorded). */
  readonly unformatted: boolean;
  /** The number the next collection or table gets. */
  readonly nextNumber: number;
}

/** Opens the store in `location`; `first`: the collection whose graph file is read meanwhile. */
export async function openStore(location: string, options: DatabaseOptions, first: CollectionName | undefined): Promise<OpenedStore> {
  const limits = resolveLimits(options.limits);
  const bodyCacheBytes = checkBodyCacheBytes(options.bodyCacheBytes);
  const durability = checkDurability(options.durability);
  // Before the store opens: loading classic-level (the first open) holds the event loop ~10 ms, which hnswlib spends reading.
  const prefetching = (options.storage ?? 'persistent') === 'persistent' && options.vectorBackend !== 'wasm';
  const graphPrefetch = prefetching && first !== undefined ? GraphPrefetch.start(location, `${first.keyspace}.${first.collection}`) : undefined;
  const opening = KvStore.open(location, options.storage, { rowCacheBytes: bodyCacheBytes, durability });
  // The native vector backend's addon loads (synchronously, a few ms) while LevelDB opens, not in a first search.
  if (options.vectorBackend !== 'wasm') void nativeBackendAvailable();
  const kv = await opening.catch((error: unknown) => {
    graphPrefetch?.discard();
    throw error;
  });
  const settings: EngineSettings = { limits, vectorBackend: options.vectorBackend ?? 'auto', onProgress: options.onProgress, hitCacheBytes: Math.floor(bodyCacheBytes / 2), graphPrefetch };
  try {
    const format = await checkStorageFormat(kv, location);
    const seq = Number((await kv.getString(keys.META_SEQ)) ?? '0');
    return { kv, settings, unformatted: format === undefined, nextNumber: seq + 1 };
  } catch (error) {
    await abandonStore({ kv, settings });
    throw error;
  }
}

/** Frees what openStore holds, after a failure to open the database over it. */
export async function abandonStore(store: Pick<OpenedStore, 'kv' | 'settings'>): Promise<void> {
  store.settings.graphPrefetch?.discard();
  await store.kv.close().catch(() => undefined);
}
