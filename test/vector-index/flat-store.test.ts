/**
 * FlatVectorStore: row bookkeeping and growth (rows reused under churn), exact search against a naive
 * scan (all labels and candidate lists), and argument errors. Tests src/vector-index/flat-store.ts only.
 */
import { describe, expect, it } from 'vitest';
import { VectorDbError } from '../../src/errors/vectordb-error.js';
import { FlatVectorStore } from '../../src/vector-index/flat-store.js';
import { METRICS } from '../../src/vector-index/metric.js';
import { clustered, naiveTopK, row } from './data.js';

describe('FlatVectorStore', () => {
  it('sets, replaces, reads, deletes and grows by row', () => {
    const s = new FlatVectorStore({ dimension: 3, metric: 'euclidean', capacity: 2 });
    s.set(0, [1, 2, 3]);
    s.set(5, new Float32Array([4, 5, 6]));
    expect(s.size).toBe(2);
    expect(s.capacity).toBeGreaterThanOrEqual(2);
    expect(s.rowsUsed).toBe(2); // a row per label stored, not per label number
    expect(s.has(5)).toBe(true);
    expect(s.has(4)).toBe(false);
    expect(Array.from(s.get(5) ?? [])).toEqual([4, 5, 6]);
    s.set(5, [7, 8, 9]);
    expect(s.size).toBe(2);
    expect(Array.from(s.get(5) ?? [])).toEqual([7, 8, 9]);
    const into = new Float32Array(7);
    expect(s.copyInto(5, into, 2)).toBe(true);
    expect(s.copyInto(4, into, 0)).toBe(false);
    expect(Array.from(into)).toEqual([0, 0, 7, 8, 9, 0, 0]);
    expect(s.delete(5)).toBe(true);
    expect(s.delete(5)).toBe(false);
    expect(s.get(5)).toBeUndefined();
    expect([...s.labels()]).toEqual([0]);
    expect(s.size).toBe(1);
  });

  it('setRows stores runs and scattered labels as set() would, and stores nothing when a row is bad', () => {
    const dim = 4;
    const labels = [0, 1, 2, 7, 8, 20];
    const data = clustered(3, labels.length, dim, 2);
    const bulk = new FlatVectorStore({ dimension: dim, metric: 'cosine', capacity: 2 });
    const single = new FlatVectorStore({ dimension: dim, metric: 'cosine', capacity: 2 });
    bulk.setRows(Uint32Array.from(labels), data);
    labels.forEach((label, i) => single.set(label, row(data, i, dim)));
    expect([...bulk.labels()]).toEqual(labels);
    expect(bulk.size).toBe(labels.length);
    for (const label of labels) expect(bulk.get(label)).toEqual(single.get(label));
    const query = row(data, 3, dim);
    expect(bulk.exactSearch(query, 6)).toEqual(single.exactSearch(query, 6));

    const bad = Float32Array.from([1, 0, 0, 0, 0, Number.NaN, 0, 0]);
    expect(() => bulk.setRows([30, 31], bad)).toThrow(VectorDbError);
    expect(bulk.has(30)).toBe(false);
    expect(() => bulk.setRows([41, 40], Float32Array.from([1, 0, 0, 0, 0, 1, 0, 0]))).toThrow(/ascend/);
    expect(bulk.size).toBe(labels.length);
  });

  it.each(METRICS)('exactSearch (%s) equals a naive scan, over all labels and over candidates', (metric) => {
    const dim = 19;
    const n = 600;
    const data = clustered(7, n, dim, 8, 0.3, metric === 'dot_product');
    const labels = Array.from({ length: n }, (_, i) => i * 2 + 1); // sparse labels
    const s = new FlatVectorStore({ dimension: dim, metric });
    labels.forEach((label, i) => s.set(label, row(data, i, dim)));
    const queries = clustered(8, 20, dim, 8, 0.3, metric === 'dot_product');
    for (let q = 0; q < 20; q++) {
      const query = row(queries, q, dim);
      const all = s.exactSearch(query, 10);
      const want = naiveTopK(metric, query, data, dim, labels, 10);
      expect(all.map((r) => r.label)).toEqual(want.map((r) => r.label));
      all.forEach((r, i) => expect(r.score).toBeCloseTo((want[i] as { score: number }).score, 9));

      const allowed = (label: number): boolean => label % 7 === 0;
      const cand = new Set(labels.filter(allowed));
      const some = s.exactSearch(query, 5, cand);
      expect(some.map((r) => r.label)).toEqual(naiveTopK(metric, query, data, dim, labels, 5, allowed).map((r) => r.label));
      // The same candidates as a typed array (a postings set's labels) scan alike.
      expect(s.exactSearch(query, 5, Uint32Array.from(cand))).toEqual(some);
    }
  });

  it('skips absent, repeated and out-of-range candidates, and deleted labels', () => {
    const s = new FlatVectorStore({ dimension: 2, metric: 'cosine' });
    s.set(1, [1, 0]);
    s.set(2, [0.9, 0.1]);
    s.set(3, [0, 1]);
    s.delete(2);
    const got = s.exactSearch([1, 0], 10, [3, 1, 1, 2, 99, -1, 3, 1.5]);
    expect(got.map((r) => r.label)).toEqual([1, 3]);
    expect(s.exactSearch([1, 0], 10, Uint32Array.from([3, 1, 1, 2, 99, 3]))).toEqual(got);
    // Ascending candidates (the postings' sets) take the path without repeat stamps: still no deleted label,
    // and one stored again is back.
    expect(s.exactSearch([1, 0], 10, Uint32Array.from([1, 2, 3, 99]))).toEqual(got);
    expect(s.exactSearch([1, 0], 10, [0, 1, 2, 3, 4]).map((r) => r.label)).toEqual([1, 3]);
    s.set(2, [0.9, 0.1]);
    expect(s.exactSearch([1, 0], 10, Uint32Array.from([1, 2, 3])).map((r) => r.label)).toEqual([1, 2, 3]);
    s.delete(2);
    expect(got[0]?.score).toBeCloseTo(1, 12);
    expect(s.exactSearch([1, 0], 10, [])).toEqual([]);
    expect(s.exactSearch([1, 0], 0)).toEqual([]);
    // Past a growth of the rows (the repeat stamps are made again): repeats are still skipped.
    for (let label = 10; label < 200; label++) s.set(label, [-1, label / 1000]);
    expect(s.exactSearch([1, 0], 10, [199, 3, 1, 199, 1, 3, 150]).map((r) => r.label)).toEqual([1, 3, 199, 150]);
  });

  it('refuses bad vectors and labels with INVALID_ARGUMENT', () => {
    const s = new FlatVectorStore({ dimension: 2, metric: 'cosine' });
    const code = (fn: () => unknown): string | undefined => {
      try {
        fn();
      } catch (e) {
        return e instanceof VectorDbError ? e.code : 'not a VectorDbError';
      }
      return undefined;
    };
    expect(code(() => s.set(0, [0, 0]))).toBe('INVALID_ARGUMENT');
    expect(code(() => s.set(0, [1, 2, 3]))).toBe('INVALID_ARGUMENT');
    expect(code(() => s.set(0, [1, Number.NaN]))).toBe('INVALID_ARGUMENT');
    expect(code(() => s.set(-1, [1, 0]))).toBe('INVALID_ARGUMENT');
    expect(code(() => s.set(1.5, [1, 0]))).toBe('INVALID_ARGUMENT');
    expect(code(() => s.exactSearch([0, 0], 3))).toBe('INVALID_ARGUMENT');
    expect(code(() => new FlatVectorStore({ dimension: 0, metric: 'cosine' }))).toBe('INVALID_ARGUMENT');
    // A label far past the others takes one row like any other (labels map to rows).
    const far = new FlatVectorStore({ dimension: 768, metric: 'euclidean' });
    far.set(4_000_000_000, new Float32Array(768).fill(1));
    far.set(3, new Float32Array(768));
    expect(far.rowsUsed).toBe(2);
    expect(far.exactSearch(new Float32Array(768).fill(1), 2).map((h) => h.label)).toEqual([4_000_000_000, 3]);
    expect([...far.labels()]).toEqual([3, 4_000_000_000]);
  });

  it.each(METRICS)('%s: churn (every vector replaced under a new label, 6 times) reuses rows and stays exact', (metric) => {
    const dim = 16;
    const n = 300;
    const s = new FlatVectorStore({ dimension: dim, metric, capacity: 16 });
    let data = clustered(21, n, dim, 4);
    let labels = Array.from({ length: n }, (_, i) => i);
    labels.forEach((label, i) => s.set(label, row(data, i, dim)));
    let next = n;
    for (let round = 1; round <= 6; round++) {
      data = clustered(21 + round, n, dim, 4);
      // A few rows copy another's vector: equal scores must still rank by label, whichever rows hold them.
      for (let i = 0; i < n; i += 17) data.copyWithin(i * dim, ((i + 5) % n) * dim, ((i + 5) % n) * dim + dim);
      // Replaced in a shuffled order, so that reused rows no longer follow the labels' order.
      const order = labels.map((_, i) => (i * 7919) % n);
      const fresh = labels.slice();
      for (const i of order) {
        expect(s.delete(labels[i] as number)).toBe(true);
        fresh[i] = next++;
        s.set(fresh[i] as number, row(data, i, dim));
      }
      labels = fresh;
      expect(s.size).toBe(n);
      expect(s.rowsUsed).toBeLessThanOrEqual(n);
      const query = row(clustered(99 + round, 1, dim, 1), 0, dim);
      const want = naiveTopK(metric, query, data, dim, labels, 12);
      expect(s.exactSearch(query, 12).map((h) => h.label)).toEqual(want.map((h) => h.label));
      const allowed = (label: number): boolean => label % 3 !== 0;
      const cand = labels.filter(allowed).sort((a, b) => a - b);
      const some = naiveTopK(metric, query, data, dim, labels, 7, allowed).map((h) => h.label);
      expect(s.exactSearch(query, 7, Uint32Array.from(cand)).map((h) => h.label)).toEqual(some);
      expect(s.exactSearch(query, 7, cand.slice().reverse()).map((h) => h.label)).toEqual(some);
      expect(Array.from(s.get(labels[5] as number) ?? [])).toEqual(Array.from(row(data, 5, dim)));
    }
    expect([...s.labels()]).toEqual(labels.slice().sort((a, b) => a - b));
    // setRows over a mix of new labels and freed rows stores as set() does.
    const freed = labels.slice(0, 50);
    for (const label of freed) s.delete(label);
    const bulk = Array.from({ length: 60 }, (_, i) => next + i);
    const values = clustered(5, 60, dim, 2);
    s.setRows(Uint32Array.from(bulk), values);
    expect(s.rowsUsed).toBeLessThanOrEqual(n + 10);
    bulk.forEach((label, i) => expect(Array.from(s.get(label) ?? [])).toEqual(Array.from(row(values, i, dim))));
  });
});
