/**
 * A collection's saved vector snapshot: the serialized HNSW graph and the vector table
 * (engine/vector-table.ts), in 4 MB chunks under `vidx:<cid>\0` with their metadata in `vmeta:<cid>`.
 * It only saves work at open (rebuilding the graph, reading every vector's values): the vector records
 * (vector-records.ts) stay the truth, so a missing snapshot is never wrong, only slower to open.
 *
 * Writing one is a sequence of small batches, so that neither copying a hundred MB into one LevelDB
 * batch nor that batch's write holds the event loop or the write lock for long: the metadata goes
 * first (an interrupted save leaves no snapshot, never a torn one), then the chunks a few at a time,
 * then the new metadata with the surplus chunks' deletion.
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
  /** The serialized graph, as pieces to concatenate. */
  readonly graph: readonly Uint8Array[];
  readonly labelLimit: number;
  /** The encoded vector table (engine/vector-table.ts), as pieces to concatenate. */
  readonly table: readonly Uint8Array[];
}

const CHUNK_BYTES = 4 * 1024 * 1024;
/** Chunks per write batch: copying them into the batch is synchronous (about a ms per MB). */
const CHUNKS_PER_BATCH = 4;

/** The saved snapshot's metadata, or undefined when there is none. */
export async function readSnapshotMeta(kv: KvStore, cid: number): Promise<SnapshotMeta | undefined> {
  const metaText = await kv.getString(keys.vectorIndexMetaKey(cid));
  return metaText === undefined ? undefined : (JSON.parse(metaText) as SnapshotMeta);
}

/** The snapshot's graph bytes, or undefined when incomplete. */
export async function readSnapshotGraph(kv: KvStore, cid: number, meta: SnapshotMeta): Promise<Uint8Array | undefined> {
  const chunks = await readChunks(kv, cid, 'graph', meta.chunks, meta.bytes);
  return chunks && (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
}

/**
 * The snapshot's vector table as its stored chunks (not joined: tens of MB), or undefined when it has
 * none or it is incomplete.
 */
export async function readSnapshotTable(kv: KvStore, cid: number, meta: SnapshotMeta): Promise<Uint8Array[] | undefined> {
  if (meta.tableChunks === undefined || meta.tableBytes === undefined) return undefined;
  return readChunks(kv, cid, 'table', meta.tableChunks, meta.tableBytes);
}

/** A part's chunks (read on LevelDB's threads), or undefined when one is missing or the sizes disagree. */
async function readChunks(kv: KvStore, cid: number, part: SnapshotPart, count: number, bytes: number): Promise<Uint8Array[] | undefined> {
  const chunks = await kv.getMany(Array.from({ length: count }, (_, i) => chunkKey(cid, part, i)), { large: true });
  if (chunks.some((c) => c === undefined)) return undefined;
  const present = chunks as Uint8Array[];
  return present.reduce((sum, chunk) => sum + chunk.length, 0) === bytes ? present : undefined;
}

/**
 * Replaces the snapshot. The old metadata is deleted before any chunk is overwritten and the new one
 * written after the last: a crash in between leaves no snapshot (the next open rebuilds from the
 * records), never chunks of two snapshots under one metadata.
 */
export async function writeSnapshot(kv: KvStore, cid: number, snapshot: Snapshot): Promise<void> {
  const { graph, labelLimit, table } = snapshot;
  const old = await readSnapshotMeta(kv, cid);
  if (old !== undefined) await kv.batch([{ type: 'del', key: keys.vectorIndexMetaKey(cid) }]);
  const chunks = await putChunks(kv, cid, 'graph', graph);
  const tableChunks = await putChunks(kv, cid, 'table', table);
  const meta: SnapshotMeta = { chunks, bytes: byteLength(graph), labelLimit, tableChunks, tableBytes: byteLength(table), savedAt: new Date().toISOString() };
  const ops: KvOperation[] = [{ type: 'put', key: keys.vectorIndexMetaKey(cid), value: JSON.stringify(meta) }];
  for (let i = chunks; i < (old?.chunks ?? 0); i++) ops.push({ type: 'del', key: chunkKey(cid, 'graph', i) });
  for (let i = tableChunks; i < (old?.tableChunks ?? 0); i++) ops.push({ type: 'del', key: chunkKey(cid, 'table', i) });
  await kv.batch(ops);
  if (old === undefined) {
    // No metadata said how many chunks there were (first save, or one interrupted): clear any beyond ours.
    const prefix = keys.vectorIndexChunkPrefix(cid);
    await kv.clearRange(chunkKey(cid, 'graph', chunks), `${prefix}g`); // graph chunk keys are hex: below 'g'
    await kv.clearRange(chunkKey(cid, 'table', tableChunks), `${prefix}t${keys.HIGH}`);
  }
}

/** Writes `pieces` as the chunks of one snapshot part, a few chunks per batch; returns the count. */
async function putChunks(kv: KvStore, cid: number, part: SnapshotPart, pieces: readonly Uint8Array[]): Promise<number> {
  let count = 0;
  let ops: KvOperation[] = [];
  for (const chunk of chunksOf(pieces, CHUNK_BYTES)) {
    ops.push({ type: 'put', key: chunkKey(cid, part, count++), value: chunk });
    if (ops.length === CHUNKS_PER_BATCH) {
      await kv.batch(ops);
      ops = [];
    }
  }
  await kv.batch(ops);
  return count;
}

/** The concatenation of `pieces` cut every `size` bytes: views where a chunk lies within one piece. */
function* chunksOf(pieces: readonly Uint8Array[], size: number): Generator<Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  for (const piece of pieces) {
    let at = 0;
    while (at < piece.length) {
      const take = Math.min(size - pendingBytes, piece.length - at);
      const part = piece.subarray(at, at + take);
      at += take;
      if (pendingBytes === 0 && take === size) {
        yield part;
        continue;
      }
      pending.push(part);
      pendingBytes += take;
      if (pendingBytes === size) {
        yield Buffer.concat(pending);
        pending = [];
        pendingBytes = 0;
      }
    }
  }
  if (pendingBytes > 0) yield pending.length === 1 ? pending[0]! : Buffer.concat(pending);
}

function byteLength(pieces: readonly Uint8Array[]): number {
  return pieces.reduce((sum, piece) => sum + piece.length, 0);
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

