/**
 * The contract between HnswIndex (hnsw-index.ts) and its backends (wasm-backend.ts, native-backend.ts):
 * the HnswDriver primitives on slots, the factory that creates and loads drivers, the index identity
 * they are made for, and the constants both sides plan with.
 */
import type { BackendBytes, BackendName, IndexHeader } from './index-format.js';
import type { IndexParams, PieceSink } from './index-types.js';
import type { Metric } from './metric.js';
import type { VectorRows } from './vector-rows.js';
import { VectorDbError } from '../errors/vectordb-error.js';

/** hnswlib's random seed: fixed so that builds are reproducible. */
export const HNSW_SEED = 100;
/** Slots kept free: wasm refuses even an update when the element count equals max elements. */
export const HEADROOM = 1;

export interface IndexIdentity {
  backend: BackendName;
  dimension: number;
  metric: Metric;
  params: Readonly<Required<IndexParams>>;
  /** For error messages only. */
  name: string;
}

/**
 * A search's hits, nearest first: the first `count` of `slots` and `distances` (all of them when absent).
 * A driver may answer with buffers it reuses: read them before its next search.
 */
export interface SlotHits {
  slots: ArrayLike<number>;
  distances: ArrayLike<number>;
  count?: number;
}

/** hnswlib's operations on slots, as one backend provides them. Vectors are rows of a Float32Array. */
export interface HnswDriver {
  /** e.g. "hnswlib-wasm 0.8.2": named in errors and in the serialized header. */
  readonly library: string;
  /** hnswlib elements, live and deleted. */
  count(): number;
  /** hnswlib's max elements. */
  capacity(): number;
  /** The largest capacity this backend could reach now (wasm: what fits its heap beside other indexes). */
  capacityLimit(): number;
  /** Why the limit is what it is, and what to do: ends capacity error messages. */
  capacityAdvice(): string;
  /** Grows max elements; false when memory ran out (the index is unchanged and usable). */
  tryResize(n: number): boolean;
  /**
   * Whether tryResize grows the graph's large blocks in place (native-rows: its level-0 block lies in a
   * reserved address range, native/src/graph_growth.h) rather than copying them (wasm): the slot table then
   * grows in small steps.
   */
  readonly resizesInPlace?: boolean;
  /**
   * Makes what tryResize(capacity) needs off the JS thread, so that it is then quick (native-rows: the
   * graph's per-element tables, native/src/graph_growth.h); the graph may change meanwhile. A failure only
   * leaves tryResize doing it all.
   */
  prepareResize?(capacity: number): Promise<void>;
  /** Frees what prepareResize made that no resize took (the growth did not come: a load ended). */
  releaseSpare?(): void;
  /**
   * Inserts rows `rows[i]` of `vectors` as new slots `slots[i]`; `labels[i]` is the label of row
   * rows[i] (a backend over the engine's rows inserts the row it already holds for that label).
   */
  addFresh(vectors: Float32Array, rows: readonly number[], slots: readonly number[], labels?: ArrayLike<number>): void;
  /** Puts row `row` of `vectors` (the vector of `label`) into a deleted slot and makes it live again. */
  replaceDeleted(slot: number, vectors: Float32Array, row: number, label?: number): void;
  /**
   * Backends over the engine's rows (native-rows): inserts the stored vectors of `labels` as new slots
   * `slots[i]` off the JS thread, on several threads; the graph must not change until it settles
   * (searches may run meanwhile).
   */
  addStored?(labels: readonly number[], slots: readonly number[], threads?: number): Promise<void>;
  /** The rows the graph reads (native-rows): the engine keeps its vectors there instead of a copy. */
  readonly rows?: VectorRows;
  /** Whether the graph ranks on quantized rows now (native-rows over int8 codes): VectorIndex.quantized. */
  readonly quantized?: boolean;
  /** Called once HnswIndex.restored has the slot table of a loaded graph (native-rows: its labels adopt their rows). */
  restored?(slotLabels: Uint32Array, live: Uint8Array): void;
  markDeleted(slots: readonly number[]): void;
  search(query: Float32Array, k: number, ef: number, filter: ((slot: number) => boolean) | undefined): SlotHits;
  /** As search, only slots whose byte in `allowed` is non-zero (slots past its end are not) as hits (native-rows). */
  searchBytes?(query: Float32Array, k: number, ef: number, allowed: Uint8Array): SlotHits;
  /**
   * hnswlib's bytes; `onWritten` runs right after hnswlib wrote them (the snapshot point). The graph
   * must not change until the promise settles: the native backend writes on a worker thread.
   */
  save(onWritten: () => void): Promise<Uint8Array>;
  /**
   * As save, hnswlib's bytes handed to `sink` piece by piece, each piece awaited before the next is made
   * (backends whose graph is in segments: wasm), so that at most one segment's bytes are held; their total
   * length. `onRead` runs once the graph is read in full: it may change from then, though pieces are still
   * to come (the last segment's bytes, already out of the graph).
   */
  saveTo?(sink: PieceSink, onWritten: () => void, onRead: () => void): Promise<number>;
  /** As save, hnswlib's bytes written to `file` instead (backends that can: native); their length. */
  saveFile?(file: string, onWritten: () => void): Promise<number>;
  /** How many segments the saved bytes hold, for backends that split a graph (wasm: one per heap). */
  segmentCount?(): number;
  dispose(): void;
}

