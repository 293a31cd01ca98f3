/**
 * The hnswlib-wasm runtime: one instance of the emscripten module, i.e. one WebAssembly heap. Loads and
 * compiles the module once per process and instantiates it as often as heaps are wanted (wasm-heaps.ts),
 * synchronously where it can (a graph opens a new heap in the middle of an add); keeps its chatter out of
 * the user's stdout, gives it a window and our by-reference IndexedDB (memory-idb.ts) for its IDBFS
 * mount, serialises its file-system operations, and turns its exceptions and aborts into errors.
 * Private to vector-index/: wasm-segment.ts drives indexes on it.
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import { MemoryIndexedDb, type MemoryDatabase, type MemoryObjectStore, type MemoryRequest } from './memory-idb.js';
import { loadGlueFactory, type LoadedGlue } from './wasm-loader.js';

// ---- what we use of the emscripten module (it ships no usable types for Node) -------------------

export interface WasmHnsw {
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

/**
 * emscripten's hook: instantiate the module with `imports` and hand the instance to `receive`. `bytes`
 * is our glue patch (wasm-glue.ts): the module's own bytes, decoded from the glue.
 */
type InstantiateHook = (imports: object, receive: (instance: WasmInstance, module: WasmModule) => unknown, bytes?: () => Uint8Array) => Record<string, unknown>;

/** The part of the WebAssembly JS API used here: the public types are compiled without DOM or Node's (test/types). */
interface WasmModule {
  readonly kind?: 'module';
}
interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => WasmInstance;
}

interface ModuleArg {
  print: (s: string) => void;
  printErr: (s: string) => void;
  wasmBinary?: Uint8Array;
  instantiateWasm?: InstantiateHook;
}

type ModuleFactory = (moduleArg: ModuleArg) => Promise<WasmModule>;

/** hnswlib-wasm mounts IDBFS here; the IndexedDB database and the file keys use the same path. */
export const MOUNT = '/hnswlib-index';
const STORE = 'FILE_DATA';
/** Regular file, rw-r--r--: the mode IDBFS restores the file with. */
export const FILE_MODE = 0o100644;

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

// ---- the runtime: one module instance, one heap -------------------------------------------------

/** What the runtime counts of each driver on it (wasm-backend.ts's WasmDriver): the heap bytes it holds. */
export interface HeapHolder {
  heapBytes(): number;
}

export class WasmRuntime {
  readonly library: string;
  readonly drivers = new Set<HeapHolder>();
  /** Set when the module aborted: it cannot run again; a new runtime serves new indexes. */
  fatal: string | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private syncWaiter: ((ok: boolean) => void) | null = null;
  private db: Promise<MemoryDatabase> | null = null;
  private mounted: Promise<void> | null = null;

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

