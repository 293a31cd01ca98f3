/**
 * Distance kernels over a contiguous Float32Array of vectors (row r at offset r * dim) and top-k
 * selection over a candidate list of rows: the hot path of exact scans. Plain JS, no allocation per row;
 * also the fallback of the WebAssembly SIMD kernel (simd/), which feeds its dot products to selectTopK.
 */
import { type Metric } from './metric.js';

/** a . b[bOffset .. bOffset + dim). Unrolled by 4 into independent accumulators (breaks the add chain). */
export function dot(a: Float32Array | Float64Array, b: Float32Array, bOffset: number, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const end = dim - (dim & 3);
  let i = 0;
  let j = bOffset;
  for (; i < end; i += 4, j += 4) {
    s0 += a[i] * b[j];
    s1 += a[i + 1] * b[j + 1];
    s2 += a[i + 2] * b[j + 2];
    s3 += a[i + 3] * b[j + 3];
  }
  for (; i < dim; i++, j++) s0 += a[i] * b[j];
  return s0 + s1 + (s2 + s3);
}

/** Squared L2 distance between a and b[bOffset .. bOffset + dim). */
export function l2sq(a: Float32Array | Float64Array, b: Float32Array, bOffset: number, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const end = dim - (dim & 3);
  let i = 0;
  let j = bOffset;
  for (; i < end; i += 4, j += 4) {
    const d0 = a[i] - b[j];
    const d1 = a[i + 1] - b[j + 1];
    const d2 = a[i + 2] - b[j + 2];
    const d3 = a[i + 3] - b[j + 3];
    s0 += d0 * d0;
    s1 += d1 * d1;
    s2 += d2 * d2;
    s3 += d3 * d3;
  }
  for (; i < dim; i++, j++) {
    const d = a[i] - b[j];
    s0 += d * d;
  }
  return s0 + s1 + (s2 + s3);
}

/** Squared norm of v[offset .. offset + dim). */
export function squaredNorm(v: Float32Array | Float64Array, offset: number, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  const end = offset + dim - (dim & 1);
  let j = offset;
  for (; j < end; j += 2) {
    s0 += v[j] * v[j];
    s1 += v[j + 1] * v[j + 1];
  }
  if (dim & 1) s0 += v[j] * v[j];
  return s0 + s1;
}

/** Cosine similarity with precomputed norms (not squared); NaN when a norm is zero. */
export function cosine(
  a: Float32Array | Float64Array,
  normA: number,
  b: Float32Array,
  bOffset: number,
  normB: number,
  dim: number,
): number {
  return dot(a, b, bOffset, dim) / (normA * normB);
}

/**
 * Dot products of one query with eight rows at once: each query element is loaded once for eight
 * rows, and the query is a Float64Array (no float32 -> float64 conversion on its side). The fastest
 * plain-JS shape measured in V8: about 1.5x one row at a time (see bench/vector-kernels.js).
 * Offsets must be int32 (`| 0`): a double offset makes every access convert (2x slower).
 */
export function dotRows8(
  q: Float64Array,
  b: Float32Array,
  o0: number,
  o1: number,
  o2: number,
  o3: number,
  o4: number,
  o5: number,
  o6: number,
  o7: number,
  dim: number,
  out: Float64Array,
  outIndex: number,
): void {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let s5 = 0;
  let s6 = 0;
  let s7 = 0;
  for (let i = 0; i < dim; i++) {
    const x = q[i];
    s0 += x * b[o0 + i];
    s1 += x * b[o1 + i];
    s2 += x * b[o2 + i];
    s3 += x * b[o3 + i];
    s4 += x * b[o4 + i];
    s5 += x * b[o5 + i];
    s6 += x * b[o6 + i];
    s7 += x * b[o7 + i];
  }
  out[outIndex] = s0;
  out[outIndex + 1] = s1;
  out[outIndex + 2] = s2;
  out[outIndex + 3] = s3;
  out[outIndex + 4] = s4;
  out[outIndex + 5] = s5;
  out[outIndex + 6] = s6;
  out[outIndex + 7] = s7;
}

/** out[i] = q . row(rows[i]) for i < count, eight rows per pass. */
export function dotRows(
  q: Float64Array,
  store: Float32Array,
  dim: number,
  rows: Uint32Array,
  count: number,
  out: Float64Array,
): void {
  let i = 0;
  const end8 = count - (count & 7);
  // `| 0` keeps offsets int32 (uint32 * dim would be a double); they fit: a Float32Array holds
  // fewer than 2^31 values.
  for (; i < end8; i += 8) {
    dotRows8(
      q,
      store,
      (rows[i] * dim) | 0,
      (rows[i + 1] * dim) | 0,
      (rows[i + 2] * dim) | 0,
      (rows[i + 3] * dim) | 0,
      (rows[i + 4] * dim) | 0,
      (rows[i + 5] * dim) | 0,
      (rows[i + 6] * dim) | 0,
      (rows[i + 7] * dim) | 0,
      dim,
      out,
      i,
    );
  }
  // The leftover rows sum in dotRows8's order, so a row's dot product never depends on its position
  // (equal vectors tie exactly and the tie goes to the smaller row).
  for (; i < count; i++) {
    const o = (rows[i] * dim) | 0;
    let s = 0;
    for (let j = 0; j < dim; j++) s += q[j] * store[o + j];
    out[i] = s;
  }
}

