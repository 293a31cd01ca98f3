/**
 * Creating and loading a vector index (one per vector collection; its interface in index-types.ts) on
 * one of two HNSW backends: hnswlib-wasm (always there) and hnswlib-node (native, optional, ~2x faster).
 * Deals only in uint32 labels and Float32Arrays; the engine keeps the _id <-> label map and stores
 * `serialize()` bytes where it likes.
 */
import { FlatVectorStore, type Quantization } from './flat-store.js';
import type { GraphFileRead, HnswDriverFactory, IndexIdentity } from './backend-types.js';
import { HnswIndex } from './hnsw-index.js';
import {
  decodeIndex,
  decodeIndexStream,
  incompatible,
  IndexFormatError,
  readIndexHeader,
  type BackendName,
  type IndexHeader,
} from './index-format.js';
import type { IndexParams, VectorIndex } from './index-types.js';
import { type Metric } from './metric.js';
import { nativeAvailable, nativeDriverFactory, nativeLoads } from './native-backend.js';
import { isRowsGraphFile, nativeRowsAvailable, nativeRowsDriverFactory, newNativeRowStore } from './native-rows-backend.js';
import { NativeRowStore, type NativeInt8Options } from './native-rows.js';
import type { VectorRows } from './vector-rows.js';
import { invalid, checkDimension } from './validate.js';
import { wasmDriverFactory } from './wasm-backend.js';

export { readIndexHeader, type BackendName, type IndexHeader };
export type { AllowedLabels, IndexParams, SearchOptions, VectorIndex } from './index-types.js';

/** Chosen for recall@10 >= 0.95 on hard (clustered, high intrinsic dimension) data; see bench/. */
export const DEFAULT_PARAMS: Readonly<Required<IndexParams>> = Object.freeze({ M: 16, efConstruction: 200, efSearch: 128 });

export type BackendChoice = BackendName | 'auto';

export interface CreateVectorIndexOptions {
  dimension: number;
  metric: Metric;
  /** 'auto' (default): our native addon (native-rows) when it loads, else hnswlib-node, else hnswlib-wasm. */
  backend?: BackendChoice;
  /** The engine's rows (vector-rows.ts): a native-rows graph reads a NativeRowStore's rows instead of copying them. */
  rows?: VectorRows;
  params?: IndexParams;
  /** Vectors to preallocate room for (default 1024). Preallocating lets wasm reach its largest size. */
  capacity?: number;
  /** Names the index in error messages (e.g. "keyspace.collection"). */
  name?: string;
}

export type LoadVectorIndexOptions = CreateVectorIndexOptions;

/** True when hnswlib-node (native) loads in this process. */
export function nativeBackendAvailable(): Promise<boolean> {
  return nativeAvailable();
}

export async function createVectorIndex(opts: CreateVectorIndexOptions): Promise<VectorIndex> {
  checkDimension(opts.dimension);
  const params = resolveParams(opts.params);
  const backend = await resolveBackend(opts.backend ?? 'auto');
  const identity: IndexIdentity = { backend, dimension: opts.dimension, metric: opts.metric, params, name: opts.name ?? '' };
  const capacity = Math.max(16, Math.floor(opts.capacity ?? 1024));
  const driver = await factoryFor(backend, opts.rows).create(identity, capacity);
  return HnswIndex.fresh(identity, driver);
}

/**
 * Loads bytes from `serialize()`, the pieces from `serializeParts()` (never joined), or a stream of
 * pieces (serializeTo's head, then what it handed its sink; a graph in segments is read one segment at a
 * time). Throws
 * VECTOR_INDEX_INCOMPATIBLE (the engine then rebuilds) when the bytes were written by the other backend
 * (hnswlib's files are not portable between wasm and native), for another dimension or metric, or are
 * damaged. With backend 'auto' the backend that wrote them is used.
 */
export async function loadVectorIndex(bytes: Uint8Array | readonly Uint8Array[] | AsyncIterable<Uint8Array>, opts: LoadVectorIndexOptions): Promise<VectorIndex> {
  checkDimension(opts.dimension);
  const name = opts.name ?? '';
  // serializeParts of a graph in segments: many pieces, read as a stream.
  if (Array.isArray(bytes) && bytes.length > 2) bytes = streamOf(bytes);
  const { decoded, backendBytes } = await asIncompatible(opts.backend ?? 'auto', name, async () => {
    if (!(Symbol.asyncIterator in bytes)) {
      const whole = decodeIndex(bytes);
      return { decoded: whole, backendBytes: whole.backendBytes };
    }
    const { head, rest } = await decodeIndexStream(bytes);
    return { decoded: head, backendBytes: rest };
  });
  const { identity, factory, capacity } = await checkLoad(decoded.header, opts);
  const driver = await asIncompatible(identity.backend, name, () => factory.load(identity, backendBytes, capacity, decoded.header));
  return HnswIndex.restored(identity, driver, decoded.slotLabels, decoded.live);
}

