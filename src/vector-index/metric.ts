/**
 * Vector metrics and the Data API `$similarity` score: the formulas, and the conversion from each
 * HNSW backend's raw distance to that score. Owns nothing else; knows nothing about documents.
 */

/** The similarity functions a vector collection can be created with (Data API names). */
export type Metric = 'cosine' | 'euclidean' | 'dot_product';

export const METRICS: readonly Metric[] = ['cosine', 'euclidean', 'dot_product'];

export function isMetric(value: unknown): value is Metric {
  return value === 'cosine' || value === 'euclidean' || value === 'dot_product';
}

/** hnswlib's space name for a metric ('cosine' normalises on insert and on query, in C++). */
export function hnswSpace(metric: Metric): 'cosine' | 'l2' | 'ip' {
  return metric === 'cosine' ? 'cosine' : metric === 'euclidean' ? 'l2' : 'ip';
}

/**
 * The `$similarity` of two vectors, exactly as the Data API returns it: cosine (1 + cos) / 2, dot_product
 * (1 + a.b) / 2, euclidean 1 / (1 + d^2) with d the L2 distance, computed in float32 the way Cassandra's
 * similarity functions (jvector's VectorSimilarityFunction) do: float products and running sums, cosine's
 * quotient in double rounded to float. The result is the shortest decimal naming that float32, as Java's
 * Float.toString writes it (0.85490346, and exactly 1 for a vector against itself). Higher is closer; cosine
 * of a zero vector is NaN. Every search path (exact scan and graph) reports this score (FlatVectorStore.rescore).
 */
export function dataApiSimilarity(metric: Metric, a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`vectors differ in length: ${a.length} vs ${b.length}`);
  const x = a instanceof Float32Array ? a : Float32Array.from(a);
  return shortestFloat32(float32Similarity(metric, x, b instanceof Float32Array ? b : Float32Array.from(b), 0));
}

/**
 * dataApiSimilarity's float32 value (before its shortest decimal) of `a` against the `a.length` values of
 * `b` from `bAt`: a search rescores its hits in the store's rows without a view per hit. Each metric
 * keeps only the sums it needs; `aSquaredNorm` (float32SquaredNorm(a)) can be computed once per query.
 */
export function float32Similarity(metric: Metric, a: Float32Array, b: Float32Array, bAt: number, aSquaredNorm?: number): number {
  const f = Math.fround;
  const n = a.length;
  // Values read from a Float32Array are float32 already; a product or sum of two float32 values is
  // exact in double (or, for sums, rounds to the same float32), so rounding once gives float arithmetic.
  if (metric === 'euclidean') {
    let d2 = 0;
    for (let i = 0; i < n; i++) {
      const d = f(a[i]! - b[bAt + i]!);
      d2 = f(d2 + f(d * d));
    }
    return float32SimilarityOfSums(metric, d2, 0, 0);
  }
  let dot = 0;
  if (metric === 'dot_product') {
    for (let i = 0; i < n; i++) dot = f(dot + f(a[i]! * b[bAt + i]!));
    return float32SimilarityOfSums(metric, dot, 0, 0);
  }
  let nb = 0;
  for (let i = 0; i < n; i++) {
    const y = b[bAt + i]!;
    dot = f(dot + f(a[i]! * y));
    nb = f(nb + f(y * y));
  }
  return float32SimilarityOfSums(metric, dot, nb, aSquaredNorm ?? float32SquaredNorm(a));
}

/**
 * float32Similarity from its float32 sums: `sum` is a . b (cosine, dot_product) or |a - b|^2 (euclidean),
 * `bSquaredNorm` b . b (cosine only), `aSquaredNorm` float32SquaredNorm(a) (cosine only). The WebAssembly
 * kernel (similaritySumsF32) computes the same sums.
 */
export function float32SimilarityOfSums(metric: Metric, sum: number, bSquaredNorm: number, aSquaredNorm: number): number {
  const f = Math.fround;
  if (metric === 'euclidean') return f(1 / f(1 + sum));
  if (metric === 'dot_product') return f(f(1 + sum) / 2);
  return f(f(1 + f(sum / Math.sqrt(aSquaredNorm * bSquaredNorm))) / 2);
}

/** The running float32 sum of a vector's squared components, as the cosine similarity sums them. */
export function float32SquaredNorm(a: Float32Array): number {
  const f = Math.fround;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum = f(sum + f(a[i]! * a[i]!));
  return sum;
}

