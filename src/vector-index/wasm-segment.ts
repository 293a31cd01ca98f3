/**
 * One segment of a wasm graph: one hnswlib-wasm index in one heap (a module instance, wasm-runtime.ts),
 * on local labels 0..n-1. Creates, loads, grows, searches and saves it; turns hnswlib's exceptions into
 * our errors (OutOfMemory where the caller can do something else). Index bytes move in and out through
 * the runtime's IDBFS mount (backed by our by-reference IndexedDB, memory-idb.ts).
 */
import { HNSW_SEED, type IndexIdentity } from './backend-types.js';
import { hnswSpace } from './metric.js';
import { ADD_BATCH_VALUES, wasmFileBytes } from './wasm-capacity.js';
import { failure, FILE_MODE, mapError, MOUNT, OutOfMemory, removeFile, storeOp, type HeapHolder, type WasmHnsw, type WasmRuntime } from './wasm-runtime.js';

let fileCounter = 0;

export class WasmSegment implements HeapHolder {
  private h: WasmHnsw | null;
  /** hnswlib's max elements. */
  maxElements: number;
  private ef = -1;

  private constructor(
    readonly rt: WasmRuntime,
    h: WasmHnsw,
    private readonly identity: IndexIdentity,
    private readonly perElement: number,
  ) {
    this.h = h;
    this.maxElements = this.call('getMaxElements', (x) => x.getMaxElements());
    rt.drivers.add(this);
  }

  /** A new empty index of `capacity` elements in `rt`; OutOfMemory when the heap cannot hold it. */
  static create(rt: WasmRuntime, identity: IndexIdentity, capacity: number, perElement: number): WasmSegment {
    const { dimension, metric, params } = identity;
    const h = new rt.m.HierarchicalNSW(hnswSpace(metric), dimension, '');
    try {
      h.initIndex(capacity, params.M, params.efConstruction, HNSW_SEED);
    } catch (e) {
      h.delete();
      throw mapError(rt, 'initIndex', e, true);
    }
    return new WasmSegment(rt, h, identity, perElement);
  }

  /** hnswlib's bytes read into `rt` with room for `want` elements; OutOfMemory when the heap cannot hold them. */
  static load(rt: WasmRuntime, identity: IndexIdentity, bytes: Uint8Array, want: number, perElement: number): Promise<WasmSegment> {
    const { dimension, metric, params } = identity;
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
        return new WasmSegment(rt, h, identity, perElement);
      } catch (e) {
        try {
          h?.delete();
        } catch {
          // nothing to free
        }
        throw mapError(rt, 'readIndex', e, true);
      } finally {
        await removeFile(rt, db, key);
      }
    });
  }

  heapBytes(): number {
    return this.maxElements * this.perElement;
  }

  count(): number {
    return this.call('getCurrentCount', (h) => h.getCurrentCount());
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

  /** Inserts rows `rows[from..to)` of `vectors` under local labels `first`, `first + 1`, ... */
  addRows(vectors: Float32Array, rows: readonly number[], from: number, to: number, first: number): void {
    const dim = this.identity.dimension;
    const batch = Math.max(1, Math.floor(ADD_BATCH_VALUES / dim));
    for (let i = from; i < to; i += batch) {
      const items: Float32Array[] = [];
      const labels: number[] = [];
      const end = Math.min(to, i + batch);
      for (let j = i; j < end; j++) {
        const r = rows[j] as number;
        items.push(vectors.subarray(r * dim, (r + 1) * dim));
        labels.push(first + j - from);
      }
      this.call('addPoints', (h) => h.addPoints(items, labels, false));
    }
  }

  replaceDeleted(label: number, vectors: Float32Array, row: number): void {
    const dim = this.identity.dimension;
    this.call('unmarkDelete', (h) => h.unmarkDelete(label));
    try {
      // Live again, so addPoints updates it in place (hnswlib's updatePoint).
      this.call('addPoints', (h) => h.addPoints([vectors.subarray(row * dim, (row + 1) * dim)], [label], false));
    } catch (e) {
      try {
        this.h?.markDeleteItems([label]);
      } catch {
        // the original error matters more
      }
      throw e;
    }
  }

  markDeleted(labels: number[]): void {
    this.call('markDeleteItems', (h) => h.markDeleteItems(labels));
  }

  search(query: Float32Array, k: number, ef: number, filter: ((label: number) => boolean) | undefined): { distances: number[]; neighbors: number[] } {
    if (ef !== this.ef) {
      this.call('setEfSearch', (h) => h.setEfSearch(ef));
      this.ef = ef;
    }
    return this.call('searchKnn', (h) => h.searchKnn(query, k, filter));
  }

  /** hnswlib's bytes; `onWritten` runs right after hnswlib wrote them. */
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

