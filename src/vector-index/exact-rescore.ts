/**
 * Exact rescoring of a shortlist: the float32 values of candidate labels, read from where the truth is kept
 * (an ExactReader: the engine's vector records), ranked with the arithmetic of the flat store's float path
 * (float64 dot products, selectTopK), so a quantized search answers with the scores and order of an
 * unquantized one whenever the true top k is in the shortlist. Used by the int8 flat store and by the
 * graph path of a quantized collection (any index that ranks approximately can hand its candidates here).
 */
import { dotRows, selectTopK, squaredNorm } from './kernels.js';
import { float32Similarity, shortestFloat32, type Metric } from './metric.js';

/** A label and its Data API `$similarity` score (higher is closer). */
export interface ScoredLabel {
  label: number;
  score: number;
}

/**
 * Rescored hits best first, each rescored hit's float32 `$similarity` then given as its shortest decimal
 * (float32 scores order as their decimals do: sort first, then convert). Sorts and changes `hits` in place.
 * The one ending of every rescore (FlatVectorStore, NativeRowStore, ExactValues).
 */
export function bestFirstAsDecimals(hits: ScoredLabel[], rescored: (label: number) => boolean): ScoredLabel[] {
  hits.sort((a, b) => b.score - a.score);
  for (const hit of hits) if (rescored(hit.label)) hit.score = shortestFloat32(hit.score);
  return hits;
}

/**
 * The float32 values of labels (undefined where a label has none): a few point reads. Given `into` (room
 * for every label's values), a reader may decode label i's values into it at i x dimension and answer
 * views of it: no allocation per vector (ExactValues.shortlist hands it its own buffer).
 */
export type ExactReader = (labels: readonly number[], into?: Float32Array) => (Float32Array | undefined)[];

/**
 * How many candidates an approximate ranking hands to the exact one for `k` results: 2x was enough for the
 * exact top 10 at 50k x 384, even with the scale trained on 1 % of the data (bench/quantization-recall.js);
 * 10 more leave room for small k. Each is a point read of its stored vector (about 10 us at 20k x 384).
 */
export function shortlistSize(k: number): number {
  return Math.ceil(k) * 2 + 10;
}

/**
 * The labels to rank exactly for the `k` best of rows[0..n): all of them when they are no more than
 * shortlistSize(k), else the shortlistSize(k) best by the approximate dot products `dots` writes (int8
 * codes), ranked by selectTopK with the rows' squared norms. The int8 scans of FlatVectorStore and
 * NativeRowStore both shortlist here.
 */
export function approximateShortlist(metric: Metric, query: ArrayLike<number>, rows: Uint32Array, n: number, k: number, sqNorms: Float64Array, labelOfRow: Uint32Array, dots: (rows: Uint32Array, n: number, out: Float64Array) => void): number[] {
  const want = shortlistSize(k);
  if (n <= want) return Array.from(rows.subarray(0, n), (row) => labelOfRow[row]!);
  const approx = new Float64Array(n);
  dots(rows, n, approx);
  const q = Float64Array.from(query);
  return selectTopK(metric, squaredNorm(q, 0, q.length), approx, sqNorms, rows, n, want, labelOfRow).map((r) => r.row);
}

/**
 * The `k` best of `labels` by exact score (each label once; labels without values are left out), best first,
 * ties to the smaller label: the float path's ranking scores (FlatVectorStore.rescore gives the Data API's).
 */
export function exactTopK(metric: Metric, query: ArrayLike<number>, labels: readonly number[], k: number, read: ExactReader): ScoredLabel[] {
  const unique = [...new Set(labels)];
  const dim = query.length;
  const rows = scratchFor(unique.length * dim);
  const values = read(unique, rows);
  // The values, packed at the front of `rows` (a reader that took `into` left them in place).
  const kept: number[] = [];
  values.forEach((vector, i) => {
    if (vector === undefined) return;
    const at = kept.length * dim;
    if (vector.buffer !== rows.buffer || vector.byteOffset !== rows.byteOffset + at * 4) rows.set(vector, at);
    kept.push(unique[i]!);
  });
  const n = kept.length;
  const index = new Uint32Array(n);
  const sqNorms = new Float64Array(n);
  for (let i = 0; i < n; i++) index[i] = i;
  sequentialSquaredNorms(rows, dim, n, sqNorms);
  const q = Float64Array.from(query);
  const dots = new Float64Array(n);
  dotRows(q, rows, dim, index, n, dots);
  return selectTopK(metric, squaredNorm(q, 0, dim), dots, sqNorms, index, n, Math.floor(k), Uint32Array.from(kept)).map((r) => ({ label: r.row, score: r.score }));
}

/**
 * out[i] = the squared norm of row i of `rows` summed in order, as the flat store sums a row's norm when it is
 * stored (validate.ts checkVector): the same scores. Four rows at a time: each sum is a chain of dependent
 * float64 additions, and four chains side by side run in about the time of one.
 */
function sequentialSquaredNorms(rows: Float32Array, dim: number, n: number, out: Float64Array): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o0 = i * dim;
    const o1 = o0 + dim;
    const o2 = o1 + dim;
    const o3 = o2 + dim;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let j = 0; j < dim; j++) {
      const a = rows[o0 + j]!;
      const b = rows[o1 + j]!;
      const c = rows[o2 + j]!;
      const d = rows[o3 + j]!;
      s0 += a * a;
      s1 += b * b;
      s2 += c * c;
      s3 += d * d;
    }
    out[i] = s0;
    out[i + 1] = s1;
    out[i + 2] = s2;
    out[i + 3] = s3;
  }
  for (; i < n; i++) {
    let sq = 0;
    for (let j = i * dim, end = j + dim; j < end; j++) sq += rows[j]! * rows[j]!;
    out[i] = sq;
  }
}

