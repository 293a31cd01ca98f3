/**
 * The hnswlib-wasm backend: loads the emscripten module once per process, keeps its chatter out of
 * the user's stdout, moves index bytes in and out through its IDBFS mount (backed by our by-reference
 * IndexedDB, memory-idb.ts), and plans capacity inside its 2 GiB heap, which all wasm indexes of the
 * process share.
 * Everything here is private to vector/; the engine sees only VectorIndex.
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import { HEADROOM, HNSW_SEED, type HnswDriver, type HnswDriverFactory, type IndexIdentity, type SlotHits } from './backend-types.js';
import { joinPieces, type BackendBytes, type IndexHeader } from './index-format.js';
import { MemoryIndexedDb, type MemoryDatabase, type MemoryObjectStore, type MemoryRequest } from './memory-idb.js';
import { hnswSpace } from './metric.js';
import { loadGlueFactory, type LoadedGlue } from './wasm-loader.js';

// ---- what we use of the emscripten module (it ships no usable types for Node) -------------------

interface WasmHnsw {
  initIndex(maxElements: number, m: number, efConstruction: number, seed: number): void;
  readIndex(filename: string, maxElements: number): void;
  writeIndex(filename: string): void;
  resizeIndex(maxElements: number): void;
  addPoints(items: Float32Array[], labels: number[], replaceDeleted: boolean): void;
  markDeleteItems(labels: number[]): void;
  unmarkDelete(label: number): void;
  searchKnn(query: Float32Array, k: number, filter: ((label: number) => boolean) | undefined): { distances: number[]; neighbors: number[] };
  getCurrentCount(): number;
  getMaxElements(): number;
  setEfSearch(ef: number): void;
  /** embind: frees the C++ object. */
  delete(): void;
}

interface WasmModule {
  HierarchicalNSW: new (space: string, dimension: number, autoSaveFilename: string) => WasmHnsw;
  EmscriptenFileSystemManager: {
    initializeFileSystem(type: 'IDBFS'): void;
    syncFS(read: boolean, callback: undefined): void;
  };
  /** Called by the module (from JS) when an IDBFS sync ends; we wrap it to learn when and how. */
  setIdbfsSynced(ok: boolean): void;
  getExceptionMessage?(e: unknown): unknown;
  /** Read by our patch of MEMFS (wasm-glue.ts): the size the next written file will reach. */
  fileCapacityHint?: number;
}

type ModuleFactory = (moduleArg: { print: (s: string) => void; printErr: (s: string) => void; wasmBinary?: Uint8Array }) => Promise<WasmModule>;

/** hnswlib's saveIndex size for `count` elements (wasm32: 4-byte labels), a little over rather than under. */
function wasmFileBytes(count: number, dimension: number, M: number): number {
  const level0 = 2 * M * 4 + 4 + dimension * 4 + 4;
  const upper = 4 + (M * 4 + 4) / Math.max(1, M - 1);
  return Math.ceil(256 + count * (level0 + upper) * 1.02);
}

/** hnswlib-wasm mounts IDBFS here; the IndexedDB database and the file keys use the same path. */
const MOUNT = '/hnswlib-index';
const STORE = 'FILE_DATA';
/** Regular file, rw-r--r--: the mode IDBFS restores the file with. */
const FILE_MODE = 0o100644;

// ---- capacity -----------------------------------------------------------------------------------

export const WASM_HEAP_BYTES = 2 ** 31;
/** Runtime, hnswlib's 65,536 label locks, batch temporaries: kept out of the indexes' budget. */
const WASM_RESERVED_BYTES = 96 * 2 ** 20;
/** Vectors per addPoints call: bounds the C++ copy of the batch (~0.75 MiB at 768 dims). */
const ADD_BATCH_VALUES = 196_608;

/**
 * Heap bytes one element costs hnswlib-wasm (wasm32: size_t and pointers are 4 bytes):
 * the bottom layer (2M links + count, the vector, the label), expected upper-layer links, a link-list
 * pointer, its level, a mutex, the visited-list entry, the label map node and the used-labels cache;
 * plus 5 % for allocator slack. 768 dims, M 16: 3,452 bytes, so about 593k vectors preallocated.
 */