export interface HnswDriverFactory {
  create(identity: IndexIdentity, capacity: number): Promise<HnswDriver>;
  /** `bytes`: hnswlib's, whole or streamed (a backend that needs them whole joins the pieces). */
  load(identity: IndexIdentity, bytes: BackendBytes, capacity: number, header: IndexHeader): Promise<HnswDriver>;
  /**
   * Starts reading a graph file saveFile wrote (backends that can: native), `bytes` long: it needs only
   * the space, so it can start before our head is decoded. Resolves once the read is under way; throws
   * IndexFormatError when the file is missing or of another length (hnswlib trusts what it reads).
   */
  readFile?(file: string, bytes: number, space: { readonly dimension: number; readonly metric: Metric }): Promise<GraphFileRead>;
}

/** A graph file being read (HnswDriverFactory.readFile), to become a driver. */
export interface GraphFileRead {
  /** Settles once the file is read (rejects when it cannot be: the file does not match). */
  readonly done: Promise<void>;
  /** The driver over it (once done), grown to `capacity` and searching at identity's efSearch. */
  fit(identity: IndexIdentity, capacity: number): HnswDriver;
  /** Frees the graph once read, unless fit took it: for a read started on a guess that proved wrong. */
  discard(): void;
}

/**
 * A GraphFileRead over a read under way (`done`): fit makes the driver (`driverOf`) and grows it to the
 * capacity asked for; discard frees the graph (`free`) once read, unless fit took it.
 */
export function graphFileRead(done: Promise<void>, driverOf: (identity: IndexIdentity) => HnswDriver, free: () => void): GraphFileRead {
  done.catch(() => undefined); // the caller awaits it, unless it gave up first
  let taken = false;
  return {
    done,
    fit(identity: IndexIdentity, capacity: number): HnswDriver {
      taken = true;
      const driver = driverOf(identity);
      if (capacity > driver.capacity() && !driver.tryResize(capacity)) {
        throw VectorDbError.of('VECTOR_INDEX_CAPACITY', {
          backend: driver.library,
          collection: identity.name,
          max: driver.capacity(),
          dimension: identity.dimension,
          reason: `growing the loaded index to ${capacity} vectors ran out of memory`,
        });
      }
      return driver;
    },
    discard(): void {
      const once = (): void => {
        if (taken) return;
        taken = true;
        free();
      };
      void done.then(once, once);
    },
  };
}
