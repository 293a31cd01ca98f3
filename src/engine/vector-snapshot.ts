/**
 * A collection's saved vector snapshot: the serialized HNSW graph and the vector table
 * (engine/vector-table.ts), in 4 MB chunks under `vidx:<cid>\0` with their metadata in `vmeta:<cid>`,
 * replaced atomically. It only saves work at open (rebuilding the graph, reading every vector's values):
 * the vector records (vector-records.ts) stay the truth.
 */
import { keys, type KvOperation, type KvStore } from '../storage/index.js';

/** Snapshot metadata: which chunks hold the graph's bytes and the vector table's. */
export interface SnapshotMeta {
  readonly chunks: number;
  readonly bytes: number;
  /** Every label the snapshot's graph holds is below this (labels only grow). */
  readonly labelLimit: number;
  readonly tableChunks?: number;
  readonly tableBytes?: number;
  readonly savedAt: string;
}

export interface Snapshot {
  /** The serialized graph. */
  readonly bytes: Uint8Array;
  readonly labelLimit: number;
  /** The encoded vector table (engine/vector-table.ts). */
  readonly table: Uint8Array;
}

const CHUNK_BYTES = 4 * 1024 * 1024;

/** The saved snapshot's metadata, or undefined when there is none. */
export async function readSnapshotMeta(kv: KvStore, cid: number): Promise<SnapshotMeta | undefined> {
  const metaText = await kv.getString(keys.vectorIndexMetaKey(cid));
  return metaText === undefined ? undefined : (JSON.parse(metaText) as SnapshotMeta);
}

/** The snapshot's graph bytes, or undefined when incomplete. */
export async function readSnapshotGraph(kv: KvStore, cid: number, meta: SnapshotMeta): Promise<Uint8Array | undefined> {
  return readChunks(kv, cid, 'graph', meta.chunks, meta.bytes);
}

/** The snapshot's vector table bytes, or undefined when it has none or it is incomplete. */
export async function readSnapshotTable(kv: KvStore, cid: number, meta: SnapshotMeta): Promise<Uint8Array | undefined> {
  if (meta.tableChunks === undefined || meta.tableBytes === undefined) return undefined;
  return readChunks(kv, cid, 'table', meta.tableChunks, meta.tableBytes);
}

async function readChunks(kv: KvStore, cid: number, part: SnapshotPart, count: number, bytes: number): Promise<Uint8Array | undefined> {
  const chunks = await kv.getMany(Array.from({ length: count }, (_, i) => chunkKey(cid, part, i)));
  if (chunks.some((c) => c === undefined)) return undefined;
  const joined = Buffer.concat(chunks as Uint8Array[]);
  return joined.length === bytes ? joined : undefined;
}

/** Replaces the snapshot atomically (old chunks, new chunks and metadata in one batch). */
export async function writeSnapshot(kv: KvStore, cid: number, snapshot: Snapshot): Promise<void> {
  const { bytes, labelLimit, table } = snapshot;
  const ops: KvOperation[] = [];
  const old = await readSnapshotMeta(kv, cid);
  const chunks = putChunks(ops, cid, 'graph', bytes, old?.chunks ?? 0);
  const tableChunks = putChunks(ops, cid, 'table', table, old?.tableChunks ?? 0);
  const meta: SnapshotMeta = { chunks, bytes: bytes.length, labelLimit, tableChunks, tableBytes: table.length, savedAt: new Date().toISOString() };
  ops.push({ type: 'put', key: keys.vectorIndexMetaKey(cid), value: JSON.stringify(meta) });
  await kv.batch(ops);
}

/** Stages `bytes` as chunks of one snapshot part, deleting the old part's surplus chunks; returns the count. */
function putChunks(ops: KvOperation[], cid: number, part: SnapshotPart, bytes: Uint8Array, oldChunks: number): number {
  const chunks = Math.ceil(bytes.length / CHUNK_BYTES);
  for (let i = chunks; i < oldChunks; i++) ops.push({ type: 'del', key: chunkKey(cid, part, i) });
  for (let i = 0; i < chunks; i++) {
    ops.push({ type: 'put', key: chunkKey(cid, part, i), value: bytes.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES) });
  }
  return chunks;
}

export async function deleteSnapshot(kv: KvStore, cid: number): Promise<void> {
  const prefix = keys.vectorIndexChunkPrefix(cid);
  await kv.clearRange(prefix, prefix + keys.HIGH);
  await kv.batch([{ type: 'del', key: keys.vectorIndexMetaKey(cid) }]);
}

type SnapshotPart = 'graph' | 'table';

/** Graph chunks are `vidx:<cid>\0<n>`, table chunks `vidx:<cid>\0t<n>` (both cleared with the prefix). */
function chunkKey(cid: number, part: SnapshotPart, i: number): string {
  return keys.vectorIndexChunkPrefix(cid) + (part === 'table' ? 't' : '') + i.toString(16).padStart(6, '0');
}

