/**
 * NativeRowStore: the VectorRows (vector-rows.ts) of a collection kept in the native addon's row store,
 * the one copy of each vector: the graph (native-rows-backend.ts) inserts a label's row as it is, and a
 * row stays until neither a label nor a graph element refers to it (a replaced or deleted label's row
 * lives on while the graph still reads it). Exact scans sum float64 dot products in the addon in the
 * order FlatVectorStore's WebAssembly kernel does and rank them with the same selectTopK: the same hits
 * and scores.
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import { bestFirstAsDecimals, type ScoredLabel } from './exact-rescore.js';
import { selectTopK, squaredNorm } from './kernels.js';
import { LabelSlots } from './label-slots.js';
import { float32Similarity, float32SquaredNorm, type Metric } from './metric.js';
import type { AddonRows, NativeAddon } from './native-addon.js';
import { checkDimension, checkLabel, checkVector } from './validate.js';
import type { VectorRows } from './vector-rows.js';

/** The addon's metric codes (native/src/row_store.h). */
const METRIC_CODE: Record<Metric, number> = { euclidean: 0, dot_product: 1, cosine: 2 };
/** As FlatVectorStore's: the label -> row array stays dense while labels span this many per row. */
const LABELS_PER_ROW = 64;

export class NativeRowStore implements VectorRows {
  readonly dimension: number;
  readonly metric: Metric;
  /** The addon's rows (graphs over this store read them too). */
  readonly rows: AddonRows;
  readonly #rowOf = new LabelSlots(LABELS_PER_ROW);
  /** By row: squared norm (float64, as checkVector sums it) and the label it holds, for exact scans. */
  #sqNorms = new Float64Array(1024);
  #labelOfRow = new Uint32Array(1024);
  #one = new Uint32Array(1);

  constructor(addon: NativeAddon, dimension: number, metric: Metric) {
    checkDimension(dimension);
    this.dimension = dimension;
    this.metric = metric;
    this.rows = new addon.Rows(dimension, METRIC_CODE[metric]);
  }

  get size(): number {
    return this.#rowOf.size;
  }

  get rowsUsed(): number {
    return this.rows.used;
  }

  readonly rowsAs = 'float32';

  get rowBytes(): number {
    return this.rows.used * this.dimension * 4;
  }

  has(label: number): boolean {
    const dense = this.#rowOf.dense;
    return dense !== undefined ? (dense[label] as number) >= 0 : this.#rowOf.has(label);
  }

  /** The row holding a label's vector, or undefined. */
  rowOf(label: number): number | undefined {
    return this.#rowOf.get(label);
  }

  set(label: number, vector: ArrayLike<number>): void {
    checkLabel(label);
    const sq = checkVector(vector, this.dimension, this.metric);
    const values = vector instanceof Float32Array ? vector : Float32Array.from(vector);
    // A new row even for a stored label: a graph may still read the old one.
    const row = this.rows.take();
    this.rows.write(row, values, 0);
    this.#hold(label, row, sq);
  }