export function wasmBytesPerElement(dimension: number, M: number): number {
  const level0 = 2 * M * 4 + 4 + dimension * 4 + 4;
  const upper = (M * 4 + 4 + 8) / Math.max(1, M - 1);
  const bookkeeping = 4 + 4 + 24 + 2 + 32 + 8;
  return Math.ceil((level0 + upper + bookkeeping) * 1.05);
}

/** Most elements one index can preallocate when other wasm indexes already hold `otherBytes`. */
export function wasmMaxElements(dimension: number, M: number, otherBytes = 0): number {
  return Math.max(0, Math.floor((WASM_HEAP_BYTES - WASM_RESERVED_BYTES - otherBytes) / wasmBytesPerElement(dimension, M)));
}

// ---- keeping stdout clean -----------------------------------------------------------------------

/**
 * hnswlib-wasm prints through three routes: printf (to Module.print/printErr, which we supply, so it
 * lands in `tail`), and console.log/console.error called directly from its JS glue when IDBFS mounts
 * and when a sync ends (in a setTimeout, so after the call returned). For the last two we filter the
 * console, by content, only while one of our file-system operations is in flight.
 */
const CHATTER = /^(?:b\. jsFS |EmscriptenFileSystemManager: )/;
type ConsoleMethod = 'log' | 'info' | 'warn' | 'error' | 'debug';
const METHODS: readonly ConsoleMethod[] = ['log', 'info', 'warn', 'error', 'debug'];
let quietDepth = 0;
let unquiet: (() => void) | null = null;
let lastSyncError: unknown;

async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  if (quietDepth++ === 0) {
    const saved = new Map<ConsoleMethod, (...args: unknown[]) => void>();
    const wrappers = new Map<ConsoleMethod, (...args: unknown[]) => void>();
    for (const name of METHODS) {
      const original = console[name];
      saved.set(name, original);
      const wrapper = function (this: unknown, ...args: unknown[]): void {
        const first = args[0];
        if (typeof first === 'string' && CHATTER.test(first)) {
          if (first.includes('Error')) lastSyncError = args[1];
          return;
        }
        original.apply(this, args);
      };
      wrappers.set(name, wrapper);
      console[name] = wrapper;
    }
    unquiet = () => {
      // Leave a method alone if someone replaced it meanwhile.
      for (const name of METHODS) if (console[name] === wrappers.get(name)) console[name] = saved.get(name) as (...args: unknown[]) => void;
    };
  }
  try {
    return await fn();
  } finally {
    if (--quietDepth === 0) {
      unquiet?.();
      unquiet = null;
    }
  }
}

/**
 * The module is built for the web: it refuses to start without a `window`, and IDBFS looks for
 * `indexedDB` globally, then on `window`. For the duration of each synchronous call that may need
 * them we define `window` (holding only our in-memory IndexedDB) when there is none, and shadow any
 * global `indexedDB` (an Electron renderer's, or fake-indexeddb/auto) with ours, so no other code
 * ever sees them and IDBFS never reaches a real, cloning IndexedDB.
 */
function withWindow<T>(idb: MemoryIndexedDb, fn: () => T): T {
  const g = globalThis as Record<string, unknown>;
  const savedWindow = Object.getOwnPropertyDescriptor(g, 'window');
  const savedIndexedDb = Object.getOwnPropertyDescriptor(g, 'indexedDB');
  if (g.window === undefined) g.window = { indexedDB: idb };
  Object.defineProperty(g, 'indexedDB', { value: idb, configurable: true, writable: true, enumerable: false });
  try {
    return fn();
  } finally {
    restoreGlobal(g, 'indexedDB', savedIndexedDb);
    if (g.window !== undefined && (g.window as { indexedDB?: unknown }).indexedDB === idb) restoreGlobal(g, 'window', savedWindow);
  }
}

