/**
 * The addon's float32 distance kernels (native/src/float_kernels.h: AVX2 + FMA where the CPU has them, else
 * hnswlib's; VECTORDB_NO_SIMD=1 picks hnswlib's) through its graph search: every distance a search returns
 * equals the float64 sum within float32 rounding, at every dimension from 1 to 40 (each remainder of the
 * kernels' 32- and 8-value steps) and at 64, 96, 100, 127, 128, 129, for the three metrics; with ef above
 * the row count the search ranks every row, so its hits are the exact nearest: the i-th hit's distance is the
 * i-th nearest's. Skipped where
 * the addon was not built.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { METRICS, similarityScore, type Metric } from '../../src/vector-index/metric.js';
import { loadNativeAddon } from '../../src/vector-index/native-addon.js';
import { NativeRowStore } from '../../src/vector-index/native-rows.js';
import { clustered, row } from './data.js';

const addon = loadNativeAddon();
const N = 60;
const K = 10;
const DIMS = [...Array.from({ length: 40 }, (_, i) => i + 1), 64, 96, 100, 127, 128, 129];

/**
 * hnswlib's distance in float64 (cosine: 1 - cos, dot: 1 - dot, euclidean: squared), from metric.ts's
 * double-precision score, and the scale of its float32 error: the sum of its terms' magnitudes.
 */
function exact(metric: Metric, a: Float32Array, b: Float32Array): { d: number; scale: number } {
  const score = similarityScore(metric, a, b);
  if (metric === 'euclidean') return { d: 1 / score - 1, scale: 1 / score };
  let abs = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    abs += Math.abs((a[i] as number) * (b[i] as number));
    aa += (a[i] as number) ** 2;
    bb += (b[i] as number) ** 2;
  }
  return { d: 2 - 2 * score, scale: 1 + (metric === 'cosine' ? abs / Math.sqrt(aa * bb) : abs) };
}

/**
 * Each query's hits against the float64 distances: the largest error over the sum's scale, of a hit's own
 * distance and against the i-th nearest's (ties leave either slot: the distances still match).
 */
function check(metric: Metric, dim: number): number {
  const a = addon!;
  const data = clustered(dim, N, dim, 4, 0.5);
  const rows = new NativeRowStore(a, dim, metric).rows;
  const ids = new Uint32Array(N);
  rows.writeMany(data, N, ids);
  const graph = new a.Graph(rows, N, 12, 100, 7);
  graph.add(Uint32Array.from({ length: N }, (_, i) => i), ids, N);
  const queries = clustered(dim + 1000, 8, dim, 4, 0.5);
  let worst = 0;
  for (let q = 0; q < 8; q++) {
    const query = row(queries, q, dim);
    const slots = new Uint32Array(K);
    const dist = new Float32Array(K);
    expect(graph.search(query, K, N + 10, undefined, slots, dist)).toBe(K);
    const truth = Array.from({ length: N }, (_, s) => exact(metric, query, row(data, s, dim))).sort((x, y) => x.d - y.d);
    for (let i = 0; i < K; i++) {
      const { d, scale } = exact(metric, query, row(data, slots[i] as number, dim));
      worst = Math.max(worst, Math.abs((dist[i] as number) - d) / scale, Math.abs((dist[i] as number) - (truth[i] as { d: number }).d) / scale);
    }
  }
  graph.dispose();
  return worst;
}

describe.skipIf(addon === null)('the addon float32 distance kernels', () => {
  afterEach(() => {
    delete process.env.VECTORDB_NO_SIMD;
  });

  for (const simd of ['chosen for this CPU', "hnswlib's (VECTORDB_NO_SIMD=1)"]) {
    it.each(METRICS)(`%s, kernels ${simd}: distances within float32 rounding of float64 at every remainder`, (metric) => {
      if (simd !== 'chosen for this CPU') process.env.VECTORDB_NO_SIMD = '1';
      for (const dim of DIMS) {
        // float32 sums of up to 129 products: a few ulps (6e-8 each) of the terms' magnitudes, never a lost term.
        expect(check(metric, dim), `dim ${dim}`).toBeLessThan(2e-6);
      }
    });
  }
});
