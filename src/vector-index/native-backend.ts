/**
 * The hnswlib-node backend (native, optional dependency): same slots and spaces as the wasm one,
 * about 2x faster, no heap cap. hnswlib-node reads and writes only files: index bytes go through a
 * temporary one, or straight to and from a file the engine names (saveFile / readFile).
 * Private to vector/; the engine sees only VectorIndex.
 */
import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { VectorDbError } from '../errors/vectordb-error.js';
import { graphFileRead, HNSW_SEED, type GraphFileRead, type HnswDriver, type HnswDriverFactory, type IndexIdentity, type SlotHits } from './backend-types.js';
import { IndexFormatError, type BackendBytes, type IndexHeader } from './index-format.js';
import { hnswSpace, type Metric } from './metric.js';
import { bytesThroughFile, fileOfBytes } from './temp-file.js';

/** What we use of hnswlib-node 3 (it wants plain arrays, not typed arrays). */
interface NativeHnsw {
  initIndex(maxElements: number, m: number, efConstruction: number, randomSeed: number, allowReplaceDeleted: boolean): void;
  readIndex(filename: string, allowReplaceDeleted: boolean): Promise<boolean>;
  /** Writes on a libuv worker thread: the graph must not change until it settles. */
  writeIndex(filename: string): Promise<boolean>;
  resizeIndex(maxElements: number): void;
  addPoint(point: number[], label: number, replaceDeleted: boolean): void;
  markDelete(label: number): void;
  unmarkDelete(label: number): void;
  searchKnn(query: number[], k: number, filter?: (label: number) => boolean): { distances: number[]; neighbors: number[] };
  getCurrentCount(): number;
  getMaxElements(): number;
  setEf(ef: number): void;
}
interface NativeModule {
  HierarchicalNSW: new (space: string, dimension: number) => NativeHnsw;
}

/** hnswlib-node once loaded (null: it does not load here, loadError says why); undefined before the first try. */
let nativeModule: NativeModule | null | undefined;
let loadError = '';

/** Loads hnswlib-node (synchronously, a few ms, once). */
function loadNativeNow(): NativeModule | null {
  if (nativeModule === undefined) {
    try {
      // CommonJS addon: require keeps its exports object as is.
      const mod = createRequire(import.meta.url)('hnswlib-node') as NativeModule;
      nativeModule = typeof mod.HierarchicalNSW === 'function' ? mod : null;
    } catch (e) {
      loadError = e instanceof Error ? e.message : String(e);
      nativeModule = null;
    }
  }
  return nativeModule;
}

/** True when hnswlib-node loads in this process (tried once, synchronously). */
export function nativeLoads(): boolean {
  return loadNativeNow() !== null;
}

export async function nativeAvailable(): Promise<boolean> {
  return loadNativeNow() !== null;
}

function requireNativeNow(): NativeModule {
  const mod = loadNativeNow();
  if (mod === null) {
    throw VectorDbError.of('INVALID_ARGUMENT', { reason: `the native vector backend needs hnswlib-node, which does not load: ${loadError}` });
  }
  return mod;
}

function library(): string {
  try {
    const pkg = createRequire(import.meta.url)('hnswlib-node/package.json') as { version?: string };
    return `hnswlib-node ${pkg.version ?? ''}`.trim();
  } catch {
    return 'hnswlib-node';
  }
}

function failure(op: string, e: unknown): VectorDbError {
  const text = e instanceof Error ? e.message : String(e);
  return VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: `hnswlib-node failed in ${op}: ${text}` }, { cause: e });
}

const isOutOfMemory = (e: unknown): boolean => /bad_alloc|Not enough memory/i.test(e instanceof Error ? e.message : String(e));

/** Slots are uint32 labels for hnswlib. */
const NATIVE_MAX_ELEMENTS = 0xffff_ffff;

class NativeDriver implements HnswDriver {
  readonly library = library();
  readonly resizesInPlace = true;
  private h: NativeHnsw | null;
  private maxElements: number;
  private ef = -1;
  private readonly scratch: number[];
  /** A write of the graph in flight (hnswlib reads it on a libuv thread): dispose frees the graph after it. */
  private writing: Promise<unknown> | undefined;

