/**
 * What is inside a collection, a table or a database, for `stats`: documents or rows, bytes on disk, index
 * entries and, for each vector index (a vector collection's, a table's vector column's), its settings, how many
 * vectors are in the graph or still pending, when the graph's snapshot was last saved, and for int8 rows how
 * many values were coded and clamped (and whether that many clamped hints at drift). Reads only: nothing
 * here changes the data (the caller writes buffered writes out first, so that bytes on disk count them).
 */
import { keys, type KvStore } from '../storage/index.js';
import type { Collection } from './collections/collection.js';
import type { Table } from './tables/table.js';
import type { CollectionStats, TableStats, VectorStats } from './stats-types.js';
import type { CollectionVectors } from './vectors/collection-vectors.js';
import { readSnapshotMeta } from './vectors/snapshot.js';

export type { CollectionStats, DatabaseStats, TableStats, VectorStats } from './stats-types.js';

export async function collectionStats(kv: KvStore, collection: Collection): Promise<CollectionStats> {
  const { cid, keyspace, name, options } = collection.record;
  const documents = await collection.estimatedDocumentCount();
  const bytesOnDisk = await bytesUnder(kv, keys.collectionDataPrefixes(cid));
  const indexEntries = await kv.countKeys(keys.indexPrefix(cid), keys.indexPrefix(cid) + keys.HIGH);
  const stats: CollectionStats = { keyspace, name, documents, bytesOnDisk, indexEntries, cachedBytes: collection.cachedBytes };
  const loading = collection.vectors();
  if (loading === undefined || options.vector === undefined) return stats;
  return { ...stats, vector: await vectorStats(kv, await loading, cid, options.vector.dimension, options.vector.metric) };
}

/** A table's rows, the bytes of its rows, index entries, text postings and vector records, and each vector index. */
export async function tableStats(kv: KvStore, table: Table): Promise<TableStats> {
  const { tid, keyspace, name, columns } = table.record;
  const rows = await kv.countKeys(keys.rowPrefix(tid), keys.rowPrefix(tid) + keys.HIGH);
  const entries = keys.rowIndexesPrefix(tid);
  const indexEntries = await kv.countKeys(entries, entries + keys.HIGH);
  const vectorIndexes = await table.vectorIndexes();
  const prefixes = [keys.rowPrefix(tid), entries, keys.tableLexicalIndexesPrefix(tid), ...vectorIndexes.flatMap(({ index }) => keys.collectionDataPrefixes(index.vid!))];
  const vectors: Record<string, VectorStats> = {};
  for (const { index, vectors: loaded } of vectorIndexes) {
    const type = columns[index.column] as { dimension: number };
    vectors[index.column] = await vectorStats(kv, loaded, index.vid!, type.dimension, index.metric ?? 'cosine');
  }
  return { keyspace, name, rows, bytesOnDisk: await bytesUnder(kv, prefixes), indexEntries, vectors };
}

/**
 * Below this estimate a range is counted instead: LevelDB's estimate resolves a range only to whole data blocks
 * of its table files (a few documents in one block count 0), so a small range's keys and values are summed.
 */
const COUNTED_BELOW_BYTES = 64 * 1024;

/**
 * The bytes the keys under the prefixes take on disk: LevelDB's estimate (compressed table files), or, for a
 * range it cannot resolve (under COUNTED_BELOW_BYTES), its keys' and values' bytes as stored (uncompressed);
 * 0 where the store cannot tell (memory, IndexedDB).
 */
async function bytesUnder(kv: KvStore, prefixes: readonly string[]): Promise<number> {
  let bytes = 0;
  for (const prefix of prefixes) {
    const range = { gte: prefix, lt: prefix + keys.HIGH };
    const estimate = await kv.approximateSize(range.gte, range.lt);
    if (estimate >= COUNTED_BELOW_BYTES || !kv.estimatesSizes) {
      bytes += estimate;
      continue;
    }
    for await (const chunk of kv.entryChunks(range)) for (const [key, value] of chunk) bytes += key.length + value.byteLength;
  }
  return bytes;
}

/** The share of coded values clamped past which an int8 scale no longer fits its data (VectorStats.quantizationDrift). */
const DRIFT_SHARE = 0.01;

/** One vector index's settings and state (`vid`: the number its records are stored under). */
async function vectorStats(kv: KvStore, vectors: CollectionVectors, vid: number, dimension: number, metric: string): Promise<VectorStats> {
  await vectors.graphLoaded();
  const meta = await readSnapshotMeta(kv, vid);
  const { params, backend } = vectors.indexInfo();
  const { graphElements, compactions, flatRows, flatRowsAs, flatBytes, codedValues, clampedValues } = vectors.footprint();
  return {
    dimension,
    metric,
    hnsw: { m: params.M, efConstruction: params.efConstruction, efSearch: params.efSearch },
    backend,
    vectors: vectors.size,
    inGraph: vectors.size - vectors.pendingCount,
    pending: vectors.pendingCount,
    graphElements,
    compactions,
    flatRows,
    flatRowsAs,
    flatBytes,
    codedValues,
    clampedValues,
    quantizationDrift: clampedValues > DRIFT_SHARE * codedValues,
    snapshotSavedAt: meta?.savedAt ?? null,
  };
}
