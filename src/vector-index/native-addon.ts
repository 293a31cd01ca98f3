/**
 * Loads our optional native addon (native/, built by scripts/build-native.js into native/build): a row
 * store holding the one copy of each vector (float32, or int8 codes), and hnswlib graphs whose elements are row ids
 * (parallel insertion, filters by bytes, exact float64 scans, one file for graph and rows). Absent when it
 * was not built here, or when VECTORDB_NO_NATIVE_ROWS=1: the vector layer then uses hnswlib-node or
 * hnswlib-wasm with FlatVectorStore, as before. Types of what the addon exports, and the load; nothing else.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';

/** The addon's row store (native/src/row_store.h); rows are uint32 ids, freed once unreferenced. */
export interface AddonRows {
  /** A fresh row with one reference. */
  take(): number;
  write(row: number, values: Float32Array, offset: number): void;
  /** Takes n rows (one reference each) for the n vectors of `values`; their ids into `out`. */
  writeMany(values: Float32Array, n: number, out: Uint32Array): void;
  ref(row: number): void;
  /** A reference more on each of rows[0..n). */
  refMany(rows: Uint32Array, n: number): void;
  unref(row: number): void;
  refs(row: number): number;
  read(row: number, out: Float32Array, offset: number): void;
  /**
   * Float64 dot products of `query` with rows[0..n), summed as FlatVectorStore's WebAssembly kernel sums them
   * (int8 rows: approximate, from the codes); with `norms`, each row's squared norm too: float32 rows' summed
   * in order as checkVector sums it, int8 rows' from the inverse norm kept beside the codes.
   */
  dots(query: Float64Array, rows: Uint32Array, n: number, out: Float64Array, norms?: Float64Array): void;
  /** Makes the rows int8 codes of this scale (those written so far coded from their values); false while a graph reads them, or when already int8. */
  quantize(lo: Float32Array, step: Float32Array): boolean;
  /** The int8 rows' scale into the arrays; false for float32 rows. */
  scale(outLo: Float32Array, outStep: Float32Array): boolean;
  /** An int8 row's codes. */
  readCodes(row: number, out: Uint8Array): void;
  /** Whether the rows are int8 codes (read, then, refuses: there are no float32 values). */
  readonly int8: boolean;
  /** The int8 distance kernels of this CPU: 'avx2' or 'scalar'. */
  readonly kernel: string;
  readonly used: number;
  readonly free: number;
  /** Values coded into int8 rows since the rows were made (at quantize: live rows'; then every write), and of those clamped. */
  readonly codedValues: number;
  readonly clampedValues: number;
}

/** An hnswlib graph over a row store (native/src/addon.cc Graph); its labels are HnswIndex's slots. */
export interface AddonGraph {
  /**
   * Inserts rows[i] as slots[i] by our insert (native/src/graph_insert.h). `values` (n x dimension): the rows'
   * float32 values; over int8 rows the insert then compares them with the codes (asymmetric, as a search).
   */
  add(slots: Uint32Array, rows: Uint32Array, n: number, values?: Float32Array): void;
  /** add's first three arguments, through hnswlib's own addPoint: for tests and benches. */
  addHnswlib(slots: Uint32Array, rows: Uint32Array, n: number): void;
  addAsync(slots: Uint32Array, rows: Uint32Array, n: number, threads: number, values?: Float32Array): Promise<number>;
  replace(slot: number, row: number): void;
  markDelete(slot: number): void;
  /** The hits into the out arrays, nearest first; how many. `filter`: bytes by slot, or a predicate on the slot. */
  search(query: Float32Array, k: number, ef: number, filter: Uint8Array | ((slot: number) => boolean) | undefined, outSlots: Uint32Array, outDistances: Float32Array): number;
  /** search's arguments, through hnswlib's own searchKnn (search is ours, native/src/graph_search.h): for tests. */
  searchHnswlib(query: Float32Array, k: number, ef: number, filter: Uint8Array | ((slot: number) => boolean) | undefined, outSlots: Uint32Array, outDistances: Float32Array): number;
  /** Grows the graph in place (native/src/graph_growth.h); false, unchanged, when memory runs out. */
  resize(n: number): boolean;
  /** Makes the tables resize(capacity) swaps in, off the JS thread: resize(capacity) is quick once it settles. */
  prepareResize(capacity: number): Promise<number>;
  /** Frees (off the JS thread) the tables prepareResize made that no resize took, and those it still makes once made. */
  dropPrepared(): void;
  /** The capacity whose tables prepareResize made and no resize took yet, or 0 (tests: what a load leaves). */
  spareCapacity(): number;
  count(): number;
  capacity(): number;
  /** Whether the graph's level-0 block grows in place in a reserved range (none under an address-space limit). */
  growsInPlace(): boolean;
  rowOf(slot: number): number;
  elements(outSlots: Uint32Array, outRows: Uint32Array): number;
  /** The slots a slot's element links to on `level` into `out` (room for 2M), in list order; how many, or -1. */
  links(slot: number, level: number, out: Uint32Array): number;
  save(file: string): Promise<number>;
  load(file: string, maxElements: number, fileBytes: number | undefined): Promise<number>;
  dispose(): void;
}

export interface NativeAddon {
  Rows: new (dimension: number, metric: number) => AddonRows;
  Graph: new (rows: AddonRows, maxElements: number, M: number, efConstruction: number, seed: number) => AddonGraph;
  /** glibc's malloc_trim(0) on a libuv thread: whether freed heap went back to the system (false off glibc). */
  mallocTrim(): Promise<boolean>;
  /** glibc's bytes in its own mmaps and in its heaps (mallinfo2; zeros off glibc): tests. */
  heapStats(): { mmapped: number; heaps: number };
  /** Times a graph's level-0 block moved as it grew, in this process: past its range (VECTORDB_GRAPH_RESERVE_BYTES caps it), or by realloc (tests). */
  level0Moves(): number;
}

let addon: NativeAddon | null | undefined;
let why = '';

/** The addon, or null when it does not load here (nativeRowsUnavailable says why). */
export function loadNativeAddon(): NativeAddon | null {
  if (addon !== undefined) return addon;
  if (process.env.VECTORDB_NO_NATIVE_ROWS === '1') {
    why = 'VECTORDB_NO_NATIVE_ROWS=1';
    return (addon = null);
  }
  try {
    // native/ is two levels up from src/vector-index/ and from dist/node/ alike.
    const mod = createRequire(import.meta.url)(new URL('../../native/build/vectordb_native.node', import.meta.url).pathname) as NativeAddon;
    addon = typeof mod.Graph === 'function' ? mod : null;
  } catch (e) {
    why = e instanceof Error ? e.message.split('\n')[0]! : String(e);
    addon = null;
  }
  return addon;
}

export function nativeRowsUnavailable(): string {
  loadNativeAddon();
  return why;
}

/** Threads a bulk insert uses: both cores of the usual desktop, never more than the machine has. */
export function insertThreads(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

/** Returns freed heap to the system after a bulk load or a compaction (glibc keeps it otherwise), off the JS thread. */
export function trimHeap(): void {
  addon?.mallocTrim().catch(() => undefined);
}