async function* streamOf(pieces: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* pieces;
}

/**
 * Starts reading the graph file `file` of `bytes` (hnswlib-node only: it reads files) before its head
 * is read: loadVectorIndexFile takes the read as `started`, when the head then agrees.
 */
export function startGraphFileRead(file: string, bytes: number, space: { readonly dimension: number; readonly metric: Metric }): Promise<GraphFileRead> {
  // The two native backends' files differ from their first bytes: each is read by its own library.
  if (isRowsGraphFile(file)) return nativeRowsAvailable() ? nativeRowsDriverFactory().readFile!(file, bytes, space) : Promise.reject(new IndexFormatError('the graph file is the native addon\'s, which does not load here'));
  return nativeDriverFactory.readFile!(file, bytes, space);
}

function factoryFor(backend: BackendName, rows: VectorRows | undefined): HnswDriverFactory {
  return backend === 'native-rows' ? nativeRowsDriverFactory(rows) : backend === 'native' ? nativeDriverFactory : wasmDriverFactory;
}

/**
 * Loads what serializeToFile wrote: its head and the file (read by hnswlib on a libuv thread). Throws
 * VECTOR_INDEX_INCOMPATIBLE as loadVectorIndex does, and when the file is missing or of another length.
 * Given the file's length as saved (`fileBytes`), hnswlib starts reading it while `head` is still on
 * its way; the head must then agree.
 */
export async function loadVectorIndexFile(head: Uint8Array | Promise<Uint8Array>, file: string, opts: LoadVectorIndexOptions, fileBytes?: number, started?: Promise<GraphFileRead>): Promise<VectorIndex> {
  const name = opts.name ?? '';
  checkDimension(opts.dimension);
  // Only hnswlib-node reads files.
  const early = started ?? (fileBytes === undefined || opts.backend === 'wasm' ? undefined : startGraphFileRead(file, fileBytes, opts));
  early?.catch(() => undefined); // awaited below, unless the head fails first
  try {
    const headBytes = await asIncompatible(opts.backend ?? 'auto', name, () => head);
    // Decoding the head holds the event loop (a few ms at 100k): hnswlib starts reading first.
    await early?.catch(() => undefined);
    const decoded = await asIncompatible(opts.backend ?? 'auto', name, () => decodeIndex([headBytes], true));
    const { identity, factory, capacity } = await checkLoad(decoded.header, opts);
    const readFile = factory.readFile?.bind(factory);
    if (readFile === undefined) throw incompatible(`the ${identity.backend} backend does not read graph files`, identity.backend, name);
    const { backendBytes } = decoded.header;
    if (fileBytes !== undefined && fileBytes !== backendBytes) throw incompatible(`the graph file was saved with ${fileBytes} bytes, the header says ${backendBytes}`, identity.backend, name);
    const read = await asIncompatible(identity.backend, name, async () => {
      const reading = await (early ?? readFile(file, backendBytes, identity));
      await reading.done;
      return reading;
    });
    return HnswIndex.restored(identity, read.fit(identity, capacity), decoded.slotLabels, decoded.live);
  } catch (error) {
    // A graph read but not taken (the head or the header disagreed) is freed now, not at some later GC.
    void early?.then((reading) => reading.discard(), () => undefined);
    throw error;
  }
}

/** Runs `work`; bytes or a file in a form it cannot read (IndexFormatError) become VECTOR_INDEX_INCOMPATIBLE. */
async function asIncompatible<T>(backend: BackendChoice, name: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw e instanceof IndexFormatError ? incompatible(e.message, backend, name) : e;
  }
}

/** The identity and factory to load a serialized index with; VECTOR_INDEX_INCOMPATIBLE when it does not fit `opts`. */
async function checkLoad(h: IndexHeader, opts: LoadVectorIndexOptions): Promise<{ identity: IndexIdentity; factory: HnswDriverFactory; capacity: number }> {
  checkDimension(opts.dimension);
  const name = opts.name ?? '';
  const choice = opts.backend ?? 'auto';
  const backend = choice === 'auto' ? h.backend : choice;
  const mismatch = (reason: string): never => {
    throw incompatible(reason, backend, name);
  };
  if (h.backend !== backend) mismatch(`the bytes were written by the ${h.backend} backend (${h.library})`);
  if (backend === 'native' && !(await nativeAvailable())) mismatch('hnswlib-node does not load in this process');
  if (backend === 'native-rows' && !nativeRowsAvailable()) mismatch('the native addon does not load in this process');
  if (h.dimension !== opts.dimension) mismatch(`the index has dimension ${h.dimension}, expected ${opts.dimension}`);
  if (h.metric !== opts.metric) mismatch(`the index uses metric '${h.metric}', expected '${opts.metric}'`);
  const params = resolveParams({ M: h.M, efConstruction: h.efConstruction, efSearch: opts.params?.efSearch ?? h.efSearch });
  const identity: IndexIdentity = { backend, dimension: h.dimension, metric: h.metric, params, name };
  return { identity, factory: factoryFor(backend, opts.rows), capacity: Math.max(h.capacity, Math.floor(opts.capacity ?? 0)) };
}

