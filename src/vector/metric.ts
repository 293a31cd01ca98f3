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
 * The Data API score of two vectors: cosine (1 + cos) / 2, dot_product (1 + a.b) / 2,
 * euclidean 1 / (1 + d^2) with d the L2 distance. Higher is closer. Cosine of a zero vector is NaN.
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
