/**
 * How a collection's vectors live in LevelDB: one record per live vector (`vec:<cid>\0<label>` ->
 * doc key + float32 values), written in the same batch as its document, and the HNSW index snapshot
 * (`vidx:` chunks + `vmeta:`), replaced atomically. The records are the truth; the snapshot only saves
 * rebuilding the graph.
 */
import { keys, type KvOperation, type KvStore } from '../storage/index.js';

/** Snapshot metadata: which chunks hold the index bytes. */
interface SnapshotMeta {
  readonly chunks: number;
  readonly bytes: number;
  /** Every label the snapshot's graph holds is below this (labels only grow). */
  readonly labelLimit: number;
  readonly savedAt: string;
}

export interface Snapshot {
  readonly bytes: Uint8Array;
  readonly labelLimit: number;
}

const CHUNK_BYTES = 4 * 1024 * 1024;

/** `[u32 LE key byte length][key UTF-8][float32 LE values]` */
export function encodeVectorRecord(docKey: string, vector: Float32Array): Uint8Array {
  const keyBytes = Buffer.from(docKey, 'utf8');
  const out = Buffer.allocUnsafe(4 + keyBytes.length + vector.length * 4);
  out.writeUInt32LE(keyBytes.length, 0);
  keyBytes.copy(out, 4);
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(out, 4 + keyBytes.length);
  return out;
}

export function decodeVectorRecord(bytes: Uint8Array, dimension: number): { docKey: string; vector: Float32Array } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const keyLength = buffer.readUInt32LE(0);
  const docKey = buffer.toString('utf8', 4, 4 + keyLength);
  const vector = new Float32Array(dimension);
  // Copy: the record's offset is not float-aligned.
  Buffer.from(vector.buffer).set(buffer.subarray(4 + keyLength, 4 + keyLength + dimension * 4));
  return { docKey, vector };
}

export function labelFromKey(key: string, cid: number): number {
  return Number.parseInt(key.slice(keys.vectorPrefix(cid).length), 16);
}

/** Every vector record of the collection, in label order. */
export async function* readVectorRecords(kv: KvStore, cid: number, dimension: number): AsyncGenerator<{ label: number; docKey: string; vector: Float32Array }> {
  const prefix = keys.vectorPrefix(cid);
  for await (const [key, value] of kv.entries({ gte: prefix, lt: prefix + keys.HIGH })) {
    yield { label: labelFromKey(key, cid), ...decodeVectorRecord(value, dimension) };
  }
}

export function putVectorRecord(ops: KvOperation[], cid: number, label: number, docKey: string, vector: Float32Array): void {
  ops.push({ type: 'put', key: keys.vectorKey(cid, label), value: encodeVectorRecord(docKey, vector) });
}

export function deleteVectorRecord(ops: KvOperation[], cid: number, label: number): void {
  ops.push({ type: 'del', key: keys.vectorKey(cid, label) });
}

/** The saved index, or undefined when there is no (complete) snapshot. */
export async function readSnapshot(kv: KvStore, cid: number): Promise<Snapshot | undefined> {
  const metaText = await kv.getString(keys.vectorIndexMetaKey(cid));
  if (metaText === undefined) return undefined;
  const meta = JSON.parse(metaText) as SnapshotMeta;
  const chunkKeys = Array.from({ length: meta.chunks }, (_, i) => chunkKey(cid, i));
  const chunks = await kv.getMany(chunkKeys);
  if (chunks.some((c) => c === undefined)) return undefined;
  const bytes = Buffer.concat(chunks as Uint8Array[]);
  return bytes.length === meta.bytes ? { bytes, labelLimit: meta.labelLimit } : undefined;
}

/** Replaces the snapshot atomically (old chunks, new chunks and metadata in one batch). */
export async function writeSnapshot(kv: KvStore, cid: number, snapshot: Snapshot): Promise<void> {
  const { bytes, labelLimit } = snapshot;
  const ops: KvOperation[] = [];
  const old = await kv.getString(keys.vectorIndexMetaKey(cid));
  const oldChunks = old === undefined ? 0 : (JSON.parse(old) as SnapshotMeta).chunks;
  const chunks = Math.ceil(bytes.length / CHUNK_BYTES);
  for (let i = chunks; i < oldChunks; i++) ops.push({ type: 'del', key: chunkKey(cid, i) });
  for (let i = 0; i < chunks; i++) {
    ops.push({ type: 'put', key: chunkKey(cid, i), value: bytes.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES) });
  }
  const meta: SnapshotMeta = { chunks, bytes: bytes.length, labelLimit, savedAt: new Date().toISOString() };
  ops.push({ type: 'put', key: keys.vectorIndexMetaKey(cid), value: JSON.stringify(meta) });
  await kv.batch(ops);
}

export async function deleteSnapshot(kv: KvStore, cid: number): Promise<void> {
  const prefix = keys.vectorIndexChunkPrefix(cid);
  await kv.clearRange(prefix, prefix + keys.HIGH);
  await kv.batch([{ type: 'del', key: keys.vectorIndexMetaKey(cid) }]);
}

function chunkKey(cid: number, i: number): string {
  return keys.vectorIndexChunkPrefix(cid) + i.toString(16).padStart(6, '0');
}

