/**
 * Deterministic test data for test/vector: a seeded RNG, clustered (Gaussian-mixture) vectors and a
 * naive exact search used as the reference. Test support only; imports nothing from src/ but metric.
 */
import { similarityScore, type Metric } from '../../src/vector-index/metric.js';
import { rng } from '../support/random.js';

export { rng };


export function gaussian(rand: () => number): () => number {
  return () => {
    const u = Math.max(rand(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  };
}

/** n vectors of `dim` values around `clusters` centres, row-major; unit length when `normalize`. */
export function clustered(seed: number, n: number, dim: number, clusters = 16, spread = 0.25, normalize = false): Float32Array {
  const rand = rng(seed);
  const g = gaussian(rand);
  const centres = Array.from({ length: clusters }, () => Array.from({ length: dim }, () => rand() * 2 - 1));
  const out = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    const c = centres[Math.floor(rand() * clusters)] as number[];
    let sq = 0;
    for (let j = 0; j < dim; j++) {
      const v = (c[j] as number) + g() * spread;
      out[i * dim + j] = v;
      sq += v * v;
    }
    if (normalize) {
      const inv = 1 / Math.sqrt(sq);
      for (let j = 0; j < dim; j++) out[i * dim + j] = (out[i * dim + j] as number) * inv;
    }
  }
  return out;
}

export function row(data: Float32Array, i: number, dim: number): Float32Array {
  return data.subarray(i * dim, (i + 1) * dim);
}

/** Exact top-k by similarityScore over labels[i] -> row i, best first (ties: smaller label). */
export function naiveTopK(
  metric: Metric,
  query: ArrayLike<number>,
  data: Float32Array,
  dim: number,
  labels: readonly number[],
  k: number,
  allowed?: (label: number) => boolean,
): { label: number; score: number }[] {
  const all: { label: number; score: number }[] = [];
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i] as number;
    if (allowed && !allowed(label)) continue;
    all.push({ label, score: similarityScore(metric, query, row(data, i, dim)) });
  }
  all.sort((a, b) => b.score - a.score || a.label - b.label);
  return all.slice(0, k);
}

/** An int8 scale spanning the data (row-major, `dim` values a row): each dimension's min, and (max - min) / 255. */
export function int8ScaleOf(data: Float32Array, dim: number): { lo: Float32Array; step: Float32Array } {
  const lo = new Float32Array(dim).fill(Infinity);
  const hi = new Float32Array(dim).fill(-Infinity);
  for (let i = 0; i < data.length; i++) {
    lo[i % dim] = Math.min(lo[i % dim]!, data[i]!);
    hi[i % dim] = Math.max(hi[i % dim]!, data[i]!);
  }
  return { lo, step: hi.map((h, d) => (h - lo[d]!) / 255) };
}