/**
 * The same formulas in double precision: what the exact-scan kernels and the graph rank by (their reference
 * in tests). Scores reported to users are dataApiSimilarity's.
 */
export function similarityScore(metric: Metric, a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`vectors differ in length: ${a.length} vs ${b.length}`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  let d2 = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
    d2 += (x - y) * (x - y);
  }
  switch (metric) {
    case 'cosine':
      return (1 + dot / Math.sqrt(na * nb)) / 2;
    case 'dot_product':
      return (1 + dot) / 2;
    case 'euclidean':
      return 1 / (1 + d2);
  }
}

/** The shortest decimal that reads back as the same float32 (Java's Float.toString digits), as a number. */
export function shortestFloat32(value: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-4 && magnitude < 10) return scaledShortestFloat32(value, magnitude);
  // Binary search over the number of significant digits (9 always round-trips a float32): 3-4
  // toPrecision calls, where counting up from 1 takes 7-9 for a typical score.
  let lo = 1;
  let hi = 9;
  let best = value;
  while (lo <= hi) {
    const digits = (lo + hi) >> 1;
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) {
      best = candidate;
      hi = digits - 1;
    } else {
      lo = digits + 1;
    }
  }
  return best;
}

/** 10^k for k in 0..12: exact doubles. */
const POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12];

/**
 * shortestFloat32 for 1e-4 <= |value| < 10 (every score, most vector components) without toPrecision
 * (3-4 calls a value, ~1 us: 8 us of a 10-hit search with $similarity). The same number: a float32 has
 * 24 significant bits and 5^12 < 2^29, so |value| * 10^k (k <= 12) is exact in a double; Math.round of it
 * rounds half up, as toPrecision does the magnitude's digits; and dividing the integer by 10^k (exact) is
 * correctly rounded, so it is the double that toPrecision's digits read back as. The decimal exponent
 * comes from comparisons with 1, 0.1, 0.01 and 0.001, whose doubles no float32 lies between them and
 * their exact values. (A value that is not a float32 never reads back as itself, either way.)
 */
function scaledShortestFloat32(value: number, magnitude: number): number {
  const exponent = magnitude >= 1 ? 0 : magnitude >= 0.1 ? -1 : magnitude >= 0.01 ? -2 : magnitude >= 0.001 ? -3 : -4;
  // Most float32s need 7 to 9 digits: 7 first, then 6 (when 7 reads back) or 8, then a binary search of
  // what is left (two probes for most values, where a binary search over 1-9 takes three or four). The
  // fewest digits that read back, whatever the order: more digits are never further from the value.
  let lo: number;
  let hi: number;
  let best = magnitude;
  const seven = decimalAt(magnitude, 7, exponent);
  if (Math.fround(seven) === magnitude) {
    const six = decimalAt(magnitude, 6, exponent);
    if (Math.fround(six) !== magnitude) return value < 0 ? -seven : seven;
    best = six;
    lo = 1;
    hi = 5;
  } else {
    lo = 8;
    hi = 9;
  }
  while (lo <= hi) {
    const digits = (lo + hi) >> 1;
    const candidate = decimalAt(magnitude, digits, exponent);
    if (Math.fround(candidate) === magnitude) {
      best = candidate;
      hi = digits - 1;
    } else {
      lo = digits + 1;
    }
  }
  return value < 0 ? -best : best;
}

/** `magnitude` to `digits` significant digits (its decimal exponent given), as toPrecision's digits read back. */
function decimalAt(magnitude: number, digits: number, exponent: number): number {
  const scale = POWERS_OF_TEN[digits - 1 - exponent]!;
  return Math.round(magnitude * scale) / scale;
}

/** Score from a dot product, for cosine when the norms are known (both non-zero). */
export function cosineScore(dot: number, normA: number, normB: number): number {
  return (1 + dot / (normA * normB)) / 2;
}

export function dotProductScore(dot: number): number {
  return (1 + dot) / 2;
}

export function euclideanScore(squaredDistance: number): number {
  return 1 / (1 + squaredDistance);
}

/**
 * Converts an hnswlib distance to the Data API score. hnswlib reports, per space:
 * 'cosine' and 'ip': 1 - dot (of normalised vectors for cosine); 'l2': the squared L2 distance.
 * Both backends (wasm and native) use the same spaces, so one conversion serves both.
 */
export function scoreFromHnswDistance(metric: Metric, distance: number): number {
  return metric === 'euclidean' ? 1 / (1 + distance) : 1 - distance / 2;
}
