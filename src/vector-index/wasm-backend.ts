/**
 * The hnswlib-wasm backend: the HnswDriver over one wasm index and the factory that creates and loads
 * them. Index bytes move in and out through the runtime's IDBFS mount (wasm-runtime.ts, backed by our
 * by-reference IndexedDB, memory-idb.ts); capacity is planned inside the 2 GiB heap all wasm indexes of
 * the process share (wasm-capacity.ts).
 * Everything here is private to vector/; the engine sees only VectorIndex.
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import { HNSW_SEED, type HnswDriver, type HnswDriverFactory, type IndexIdentity, type SlotHits } from './backend-types.js';
import { joinPieces, type BackendBytes, type IndexHeader } from './index-format.js';
import { hnswSpace } from './metric.js';
import { ADD_BATCH_VALUES, capacityError, wasmBytesPerElement, wasmCapacityAdvice, wasmFileBytes, wasmMaxElements } from './wasm-capacity.js';
import { describe, failure, FILE_MODE, mapError, MOUNT, OutOfMemory, removeFile, storeOp, wasmRuntime, type WasmHnsw, type WasmRuntime } from './wasm-runtime.js';

let fileCounter = 0;

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
