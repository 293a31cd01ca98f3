/**
 * VectorRows: what the engine keeps of each live vector beside the graph, by label, and scans exactly.
 * Implemented by FlatVectorStore (flat-store.ts: its own copy, scanned by the wasm/JS kernels) and by
 * NativeRowStore (native-rows.ts: the native addon's rows, which the graph reads too, so each vector is
 * held once). The engine picks one when a collection's vectors open (engine/vectors/opening.ts).
 */
import type { ScoredLabel } from './exact-rescore.js';
import type { Metric } from './metric.js';

export interface VectorRows {
  readonly dimension: number;
  readonly metric: Metric;
  /** Stored vectors. */
  readonly size: number;
  /** Rows ever written (live ones plus those freed for reuse): what is resident. */
  readonly rowsUsed: number;
  /** How the rows hold values: float32, or int8 codes ranked again exactly (an int8 FlatVectorStore or NativeRowStore). */
  readonly rowsAs: 'float32' | 'int8';
  /** Bytes held by the rows themselves (stats). */
  readonly rowBytes: number;
  /** Values coded since open into rows that approximate them (int8 codes; stats); absent where rows hold values exactly. */
  readonly codedValues?: number;
  /** Of those, the values outside the range the codes were trained on, clamped to its ends (stats). */
  readonly clampedValues?: number;
  has(label: number): boolean;
  /** Stores (or replaces) the vector of a label. */
  set(label: number, vector: ArrayLike<number>): void;
  /** Stores many at once: row i of `values` is the vector of `labels[i]` (labels ascending). */
  setRows(labels: ArrayLike<number>, values: Float32Array): void;
  /** A copy of a label's vector, or undefined. */
  get(label: number): Float32Array | undefined;
  /** Copies a label's vector into `target` at `offset`; false when it has none. */
  copyInto(label: number, target: Float32Array, offset: number): boolean;
  delete(label: number): boolean;
  /** The stored labels, ascending. */
  labels(): IterableIterator<number>;
  /** The k labels closest to `query` (of `candidates`, when given), best first, ties by label. */
  exactSearch(query: ArrayLike<number>, k: number, candidates?: Iterable<number>): ScoredLabel[];
  /** The k best of `labels` ranked exactly (an approximate shortlist's final ranking), best first, ties by label. */
  exactTopOf(query: ArrayLike<number>, labels: readonly number[], k: number): ScoredLabel[];
  /** The hits with their Data API `$similarity` in place of the ranking score, best first. */
  rescore(query: ArrayLike<number>, hits: readonly ScoredLabel[]): ScoredLabel[];
}