function restoreGlobal(g: Record<string, unknown>, name: string, saved: PropertyDescriptor | undefined): void {
  if (saved === undefined) delete g[name];
  else Object.defineProperty(g, name, saved);
}

// ---- the runtime: one module instance per process -----------------------------------------------

class WasmRuntime {
  readonly library: string;
  readonly drivers = new Set<WasmDriver>();
  /** Set when the module aborted: it cannot run again; a new runtime serves new indexes. */
  fatal: string | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private syncWaiter: ((ok: boolean) => void) | null = null;
  private db: Promise<MemoryDatabase> | null = null;

  constructor(
    readonly m: WasmModule,
    readonly idb: MemoryIndexedDb,
    readonly tail: string[],
    library: string,
  ) {
    this.library = library;
    const original = m.setIdbfsSynced;
    m.setIdbfsSynced = (ok: boolean): void => {
      original(ok);
      const waiter = this.syncWaiter;
      this.syncWaiter = null;
      waiter?.(ok);
    };
  }

  /** Runs `fn` after every earlier exclusive operation (loads and saves never overlap: upstream issue #10). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(() => quietly(fn));
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Starts an IDBFS sync with `start` (synchronously) and resolves when the module reports its end. */
  syncAfter(start: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      lastSyncError = undefined;
      this.syncWaiter = (ok) => {
        if (ok) resolve();
        else reject(new Error(`IDBFS sync failed${lastSyncError === undefined ? '' : `: ${String(lastSyncError)}`}`));
      };
      try {
        withWindow(this.idb, start);
      } catch (e) {
        this.syncWaiter = null;
        reject(e);
      }
    });
  }

  /** read = true: IndexedDB -> memory file system (files no longer in IndexedDB are removed). */
  sync(read: boolean): Promise<void> {
    return this.syncAfter(() => this.m.EmscriptenFileSystemManager.syncFS(read, undefined));
  }

  database(): Promise<MemoryDatabase> {
    this.db ??= request(this.idb.open(MOUNT));
    return this.db;
  }

  usedBytes(except: WasmDriver | null): number {
    let sum = 0;
    for (const d of this.drivers) if (d !== except) sum += d.heapBytes();
    return sum;
  }
}

let runtimePromise: Promise<WasmRuntime> | null = null;
let fileCounter = 0;

function wasmRuntime(): Promise<WasmRuntime> {
  if (runtimePromise === null) {
    const p = createRuntime();
    runtimePromise = p;
    p.catch(() => {
      if (runtimePromise === p) runtimePromise = null;
    });
  }
  return runtimePromise;
}

async function createRuntime(): Promise<WasmRuntime> {
  let loaded: LoadedGlue<ModuleFactory>;
  try {
    loaded = await loadGlueFactory<ModuleFactory>();
  } catch (e) {
    throw failure('loading the module', e instanceof Error ? e.message : String(e));
  }
  const { factory, version, wasmBinary } = loaded;
  const idb = new MemoryIndexedDb();
  const tail: string[] = [];
  const print = (s: string): void => {
    tail.push(s);
    if (tail.length > 20) tail.shift();
  };
  return quietly(async () => {
    const m = await withWindow(idb, () => factory({ print, printErr: print, ...(wasmBinary ? { wasmBinary } : {}) }));
    const rt = new WasmRuntime(m, idb, tail, `hnswlib-wasm ${version ?? ''}`.trim());
    await rt.syncAfter(() => m.EmscriptenFileSystemManager.initializeFileSystem('IDBFS'));
    return rt;
  });
}

function request<T>(req: MemoryRequest<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error instanceof Error ? req.error : new Error(String(req.error)));
  });
}

/** One store operation in its own transaction, resolved when the transaction commits. */
function storeOp<T>(db: MemoryDatabase, mode: 'readonly' | 'readwrite', op: (store: MemoryObjectStore) => MemoryRequest<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const tx = db.transaction([STORE], mode);
    const req = op(tx.objectStore(STORE));
    const fail = (): void => reject(tx.error instanceof Error ? tx.error : new Error(String(tx.error ?? req.error)));
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = fail;
    tx.onabort = fail;
  });
}

