/**
 * Kernels and scores against naive references: every metric, odd dimensions, offsets, ties and NaN.
 * Tests src/vector-index/kernels.ts and metric.ts only.
 */
import { describe, expect, it } from 'vitest';
import { cosine, dot, dotRows, dotRows8, l2sq, selectTopK, squaredNorm, topK } from '../../src/vector-index/kernels.js';
import { METRICS, dataApiSimilarity, float32Similarity, float32SquaredNorm, scoreFromHnswDistance, shortestFloat32, similarityScore } from '../../src/vector-index/metric.js';
import { naiveTopK, rng } from './data.js';

const DIMS = [1, 2, 3, 4, 5, 7, 8, 9, 13, 31, 64, 127, 768];

function randomArray(rand: () => number, n: number): Float32Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = rand() * 2 - 1;
  return a;
}

const naiveDot = (a: ArrayLike<number>, b: ArrayLike<number>, off: number, dim: number): number => {
  let s = 0;
  for (let i = 0; i < dim; i++) s += (a[i] as number) * (b[off + i] as number);
  return s;
};
const naiveL2 = (a: ArrayLike<number>, b: ArrayLike<number>, off: number, dim: number): number => {
  let s = 0;
  for (let i = 0; i < dim; i++) s += ((a[i] as number) - (b[off + i] as number)) ** 2;
  return s;
};

describe('distance kernels', () => {
  it.each(DIMS)('dot, l2sq, squaredNorm and cosine match a naive loop at dim %i, at any offset', (dim) => {
    const rand = rng(dim);
    const a = randomArray(rand, dim);
    const store = randomArray(rand, dim * 5 + 3);
    for (const off of [0, 3, dim, 2 * dim + 3]) {
      const tol = 1e-12 * dim;
      expect(dot(a, store, off, dim)).toBeCloseTo(naiveDot(a, store, off, dim), 10);
      expect(Math.abs(dot(Float64Array.from(a), store, off, dim) - naiveDot(a, store, off, dim))).toBeLessThan(tol + 1e-12);
      expect(Math.abs(l2sq(a, store, off, dim) - naiveL2(a, store, off, dim))).toBeLessThan(tol + 1e-12);
      expect(Math.abs(squaredNorm(store, off, dim) - naiveDot(store.subarray(off), store, off, dim))).toBeLessThan(tol + 1e-12);
      const na = Math.sqrt(naiveDot(a, a, 0, dim));
      const nb = Math.sqrt(squaredNorm(store, off, dim));
      expect(cosine(a, na, store, off, nb, dim)).toBeCloseTo(naiveDot(a, store, off, dim) / (na * nb), 10);
    }
  });

  it.each([1, 5, 8, 33])('dotRows8 and dotRows match dot at dim %i for any row order and count', (dim) => {
    const rand = rng(100 + dim);
    const q = Float64Array.from(randomArray(rand, dim));
    const store = randomArray(rand, dim * 11);
    const out8 = new Float64Array(10);
    const order = [3, 0, 10, 5, 5, 1, 9, 2];
    dotRows8(q, store, ...(order.map((r) => r * dim) as [number, number, number, number, number, number, number, number]), dim, out8, 2);
    expect(out8[0]).toBe(0);
    order.forEach((r, i) => expect(out8[2 + i]).toBeCloseTo(naiveDot(q, store, r * dim, dim), 10));
    for (const count of [0, 1, 3, 7, 8, 9, 17, 22]) {
      const rows = Uint32Array.from({ length: count }, (_, i) => (i * 7) % 11);
      const out = new Float64Array(count);
      dotRows(q, store, dim, rows, count, out);
      for (let i = 0; i < count; i++) expect(out[i]).toBeCloseTo(naiveDot(q, store, (rows[i] as number) * dim, dim), 10);
      // Same row, same bits, in an eight-row pass or among the leftovers: equal vectors tie exactly.
      for (let i = 0; i < count; i++) expect(out[i]).toBe(out[rows.indexOf(rows[i] as number)]);
    }
  });
});

describe('topK', () => {
  it.each(METRICS.flatMap((m) => [3, 17, 768].map((d) => [m, d] as const)))('%s at dim %i equals a naive sort', (metric, dim) => {
    const rand = rng(dim * 7 + metric.length);
    const n = 257;
    const store = randomArray(rand, n * dim);
    const sq = new Float64Array(n);
    for (let r = 0; r < n; r++) sq[r] = squaredNorm(store, r * dim, dim);
    const query = randomArray(rand, dim);
    const candidates = Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 !== 1);
    const rows = Uint32Array.from(candidates);
    for (const k of [1, 10, 500]) {
      const got = topK(metric, query, store, sq, dim, rows, rows.length, k);
      const want = naiveTopK(
        metric,
        query,
        store,
        dim,
        Array.from({ length: n }, (_, i) => i),
        k,
        (label) => label % 3 !== 1,
      );
      expect(got.map((r) => r.row)).toEqual(want.map((r) => r.label));
      got.forEach((r, i) => expect(r.score).toBeCloseTo((want[i] as { score: number }).score, 12));
    }
  });

  it('selectTopK over precomputed dot products equals topK', () => {
    const dim = 13;
    const rand = rng(77);
    const n = 90;
    const store = randomArray(rand, n * dim);
    const sq = new Float64Array(n);
    for (let r = 0; r < n; r++) sq[r] = squaredNorm(store, r * dim, dim);
    const q = Float64Array.from(randomArray(rand, dim));
    const rows = Uint32Array.from({ length: 40 }, (_, i) => (i * 7) % n);
    const dots = new Float64Array(rows.length);
    dotRows(q, store, dim, rows, rows.length, dots);
    for (const metric of METRICS) {
      expect(selectTopK(metric, squaredNorm(q, 0, dim), dots, sq, rows, rows.length, 5)).toEqual(
        topK(metric, q, store, sq, dim, rows, rows.length, 5),
      );
    }
  });

  it('breaks ties by the smaller row, skips NaN scores and handles k <= 0', () => {
    const dim = 2;
    const store = new Float32Array([1, 0, 1, 0, 0, 0, 1, 0, 0, 1]);
    const sq = new Float64Array([1, 1, 0, 1, 1]);
    const rows = Uint32Array.from([3, 1, 2, 0, 4]);
    const got = topK('cosine', new Float32Array([1, 0]), store, sq, dim, rows, rows.length, 10);
    expect(got.map((r) => r.row)).toEqual([0, 1, 3, 4]); // row 2 is a zero vector: NaN, left out
    expect(got[3]?.score).toBeCloseTo(0.5, 12);
    expect(topK('cosine', new Float32Array([1, 0]), store, sq, dim, rows, rows.length, 0)).toEqual([]);
    expect(topK('euclidean', new Float32Array([1, 0]), store, sq, dim, rows, 2, 5).map((r) => r.row)).toEqual([1, 3]);
  });
});

