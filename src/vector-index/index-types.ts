/**
 * What the engine holds of a vector index: the VectorIndex interface, its search options and its HNSW
 * parameters. Implemented by HnswIndex (hnsw-index.ts), created and loaded by index-backend.ts.
 */
import type { ScoredLabel } from './exact-rescore.js';
import type { BackendName } from './index-format.js';
import type { Metric } from './metric.js';
import type { VectorRows } from './vector-rows.js';

/** Takes the pieces of a serialized index in order; the next piece is made once it resolves. */
export type PieceSink = (piece: Uint8Array) => Promise<void>;

export interface SearchOptions {
  /** Candidate list size for this query (default: the index's efSearch); raised to k when smaller. */
  ef?: number;
  /**
   * Only labels for which this returns true can be results: called once per visited graph node, or with
   * `allowed`, once per label of it (when the index marks their slots as bytes, see `filtersByBytes`).
   */
  filter?: (label: number) => boolean;
  /**
   * Only these labels can be results (and of them, those `filter` accepts). An index that `filtersByBytes`
   * marks their slots in a byte per slot, which its graph reads without calling back into JS; another
   * asks `allowed.has` per visited node.
   */
  allowed?: AllowedLabels;
}

/** A search's allowed labels (the engine's LabelFilter): a Set, or a sorted array kept as `labels`. */
export interface AllowedLabels extends Iterable<number> {
  readonly size: number;
  has(label: number): boolean;
  /** The labels as one array, when the set keeps them so (read without an iterator). */
  readonly labels?: Uint32Array;
  /**
   * An object that only ever stands for these very labels (never for other ones, even after a write), when
   * the set has one: an index may keep what it derived from them under it (a repeated filter's byte filter).
   */
  readonly contentKey?: object;
}

export interface VectorIndex {
  readonly backend: BackendName;
  readonly dimension: number;
  readonly metric: Metric;
  /** Live vectors. */
  readonly size: number;
  /** Removed or replaced vectors still held by the graph (hnswlib only marks them). Rebuild when large. */
  readonly deletedCount: number;
  /** Vectors (live and deleted) the index holds room for before it must grow. */
  readonly capacity: number;
  /**
   * True when the graph ranks on quantized vectors: the engine then takes more hits than asked and ranks
   * them again exactly (VectorRows.exactTopOf): a native-rows graph over int8 rows. hnswlib's own hold float32.
   */
  readonly quantized?: boolean;
  /**
   * Whether `search` reads `allowed` as a byte per slot, built once per search, instead of a JS call per
   * visited node (the native-rows backend): the engine weighs the build against the calls (rank.ts).
   */
  readonly filtersByBytes?: boolean;
  /** The parameters in force (from the stored header after a load). */
  readonly params: Readonly<Required<IndexParams>>;
  has(label: number): boolean;
  /**
   * Adds vectors (labels.length x dimension values, row-major). Re-adding a label replaces its vector;
   * within one batch the last occurrence wins. Grows capacity as needed; when it cannot, throws
   * VECTOR_INDEX_CAPACITY before changing anything.
   */
  add(labels: Uint32Array | readonly number[], vectors: Float32Array): void;
  /** Removes labels in one batch; unknown labels are ignored. */
  remove(labels: readonly number[]): void;
  /** The k (at most) nearest live labels, best first, with Data API scores. */
  search(query: Float32Array, k: number, options?: SearchOptions): ScoredLabel[];
  /**
   * The index as bytes: our header, the slot table, then hnswlib's own bytes. Until the promise settles
   * the index must not change (add and remove throw): the native backend writes on a worker thread.
   */
  serialize(): Promise<Uint8Array>;
  /** The same bytes as pieces to concatenate (no copy of hnswlib's bytes into one buffer). */
  serializeParts(): Promise<Uint8Array[]>;
  /**
   * The same bytes streamed: everything after our head handed to `sink` piece by piece (a graph in
   * segments: one segment's bytes at a time, each made once the sink took the one before), our head
   * returned (it goes first: it says how long the rest is). `onRead` runs once the graph is read in full
   * (it may change from then; until then add and remove throw), at the latest when the promise settles.
   */
  serializeTo(sink: PieceSink, onRead?: () => void): Promise<Uint8Array>;
  /** Whether serializeToFile works here (the native backend: hnswlib-node writes files itself). */
  readonly savesToFile: boolean;
  /**
   * hnswlib's bytes written straight to `file` (never through JS memory), our head (serializeParts'
   * first piece) returned: loadVectorIndexFile(head, file) reads them back. Same rules as serialize.
   */
  serializeToFile(file: string): Promise<Uint8Array>;
  /** The rows the graph reads (the native-rows backend): the engine keeps its vectors there, once. */
  readonly rows?: VectorRows | undefined;
  /** Whether addStored works (the native-rows backend). */
  readonly addsStored?: boolean;
  /**
   * Adds the labels whose vectors `rows` holds, on several threads off the JS thread (native-rows);
   * the index must not change until it settles, searches go on meanwhile.
   */
  addStored?(labels: readonly number[], threads?: number): Promise<void>;
  /** Frees memory kept for a growth to come (native-rows: tables made ahead of a resize) once none is near. */
  releaseSpare?(): void;
  /** Frees the index (wasm memory is returned to the shared heap); later calls throw. */
  dispose(): void;
}

/**
 * HNSW knobs. Each trades memory or build time against recall:
 * - M (default 16): graph links per node (2M on the bottom layer). Higher: better recall on hard data,
 *   more memory (8 bytes per link per vector) and slower inserts. 12-48 is the useful range.
 * - efConstruction (default 200): candidate list size while inserting. Higher: a better graph (recall)
 *   at proportionally slower inserts. Fixed once the index is built.
 * - efSearch (default 128): candidate list size while searching (per query overridable by `ef`).
 *   Higher: better recall, slower queries; never below k. Not stored in the graph, only in our header.
 */
export interface IndexParams {
  M?: number;
  efConstruction?: number;
  efSearch?: number;
}