/** A row of the store and its Data API score. */
export interface ScoredRow {
  row: number;
  score: number;
}

/**
 * The k best rows of `rows[0 .. count)` for `query`, best first (ties: smaller row first).
 * `sqNorms[row]` must hold each row's squared norm (cosine and euclidean use it: euclidean is computed
 * as |q|^2 + |v|^2 - 2 q.v in float64, exact enough for 1e-12 scores and one kernel for all metrics).
 * Rows scoring NaN (cosine against a zero vector) are left out.
 */
export function topK(
  metric: Metric,
  query: Float32Array | Float64Array,
  store: Float32Array,
  sqNorms: Float64Array,
  dim: number,
  rows: Uint32Array,
  count: number,
  k: number,
): ScoredRow[] {
  if (k <= 0 || count <= 0) return [];
  const q = query instanceof Float64Array ? query : Float64Array.from(query);
  const dots = new Float64Array(count);
  dotRows(q, store, dim, rows, count, dots);
  return selectTopK(metric, squaredNorm(q, 0, dim), dots, sqNorms, rows, count, k);
}

/**
 * selectTopK's heap, kept between calls (grown as needed): a typed array allocation costs more than the
 * selection itself on a small candidate list. It calls out to nothing while it uses it.
 */
let heapScores = new Float64Array(64);
let heapRows = new Uint32Array(64);

/**
 * The k best of `rows[0 .. count)` given `dots[i]` = query . row(rows[i]) and `qq` = |query|^2, as
 * topK: the scoring and selection half, shared by the JS and the WebAssembly SIMD dot products.
 * With `labelOf` (a label by row), each hit's `row` is its label, and equal scores rank by label.
 */
export function selectTopK(
  metric: Metric,
  qq: number,
  dots: Float64Array,
  sqNorms: Float64Array,
  rows: Uint32Array,
  count: number,
  k: number,
  labelOf?: Uint32Array,
): ScoredRow[] {
  if (k <= 0 || count <= 0) return [];
  const qNorm = Math.sqrt(qq);
  const size = Math.min(k, count);
  // Bounded min-heap on (score, -row): the root is the worst kept row.
  if (heapScores.length < size) {
    heapScores = new Float64Array(size);
    heapRows = new Uint32Array(size);
  }
  const hScore = heapScores;
  const hRow = heapRows;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const row = rows[i];
    const d = dots[i];
    let score: number;
    if (metric === 'dot_product') score = (1 + d) / 2;
    else if (metric === 'cosine') score = (1 + d / (qNorm * Math.sqrt(sqNorms[row]))) / 2;
    else {
      const d2 = qq + sqNorms[row] - 2 * d;
      score = 1 / (1 + (d2 > 0 ? d2 : 0));
    }
    if (!(score === score)) continue; // NaN
    const key = labelOf === undefined ? row : labelOf[row];
    if (n < size) {
      // sift up
      let c = n++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (worse(hScore[p], hRow[p], score, key)) break;
        hScore[c] = hScore[p];
        hRow[c] = hRow[p];
        c = p;
      }
      hScore[c] = score;
      hRow[c] = key;
    } else if (worse(hScore[0], hRow[0], score, key)) {
      // replace the root, sift down
      let c = 0;
      for (;;) {
        const l = 2 * c + 1;
        if (l >= n) break;
        const r = l + 1;
        const m = r < n && worse(hScore[r], hRow[r], hScore[l], hRow[l]) ? r : l;
        if (!worse(hScore[m], hRow[m], score, key)) break;
        hScore[c] = hScore[m];
        hRow[c] = hRow[m];
        c = m;
      }
      hScore[c] = score;
      hRow[c] = key;
    }
  }
  const out: ScoredRow[] = new Array<ScoredRow>(n);
  for (let i = 0; i < n; i++) out[i] = { row: hRow[i], score: hScore[i] };
  out.sort((x, y) => y.score - x.score || x.row - y.row);
  return out;
}

/** True when (s1, r1) ranks below (s2, r2): lower score, or same score and larger row. */
function worse(s1: number, r1: number, s2: number, r2: number): boolean {
  return s1 < s2 || (s1 === s2 && r1 > r2);
}
