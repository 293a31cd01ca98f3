/**
 * The native-rows backend: our addon's hnswlib graph (native/) over a NativeRowStore (native-rows.ts), so
 * each vector is held once, by the rows the engine keeps anyway. Same slots as the other backends
 * (HnswIndex manages them); a slot's element reads the row of its label. Bulk inserts run on several
 * threads off the JS thread (addStored). The graph file holds the graph and its rows together: a read
 * makes the row store the collection then keeps its vectors in. Over an int8 store the graph ranks on the
 * codes (`quantized`): the engine takes a longer list and ranks it exactly. Private to vector-index/.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { VectorDbError } from '../errors/vectordb-error.js';
import { graphFileRead, HNSW_SEED, type GraphFileRead, type HnswDriver, type HnswDriverFactory, type IndexIdentity, type SlotHits } from './backend-types.js';
import { IndexFormatError, type BackendBytes, type IndexHeader } from './index-format.js';
import type { Metric } from './metric.js';
import { insertThreads, loadNativeAddon, nativeRowsUnavailable, type AddonGraph, type NativeAddon } from './native-addon.js';
import { NativeRowStore } from './native-rows.js';
import { bytesThroughFile, fileOfBytes } from './temp-file.js';
import type { VectorRows } from './vector-rows.js';

export const NATIVE_ROWS_LIBRARY = 'vectordb-native 1 (hnswlib of hnswlib-node)';
/** A new graph of more slots than this is made this small and grown (NativeRowsDriver.prepareResize). */
const SMALL_GRAPH = 4096;
/** Row ids and slots stop below the id that marks a query (native/src/row_space.h). */
const MAX_ELEMENTS = 0xffff_fffe;

export function nativeRowsAvailable(): boolean {
  return loadNativeAddon() !== null;
}

function requireAddon(): NativeAddon {
  const addon = loadNativeAddon();
  if (addon === null) throw VectorDbError.of('INVALID_ARGUMENT', { reason: `the native-rows vector backend needs the native addon, which does not load: ${nativeRowsUnavailable()}` });
  return addon;
}

function failure(op: string, e: unknown): VectorDbError {
  const text = e instanceof Error ? e.message : String(e);
  return VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: `the native addon failed in ${op}: ${text}` }, { cause: e });
}

/** A row store for the rows of a collection of this space, when the addon loads (else undefined). */
export function newNativeRowStore(dimension: number, metric: Metric): NativeRowStore | undefined {
  const addon = loadNativeAddon();
  return addon === null ? undefined : new NativeRowStore(addon, dimension, metric);
}

class NativeRowsDriver implements HnswDriver {
  readonly library = NATIVE_ROWS_LIBRARY;
  readonly resizesInPlace = true;
  readonly rows: NativeRowStore;
  private graph: AddonGraph | null;
  private readonly outSlots: Uint32Array;
  private readonly outDistances: Float32Array;
  /** Async work on the graph in flight (an insert, a save): dispose frees the graph after it. */
  private busy: Promise<unknown> | undefined;

  constructor(graph: AddonGraph, rows: NativeRowStore) {
    this.graph = graph;
    this.rows = rows;
    this.outSlots = new Uint32Array(256);
    this.outDistances = new Float32Array(256);
  }

  get quantized(): boolean {
    return this.rows.rowsAs === 'int8';
  }

  count(): number {
    return this.handle().count();
  }

  capacity(): number {
    return this.handle().capacity();
  }

  capacityLimit(): number {
    return MAX_ELEMENTS;
  }

  capacityAdvice(): string {
    return 'The process ran out of memory for the native index: free memory or use several smaller indexes.';
  }

  tryResize(n: number): boolean {
    return this.handle().resize(n);
  }

  /** The capacity whose tables are being made or are ready (one at a time: a resize takes them). */
  private preparing: { capacity: number; done: Promise<void> } | undefined;

  prepareResize(capacity: number): Promise<void> {
    if (this.preparing?.capacity !== capacity) {
      const done = Promise.resolve()
        .then(() => this.handle().prepareResize(capacity))
        .then(() => undefined);
      this.preparing = { capacity, done };
    }
    return this.preparing.done;
  }

  releaseSpare(): void {
    this.preparing = undefined;
    this.graph?.dropPrepared();
  }

  /**
   * The row holding the vector at `at` of `vectors` for `label`: the store's own when it holds the label
   * (a label's vector never changes), else a fresh row written now (`fresh`: its reference to drop once
   * the graph took its own).
   */
  private rowFor(label: number | undefined, vectors: Float32Array, at: number, fresh: number[]): number {
    const held = label === undefined ? undefined : this.rows.rowOf(label);
    if (held !== undefined) return held;
    const row = this.rows.rows.take();
    this.rows.rows.write(row, vectors, at);
    fresh.push(row);
    return row;
  }

