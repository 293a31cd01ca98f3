/**
 * The float32 first pass's bounds: which rows of an exact scan can still reach the k best, given float32
 * dot products (the WebAssembly SIMD kernel's dotRowsF32) and a rigorous bound on their distance from the
 * float64 ones. The few rows kept are rescored in float64 and ranked by selectTopK (kernels.ts), so the
 * scan returns exactly what a float64 scan of every row returns. Pure functions over typed arrays.
 */
import { type Metric } from './metric.js';

/** The bounded min-heap of both shortlists, kept between calls (a typed array allocation costs more). */
let bounds = new Float64Array(64);

/**
 * The relative error bound of a float32 dot product of `dim` terms against the float64 one, as a
 * fraction of |q| * |row| (Cauchy-Schwarz bounds sum |q_i row_i| by it): gamma_n = n u / (1 - n u) with
 * u = 2^-24 for the float32 products and sums (any summation order) and the query's rounding to float32,
 * plus the float64 dot's own error (u = 2^-53), which the ranking uses.
 */
export function float32DotError(dim: number): number {
  const n = dim + 2;
  return (n * 2 ** -24) / (1 - n * 2 ** -24) + (n * 2 ** -53) / (1 - n * 2 ** -53);
}

/** Float64 rounding in a score's own formula, relative to its scale (see shortlistTopK). */
const SCORE_SLACK = 1e-13;
/** Above this |q| |row|, float32 products or sums may overflow: such rows are always kept. */
const FLOAT32_SAFE = 1e37;

/**
 * Narrows `rows[0 .. count)` to the rows that can still be among selectTopK's k best, given approximate
 * dot products `approx[i]` (dotRowsF32's) that are within `gamma * |q| * |row|` of the float64 ones (gamma:
 * float32DotError). `invNorms[row]` is 1 / |row| (Infinity for a zero vector), `sqNorms[row]` |row|^2. Each row's score is bounded from both sides; a row whose upper bound is below the k-th
 * best lower bound has k rows strictly above it and is dropped. The kept rows are moved to the front of
 * `rows` (order kept) and their number returned: rescored in float64, selectTopK over them gives exactly
 * what it gives over all the rows. Rows selectTopK would skip (cosine against a zero vector) are dropped.
 * `approx` is overwritten (with the upper bounds).
 */
export function shortlistTopK(
  metric: Metric,
  qq: number,
  gamma: number,
  dim: number,
  approx: Float64Array,
  sqNorms: Float64Array,
  invNorms: Float64Array,
  rows: Uint32Array,
  count: number,
  k: number,
): number {
  if (count <= k) return count;
  const qNorm = Math.sqrt(qq);
  // Float32 subnormals: each product and sum may lose up to 2^-150 outright, whatever gamma says.
  const lost = dim * 2 ** -148;
  const cosine = metric === 'cosine';
  const dotProduct = metric === 'dot_product';
  // Cosine ranks by key = dot / |row| (score = (1 + key / |q|) / 2, increasing in it): no square root or
  // division per row. Its bound: gamma |q| + lost / |row|, and the score's slack times 2 |q|.
  const cosineError = gamma * qNorm + 2 * SCORE_SLACK * qNorm;
  // Bounded min-heap of the k best lower bounds: its root is the k-th best.
  if (bounds.length < k) bounds = new Float64Array(k);
  const heap = bounds;
  let size = 0;
  for (let i = 0; i < count; i++) {
    const row = rows[i]!;
    const inv = invNorms[row]!;
    const a = approx[i]!;
    let score: number;
    let error: number;
    if (cosine && inv === Infinity) {
      approx[i] = -Infinity; // a zero vector: selectTopK skips it (NaN score)
      continue;
    } else if (!(qNorm < FLOAT32_SAFE * inv) || !(a - a === 0)) {
      // |q| |row| is past FLOAT32_SAFE: float32 may have overflowed (or the approximation is not
      // finite): keep the row whatever happens.
      score = 0;
      error = Infinity;
    } else if (cosine) {
      score = a * inv;
      error = cosineError + lost * inv;
    } else {
      const scale = qNorm / inv;
      if (dotProduct) {
        score = (1 + a) / 2;
        error = (gamma * scale + lost) / 2 + SCORE_SLACK * (1 + scale);
      } else {
        // 1 / (1 + max(d2, 0)) moves at most as much as d2 does.
        const vv = sqNorms[row]!;
        const d2 = qq + vv - 2 * a;
        score = 1 / (1 + (d2 > 0 ? d2 : 0));
        error = 2 * (gamma * scale + lost) + SCORE_SLACK * (1 + qq + vv);
      }
    }
    approx[i] = score + error;
    const low = score - error;
    if (size < k) siftUp(heap, size++, low);
    else if (low > heap[0]!) replaceRoot(heap, k, low);
  }
  const threshold = size < k ? -Infinity : heap[0]!;
  let kept = 0;
  for (let i = 0; i < count; i++) if (approx[i]! >= threshold && approx[i] !== -Infinity) rows[kept++] = rows[i]!;
  return kept;
}


