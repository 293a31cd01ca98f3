/**
 * What is inside a collection or a database, for `stats`: documents, bytes on disk, index entries and,
 * for a vector collection, its index settings, how many vectors are in the graph or still pending, and
 * when the graph's snapshot was last saved. Reads only: nothing here changes the data.
 */
import { keys, type KvStore } from '../storage/index.js';
import type { Collection } from './collections/collection.js';
import type { CollectionStats } from './stats-types.js';
import { readSnapshotMeta } from './vectors/snapshot.js';

export type { CollectionStats, DatabaseStats, VectorStats } from './stats-types.js';

export async function collectionStats(kv: KvStore, collection: Collection): Promise<CollectionStats> {
  const { cid, keyspace, name, options } = collection.record;
  const documents = await collection.estimatedDocumentCount();
  let bytesOnDisk = 0;
  for (const prefix of keys.collectionDataPrefixes(cid)) bytesOnDisk += await kv.approximateSize(prefix, prefix + keys.HIGH);
  const indexEntries = await kv.countKeys(keys.indexPrefix(cid), keys.indexPrefix(cid) + keys.HIGH);
  const stats: CollectionStats = { keyspace, name, documents, bytesOnDisk, indexEntries, cachedBytes: collection.cachedBytes };
  const loading = collection.vectors();
  if (loading === undefined || options.vector === undefined) return stats;
  const vectors = await loading;
  await vectors.graphLoaded();
  const meta = await readSnapshotMeta(kv, cid);
  const { params, backend } = vectors.indexInfo();
  const { graphElements, compactions, flatRows } = vectors.footprint();
  return {
    ...stats,
    vector: {
      dimension: options.vector.dimension,
      metric: options.vector.metric,
      hnsw: { m: params.M, efConstruction: params.efConstruction, efSearch: params.efSearch },
      backend,
      vectors: vectors.size,
      inGraph: vectors.size - vectors.pendingCount,
      pending: vectors.pendingCount,
      graphElements,
      compactions,
      flatRows,
      snapshotSavedAt: meta?.savedAt ?? null,
    },
  };
}