  addFresh(vectors: Float32Array, rows: readonly number[], slots: readonly number[], labels?: ArrayLike<number>): void {
    const graph = this.handle();
    const dim = this.rows.dimension;
    const fresh: number[] = [];
    const rowIds = new Uint32Array(rows.length);
    for (let j = 0; j < rows.length; j++) rowIds[j] = this.rowFor(labels?.[rows[j] as number], vectors, (rows[j] as number) * dim, fresh);
    try {
      graph.add(Uint32Array.from(slots), rowIds, rows.length, this.insertValues(vectors, rows));
    } catch (e) {
      throw failure('addPoint', e);
    } finally {
      for (const row of fresh) this.rows.rows.unref(row);
    }
  }

  /**
   * Over int8 rows, the new rows' float32 values (n x dimension) when they are at hand, which the graph's
   * insert compares with the codes (asymmetric, as a search); undefined over float32 rows (the rows are the values).
   */
  private insertValues(vectors: Float32Array, rows: readonly number[]): Float32Array | undefined {
    if (!this.rows.rows.int8) return undefined;
    const dim = this.rows.dimension;
    const values = new Float32Array(rows.length * dim);
    rows.forEach((r, j) => values.set(vectors.subarray(r * dim, (r + 1) * dim), j * dim));
    return values;
  }

  replaceDeleted(slot: number, vectors: Float32Array, row: number, label?: number): void {
    const fresh: number[] = [];
    const rowId = this.rowFor(label, vectors, row * this.rows.dimension, fresh);
    try {
      this.handle().replace(slot, rowId);
    } catch (e) {
      throw failure('addPoint (update)', e);
    } finally {
      for (const r of fresh) this.rows.rows.unref(r);
    }
  }

  markDeleted(slots: readonly number[]): void {
    const graph = this.handle();
    try {
      for (const s of slots) graph.markDelete(s);
    } catch (e) {
      throw failure('markDelete', e);
    }
  }

  async addStored(labels: readonly number[], slots: readonly number[], threads = insertThreads()): Promise<void> {
    const graph = this.handle();
    const rowIds = new Uint32Array(labels.length);
    for (let i = 0; i < labels.length; i++) {
      const row = this.rows.rowOf(labels[i] as number);
      if (row === undefined) throw failure('addStored', new Error(`label ${labels[i]} has no stored vector`));
      rowIds[i] = row;
    }
    // No float values over int8 rows here: they would be point reads of the stored vectors on the event loop,
    // for a graph measured no better within noise (bench/README.md, graph-insert-bench.js).
    const inserting = graph.addAsync(Uint32Array.from(slots), rowIds, labels.length, Math.max(1, Math.floor(threads)));
    this.busy = inserting;
    try {
      await inserting;
    } catch (e) {
      throw failure('addPoint (parallel)', e);
    } finally {
      if (this.busy === inserting) this.busy = undefined;
      this.rows.quantizeIfDue(); // an int8 store whose scale came while the rows were read
    }
  }

  searchBytes(query: Float32Array, k: number, ef: number, allowed: Uint8Array): SlotHits {
    return this.search(query, k, ef, allowed);
  }

  /** The addon's search, which takes a byte per slot as well as a predicate (native/src/graph_search_binding.h). */
  search(query: Float32Array, k: number, ef: number, filter: Uint8Array | ((slot: number) => boolean) | undefined): SlotHits {
    const graph = this.handle();
    const slots = k <= this.outSlots.length ? this.outSlots : new Uint32Array(k);
    const distances = k <= this.outDistances.length ? this.outDistances : new Float32Array(k);
    let n: number;
    try {
      n = graph.search(query, k, ef, filter, slots, distances);
    } catch (e) {
      throw failure('searchKnn', e);
    }
    // The output buffers themselves, with the count: two subarrays cost more than the rest of the call's JS.
    return { slots, distances, count: n };
  }

  restored(slotLabels: Uint32Array, live: Uint8Array): void {
    const graph = this.handle();
    const n = graph.count();
    const slots = new Uint32Array(n);
    const rows = new Uint32Array(n);
    graph.elements(slots, rows);
    const labels = new Uint32Array(n);
    const liveRows = new Uint32Array(n);
    let m = 0;
    for (let i = 0; i < n; i++) {
      const slot = slots[i] as number;
      if (live[slot] !== 1) continue;
      labels[m] = slotLabels[slot] as number;
      liveRows[m++] = rows[i] as number;
    }
    this.rows.adopt(labels, liveRows, m);
  }