  constructor(
    h: NativeHnsw,
    private readonly identity: IndexIdentity,
  ) {
    this.h = h;
    this.maxElements = h.getMaxElements();
    // Filled by push with doubles: a packed array of doubles, as the binding reads fastest (one made by
    // new Array(n) stays holey, and each element read checks for a hole).
    this.scratch = [];
    for (let i = 0; i < identity.dimension; i++) this.scratch.push(0.5);
  }

  count(): number {
    return this.handle().getCurrentCount();
  }

  capacity(): number {
    return this.maxElements;
  }

  capacityLimit(): number {
    return NATIVE_MAX_ELEMENTS;
  }

  capacityAdvice(): string {
    return 'The process ran out of memory for the native index: free memory or use several smaller indexes.';
  }

  tryResize(n: number): boolean {
    try {
      this.handle().resizeIndex(n);
      this.maxElements = n;
      return true;
    } catch (e) {
      if (isOutOfMemory(e)) return false;
      throw failure('resizeIndex', e);
    }
  }

  addFresh(vectors: Float32Array, rows: readonly number[], slots: readonly number[]): void {
    const h = this.handle();
    const dim = this.identity.dimension;
    for (let j = 0; j < rows.length; j++) {
      const r = rows[j] as number;
      try {
        h.addPoint(this.numbers(vectors, r * dim), slots[j] as number, false);
      } catch (e) {
        throw failure('addPoint', e);
      }
    }
  }

  replaceDeleted(slot: number, vectors: Float32Array, row: number): void {
    const h = this.handle();
    const dim = this.identity.dimension;
    try {
      h.unmarkDelete(slot);
      h.addPoint(this.numbers(vectors, row * dim), slot, false);
    } catch (e) {
      try {
        h.markDelete(slot);
      } catch {
        // the original error matters more
      }
      throw failure('addPoint (update)', e);
    }
  }

  markDeleted(slots: readonly number[]): void {
    const h = this.handle();
    try {
      for (const s of slots) h.markDelete(s);
    } catch (e) {
      throw failure('markDelete', e);
    }
  }

  /**
   * One vector (`dimension` values from `at`) as the plain array hnswlib-node requires, in a scratch
   * array reused by every call: the binding reads it synchronously, and Array.from of a typed array
   * cost a third of a small search (7 us at 128 dims).
   */
  private numbers(values: Float32Array, at: number): number[] {
    const out = this.scratch;
    for (let i = 0; i < out.length; i++) out[i] = values[at + i] as number;
    return out;
  }

  search(query: Float32Array, k: number, ef: number, filter: ((slot: number) => boolean) | undefined): SlotHits {
    const h = this.handle();
    try {
      if (ef !== this.ef) {
        h.setEf(ef);
        this.ef = ef;
      }
      const q = this.numbers(query, 0);
      const r = filter === undefined ? h.searchKnn(q, k) : h.searchKnn(q, k, filter);
      return { slots: r.neighbors, distances: r.distances };
    } catch (e) {
      throw failure('searchKnn', e);
    }
  }

  save(onWritten: () => void): Promise<Uint8Array> {
    return bytesThroughFile((file) => this.saveFile(file, onWritten));
  }

  async saveFile(file: string, onWritten: () => void): Promise<number> {
    const h = this.handle();
    // On a worker thread (the sync writer held the event loop ~300 ms at 100k x 128): HnswIndex
    // refuses changes until this settles, so the graph it reads is the one onWritten describes.
    const writing = h.writeIndex(file);
    this.writing = writing;
    try {
      await writing;
    } catch (e) {
      throw failure('writeIndex', e);
    } finally {
      if (this.writing === writing) this.writing = undefined;
    }
    onWritten();
    return (await stat(file)).size;
  }