/**
 * shortlistTopK for cosine with one error bound for every row, from the largest |row| and 1 / |row| the
 * store ever held (`maxNorm`, `maxInvNorm`): the rows' keys (dot / |row|) are computed in one tight pass
 * (its memory reads overlap), then compared without per-row bounds. Falls back to shortlistTopK when the
 * bounds do not rule out a float32 overflow or a zero vector.
 */
export function shortlistCosine(
  qq: number,
  gamma: number,
  dim: number,
  approx: Float64Array,
  sqNorms: Float64Array,
  invNorms: Float64Array,
  maxNorm: number,
  maxInvNorm: number,
  rows: Uint32Array,
  count: number,
  k: number,
): number {
  if (count <= k) return count;
  const qNorm = Math.sqrt(qq);
  if (!(qNorm * maxNorm < FLOAT32_SAFE) || !(maxInvNorm < Infinity)) {
    return shortlistTopK('cosine', qq, gamma, dim, approx, sqNorms, invNorms, rows, count, k);
  }
  // As shortlistTopK's cosine bound, with the largest 1 / |row| for every row.
  const error = gamma * qNorm + 2 * SCORE_SLACK * qNorm + dim * 2 ** -148 * maxInvNorm;
  for (let i = 0; i < count; i++) approx[i] = approx[i]! * invNorms[rows[i]!]!;
  if (bounds.length < k) bounds = new Float64Array(k);
  // The k-th best key: every row whose key is within 2 * error of it may still rank above it.
  const heap = bounds;
  for (let i = 0; i < k; i++) heap[i] = approx[i]!;
  heapify(heap, k);
  for (let i = k; i < count; i++) {
    const key = approx[i]!;
    if (key > heap[0]!) replaceRoot(heap, k, key);
  }
  const threshold = heap[0]! - 2 * error;
  let kept = 0;
  for (let i = 0; i < count; i++) if (approx[i]! >= threshold) rows[kept++] = rows[i]!;
  return kept;
}

/** Makes heap[0 .. n) a min-heap. */
function heapify(heap: Float64Array, n: number): void {
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(heap, n, i, heap[i]!);
}

/** Puts `value` into a min-heap at position `at` (its new last slot) and restores the order. */
function siftUp(heap: Float64Array, at: number, value: number): void {
  let c = at;
  while (c > 0) {
    const p = (c - 1) >> 1;
    if (heap[p]! <= value) break;
    heap[c] = heap[p]!;
    c = p;
  }
  heap[c] = value;
}

/** Replaces a min-heap's root with `value` and restores the order. */
function replaceRoot(heap: Float64Array, n: number, value: number): void {
  siftDown(heap, n, 0, value);
}

function siftDown(heap: Float64Array, n: number, at: number, value: number): void {
  let c = at;
  for (;;) {
    const l = 2 * c + 1;
    if (l >= n) break;
    const r = l + 1;
    const m = r < n && heap[r]! < heap[l]! ? r : l;
    if (heap[m]! >= value) break;
    heap[c] = heap[m]!;
    c = m;
  }
  heap[c] = value;
}