// ---- errors -------------------------------------------------------------------------------------

interface WasmFailure {
  text: string;
  outOfMemory: boolean;
  fatal: boolean;
}

/** WebAssembly.Exception carries [cppType, text] in `message`; aborts are RuntimeErrors. */
function describe(rt: WasmRuntime | null, e: unknown): WasmFailure {
  const wa = (globalThis as { WebAssembly?: { Exception?: abstract new () => object; RuntimeError?: abstract new () => object } }).WebAssembly;
  if (wa?.Exception !== undefined && e instanceof wa.Exception) {
    let parts: unknown = (e as { message?: unknown }).message;
    if (!Array.isArray(parts) && rt?.m.getExceptionMessage !== undefined) {
      try {
        parts = rt.m.getExceptionMessage(e);
      } catch {
        // keep what we have
      }
    }
    const text = Array.isArray(parts) ? `${String(parts[0])}: ${String(parts[1])}` : `C++ exception: ${String(parts)}`;
    return { text, outOfMemory: /Not enough memory|bad_alloc/.test(text), fatal: false };
  }
  const message = e instanceof Error ? e.message : String(e);
  const fatal = (wa?.RuntimeError !== undefined && e instanceof wa.RuntimeError) || /^Aborted\(/.test(message);
  return { text: message, outOfMemory: false, fatal };
}

function failure(op: string, text: string, cause?: unknown): VectorDbError {
  return VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: `hnswlib-wasm failed ${op}: ${text}` }, { cause });
}

// ---- the driver ---------------------------------------------------------------------------------

class WasmDriver implements HnswDriver {
  readonly library: string;
  private h: WasmHnsw | null;
  private maxElements: number;
  private ef = -1;
  private readonly perElement: number;

  constructor(
    private readonly rt: WasmRuntime,
    h: WasmHnsw,
    private readonly identity: IndexIdentity,
  ) {
    this.library = rt.library;
    this.h = h;
    this.perElement = wasmBytesPerElement(identity.dimension, identity.params.M);
    this.maxElements = this.call('getMaxElements', (x) => x.getMaxElements());
    rt.drivers.add(this);
  }

  heapBytes(): number {
    return this.maxElements * this.perElement;
  }

  count(): number {
    return this.call('getCurrentCount', (h) => h.getCurrentCount());
  }

  capacity(): number {
    return this.maxElements;
  }

  capacityLimit(): number {
    const { dimension, params } = this.identity;
    return wasmMaxElements(dimension, params.M, this.rt.usedBytes(this));
  }

  capacityAdvice(): string {
    const { dimension, params } = this.identity;
    return wasmCapacityAdvice(dimension, params.M);
  }

  tryResize(n: number): boolean {
    try {
      this.call('resizeIndex', (h) => h.resizeIndex(n), true);
      this.maxElements = n;
      return true;
    } catch (e) {
      if (e instanceof OutOfMemory) return false;
      throw e;
    }
  }

  addFresh(vectors: Float32Array, rows: readonly number[], slots: readonly number[]): void {
    const dim = this.identity.dimension;
    const batch = Math.max(1, Math.floor(ADD_BATCH_VALUES / dim));
    for (let i = 0; i < rows.length; i += batch) {
      const items: Float32Array[] = [];
      const end = Math.min(rows.length, i + batch);
      for (let j = i; j < end; j++) {
        const r = rows[j] as number;
        items.push(vectors.subarray(r * dim, (r + 1) * dim));
      }
      const labels = slots.slice(i, end);
      this.call('addPoints', (h) => h.addPoints(items, labels, false));
    }
  }

  replaceDeleted(slot: number, vectors: Float32Array, row: number): void {
    const dim = this.identity.dimension;
    this.call('unmarkDelete', (h) => h.unmarkDelete(slot));
    try {
      // Live again, so addPoints updates it in place (hnswlib's updatePoint).
      this.call('addPoints', (h) => h.addPoints([vectors.subarray(row * dim, (row + 1) * dim)], [slot], false));
    } catch (e) {
      try {
        this.h?.markDeleteItems([slot]);
      } catch {
        // the original error matters more
      }
      throw e;
    }
  }

