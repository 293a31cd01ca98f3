/**
 * NativeRowStore: the VectorRows (vector-rows.ts) of a collection kept in the native addon's row store,
 * the one copy of each vector: the graph (native-rows-backend.ts) inserts a label's row as it is, and a
 * row stays until neither a label nor a graph element refers to it (a replaced or deleted label's row
 * lives on while the graph still reads it). Exact scans sum float64 dot products in the addon in the
 * order FlatVectorStore's WebAssembly kernel does, and each candidate's squared norm in the order
 * checkVector does (read from its row, not kept by row here), and rank them with the same selectTopK: the
 * same hits and scores. An int8 store (useInt8: quantization 'int8') holds float32 rows until its scale is known
 * (kept from before, or trained from the first INT8_TRAINING_ROWS vectors as FlatVectorStore trains it),
 * then int8 codes only: its scans and the graph's searches rank on the codes, and a shortlist is ranked
 * again from the exact values read through its ExactReader, as FlatVectorStore's int8 mode does.
 */
import { VectorDbError } from '../errors/vectordb-error.js';
import { approximateShortlist, bestFirstAsDecimals, ExactValues, exactTopK, type ExactReader, type ScoredLabel } from './exact-rescore.js';
import { INT8_TRAINING_ROWS } from './flat-store.js';
import { Int8Scale } from './int8-rows.js';
import { selectTopK, squaredNorm } from './kernels.js';
import { collectLabelRows, LabelSlots, SeenRows } from './label-slots.js';
import { float32Similarity, float32SquaredNorm, type Metric } from './metric.js';
import type { AddonRows, NativeAddon } from './native-addon.js';
import { checkDimension, checkLabel, checkVector } from './validate.js';
import type { VectorRows } from './vector-rows.js';

/** The addon's metric codes (native/src/row_store.h). */
const METRIC_CODE: Record<Metric, number> = { euclidean: 0, dot_product: 1, cosine: 2 };
/** As FlatVectorStore's: the label -> row array stays dense while labels span this many per row. */
const LABELS_PER_ROW = 64;

/** What an int8 store needs besides its rows (FlatVectorStoreOptions' int8 part). */
export interface NativeInt8Options {
  /** Where the exact float32 values of stored labels are read. */
  exact: ExactReader;
  /** A scale trained before (kept by the engine): the codes mean what they meant before a reopen. */
  scale?: Int8Scale;
  /**
   * Called once with the scale the engine is to keep: when this store trains it, or when its rows are codes
   * of a scale it was not given (a graph file's, its kept record lost): the engine keeps it again.
   */
  onTrained?: (scale: Int8Scale) => void;
}

interface Int8State {
  readonly exact: ExactValues;
  /** The scale to quantize with once the graph leaves the rows alone (kept, or trained). */
  pending: Int8Scale | undefined;
  readonly onTrained: ((scale: Int8Scale) => void) | undefined;
}

export class NativeRowStore implements VectorRows {
  readonly dimension: number;
  readonly metric: Metric;
  /** The addon's rows (graphs over this store read them too). */
  readonly rows: AddonRows;
  readonly #rowOf = new LabelSlots(LABELS_PER_ROW);
  #one = new Uint32Array(1);
  readonly #seen = new SeenRows();
  #int8: Int8State | undefined;
  #scale: Int8Scale | undefined;

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

  get rowsAs(): 'float32' | 'int8' {
    return this.rows.int8 ? 'int8' : 'float32';
  }

  get rowBytes(): number {
    return this.rows.used * this.dimension * (this.rows.int8 ? 1 : 4);
  }

  /** Values coded into int8 rows since open (stats; a graph file's int8 rows are copied, not coded, so not counted). */
  get codedValues(): number {
    return this.rows.codedValues;
  }

  /** Of those, the values outside the scale's range, clamped to its ends (stats). */
  get clampedValues(): number {
    return this.rows.clampedValues;
  }

  /** The scale of the rows' int8 codes (undefined while they are float32). */
  get scale(): Int8Scale | undefined {
    if (this.#scale === undefined && this.rows.int8) {
      const both = new Float32Array(2 * this.dimension);
      this.rows.scale(both.subarray(0, this.dimension), both.subarray(this.dimension));
      this.#scale = Int8Scale.fromBytes(new Uint8Array(both.buffer), this.dimension);
    }
    return this.#scale;
  }