async function resolveBackend(choice: BackendChoice): Promise<BackendName> {
  if (choice === 'wasm') return 'wasm';
  if (choice === 'native') {
    if (!(await nativeAvailable())) throw invalid("the 'native' vector backend needs hnswlib-node, which does not load in this process");
    return 'native';
  }
  if (choice === 'native-rows') {
    if (!nativeRowsAvailable()) throw invalid("the 'native-rows' vector backend needs the native addon (native/), which does not load in this process");
    return 'native-rows';
  }
  if (choice === 'auto') return nativeRowsAvailable() ? 'native-rows' : (await nativeAvailable()) ? 'native' : 'wasm';
  throw invalid(`unknown vector backend '${String(choice)}': use 'wasm', 'native', 'native-rows' or 'auto'`);
}

function resolveParams(p: IndexParams | undefined): Readonly<Required<IndexParams>> {
  const out = { ...DEFAULT_PARAMS, ...stripUndefined(p ?? {}) };
  const check = (key: keyof IndexParams, min: number, max: number): void => {
    const v = out[key];
    if (!Number.isInteger(v) || v < min || v > max) throw invalid(`index parameter ${key} must be an integer from ${min} to ${max}, got ${v}`);
  };
  check('M', 2, 100);
  check('efConstruction', 1, 10_000);
  check('efSearch', 1, 10_000);
  return Object.freeze(out);
}

function stripUndefined(p: IndexParams): IndexParams {
  const out: IndexParams = {};
  if (p.M !== undefined) out.M = p.M;
  if (p.efConstruction !== undefined) out.efConstruction = p.efConstruction;
  if (p.efSearch !== undefined) out.efSearch = p.efSearch;
  return out;
}

/**
 * The backend a collection opened with `choice` builds its graph on, known at once: 'auto' is the native
 * addon when it loads (its graphs of other backends are then rebuilt), else left to the load (hnswlib-node
 * or wasm, as the saved graph says). An int8 collection goes to the addon too (its rows, and the graph
 * reading them, hold int8 codes); without the addon its graph is hnswlib's own (hnswlib-node, else wasm),
 * holding float32 itself, beside a FlatVectorStore of codes.
 */
export function collectionBackend(choice: BackendChoice, quantization: Quantization = 'none'): BackendChoice {
  if (nativeRowsAvailable()) return choice === 'auto' ? 'native-rows' : choice;
  if (quantization === 'int8' && (choice === 'auto' || choice === 'native-rows')) return nativeLoads() ? 'native' : 'wasm';
  return choice;
}

/** What int8 rows need besides their space: FlatVectorStore's and NativeRowStore's int8 options alike. */
export type Int8RowsOptions = NativeInt8Options;

/**
 * The rows a collection keeps its vectors in, for graphs of `backend` (collectionBackend's): the native
 * addon's row store for 'native-rows' (the graph reads them: one copy), else a FlatVectorStore; int8 codes
 * ranked again exactly when `int8` is given (quantization 'int8').
 */
export function createVectorRows(opts: { dimension: number; metric: Metric; backend: BackendChoice; capacity: number; int8?: Int8RowsOptions }): VectorRows {
  const { dimension, metric, int8 } = opts;
  const native = opts.backend === 'native-rows' ? newNativeRowStore(dimension, metric) : undefined;
  if (native !== undefined) {
    if (int8 !== undefined) native.useInt8(int8);
    return native;
  }
  return new FlatVectorStore({ dimension, metric, capacity: opts.capacity, ...(int8 === undefined ? {} : { quantization: 'int8' as const, ...int8 }) });
}

/**
 * Makes the rows a loaded graph brought (a native-rows graph file's) hold the collection's quantization:
 * int8 with its reader and kept scale when `int8` is given. False when they cannot: int8 codes for a
 * float32 collection, or codes of another scale than the kept one (the caller then rebuilds the graph).
 */
export function adoptRows(rows: VectorRows, int8: Int8RowsOptions | undefined): boolean {
  if (int8 === undefined) return rows.rowsAs === 'float32';
  return rows instanceof NativeRowStore && rows.useInt8(int8);
}
