/**
 * A collection's saved vector snapshot: the serialized HNSW graph in 4 MB chunks under `vidx:<cid>\0`
 * with its metadata in `vmeta:<cid>`; or, where the store has a directory and the backend writes files
 * (native), hnswlib's bytes in a side file named by the metadata and only the index head in chunks. It only saves work at open (rebuilding the graph): the vector
 * records (vectors/records.ts) stay the truth, so a missing snapshot is never wrong, only slower to open.
 * Snapshots saved before vectors were stored once also hold a copy of every vector, the vector table
 * (engine/vectors/value-table.ts): still read, never written.
 *
 * Writing one is a sequence of small batches, so that neither copying a hundred MB into one LevelDB
 * batch nor that batch's write holds the event loop or the write lock for long. The chunks live in one
 * of two slots: a save writes the slot the metadata does not name, switches the metadata to it in one
 * batch, then clears the old slot. An interrupted save leaves the previous snapshot whole (open then
 * replays what changed since it from the records); for the length of a save both are stored. A graph
 * streamed as it is serialized (SnapshotWriter: a wasm graph in segments) has its head, known last, in
 * chunk 0 and its bytes from chunk 1: never more than a segment of it in memory.
 */
import { VectorDbError } from '../../errors/index.js';
import { fileSize, keys, makeDurable, removeFile, removeSideFiles, sideFilePath, type KvOperation, type KvStore } from '../../storage/index.js';

/** Snapshot metadata: which chunks hold the graph's bytes and the vector table's. */
export interface SnapshotMeta {
  readonly chunks: number;
  readonly bytes: number;
  /** Every label the snapshot's graph holds is below this (labels only grow). */
  readonly labelLimit: number;
  /**
   * Every label below this that was live when the snapshot was saved is in its graph (the pending ones
   * were all at or past it), so only labels from here on can be live and missing from the graph. Absent
   * in snapshots saved before it was kept: open then reads every key before it answers.
   */
  readonly coveredBelow?: number;
  readonly tableChunks?: number;
  readonly tableBytes?: number;
  readonly savedAt: string;
  /** The slot holding the chunks; absent in snapshots saved before there were two ('a'). */
  readonly slot?: Slot;
  /**
   * The side file (storage/side-files.ts) holding hnswlib's bytes, when the graph was saved as one: the
   * chunks then hold only the index head. An older build reads such a snapshot as incomplete (rebuilds).
   */
  readonly file?: string;
  /** The side file's length as saved: hnswlib may start reading it before the head is read. */
  readonly fileBytes?: number;
}

/** `a`: the chunk keys of the first format (graph `<n>`, table `t<n>`); `s`: the same keys after an `s`. */
type Slot = 'a' | 's';

export interface Snapshot {
  /** The serialized graph, as pieces to concatenate. */
  readonly graph: readonly Uint8Array[];
  readonly labelLimit: number;
  /** See SnapshotMeta.coveredBelow (left out only by tests that write an older build's snapshot). */
  readonly coveredBelow?: number;
  /** The encoded vector table (engine/vectors/value-table.ts), as pieces to concatenate: the engine no longer writes one. */
  readonly table?: readonly Uint8Array[];
  /** The side file with hnswlib's bytes (`graph` is then the head alone); flushed to disk before the metadata names it. */
  readonly file?: string;
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
  const chunks = await readChunks(kv, cid, slotOf(meta), 'graph', meta.chunks, meta.bytes);
  return chunks && (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
}

/**
 * The snapshot's graph bytes chunk by chunk, each read when the consumer wants it (the loader writes
 * them to hnswlib's file as they come: a large graph is never held whole). Throws
 * VECTOR_INDEX_INCOMPATIBLE when a chunk is missing.
 */
export async function* streamSnapshotGraph(kv: KvStore, cid: number, meta: SnapshotMeta): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < meta.chunks; i++) {
    const chunk = await kv.get(chunkKey(cid, slotOf(meta), 'graph', i));
    if (chunk === undefined) throw VectorDbError.of('VECTOR_INDEX_INCOMPATIBLE', { reason: `graph chunk ${i} of ${meta.chunks} is missing`, backend: 'saved', collection: String(cid) });
    yield chunk;
  }
}