  save(onWritten: () => void): Promise<Uint8Array> {
    return bytesThroughFile((file) => this.saveFile(file, onWritten));
  }

  async saveFile(file: string, onWritten: () => void): Promise<number> {
    // On a libuv thread: HnswIndex refuses changes until this settles; the rows it reads never change
    // while the graph refers to them.
    const writing = this.handle().save(file);
    this.busy = writing;
    let bytes: number;
    try {
      bytes = await writing;
    } catch (e) {
      throw failure('save', e);
    } finally {
      if (this.busy === writing) this.busy = undefined;
      this.rows.quantizeIfDue();
    }
    onWritten();
    return bytes;
  }

  dispose(): void {
    const graph = this.graph;
    if (graph === null) return;
    this.graph = null;
    const free = (): void => graph.dispose();
    if (this.busy === undefined) free();
    else void this.busy.then(free, free);
  }

  private handle(): AddonGraph {
    if (this.graph === null) throw VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: 'native-rows: the index was disposed' });
    return this.graph;
  }
}

/** The store a graph of this identity reads: the given one when it is a NativeRowStore of its space, else a private one. */
function storeFor(identity: IndexIdentity, rows: VectorRows | undefined): NativeRowStore {
  if (rows instanceof NativeRowStore && rows.dimension === identity.dimension && rows.metric === identity.metric) return rows;
  return new NativeRowStore(requireAddon(), identity.dimension, identity.metric);
}

/** The factory for graphs over `rows` (the engine's NativeRowStore), or over a private store when none is given. */
export function nativeRowsDriverFactory(rows?: VectorRows): HnswDriverFactory {
  return {
    async create(identity: IndexIdentity, capacity: number): Promise<HnswDriver> {
      const addon = requireAddon();
      const store = storeFor(identity, rows);
      const { M, efConstruction } = identity.params;
      const full = (e: unknown): VectorDbError =>
        VectorDbError.of('VECTOR_INDEX_CAPACITY', { backend: NATIVE_ROWS_LIBRARY, collection: identity.name, max: capacity, dimension: identity.dimension, reason: `preallocating ${capacity} vectors failed (${String(e)})` });
      let graph: AddonGraph;
      try {
        // Small, then grown to the capacity with its tables made off the JS thread (a compaction's graph at 1M: 50 MB of them).
        graph = new addon.Graph(store.rows, Math.min(capacity, SMALL_GRAPH), M, efConstruction, HNSW_SEED);
      } catch (e) {
        throw full(e);
      }
      if (capacity > SMALL_GRAPH) {
        await graph.prepareResize(capacity).catch(() => undefined);
        if (!graph.resize(capacity)) {
          graph.dispose();
          throw full('out of memory');
        }
      }
      return new NativeRowsDriver(graph, store);
    },

    load(identity: IndexIdentity, bytes: BackendBytes, capacity: number, header: IndexHeader): Promise<HnswDriver> {
      return fileOfBytes(bytes, async (file) => {
        const read = readRowsGraphFile(file, header.backendBytes, identity);
        await read.done;
        return read.fit(identity, Math.max(capacity, header.capacity));
      });
    },

    readFile: async (file, bytes, space) => readRowsGraphFile(file, bytes, space),
  };
}

/** The first bytes of a graph file the addon wrote (native/src/graph_file.h). */
const MAGIC = 'VDBROWS1';

/** Whether `file` starts as the addon's graph files do (false when it cannot be read). */
export function isRowsGraphFile(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(8);
    return readSync(fd, head, 0, 8, 0) === 8 && head.toString('latin1') === MAGIC;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Starts reading a graph file (graph and rows) on a libuv thread, into a new row store: the one the
 * collection then keeps its vectors in (the driver's `rows`).
 */
function readRowsGraphFile(file: string, bytes: number, space: { readonly dimension: number; readonly metric: Metric }): GraphFileRead {
  const addon = requireAddon();
  const store = new NativeRowStore(addon, space.dimension, space.metric);
  const graph = new addon.Graph(store.rows, 1, 2, 1, HNSW_SEED);
  const done = graph.load(file, 0, bytes).then(
    () => undefined,
    (e: unknown) => {
      graph.dispose();
      const text = e instanceof Error ? e.message : String(e);
      throw text.startsWith('incompatible:') ? new IndexFormatError(text.slice(14)) : failure('load', e);
    },
  );
  return graphFileRead(done, () => new NativeRowsDriver(graph, store), () => graph.dispose());
}