  /**
   * Makes this an int8 store: its rows become codes of `scale` (or of the scale trained once enough vectors
   * are stored) as soon as no graph reads them. False, and nothing changed, when its rows are codes of
   * another scale already (a graph file's): the caller rebuilds. Rows that are codes when no scale is given
   * (the kept one lost) keep theirs, handed to onTrained to be kept again: it is the scale they were coded with.
   */
  useInt8(options: NativeInt8Options): boolean {
    const held = this.scale;
    if (held !== undefined && options.scale !== undefined && !sameBytes(held.toBytes(), options.scale.toBytes())) return false;
    this.#int8 = { exact: new ExactValues(options.exact), pending: held === undefined ? options.scale : undefined, onTrained: options.onTrained };
    if (held !== undefined && options.scale === undefined) options.onTrained?.(held);
    this.quantizeIfDue();
    return true;
  }

  /**
   * An int8 store whose rows are still float32: trains the scale once INT8_TRAINING_ROWS vectors are stored
   * (FlatVectorStore trains on the same vectors), and codes the rows when no graph work reads them (else at
   * a later call: the backend calls again when its inserts settle).
   */
  quantizeIfDue(): void {
    const int8 = this.#int8;
    if (int8 === undefined || this.rows.int8) return;
    if (int8.pending === undefined && this.size >= INT8_TRAINING_ROWS) {
      int8.pending = this.#train();
      int8.onTrained?.(int8.pending);
    }
    if (int8.pending !== undefined && this.rows.quantize(int8.pending.lo, int8.pending.step)) {
      this.#scale = int8.pending;
      int8.pending = undefined;
    }
  }