/**
 * The snapshot's vector table as its stored chunks (not joined: tens of MB), or undefined when it has
 * none or it is incomplete.
 */
export async function readSnapshotTable(kv: KvStore, cid: number, meta: SnapshotMeta): Promise<Uint8Array[] | undefined> {
  if (meta.tableChunks === undefined || meta.tableBytes === undefined) return undefined;
  return readChunks(kv, cid, slotOf(meta), 'table', meta.tableChunks, meta.tableBytes);
}

/** A part's chunks (read on LevelDB's threads), or undefined when one is missing or the sizes disagree. */
async function readChunks(kv: KvStore, cid: number, slot: Slot, part: SnapshotPart, count: number, bytes: number): Promise<Uint8Array[] | undefined> {
  const chunks = await kv.getMany(Array.from({ length: count }, (_, i) => chunkKey(cid, slot, part, i)), { large: true });
  if (chunks.some((c) => c === undefined)) return undefined;
  const present = chunks as Uint8Array[];
  return present.reduce((sum, chunk) => sum + chunk.length, 0) === bytes ? present : undefined;
}

/**
 * Replaces the snapshot: the new chunks go to the slot the current metadata does not name (cleared of
 * what an interrupted save left there), the metadata switches to them in one batch, and only then is
 * the old slot cleared. A crash at any point leaves one whole snapshot under the metadata.
 */
export async function writeSnapshot(kv: KvStore, cid: number, snapshot: Snapshot): Promise<SnapshotMeta> {
  const { graph, labelLimit, coveredBelow, table, file } = snapshot;
  const target = await freeSlot(kv, cid);
  const chunks = await putChunks(kv, cid, target.slot, 'graph', graph);
  const tableParts = table === undefined ? {} : { tableChunks: await putChunks(kv, cid, target.slot, 'table', table), tableBytes: byteLength(table) };
  let fileParts = {};
  if (file !== undefined) {
    const path = sideFilePath(kv, file);
    if (path === undefined) throw new Error('this store keeps no side files');
    await makeDurable(path);
    fileParts = { file, fileBytes: await fileSize(path) };
  }
  return switchTo(kv, cid, target, { chunks, bytes: byteLength(graph), labelLimit, ...(coveredBelow === undefined ? {} : { coveredBelow }), ...tableParts, ...fileParts });
}

/**
 * A snapshot written as its graph is serialized (VectorIndex.serializeTo: a wasm graph in segments is
 * never held whole): the pieces after the index head go to chunks 1, 2, ... of the free slot as they
 * come, never more than a chunk of them held here; the head, which says how long they are and so is
 * known last, goes to chunk 0 (chunks are read in order, of any size). Then the metadata switches to
 * the slot, as writeSnapshot does: a save that stops half-way leaves the previous snapshot in place.
 */
export class SnapshotWriter {
  readonly #kv: KvStore;
  readonly #cid: number;
  readonly #target: FreeSlot;
  readonly #chunks: ChunkWriter;

  private constructor(kv: KvStore, cid: number, target: FreeSlot, chunkBytes: number) {
    this.#kv = kv;
    this.#cid = cid;
    this.#target = target;
    this.#chunks = new ChunkWriter(kv, cid, target.slot, 'graph', 1, chunkBytes);
  }

  /** Readies the free slot; `chunkBytes` only for tests (many chunks from a small graph). */
  static async open(kv: KvStore, cid: number, chunkBytes = CHUNK_BYTES): Promise<SnapshotWriter> {
    return new SnapshotWriter(kv, cid, await freeSlot(kv, cid), chunkBytes);
  }

  /** Writes the next piece (resolves once none of it is held here but a part chunk's copy). */
  put(piece: Uint8Array): Promise<void> {
    return this.#chunks.put(piece);
  }