  markDeleted(slots: readonly number[]): void {
    this.call('markDeleteItems', (h) => h.markDeleteItems(slots.slice()));
  }

  search(query: Float32Array, k: number, ef: number, filter: ((slot: number) => boolean) | undefined): SlotHits {
    if (ef !== this.ef) {
      this.call('setEfSearch', (h) => h.setEfSearch(ef));
      this.ef = ef;
    }
    const r = this.call('searchKnn', (h) => h.searchKnn(query, k, filter));
    return { slots: r.neighbors, distances: r.distances };
  }

  save(onWritten: () => void): Promise<Uint8Array> {
    const h = this.handle();
    const rt = this.rt;
    return rt.exclusive(async () => {
      this.handle();
      const name = `vdb-${++fileCounter}.hnsw`;
      const key = `${MOUNT}/${name}`;
      const db = await rt.database();
      try {
        // writeIndex saves into the memory file system, then starts an IDBFS write sync.
        await rt.syncAfter(() => {
          rt.m.fileCapacityHint = wasmFileBytes(this.count(), this.identity.dimension, this.identity.params.M);
          try {
            this.call('writeIndex', () => h.writeIndex(name));
          } finally {
            rt.m.fileCapacityHint = 0;
          }
          onWritten();
        });
        const record = (await storeOp(db, 'readonly', (s) => s.get(key))) as { contents?: unknown } | undefined;
        const c = record?.contents;
        // MEMFS hands IDBFS an Int8Array: view the same bytes as unsigned.
        if (!ArrayBuffer.isView(c)) throw failure('writing the index', `no file ${key} in IndexedDB after the sync`);
        return new Uint8Array(c.buffer, c.byteOffset, c.byteLength);
      } finally {
        await removeFile(rt, db, key);
      }
    });
  }

  dispose(): void {
    const h = this.h;
    if (h === null) return;
    this.h = null;
    this.rt.drivers.delete(this);
    if (this.rt.fatal === null) {
      try {
        h.delete();
      } catch {
        // a dead module frees nothing
      }
    }
  }

  private handle(): WasmHnsw {
    if (this.rt.fatal !== null) throw failure('earlier', `${this.rt.fatal}; the wasm module stopped and its indexes are lost: load or rebuild them`);
    if (this.h === null) throw failure('', 'the index was disposed');
    return this.h;
  }

  /** Runs one hnswlib call, turning its exceptions into VectorDbErrors (or OutOfMemory when asked). */
  private call<T>(op: string, fn: (h: WasmHnsw) => T, signalOom = false): T {
    const h = this.handle();
    try {
      return fn(h);
    } catch (e) {
      throw mapError(this.rt, op, e, signalOom);
    }
  }
}

class OutOfMemory extends Error {}

function mapError(rt: WasmRuntime, op: string, e: unknown, signalOom: boolean): Error {
  if (e instanceof VectorDbError) return e;
  const f = describe(rt, e);
  if (f.fatal) {
    rt.fatal = `it aborted in ${op} (${f.text})`;
    if (runtimePromise !== null) runtimePromise = null;
    return failure(`in ${op}`, `${f.text}; the wasm module aborted and its indexes are lost: load or rebuild them`, e);
  }
  if (f.outOfMemory && signalOom) return new OutOfMemory(f.text);
  const last = rt.tail.length > 0 ? ` (module output: ${rt.tail.slice(-2).join(' | ')})` : '';
  return failure(`in ${op}`, f.text + last, e);
}