  /**
   * Frees the graph now. hnswlib-node would free it only once V8 collects its wrapper object, and V8 does
   * not know that a small object holds a graph of tens of MB: a replaced graph (after a worker build, a
   * snapshot load) stayed resident until some later full GC. Re-initialising it to one slot deletes the
   * graph at once; what stays until that GC is the 1-slot index (hnswlib's lock table, about 2.6 MB).
   */
  dispose(): void {
    const h = this.h;
    if (h === null) return;
    this.h = null;
    const free = (): void => freeGraph(h);
    if (this.writing === undefined) free();
    else void this.writing.then(free, free);
  }

  private handle(): NativeHnsw {
    if (this.h === null) throw VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: 'hnswlib-node: the index was disposed' });
    return this.h;
  }
}

export const nativeDriverFactory: HnswDriverFactory = {
  async create(identity: IndexIdentity, capacity: number): Promise<HnswDriver> {
    const mod = requireNativeNow();
    const { dimension, metric, params } = identity;
    const h = new mod.HierarchicalNSW(hnswSpace(metric), dimension);
    try {
      h.initIndex(capacity, params.M, params.efConstruction, HNSW_SEED, false);
    } catch (e) {
      if (isOutOfMemory(e)) {
        throw VectorDbError.of('VECTOR_INDEX_CAPACITY', {
          backend: library(),
          collection: identity.name,
          max: capacity,
          dimension,
          reason: `preallocating ${capacity} vectors failed (${String(e)})`,
        });
      }
      throw failure('initIndex', e);
    }
    return new NativeDriver(h, identity);
  },

  load(identity: IndexIdentity, bytes: BackendBytes, capacity: number, header: IndexHeader): Promise<HnswDriver> {
    // Streamed pieces go to the file as they come: the graph is never held whole beside hnswlib's copy.
    return fileOfBytes(bytes, async (file) => {
      const read = await readGraphFile(file, header.backendBytes, identity);
      await read.done;
      return read.fit(identity, Math.max(capacity, header.capacity));
    });
  },

  readFile: readGraphFile,
};

/**
 * Frees a graph now (NativeDriver.dispose, a discarded read): hnswlib-node would free it only once V8
 * collects its wrapper, and V8 does not know that a small object holds tens of MB. Re-initialising it to
 * one slot (the smallest parameters: nothing is added to it again) deletes the graph at once.
 */
function freeGraph(h: NativeHnsw): void {
  try {
    h.initIndex(1, 2, 1, HNSW_SEED, false);
  } catch {
    // out of memory for the small one: the old graph is then freed with the wrapper, as before
  }
}

/** The file's size, or undefined when it cannot be read. */
function fileSizeNow(file: string): number | undefined {
  try {
    return statSync(file).size;
  } catch {
    return undefined;
  }
}

/**
 * Starts reading a graph file saveFile wrote (on a libuv thread, never through JS memory); fit makes the
 * driver. hnswlib's read starts before this returns: a prefetch at open is followed by classic-level's
 * synchronous load.
 */
function readGraphFile(file: string, bytes: number, space: { readonly dimension: number; readonly metric: Metric }): Promise<GraphFileRead> {
  try {
    return Promise.resolve(startGraphRead(file, bytes, space));
  } catch (error) {
    return Promise.reject(error);
  }
}

function startGraphRead(file: string, bytes: number, space: { readonly dimension: number; readonly metric: Metric }): GraphFileRead {
  const mod = requireNativeNow();
  // hnswlib trusts the file it reads: one of another length is not the one saved.
  const size = fileSizeNow(file);
  if (size !== bytes) throw new IndexFormatError(size === undefined ? `the graph file ${file} is missing` : `the graph file is ${size} bytes, ${bytes} were saved`);
  const h = new mod.HierarchicalNSW(hnswSpace(space.metric), space.dimension);
  // On a libuv worker thread.
  const done = h.readIndex(file, false).then(
    () => undefined,
    (e: unknown) => {
      throw failure('readIndex', e);
    },
  );
  return graphFileRead(
    done,
    (identity) => {
      h.setEf(identity.params.efSearch);
      return new NativeDriver(h, identity);
    },
    () => freeGraph(h),
  );
}