  /** Writes the index head before the pieces and makes the snapshot the collection's. */
  async finish(head: Uint8Array, state: { readonly labelLimit: number; readonly coveredBelow?: number }): Promise<SnapshotMeta> {
    const body = await this.#chunks.end();
    await this.#kv.batch([{ type: 'put', key: chunkKey(this.#cid, this.#target.slot, 'graph', 0), value: head }]);
    const { labelLimit, coveredBelow } = state;
    return switchTo(this.#kv, this.#cid, this.#target, { chunks: 1 + body.chunks, bytes: head.length + body.bytes, labelLimit, ...(coveredBelow === undefined ? {} : { coveredBelow }) });
  }
}

/** The slot a new snapshot goes to (emptied), and the snapshot it replaces. */
interface FreeSlot {
  readonly slot: Slot;
  readonly old: SnapshotMeta | undefined;
}

async function freeSlot(kv: KvStore, cid: number): Promise<FreeSlot> {
  const old = await readSnapshotMeta(kv, cid);
  const slot: Slot = old !== undefined && slotOf(old) === 'a' ? 's' : 'a';
  // Without metadata, whatever chunks there are belong to no snapshot: clear both slots.
  for (const leftover of old === undefined ? SLOTS : [slot]) await clearSlot(kv, cid, leftover);
  return { slot, old };
}

/** Points the metadata at the new slot in one batch, then clears what the old snapshot held. */
async function switchTo(kv: KvStore, cid: number, target: FreeSlot, parts: Omit<SnapshotMeta, 'savedAt' | 'slot'>): Promise<SnapshotMeta> {
  const { slot, old } = target;
  const meta: SnapshotMeta = { ...parts, savedAt: new Date().toISOString(), slot };
  await kv.batch([{ type: 'put', key: keys.vectorIndexMetaKey(cid), value: JSON.stringify(meta) }]);
  if (old !== undefined) await clearSlot(kv, cid, slotOf(old));
  if (old?.file !== undefined && old.file !== meta.file) await removeGraphFile(kv, old.file);
  return meta;
}

/** A new name for a graph side file of collection `cid` (names are never reused). */
export function newGraphFileName(cid: number): string {
  return `${graphFilePrefix(cid)}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.hnsw`;
}

/** The graph file's path, or undefined when the store keeps no side files. */
export function graphFilePath(kv: KvStore, name: string): string | undefined {
  return sideFilePath(kv, name);
}

export async function removeGraphFile(kv: KvStore, name: string): Promise<void> {
  const path = sideFilePath(kv, name);
  if (path !== undefined) await removeFile(path);
}

/**
 * Removes the collection's graph files but `keep` (at open, before any save or build of it runs:
 * what an interrupted save or build left; after a drop, all of them).
 */
export async function removeGraphFiles(kv: KvStore, cid: number, keep?: string): Promise<void> {
  await removeSideFiles(kv, graphFilePrefix(cid), new Set(keep === undefined ? [] : [keep]));
}

const graphFilePrefix = (cid: number): string => `graph-${cid.toString(36)}-`;

/** Writes `pieces` as the chunks of one snapshot part, a few chunks per batch; returns the count. */
async function putChunks(kv: KvStore, cid: number, slot: Slot, part: SnapshotPart, pieces: readonly Uint8Array[]): Promise<number> {
  const writer = new ChunkWriter(kv, cid, slot, part, 0, CHUNK_BYTES);
  for (const piece of pieces) await writer.put(piece);
  return (await writer.end()).chunks;
}

/**
 * The chunks of one snapshot part from `first` on, written as pieces come: the concatenation of the
 * pieces cut every `size` bytes (views where a chunk lies within one piece), a few chunks per batch.
 * Nothing of a piece is held once put resolves but a copy of its last part chunk.
 */
class ChunkWriter {
  #next: number;
  #bytes = 0;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #ops: KvOperation[] = [];