/** Buffers of at most this many values (1 MiB) are kept for the next call; a larger shortlist's are not. */
const KEPT_VALUES = 2 ** 18;

/**
 * The rows exactTopK ranks, kept between calls (used only within one call: nothing keeps a view of it): a
 * Float32Array of a shortlist's values (46 KB at 30 x 384) lives outside V8's heap, and allocating one per
 * search cost more than ranking it.
 */
let scratch: Float32Array = new Float32Array(0);

/** `length` values of the scratch, grown as needed (beyond KEPT_VALUES, a buffer for this call only). */
function scratchFor(length: number): Float32Array {
  if (scratch.length >= length) return scratch.subarray(0, length);
  if (length > KEPT_VALUES) return new Float32Array(length);
  scratch = new Float32Array(Math.min(Math.max(length, 2 * scratch.length), KEPT_VALUES));
  return scratch.subarray(0, length);
}

/**
 * A quantized store's way to its exact values: the reader, and the values read for the last shortlist (its
 * hits' rescore and `$vector` reads then need no second read, and the next shortlist reads only the labels
 * this one lacked: a repeated query, or a search's next round, reads nothing again). Forget a label when its
 * vector changes.
 */
export class ExactValues {
  readonly #read: ExactReader;
  #recent = new Map<number, Float32Array>();
  /** Where the last shortlist's values were decoded (#recent holds views of it). */
  #values: Float32Array = new Float32Array(0);
  /** The other buffer: the next shortlist's values go there while #recent's are copied from this one. */
  #spare: Float32Array = new Float32Array(0);

  constructor(read: ExactReader) {
    this.#read = read;
  }

  /** A label's values: from the last shortlist's reads, else read now (not kept). */
  one(label: number): Float32Array | undefined {
    return this.#recent.get(label) ?? this.#read([label])[0];
  }

  forget(label: number): void {
    this.#recent.delete(label);
  }

  /**
   * The values of `labels`, kept until the next shortlist's: those the last shortlist held are copied from it,
   * the rest read. With `into` (its length tells the room wanted) they are decoded into this store's own
   * buffers, not into `into` (exactTopK's scratch, shared): #recent outlives the call.
   */
  readonly shortlist: ExactReader = (labels, into) => {
    if (into === undefined || labels.length === 0) return this.#keep(labels, this.#read(labels));
    const dim = into.length / labels.length;
    const target = this.#room(into.length);
    const missing: number[] = [];
    const values: (Float32Array | undefined)[] = labels.map((label, i) => {
      const known = this.#recent.get(label);
      if (known === undefined) {
        missing.push(i);
        return undefined;
      }
      const view = target.subarray(i * dim, (i + 1) * dim);
      view.set(known);
      return view;
    });
    if (missing.length === labels.length) return this.#swap(labels, this.#read(labels, target));
    if (missing.length > 0) {
      // The few not held: read on their own and copied to their place.
      const read = this.#read(missing.map((i) => labels[i]!));
      missing.forEach((i, j) => {
        const vector = read[j];
        if (vector === undefined) return;
        const view = target.subarray(i * dim, (i + 1) * dim);
        view.set(vector);
        values[i] = view;
      });
    }
    return this.#swap(labels, values);
  };

  /** `length` values of the spare buffer, grown as needed. */
  #room(length: number): Float32Array {
    const spare = this.#spare;
    if (spare.length < length) this.#spare = new Float32Array(length <= KEPT_VALUES ? Math.min(Math.max(length, 2 * spare.length), KEPT_VALUES) : length);
    return this.#spare.subarray(0, length);
  }

  /** Makes the spare buffer, just filled, the current one (#recent then holds views of it); a large old one goes. */
  #swap(labels: readonly number[], values: (Float32Array | undefined)[]): (Float32Array | undefined)[] {
    const filled = this.#spare;
    this.#spare = this.#values.length > KEPT_VALUES ? new Float32Array(0) : this.#values;
    this.#values = filled;
    return this.#keep(labels, values);
  }

  #keep(labels: readonly number[], values: (Float32Array | undefined)[]): (Float32Array | undefined)[] {
    this.#recent = new Map();
    values.forEach((vector, i) => {
      if (vector !== undefined) this.#recent.set(labels[i]!, vector);
    });
    return values;
  }

  /**
   * FlatVectorStore.rescore from exact values: each stored hit's Data API `$similarity` (float32), best first;
   * hits not stored keep their score. `q` is the query as float32, `qNorm` its float32 squared norm.
   */
  rescore(metric: Metric, q: Float32Array, qNorm: number, hits: readonly ScoredLabel[], stored: (label: number) => boolean): ScoredLabel[] {
    const wanted = hits.filter((hit) => stored(hit.label) && !this.#recent.has(hit.label)).map((hit) => hit.label);
    const read = wanted.length === 0 ? [] : this.#read(wanted);
    const values = new Map<number, Float32Array>();
    wanted.forEach((label, i) => {
      if (read[i] !== undefined) values.set(label, read[i]!);
    });
    const rescored = new Set<number>();
    const out = hits.map(({ label, score }) => {
      const vector = stored(label) ? (this.#recent.get(label) ?? values.get(label)) : undefined;
      if (vector === undefined) return { label, score };
      rescored.add(label);
      return { label, score: float32Similarity(metric, q, vector, 0, qNorm) };
    });
    return bestFirstAsDecimals(out, (label) => rescored.has(label));
  }
}