  /**
   * Runs `fn` after every earlier exclusive operation (loads and saves never overlap: upstream issue #10),
   * once the IDBFS mount is up (mounted at the first, not when the heap opens: that may be mid-add).
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(() => quietly(async () => {
      this.mounted ??= this.syncAfter(() => this.m.EmscriptenFileSystemManager.initializeFileSystem('IDBFS'));
      await this.mounted;
      return fn();
    }));
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

  usedBytes(except: HeapHolder | null): number {
    let sum = 0;
    for (const d of this.drivers) if (d !== except) sum += d.heapBytes();
    return sum;
  }
}

let runtimePromise: Promise<WasmRuntime> | null = null;

/** The first heap (opened asynchronously: it loads and compiles the module). */
export function wasmRuntime(): Promise<WasmRuntime> {
  if (runtimePromise === null) {
    const p = createRuntime();
    runtimePromise = p;
    p.catch(() => {
      if (runtimePromise === p) runtimePromise = null;
    });
  }
  return runtimePromise;
}

/** The glue, loaded once, and the module compiled from its bytes at the first instantiation. */
interface Glue {
  loaded: LoadedGlue<ModuleFactory>;
  compiled: WasmModule | null;
}
let glue: Glue | null = null;
let gluePromise: Promise<Glue> | null = null;

async function loadGlue(): Promise<Glue> {
  gluePromise ??= loadGlueFactory<ModuleFactory>().then((loaded) => (glue = { loaded, compiled: null }));
  try {
    return await gluePromise;
  } catch (e) {
    gluePromise = null;
    throw failure('loading the module', e instanceof Error ? e.message : String(e));
  }
}

async function createRuntime(): Promise<WasmRuntime> {
  const g = await loadGlue();
  return quietly(async () => {
    const opened = instantiate(g);
    if (opened !== null) return opened;
    // The module would not instantiate synchronously: its own asynchronous path.
    const { factory, version, wasmBinary } = g.loaded;
    const { idb, tail, print } = moduleIo();
    const m = await withWindow(idb, () => factory({ print, printErr: print, ...(wasmBinary ? { wasmBinary } : {}) }));
    return new WasmRuntime(m, idb, tail, libraryName(version));
  });
}

/**
 * A new heap, opened synchronously (null when this module cannot be instantiated so, before the first
 * heap loaded the module, or when the memory for one more instance cannot be had).
 */
export function openRuntimeNow(): WasmRuntime | null {
  return glue === null ? null : instantiate(glue);
}

function instantiate(g: Glue): WasmRuntime | null {
  const { factory, version, wasmBinary } = g.loaded;
  const { idb, tail, print } = moduleIo();
  let refused = false;
  const instantiateWasm: InstantiateHook = (imports, receive, bytes) => {
    try {
      const source = wasmBinary ?? bytes?.();
      if (source === undefined) throw new Error('no module bytes');
      const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
      g.compiled ??= new wasm.Module(source);
      const instance = new wasm.Instance(g.compiled, imports);
      receive(instance, g.compiled);
      return instance.exports;
    } catch {
      // No exports: the module then waits forever for them, and we drop it.
      refused = true;
      return {};
    }
  };
  const arg: ModuleArg & Partial<WasmModule> = { print, printErr: print, instantiateWasm };
  try {
    void withWindow(idb, () => factory(arg)).catch(() => undefined);
  } catch {
    return null;
  }
  // The factory fills `arg` in as it runs: synchronously when the instance came synchronously.
  if (refused || typeof arg.HierarchicalNSW !== 'function') return null;
  return new WasmRuntime(arg as WasmModule, idb, tail, libraryName(version));
}

function moduleIo(): { idb: MemoryIndexedDb; tail: string[]; print: (s: string) => void } {
  const tail: string[] = [];
  const print = (s: string): void => {
    tail.push(s);
    if (tail.length > 20) tail.shift();
  };
  return { idb: new MemoryIndexedDb(), tail, print };
}

const libraryName = (version: string | undefined): string => `hnswlib-wasm ${version ?? ''}`.trim();

function request<T>(req: MemoryRequest<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error instanceof Error ? req.error : new Error(String(req.error)));
  });
}

/** One store operation in its own transaction, resolved when the transaction commits. */
export function storeOp<T>(db: MemoryDatabase, mode: 'readonly' | 'readwrite', op: (store: MemoryObjectStore) => MemoryRequest<T>): Promise<T> {
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

export interface WasmFailure {
  text: string;
  outOfMemory: boolean;
  fatal: boolean;
}

/** WebAssembly.Exception carries [cppType, text] in `message`; aborts are RuntimeErrors. */
export function describe(rt: WasmRuntime | null, e: unknown): WasmFailure {
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

export function failure(op: string, text: string, cause?: unknown): VectorDbError {
  return VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: `hnswlib-wasm failed ${op}: ${text}` }, { cause });
}

export class OutOfMemory extends Error {}

export function mapError(rt: WasmRuntime, op: string, e: unknown, signalOom: boolean): Error {
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

/** Deletes a file from IndexedDB, then syncs IndexedDB -> memory so the memory copy goes too. */
export async function removeFile(rt: WasmRuntime, db: MemoryDatabase, key: string): Promise<void> {
  try {
    await storeOp(db, 'readwrite', (s) => s.delete(key));
    await rt.sync(true);
  } catch {
    // best effort: a leftover file only costs memory
  }
}