describe('similarity scores', () => {
  it('follow the Data API formulas', () => {
    const a = [1, 0, 0];
    const b = [0, 1, 0];
    expect(similarityScore('cosine', a, a)).toBeCloseTo(1, 12);
    expect(similarityScore('cosine', a, b)).toBeCloseTo(0.5, 12);
    expect(similarityScore('cosine', a, [-2, 0, 0])).toBeCloseTo(0, 12);
    expect(similarityScore('dot_product', [0.6, 0.8, 0], [0.8, 0.6, 0])).toBeCloseTo((1 + 0.96) / 2, 12);
    expect(similarityScore('euclidean', a, b)).toBeCloseTo(1 / 3, 12);
    expect(similarityScore('euclidean', a, a)).toBe(1);
    expect(Number.isNaN(similarityScore('cosine', a, [0, 0, 0]))).toBe(true);
    expect(() => similarityScore('cosine', a, [1, 2])).toThrow(RangeError);
  });

  it('convert hnswlib distances (1 - dot for cosine and ip, squared L2 for l2)', () => {
    const a = [0.6, 0.8];
    const b = [1, 0];
    expect(scoreFromHnswDistance('cosine', 1 - 0.6)).toBeCloseTo(similarityScore('cosine', a, b), 12);
    expect(scoreFromHnswDistance('dot_product', 1 - 0.6)).toBeCloseTo(similarityScore('dot_product', a, b), 12);
    expect(scoreFromHnswDistance('euclidean', 0.16 + 0.64)).toBeCloseTo(similarityScore('euclidean', a, b), 12);
  });
});

describe('Data API scores', () => {
  it('float32Similarity at an offset is the float32 that dataApiSimilarity names, for every metric', () => {
    const rand = rng(77);
    for (const metric of METRICS) {
      for (const dim of [1, 5, 128]) {
        const a = randomArray(rand, dim);
        const rows = randomArray(rand, dim * 3);
        const score = float32Similarity(metric, a, rows, dim * 2);
        expect(float32Similarity(metric, a, rows, dim * 2, float32SquaredNorm(a))).toBe(score);
        expect(Math.fround(score)).toBe(score);
        expect(dataApiSimilarity(metric, a, rows.subarray(dim * 2))).toBe(shortestFloat32(score));
      }
    }
  });

  it('shortestFloat32 is the shortest decimal that reads back as the same float32', () => {
    const rand = rng(78);
    const counting = (value: number): number => {
      for (let digits = 1; digits < 9; digits++) {
        const candidate = Number(value.toPrecision(digits));
        if (Math.fround(candidate) === value) return candidate;
      }
      return Number(value.toPrecision(9));
    };
    for (let i = 0; i < 5000; i++) {
      const value = Math.fround((rand() - 0.5) * 10 ** Math.floor(rand() * 12 - 6));
      expect(shortestFloat32(value)).toBe(counting(value));
    }
    expect([0.5, 1, 0.1, 0].map((v) => shortestFloat32(Math.fround(v)))).toEqual([0.5, 1, 0.1, 0]);
  });

  it('shortestFloat32 without toPrecision (1e-4 <= |value| < 10) gives the number toPrecision gives: scores, components, the edges', () => {
    const counting = (value: number): number => {
      for (let digits = 1; digits < 9; digits++) {
        const candidate = Number(value.toPrecision(digits));
        if (Math.fround(candidate) === value) return candidate;
      }
      return Number(value.toPrecision(9));
    };
    const rand = rng(79);
    const values: number[] = [];
    for (let i = 0; i < 20000; i++) values.push(Math.fround(rand()), Math.fround(-rand()), Math.fround(rand() * 10 ** Math.floor(rand() * 6 - 4)));
    // Each side of the bounds and of the powers of ten that set the decimal exponent, and values that round up to them.
    const bits = new Uint32Array(1);
    const float = new Float32Array(bits.buffer);
    for (const edge of [1e-4, 1e-3, 0.01, 0.1, 1, 10, 0.5, 0.9999999, 9.999999]) {
      float[0] = edge;
      for (let d = -3; d <= 3; d++) {
        const around = new Uint32Array([bits[0]! + d]);
        const value = new Float32Array(around.buffer)[0]!;
        values.push(value, -value);
      }
    }
    for (const value of values) expect(shortestFloat32(value)).toBe(counting(value));
    // Doubles that are not float32s come back unchanged, as before.
    for (const value of [0.1, 1 / 3, -2.000000000001]) expect(shortestFloat32(value)).toBe(value);
  });
});