  #train(): Int8Scale {
    const dim = this.dimension;
    const labels = this.#rowOf.labels();
    const values = new Float32Array(labels.length * dim);
    labels.forEach((label, i) => this.rows.read(this.#rowOf.get(label)!, values, i * dim));
    return Int8Scale.train(dim, values, Array.from(labels, (_, i) => i * dim), labels.length);
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
    checkVector(vector, this.dimension, this.metric);
    const values = vector instanceof Float32Array ? vector : Float32Array.from(vector);
    // A new row even for a stored label: a graph may still read the old one.
    const row = this.rows.take();
    this.rows.write(row, values, 0);
    this.#hold(label, row);
    this.quantizeIfDue();
  }

  setRows(labels: ArrayLike<number>, values: Float32Array): void {
    const dim = this.dimension;
    const n = labels.length;
    if (values.length !== n * dim) throw VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: `setRows: ${n} labels but ${values.length / dim} rows` });
    for (let i = 0; i < n; i++) {
      checkLabel(labels[i] as number);
      checkVector(values, dim, this.metric, 'vector', i * dim, false);
    }
    const at = new Uint32Array(n);
    this.rows.writeMany(values, n, at);
    for (let i = 0; i < n; i++) this.#hold(labels[i] as number, at[i] as number);
    this.quantizeIfDue();
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
    this.rows.refMany(adopted, m);
    for (let j = 0; j < m; j++) this.#hold(labels[taken[j] as number] as number, adopted[j] as number);
  }

  /** Records that `label` now holds `row` (one reference, taken by the caller), dropping its old row's. */
  #hold(label: number, row: number): void {
    const old = this.#rowOf.get(label);
    this.#rowOf.set(label, row);
    this.#int8?.exact.forget(label);
    if (old !== undefined) this.rows.unref(old);
  }

  get(label: number): Float32Array | undefined {
    const row = this.#rowOf.get(label);
    if (row === undefined) return undefined;
    if (this.rows.int8) return this.#exact().one(label)?.slice();
    const out = new Float32Array(this.dimension);
    this.rows.read(row, out, 0);
    return out;
  }

  copyInto(label: number, target: Float32Array, offset: number): boolean {
    const row = this.#rowOf.get(label);
    if (row === undefined) return false;
    if (this.rows.int8) {
      const values = this.#exact().one(label);
      if (values === undefined) return false;
      target.set(values, offset);
      return true;
    }
    this.rows.read(row, target, offset);
    return true;
  }

  delete(label: number): boolean {
    const row = this.#rowOf.get(label);
    if (row === undefined) return false;
    this.#rowOf.delete(label);
    this.#int8?.exact.forget(label);
    this.rows.unref(row);
    return true;
  }

  *labels(): IterableIterator<number> {
    yield* this.#rowOf.labels();
  }

  /** The k best of `labels` ranked exactly: float32 rows as any candidate list, int8 ones from their exact values, read. */
  exactTopOf(query: ArrayLike<number>, labels: readonly number[], k: number): ScoredLabel[] {
    if (!this.rows.int8) return this.exactSearch(query, k, labels);
    checkVector(query, this.dimension, this.metric, 'query vector');
    return exactTopK(this.metric, query, labels.filter((label) => this.has(label)), k, this.#exact().shortlist);
  }

  exactSearch(query: ArrayLike<number>, k: number, candidates?: Iterable<number>): ScoredLabel[] {
    checkVector(query, this.dimension, this.metric, 'query vector');
    if (!(k >= 1) || this.size === 0) return [];
    const { rows, labels } = this.#collectRows(candidates);
    const n = rows.length;
    const q = Float64Array.from(query);
    const top = Math.floor(k);
    // Norms and labels by candidate, not by row: selectTopK reads them through the candidates' indexes.
    const index = indexes(n);
    const norms = new Float64Array(this.metric === 'dot_product' ? 0 : n);
    const wanted = norms.length > 0 ? norms : undefined;
    if (this.rows.int8) {
      // The codes rank the rows; the best shortlistSize(k) are ranked exactly. The dots callback fills
      // `norms` too, before approximateShortlist's ranking reads them (and it ranks only after the dots).
      const shortlist = approximateShortlist(this.metric, q, index, n, top, norms, labels, (_, m, out) => this.rows.dots(q, rows, m, out, wanted));
      return this.exactTopOf(query, shortlist, top);
    }
    const dots = new Float64Array(n);
    this.rows.dots(q, rows, n, dots, wanted);
    const hits = selectTopK(this.metric, squaredNorm(q, 0, this.dimension), dots, norms, index, n, top, labels);
    return hits.map((r) => ({ label: r.row, score: r.score }));
  }

  /** The rows of the stored labels of `candidates` (each once), or of every stored label, and their labels. */
  #collectRows(candidates: Iterable<number> | undefined): { rows: Uint32Array; labels: Uint32Array } {
    const list = candidates === undefined ? this.#rowOf.labels() : Array.isArray(candidates) || candidates instanceof Uint32Array ? (candidates as ArrayLike<number>) : Array.from(candidates);
    const rows = new Uint32Array(list.length);
    const labels = new Uint32Array(list.length);
    const n = collectLabelRows(this.#rowOf, list, rows, this.#seen, this.rows.used, labels);
    return { rows: rows.subarray(0, n), labels: labels.subarray(0, n) };
  }

  rescore(query: ArrayLike<number>, hits: readonly ScoredLabel[]): ScoredLabel[] {
    const dim = this.dimension;
    if (query.length !== dim) throw new RangeError(`vectors differ in length: ${query.length} vs ${dim}`);
    const q = query instanceof Float32Array ? query : Float32Array.from(query);
    const qNorm = float32SquaredNorm(q);
    if (this.rows.int8) return this.#exact().rescore(this.metric, q, qNorm, hits, (label) => this.has(label));
    const row = new Float32Array(dim);
    const out = hits.map(({ label, score }) => (this.copyInto(label, row, 0) ? { label, score: float32Similarity(this.metric, q, row, 0, qNorm) } : { label, score }));
    return bestFirstAsDecimals(out, (label) => this.has(label));
  }

  /** Where int8 rows' exact values are read (useInt8 gave it; a graph file's int8 rows without it are a bug of the caller). */
  #exact(): ExactValues {
    if (this.#int8 === undefined) throw VectorDbError.of('UNEXPECTED_SERVER_ERROR', { reason: 'int8 rows without an exact reader (useInt8 was not called)' });
    return this.#int8.exact;
  }

  /** One row id in a reused array (the backend's single inserts). */
  one(row: number): Uint32Array {
    this.#one[0] = row;
    return this.#one;
  }
}

/** 0, 1, ..., n - 1 (made per scan: an array kept for the largest scan would stay that large). */
function indexes(n: number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