function wasmCapacityAdvice(dimension: number, M: number): string {
  const prealloc = wasmMaxElements(dimension, M) - HEADROOM;
  return (
    `hnswlib-wasm keeps every index of the process in one 2 GiB WebAssembly heap: about ${prealloc} vectors of ` +
    `${dimension} dimensions with M=${M} when preallocated, about half that when grown step by step. ` +
    'Load the index again with a larger capacity (preallocates), rebuild it to drop deleted vectors, ' +
    'use several smaller indexes, or install hnswlib-node (native, no such limit).'
  );
}

function capacityError(identity: IndexIdentity, max: number, reason: string, library: string): VectorDbError {
  return VectorDbError.of('VECTOR_INDEX_CAPACITY', {
    backend: library,
    collection: identity.name,
    max: Math.max(0, max - HEADROOM),
    dimension: identity.dimension,
    reason: `${reason}. ${wasmCapacityAdvice(identity.dimension, identity.params.M)}`,
  });
}

/** Deletes a file from IndexedDB, then syncs IndexedDB -> memory so the memory copy goes too. */
async function removeFile(rt: WasmRuntime, db: MemoryDatabase, key: string): Promise<void> {
  try {
    await storeOp(db, 'readwrite', (s) => s.delete(key));
    await rt.sync(true);
  } catch {
    // best effort: a leftover file only costs memory
  }
}

export const wasmDriverFactory: HnswDriverFactory = {
  async create(identity: IndexIdentity, capacity: number): Promise<HnswDriver> {
    const rt = await wasmRuntime();
    const { dimension, metric, params } = identity;
    const max = wasmMaxElements(dimension, params.M, rt.usedBytes(null));
    if (capacity > max) {
      throw capacityError(identity, max, `preallocating ${capacity} vectors does not fit the heap`, rt.library);
    }
    const h = new rt.m.HierarchicalNSW(hnswSpace(metric), dimension, '');
    try {
      h.initIndex(capacity, params.M, params.efConstruction, HNSW_SEED);
    } catch (e) {
      h.delete();
      const f = describe(rt, e);
      if (f.outOfMemory) throw capacityError(identity, max, `preallocating ${capacity} vectors failed (${f.text})`, rt.library);
      throw mapError(rt, 'initIndex', e, false);
    }
    return new WasmDriver(rt, h, identity);
  },

  async load(identity: IndexIdentity, stored: BackendBytes, capacity: number, header: IndexHeader): Promise<HnswDriver> {
    const bytes = stored instanceof Uint8Array ? stored : await joinPieces(stored);
    const rt = await wasmRuntime();
    const { dimension, metric, params } = identity;
    const want = Math.max(capacity, header.capacity);
    const max = wasmMaxElements(dimension, params.M, rt.usedBytes(null));
    if (want > max) throw capacityError(identity, max, `loading ${header.slots} vectors with room for ${want} does not fit the heap`, rt.library);
    return rt.exclusive(async () => {
      const name = `vdb-${++fileCounter}.hnsw`;
      const key = `${MOUNT}/${name}`;
      const db = await rt.database();
      // Not copied: our IndexedDB keeps it by reference and IDBFS hands it to the file system as is.
      const contents = bytes;
      let h: WasmHnsw | null = null;
      try {
        await storeOp(db, 'readwrite', (s) => s.put({ timestamp: new Date(), mode: FILE_MODE, contents }, key));
        await rt.sync(true);
        h = new rt.m.HierarchicalNSW(hnswSpace(metric), dimension, '');
        h.readIndex(name, want);
        h.setEfSearch(params.efSearch);
        return new WasmDriver(rt, h, identity);
      } catch (e) {
        try {
          h?.delete();
        } catch {
          // nothing to free
        }
        if (e instanceof VectorDbError) throw e;
        const f = describe(rt, e);
        if (f.outOfMemory) throw capacityError(identity, max, `loading ${header.slots} vectors failed (${f.text})`, rt.library);
        throw mapError(rt, 'readIndex', e, false);
      } finally {
        await removeFile(rt, db, key);
      }
    });
  },
};

/** For tests: the module's recent printf output (never written anywhere). */
export async function wasmModuleOutput(): Promise<readonly string[]> {
  return (await wasmRuntime()).tail.slice();
}