  constructor(
    private readonly kv: KvStore,
    private readonly cid: number,
    private readonly slot: Slot,
    private readonly part: SnapshotPart,
    private readonly first: number,
    private readonly size: number,
  ) {
    this.#next = first;
  }

  async put(piece: Uint8Array): Promise<void> {
    this.#bytes += piece.length;
    let at = 0;
    while (at < piece.length) {
      const take = Math.min(this.size - this.#pendingBytes, piece.length - at);
      const part = piece.subarray(at, at + take);
      at += take;
      if (this.#pendingBytes === 0 && take === this.size) {
        await this.#add(part);
        continue;
      }
      this.#pending.push(part);
      this.#pendingBytes += take;
      if (this.#pendingBytes === this.size) await this.#add(this.#joinPending());
    }
    await this.#flush();
    // A part chunk left pending is copied: the piece (a whole segment, maybe) is not kept for its sake.
    if (this.#pending.length > 0) this.#pending = [this.#joinPending(true)];
  }

  /** Writes the last part chunk; the chunks and bytes written. */
  async end(): Promise<{ chunks: number; bytes: number }> {
    if (this.#pendingBytes > 0) await this.#add(this.#joinPending());
    await this.#flush();
    return { chunks: this.#next - this.first, bytes: this.#bytes };
  }

  #joinPending(keep = false): Uint8Array {
    const only = this.#pending.length === 1 ? this.#pending[0]! : undefined;
    const joined = only === undefined ? Buffer.concat(this.#pending) : keep ? only.slice() : only;
    if (!keep) {
      this.#pending = [];
      this.#pendingBytes = 0;
    }
    return joined;
  }

  async #add(chunk: Uint8Array): Promise<void> {
    this.#ops.push({ type: 'put', key: chunkKey(this.cid, this.slot, this.part, this.#next++), value: chunk });
    if (this.#ops.length === CHUNKS_PER_BATCH) await this.#flush();
  }

  async #flush(): Promise<void> {
    if (this.#ops.length === 0) return;
    const ops = this.#ops;
    this.#ops = [];
    await this.kv.batch(ops);
  }
}

function byteLength(pieces: readonly Uint8Array[]): number {
  return pieces.reduce((sum, piece) => sum + piece.length, 0);
}

export async function deleteSnapshot(kv: KvStore, cid: number): Promise<void> {
  // The metadata first: a crash half-way leaves chunks no metadata names (cleared by the next save).
  await kv.batch([{ type: 'del', key: keys.vectorIndexMetaKey(cid) }]);
  const prefix = keys.vectorIndexChunkPrefix(cid);
  await kv.clearRange(prefix, prefix + keys.HIGH);
  await removeGraphFiles(kv, cid);
}

type SnapshotPart = 'graph' | 'table';

const SLOTS: readonly Slot[] = ['a', 's'];

const slotOf = (meta: SnapshotMeta): Slot => meta.slot ?? 'a';

/**
 * Chunk keys under `vidx:<cid>\0`: slot a's graph chunks are `<n>` (6 hex digits, all below 'g') and
 * its table chunks `t<n>`; slot s puts an `s` before the same keys (between 'g' and 't').
 */
function chunkKey(cid: number, slot: Slot, part: SnapshotPart, i: number): string {
  const slotMark = slot === 's' ? 's' : '';
  return keys.vectorIndexChunkPrefix(cid) + slotMark + (part === 'table' ? 't' : '') + i.toString(16).padStart(6, '0');
}

/** Deletes every chunk of one slot. */
async function clearSlot(kv: KvStore, cid: number, slot: Slot): Promise<void> {
  const prefix = keys.vectorIndexChunkPrefix(cid);
  if (slot === 's') {
    await kv.clearRange(`${prefix}s`, `${prefix}s${keys.HIGH}`);
    return;
  }
  await kv.clearRange(prefix, `${prefix}g`);
  await kv.clearRange(`${prefix}t`, `${prefix}t${keys.HIGH}`);
}