  setRows(labels: ArrayLike<number>, values: Float32Array): void {
    const dim = this.dimension;
    const n = labels.length;
    if (values.length !== n * dim) throw VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: `setRows: ${n} labels but ${values.length / dim} rows` });
    const norms = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      checkLabel(labels[i] as number);
      norms[i] = checkVector(values, dim, this.metric, 'vector', i * dim, false);
    }
    const at = new Uint32Array(n);
    this.rows.writeMany(values, n, at);
    for (let i = 0; i < n; i++) this.#hold(labels[i] as number, at[i] as number, norms[i] as number);
  }

  /**
   * Makes each of `labels[0..n)` refer to its row `rows[i]` (already written, e.g. by a graph file just
   * read), taking a reference on it; labels that have a row already keep theirs.
   */
  adopt(labels: ArrayLike<number>, rows: Uint32Array, n: number): void {
    const taken = new Uint32Array(n);
    let m = 0;
    for (let i = 0; i < n; i++) if (!this.#rowOf.has(labels[i] as number)) taken[m++] = i;
    const adopted = new Uint32Array(m);
    for (let j = 0; j < m; j++) adopted[j] = rows[taken[j] as number] as number;
    const norms = new Float64Array(m);
    this.rows.squaredNorms(adopted, m, norms);
    this.rows.refMany(adopted, m);
    for (let j = 0; j < m; j++) this.#hold(labels[taken[j] as number] as number, adopted[j] as number, norms[j] as number);
  }

  /** Records that `label` now holds `row` (one reference, taken by the caller), dropping its old row's. */
  #hold(label: number, row: number, sq: number): void {
    if (row >= this.#sqNorms.length) this.#grow(row + 1);
    const old = this.#rowOf.get(label);
    this.#rowOf.set(label, row);
    this.#sqNorms[row] = sq;
    this.#labelOfRow[row] = label;
    if (old !== undefined) this.rows.unref(old);
  }

  #grow(need: number): void {
    const next = Math.max(need, Math.ceil(this.#sqNorms.length * 1.5));
    const sq = new Float64Array(next);
    sq.set(this.#sqNorms);
    const labels = new Uint32Array(next);
    labels.set(this.#labelOfRow);
    this.#sqNorms = sq;
    this.#labelOfRow = labels;
  }

  get(label: number): Float32Array | undefined {
    const row = this.#rowOf.get(label);
    if (row === undefined) return undefined;
    const out = new Float32Array(this.dimension);
    this.rows.read(row, out, 0);
    return out;
  }

  copyInto(label: number, target: Float32Array, offset: number): boolean {
    const row = this.#rowOf.get(label);
    if (row === undefined) return false;
    this.rows.read(row, target, offset);
    return true;
  }

  delete(label: number): boolean {
    const row = this.#rowOf.get(label);
    if (row === undefined) return false;
    this.#rowOf.delete(label);
    this.rows.unref(row);
    return true;
  }

  *labels(): IterableIterator<number> {
    yield* this.#rowOf.labels();
  }

  /** Every row is exact here: the shortlist is ranked as any candidate list is. */
  exactTopOf(query: ArrayLike<number>, labels: readonly number[], k: number): ScoredLabel[] {
    return this.exactSearch(query, k, labels);
  }

  exactSearch(query: ArrayLike<number>, k: number, candidates?: Iterable<number>): ScoredLabel[] {
    checkVector(query, this.dimension, this.metric, 'query vector');
    if (!(k >= 1) || this.size === 0) return [];
    const rows = this.#collectRows(candidates);
    const q = Float64Array.from(query);
    const dots = new Float64Array(rows.length);
    this.rows.dots(q, rows, rows.length, dots);
    const hits = selectTopK(this.metric, squaredNorm(q, 0, this.dimension), dots, this.#sqNorms, rows, rows.length, Math.floor(k), this.#labelOfRow);
    return hits.map((r) => ({ label: r.row, score: r.score }));
  }

  /** The rows of the stored labels of `candidates` (each once), or of every stored label. */
  #collectRows(candidates: Iterable<number> | undefined): Uint32Array {
    const list = candidates === undefined ? this.#rowOf.labels() : Array.isArray(candidates) || candidates instanceof Uint32Array ? (candidates as ArrayLike<number>) : Array.from(candidates);
    // Ascending lists (every stored label, the postings' sets) repeat no label: no set of seen rows needed.
    let ascending = true;
    for (let i = 1; i < list.length && ascending; i++) ascending = (list[i] as number) > (list[i - 1] as number);
    const seen = ascending ? undefined : new Set<number>();
    const out = new Uint32Array(list.length);
    let n = 0;
    for (let i = 0; i < list.length; i++) {
      const row = this.#rowOf.get(list[i] as number);
      if (row === undefined || seen?.has(row) === true) continue;
      seen?.add(row);
      out[n++] = row;
    }
    return out.subarray(0, n);
  }

  rescore(query: ArrayLike<number>, hits: readonly ScoredLabel[]): ScoredLabel[] {
    const dim = this.dimension;
    if (query.length !== dim) throw new RangeError(`vectors differ in length: ${query.length} vs ${dim}`);
    const q = query instanceof Float32Array ? query : Float32Array.from(query);
    const qNorm = float32SquaredNorm(q);
    const row = new Float32Array(dim);
    const out = hits.map(({ label, score }) => (this.copyInto(label, row, 0) ? { label, score: float32Similarity(this.metric, q, row, 0, qNorm) } : { label, score }));
    return bestFirstAsDecimals(out, (label) => this.has(label));
  }

  /** One row id in a reused array (the backend's single inserts). */
  one(row: number): Uint32Array {
    this.#one[0] = row;
    return this.#one;
  }
}
