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

/** The float32 values of labels (undefined where a label has none): a few point reads. */
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

export type ExactReader = (labels: readonly number[]) => (Float32Array | undefined)[];

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
  const values = read(unique);
  const dim = query.length;
  const kept: number[] = [];
  const rows = new Float32Array(unique.length * dim);
  values.forEach((vector, i) => {
    if (vector === undefined) return;
    rows.set(vector, kept.length * dim);
    kept.push(unique[i]!);
  });
  const n = kept.length;
  const index = new Uint32Array(n);
  const sqNorms = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    index[i] = i;
    // Summed as the flat store sums a row's norm when it is stored (validate.ts checkVector): the same scores.
    let sq = 0;
    for (let j = i * dim, end = j + dim; j < end; j++) sq += rows[j]! * rows[j]!;
    sqNorms[i] = sq;
  }
  const q = Float64Array.from(query);
  const dots = new Float64Array(n);
  dotRows(q, rows, dim, index, n, dots);
  return selectTopK(metric, squaredNorm(q, 0, dim), dots, sqNorms, index, n, Math.floor(k), Uint32Array.from(kept)).map((r) => ({ label: r.row, score: r.score }));
}

/**
 * A quantized store's way to its exact values: the reader, and the values read for the last shortlist (its
 * hits' rescore and `$vector` reads then need no second read). Forget a label when its vector changes.
 */
export class ExactValues {
  readonly #read: ExactReader;
  #recent = new Map<number, Float32Array>();

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

  /** Reads the values of `labels`, kept until the next shortlist's read. */
  readonly shortlist: ExactReader = (labels) => {
    const values = this.#read(labels);
    this.#recent = new Map();
    values.forEach((vector, i) => {
      if (vector !== undefined) this.#recent.set(labels[i]!, vector);
    });
    return values;
  };

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
